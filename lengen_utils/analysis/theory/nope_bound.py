"""Cho et al., Section 5.2, Proposition 5.2: the best exact match of a 1-layer NoPE decoder, counted exactly.

A 1-layer decoder without positional encoding predicts the next token as a function of the *multiset*
of the tokens so far and of the last token. For the query ``$a+b=`` the last token is always ``=``,
so the first answer token depends only on the multiset of the query's digits; the second is computed
from the query plus the first answer token, i.e. again from (multiset of the query, first answer
token), which is itself a function of that multiset; by induction the whole greedy response is a
function of the multiset of the query's digits. Among all queries sharing one multiset the model can
therefore be right on at most the largest group that shares one sum, and::

    max EM = sum over digit multisets M of max_s #{(a, b) in class M : a + b = s} / #queries.

Which operand distribution reproduces the paper (6.2% / 1% / 0.13% for m = 3 / 4 / 5): both operands
uniform over the numbers with *exactly* m digits (leading digit 1-9; for m = 1 the digits 0-9, as in
:func:`lengen_utils.core.problems.random_number_with_digits`), all ``(9 * 10**(m-1))**2`` ordered pairs
equally likely. This gives exactly 50150/810000 = 6.19% (m = 3), 765139/81000000 = 0.945% (m = 4)
and 10033314/8100000000 = 0.124% (m = 5): the first two match the printed 6.2% and 1%; the m = 5 value
rounds to 0.12%, slightly below the printed 0.13% (we checked the count with a second chunking; the
paper's code is not public, so the 0.006-point gap is unexplained). Operands uniform on
``0..10**m-1`` and zero-padded to m digits give 5.32%, 0.805%, 0.105% instead, which does not match
the 6.2% printed for m = 3. Counting unordered pairs {a, b} instead of ordered ones changes almost
nothing (6.187%, 0.944% for m = 3, 4); averaging max/size over classes instead of over queries gives
11.2% for m = 3, no match. See :func:`_nope_count` for the counting algorithm.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Literal

import numpy as np

__all__ = [
    "OperandDistribution", "PAPER_NOPE_MAX_EM", "NopeBound", "MAX_NOPE_DIGITS", "nope_max_exact_match_bound",
    "nope_max_exact_match", "nope_max_exact_match_table", "nope_max_exact_match_brute_force",
]

OperandDistribution = Literal["exact", "padded"]

PAPER_NOPE_MAX_EM = {3: 0.062, 4: 0.01, 5: 0.0013}
"""The values printed in Cho et al., Section 5.2 (6.2%, 1%, 0.13%)."""


@dataclass(frozen=True)
class NopeBound:
    """The count behind :func:`nope_max_exact_match`.

    ``n_queries``: ordered operand pairs; ``n_classes``: distinct digit multisets of the query;
    ``n_best``: sum over classes of the size of the largest same-sum group (the most queries a NoPE
    model can get right); ``exact``: ``n_best / n_queries`` as a fraction.
    """

    m: int
    operands: str
    n_queries: int
    n_classes: int
    n_best: int
    seconds: float = field(default=0.0, compare=False)

    @property
    def exact(self) -> Fraction:
        return Fraction(self.n_best, self.n_queries)

    @property
    def em(self) -> float:
        return self.n_best / self.n_queries


# (n_best, n_queries, n_classes). The m = 5 entries were computed once with
# nope_max_exact_match_bound(5, operands, use_cache=False): 49 s ('exact') and 62 s ('padded') on one
# CPU core, and the 'exact' count was checked with a second chunking of the same enumeration. Smaller m
# are recomputed (m = 4 in about half a second) and then cached for the session.
_CACHE: dict[tuple[int, str], tuple[int, int, int]] = {
    (5, "exact"): (10_033_314, 8_100_000_000, 92_368),
    (5, "padded"): (10_516_554, 10_000_000_000, 92_378),
}
MAX_NOPE_DIGITS = 5


def _column_options(position: int, m: int, operands: str):
    """Unordered digit pairs ``{x, y}`` for one column: code, column sum * 10^position, multiplicity."""
    base = 2 * m + 1  # a digit occurs at most 2m times, so counts fit one base-(2m+1) digit each
    low = 1 if (operands == "exact" and position == m - 1 and m > 1) else 0
    xs, ys = np.triu_indices(10 - low)
    xs, ys = xs + low, ys + low
    code = base**xs + base**ys
    col_sum = (xs + ys) * 10**position
    weight = np.where(xs == ys, 1, 2)
    return code.astype(np.int64), col_sum.astype(np.int64), weight.astype(np.int64)


def _outer_combine(columns):
    code = np.zeros(1, np.int64)
    total = np.zeros(1, np.int64)
    weight = np.ones(1, np.int64)
    for c, t, w in columns:
        code = (code[:, None] + c[None, :]).ravel()
        total = (total[:, None] + t[None, :]).ravel()
        weight = (weight[:, None] * w[None, :]).ravel()
    return code, total, weight


def _segment_starts(sorted_keys: np.ndarray) -> np.ndarray:
    return np.flatnonzero(np.r_[True, sorted_keys[1:] != sorted_keys[:-1]])


def _nope_count(m: int, operands: str) -> tuple[int, int, int]:
    """Exact ``(n_best, n_queries, n_classes)`` by enumerating columns instead of operand pairs.

    An ordered pair (a, b) is a sequence of m columns (a_i, b_i). The digit multiset of the query is
    the sum over columns of the multisets {a_i, b_i}, encoded additively as ``sum_digit count *
    (2m+1)^digit``; the sum is ``a + b = sum_i (a_i + b_i) 10^i``. Both depend on each column only
    through the unordered pair {a_i, b_i}, so we enumerate unordered pairs per column (55 choices, 45
    for a leading column without 0) with multiplicity 2 (or 1 when a_i = b_i): 55^m combinations
    instead of 100^m pairs. The combinations are grouped by (multiset, sum), the counts summed, and
    the largest count per multiset kept. To bound memory, the work is split by ``s mod 10^L`` (which
    only the lowest L columns decide), so every (multiset, sum) group lies inside one chunk.
    """
    columns = [_column_options(i, m, operands) for i in range(m)]
    n_low = max(0, m - 3)
    low_code, low_sum, low_w = _outer_combine(columns[:n_low])
    high_code, high_sum, high_w = _outer_combine(columns[n_low:])
    residue = low_sum % 10**n_low
    s_range = 2 * 10**m  # a + b < 2 * 10^m
    best_codes, best_counts = [], []
    n_queries = 0
    for r in np.unique(residue):
        pick = residue == r
        code = (low_code[pick][:, None] + high_code[None, :]).ravel()
        key = code * s_range + (low_sum[pick][:, None] + high_sum[None, :]).ravel()
        weight = (low_w[pick][:, None] * high_w[None, :]).ravel()
        del code
        order = np.argsort(key)
        key, weight = key[order], weight[order]
        del order
        n_queries += int(weight.sum())
        starts = _segment_starts(key)
        counts = np.add.reduceat(weight, starts)  # queries per (multiset, sum)
        classes = key[starts] // s_range
        del key, weight
        cstarts = _segment_starts(classes)
        best_codes.append(classes[cstarts])
        best_counts.append(np.maximum.reduceat(counts, cstarts))
    codes = np.concatenate(best_codes)
    counts = np.concatenate(best_counts)
    order = np.argsort(codes, kind="stable")
    codes, counts = codes[order], counts[order]
    starts = _segment_starts(codes)
    n_best = int(np.maximum.reduceat(counts, starts).sum())
    return n_best, n_queries, len(starts)


def _n_queries(m: int, operands: str) -> int:
    if operands == "padded":
        return 10 ** (2 * m)
    per_operand = 10 if m == 1 else 9 * 10 ** (m - 1)
    return per_operand**2


def nope_max_exact_match_bound(m: int, operands: OperandDistribution = "exact", use_cache: bool = True) -> NopeBound:
    """Exact best exact-match count of any 1-layer NoPE decoder on m-digit addition (Cho Prop. 5.2).

    ``operands='exact'`` (reproduces the paper): a and b uniform over the m-digit numbers;
    ``'padded'``: uniform over ``0..10**m - 1``, zero-padded to m digits. Runtime on one CPU core:
    m <= 3 in milliseconds, m = 4 about half a second, m = 5 about a minute and under 1 GB of memory
    (the stored m = 5 counts are used unless ``use_cache=False``).
    """
    if isinstance(m, bool) or not isinstance(m, (int, np.integer)) or m < 1:
        raise ValueError(f"m must be a positive number of digits, got {m!r}")
    if operands not in ("exact", "padded"):
        raise ValueError(f"operands must be 'exact' or 'padded', got {operands!r}")
    m = int(m)
    if m > MAX_NOPE_DIGITS:
        raise ValueError(f"m={m} would take far too long (55^m column combinations); m <= {MAX_NOPE_DIGITS} is supported")
    start = time.perf_counter()
    key = (m, operands)
    if use_cache and key in _CACHE:
        n_best, n_queries, n_classes = _CACHE[key]
    else:
        n_best, n_queries, n_classes = _nope_count(m, operands)
        if n_queries != _n_queries(m, operands):  # every ordered pair must be counted once
            raise AssertionError(f"enumerated {n_queries} queries, expected {_n_queries(m, operands)}")
        if m <= 4:
            _CACHE[key] = (n_best, n_queries, n_classes)
    return NopeBound(m, operands, n_queries, n_classes, n_best, time.perf_counter() - start)


def nope_max_exact_match(m: int, operands: OperandDistribution = "exact") -> float:
    """The largest exact-match accuracy a 1-layer NoPE decoder can reach on m-digit addition."""
    return nope_max_exact_match_bound(m, operands).em


def nope_max_exact_match_table(ms=range(1, 6), operands: OperandDistribution = "exact") -> dict[int, float]:
    """``{m: max EM}`` for several lengths (m = 5 from the cache)."""
    return {int(m): nope_max_exact_match(int(m), operands) for m in ms}


def nope_max_exact_match_brute_force(m: int, operands: OperandDistribution = "exact") -> Fraction:
    """Plain-Python reference for small m: group the queries ``$a+b=`` by their sorted tokens."""
    lo = 10 ** (m - 1) if (operands == "exact" and m > 1) else 0
    groups: dict[str, dict[int, int]] = {}
    n = 0
    for a in range(lo, 10**m):
        for b in range(lo, 10**m):
            query = f"${a:0{m}d}+{b:0{m}d}="
            by_sum = groups.setdefault("".join(sorted(query)), {})
            by_sum[a + b] = by_sum.get(a + b, 0) + 1
            n += 1
    return Fraction(sum(max(c.values()) for c in groups.values()), n)

"""Complexity of arithmetic samples: cascades of carries (addition) and carry levels (multiplication).

Sabbaghi et al., Section 4, define the *complexity* of a sample as its maximum dependency length: how
many positions must be read to compute one output digit. For addition the dependency on earlier
positions comes from carries, and the paper quantifies it by the **cascade** of carries: a position
whose digit sum is >= 10 *generates* a carry regardless of everything below it, a position whose digit
sum is <= 8 *kills* any incoming carry, and a position whose digit sum is exactly 9 *propagates* the
carry it receives. "This is the number of consecutive indices which sum to 9 that are triggered by a
carry, leading to a cascade effect." (Section 4, C2). Appendix C.4 (Figures 13 and 14) gives the
distribution of this complexity for uniformly random sums and, for a single-digit multiplier, of the
number of carry levels of the parallel multiplication algorithm (Figure 3a).

Vocabulary used below, for a digit position ``i`` (0 = least significant) with digit sum
``s_i = a_i + b_i``:

* generate (G): ``s_i >= 10``; propagate (P): ``s_i == 9``; kill (K): ``s_i <= 8``.
* a *cascade* is a generating position followed (towards the more significant side) by a maximal run of
  ``k >= 0`` propagating positions; its *length* is ``k + 1`` (see :func:`cascade_length`).

Contents:

* :func:`cascade_length`, :func:`longest_carry_run`, :func:`carry_propagation_levels` for one sample;
* :func:`cascade_length_distribution` (exact dynamic programming over digit positions),
  :func:`brute_force_cascade_distribution`, :func:`monte_carlo_cascade_distribution`;
* :func:`sample_by_cascade_length`, :func:`sample_uniform_over_complexity`,
  :func:`sample_mixed_complexity`: the training distributions of Section 4 (C3), sampled exactly;
* :func:`multiplication_levels`, :func:`multiplication_levels_distribution` (exact dynamic programming)
  and :func:`brute_force_multiplication_levels_distribution` for the single-digit multiplier scenario;
* evaluation by complexity (Figure 8): :func:`sample_by_carry_run`, :func:`cascade_test_sets`,
  :func:`carry_run_test_sets`, :func:`exact_match_per_problem`, :func:`exact_match_by_complexity`,
  :func:`evaluate_test_sets`, :func:`evaluate_by_cascade_length`, :func:`evaluate_by_carry_run`
  (results as :class:`GroupResult`).

The samplers of C3 are also available as ``TaskConfig(sampler='uniform_complexity')`` and
``'mixed_complexity'`` (:mod:`lengen_utils.tasks`).
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Iterable, Sequence

import numpy as np

from lengen_utils.problems import Problem, ProblemError, num_digits, random_number_below, sample_uniform

__all__ = [
    "digit_sums",
    "carry_propagation_levels",
    "cascade_length",
    "longest_carry_run",
    "cascade_length_distribution",
    "brute_force_cascade_distribution",
    "monte_carlo_cascade_distribution",
    "sample_by_cascade_length",
    "sample_uniform_over_complexity",
    "sample_mixed_complexity",
    "multiplication_levels",
    "multiplication_levels_distribution",
    "brute_force_multiplication_levels_distribution",
    "sample_by_carry_run",
    "cascade_test_sets",
    "carry_run_test_sets",
    "exact_match_per_problem",
    "GroupResult",
    "exact_match_by_complexity",
    "evaluate_test_sets",
    "evaluate_by_cascade_length",
    "evaluate_by_carry_run",
]

# Classes of a digit sum, in the order used by every table below.
GENERATE, PROPAGATE, KILL = 0, 1, 2
_CLASSES = (GENERATE, PROPAGATE, KILL)


def _classify(value: int) -> int:
    """Generate (>= 10), propagate (== 9) or kill (<= 8) for a column value whose carry-out is 0 or 1."""
    return GENERATE if value >= 10 else PROPAGATE if value == 9 else KILL


# The 100 digit pairs (x, y), grouped by the class of x + y: 45 generate, 10 propagate, 45 kill.
_PAIRS_BY_CLASS: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    tuple((x, y) for x in range(10) for y in range(10) if _classify(x + y) == cls) for cls in _CLASSES
)
_PAIR_COUNTS: tuple[int, int, int] = tuple(len(p) for p in _PAIRS_BY_CLASS)  # (45, 10, 45)


def _check_non_negative(value: int, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 0:
        raise ProblemError(f"{name} must be a non-negative integer, got {value!r}")
    return int(value)


def _check_positive(value: int, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
        raise ProblemError(f"{name} must be a positive integer, got {value!r}")
    return int(value)


def _digits(n: int, length: int) -> list[int]:
    """The ``length`` least significant digits of ``n``, least significant first."""
    text = str(n).rjust(length, "0")
    return [int(ch) for ch in reversed(text)]


# ---------------------------------------------------------------------------------------------------
# One sample
# ---------------------------------------------------------------------------------------------------


def digit_sums(a: int, b: int, length: int | None = None) -> list[int]:
    """Column sums ``a_i + b_i`` (least significant first) over ``length`` positions.

    ``length`` defaults to the number of digits of the longer operand; a smaller value is an error.
    """
    a = _check_non_negative(a, "a")
    b = _check_non_negative(b, "b")
    needed = max(num_digits(a), num_digits(b))
    if length is None:
        length = needed
    length = _check_positive(length, "length")
    if length < needed:
        raise ProblemError(f"length={length} is shorter than the operands ({needed} digits)")
    return [x + y for x, y in zip(_digits(a, length), _digits(b, length))]


def carry_propagation_levels(column_values: Sequence[int]) -> int:
    """Number of levels of the parallel carry algorithm (Figures 1 and 3a) on the given columns.

    ``column_values`` holds one non-negative value per position, least significant first (the digit
    sums of an addition, or the digit-wise products of a multiplication). One *level* replaces every
    position's value ``v_i`` by ``v_i mod 10 + floor(v_{i-1} / 10)`` simultaneously (``v_{-1} = 0``),
    the positions above the last one starting at 0. The result is the number of levels applied until
    every position holds a single digit; 0 if all values are already digits.
    """
    values = [_check_non_negative(v, "column value") for v in column_values]
    levels = 0
    while any(v >= 10 for v in values):
        if values[-1] >= 10:
            values.append(0)
        carries = [0] + [v // 10 for v in values[:-1]]
        values = [v % 10 + c for v, c in zip(values, carries)]
        levels += 1
    return levels


def cascade_length(a: int, b: int, length: int | None = None) -> int:
    """Complexity of the sum ``a + b``: the length of its longest cascade of carries (Sabbaghi, Sec. 4).

    Definition implemented. Label each position ``i`` by its digit sum ``s_i = a_i + b_i``: generate
    (``s_i >= 10``), propagate (``s_i == 9``) or kill (``s_i <= 8``). A *cascade* is a generating
    position followed, towards the more significant side, by a maximal run of ``k >= 0`` propagating
    positions; the paper's "consecutive indices which sum to 9 that are triggered by a carry". Its
    length is ``k + 1``: **the triggering (generating) position is counted**. A run of 9-sums that is
    not preceded by a generating position (e.g. at the least significant end, or after a kill) carries
    nothing and is not a cascade. The per-sample complexity is the **maximum** length over all cascades
    of the sum, and 0 when no position generates a carry. A generating position directly above a
    cascade starts a new cascade (its carry-out no longer depends on what lies below).

    Why ``k + 1`` and not ``k``: counting the trigger reproduces Appendix C.4. With operands uniform
    below ``10**5`` it gives P(complexity = 4) = 8.55e-4 (paper: "roughly 8.3e-4") and 5-digit training
    data reaching cascades "of length up to 5"; with 50 digits, P(complexity <= 4) = 0.99793 (paper:
    0.998). Counting only the 9-sums gives 4.5e-5 and 0.99980 instead, and a maximum of 4 at 5 digits.
    It also matches the Figure 1 example, where "carries cascade for three stages, from the first to the
    fourth position" (a generating first position and two 9-sums: length 3, the carry landing at the
    fourth). The remaining 3% gap to 8.3e-4 is consistent with sampling noise (the paper plots
    histograms of "randomly sampled" sums).
    The reading is also the dependency length of the text: the output digit just above a cascade of
    length ``k + 1`` needs the ``k + 1`` positions below it, and it equals the number of levels of the
    parallel addition algorithm of Figure 1 (:func:`carry_propagation_levels` of the digit sums).

    ``length`` (default: digits of the longer operand) is the number of positions; padding with leading
    zeros never changes the value (0 + 0 kills), so it only validates that the operands fit.

    Examples: ``1999 + 1`` has sums (10, 9, 9, 1), cascade 3; ``55 + 55`` has two generating positions
    in a row, cascade 1 (but :func:`longest_carry_run` 2); ``9 + 90`` has 9-sums and no carry, cascade 0.
    """
    best = run = 0
    for s in digit_sums(a, b, length):
        cls = _classify(s)
        run = 1 if cls == GENERATE else (run + 1 if cls == PROPAGATE and run > 0 else 0)
        best = max(best, run)
    return best


def longest_carry_run(a: int, b: int) -> int:
    """Longest run of consecutive positions that emit a carry in ``a + b`` (Sabbaghi C1, Figure 8b).

    Position ``i`` emits a carry when ``a_i + b_i + carry_in >= 10``. Unlike :func:`cascade_length`,
    independent generating positions in a row count here (``55 + 55``: run 2, cascade 1); the paper
    shows this "consecutive carries" measure does not track difficulty. Always >= the cascade length.
    """
    best = run = carry = 0
    for s in digit_sums(a, b):
        carry = 1 if s + carry >= 10 else 0
        run = run + 1 if carry else 0
        best = max(best, run)
    return best


def _cascade_lengths_from_sums(sums: np.ndarray) -> np.ndarray:
    """Vectorised :func:`cascade_length` for an integer array of digit sums, shape (n, positions)."""
    sums = np.asarray(sums)
    run = np.zeros(sums.shape[0], dtype=np.int64)
    best = np.zeros(sums.shape[0], dtype=np.int64)
    for i in range(sums.shape[1]):
        s = sums[:, i]
        run = np.where(s >= 10, 1, np.where((s == 9) & (run > 0), run + 1, 0))
        np.maximum(best, run, out=best)
    return best


# ---------------------------------------------------------------------------------------------------
# Exact distributions by dynamic programming over digit positions
# ---------------------------------------------------------------------------------------------------


def _advance(table: np.ndarray, cls: int) -> np.ndarray:
    """Move the (current cascade length r, maximum so far m) distribution, held on the last two axes,
    through one position of class ``cls``. States keep ``r <= m``; the last row (r = size-1) stays empty."""
    out = np.zeros_like(table)
    if cls == KILL:
        out[..., 0, :] = table.sum(axis=-2)
    elif cls == GENERATE:  # a new cascade of length 1 starts
        by_max = table.sum(axis=-2)
        out[..., 1, 1:] = by_max[..., 1:]
        out[..., 1, 1] += by_max[..., 0]
    else:  # PROPAGATE: a running cascade grows by one; outside a cascade nothing happens
        size = table.shape[-1]
        out[..., 0, :] = table[..., 0, :]
        out[..., 2:, :] = np.triu(table[..., 1:-1, :], k=2)  # rows r = 1..size-2 with r < m keep m
        r = np.arange(1, size - 1)
        out[..., r + 1, r + 1] += table[..., r, r]  # the running cascade is the longest: m grows too
    return out


def _addition_dp(pair_weights: Sequence, length: int, dtype: type) -> np.ndarray:
    """Forward DP for addition: every position is generate / propagate / kill with the given weights,
    independently. Returns the total weight of each maximum cascade length 0..length."""
    w_gen, w_prop, w_kill = pair_weights
    size = length + 2
    table = np.zeros((size, size), dtype=dtype)  # table[r, m]
    table[0, 0] = 1
    r = np.arange(1, size - 1)
    for _ in range(length):
        by_max = table.sum(axis=0)
        new = np.zeros_like(table)
        new[0, :] = w_kill * by_max + w_prop * table[0, :]
        new[1, 1:] = w_gen * by_max[1:]
        new[1, 1] += w_gen * by_max[0]
        new[2:, :] += w_prop * np.triu(table[1:-1, :], k=2)
        new[r + 1, r + 1] += w_prop * table[r, r]
        table = new
    return table.sum(axis=0)[: length + 1]


def _cascade_dp(weights: Sequence[np.ndarray], length: int, exact: bool) -> np.ndarray:
    """Forward DP over ``length`` positions of a Markov chain with hidden state ``c``.

    ``weights[cls][c_prev, c_new]`` is the weight of moving from hidden state ``c_prev`` to ``c_new``
    while the position gets class ``cls``; hidden state 0 is the start and any move into ``c_new > 0``
    sets a flag ``f``. Returns the total weight as an array indexed by ``[f, m]``, ``m`` the maximum cascade length.
    """
    n_hidden = weights[0].shape[0]
    size = length + 2  # r and m range over 0..length; one spare row keeps the shifts in bounds
    dtype = object if exact else np.float64
    state = np.zeros((n_hidden, 2, size, size), dtype=dtype)
    state[0, 0, 0, 0] = 1
    for _ in range(length):
        new = np.zeros_like(state)
        for cls in _CLASSES:
            w = np.asarray(weights[cls], dtype=dtype)
            if not w.any():
                continue
            new += np.tensordot(w.T, _advance(state, cls), axes=1)
        new[1:, 1] += new[1:, 0]
        new[1:, 0] = 0
        state = new
    return state.sum(axis=(0, 2))


def _as_output(values: np.ndarray, total: int, exact: bool) -> np.ndarray:
    if exact:
        return np.array([Fraction(int(v), total) for v in values], dtype=object)
    return np.asarray(values, dtype=np.float64) / (1.0 if total == 1 else float(total))


def cascade_length_distribution(length: int, exact: bool = False) -> np.ndarray:
    """Exact distribution of :func:`cascade_length` for operands uniform on ``[0, 10**length)``.

    Entry ``k`` (``k = 0..length``) is P(maximum cascade length = k). The digit pairs are i.i.d. over
    positions, so each position is generate / propagate / kill with probability 0.45 / 0.10 / 0.45;
    a forward dynamic program over positions tracks (current cascade length, maximum so far).
    Cost O(length**3) arithmetic in O(length) vectorised steps: length 200 takes a few hundredths of
    a second.
    ``exact=True`` counts digit-pair sequences with Python integers and returns ``Fraction`` objects
    (slower; meant for small lengths and tests); the default returns float64 probabilities.
    """
    length = _check_positive(length, "length")
    if exact:
        return _as_output(_addition_dp(_PAIR_COUNTS, length, object), 100**length, exact=True)
    return _addition_dp([count / 100.0 for count in _PAIR_COUNTS], length, np.float64)


def brute_force_cascade_distribution(length: int, exact: bool = False) -> np.ndarray:
    """Distribution of :func:`cascade_length` by enumerating all ``10**(2*length)`` operand pairs.

    For tests (``length <= 3``: a million pairs). Same indexing as :func:`cascade_length_distribution`.
    """
    length = _check_positive(length, "length")
    if length > 3:
        raise ProblemError(f"brute force enumerates 10**(2*length) pairs; length={length} is too large (max 3)")
    numbers = np.arange(10**length)
    digits = np.stack([(numbers // 10**i) % 10 for i in range(length)], axis=1)
    sums = (digits[:, None, :] + digits[None, :, :]).reshape(-1, length)
    counts = np.bincount(_cascade_lengths_from_sums(sums), minlength=length + 1)
    return _as_output(counts, 100**length, exact)


def monte_carlo_cascade_distribution(rng: np.random.Generator, length: int, n: int) -> np.ndarray:
    """Empirical distribution of :func:`cascade_length` over ``n`` sums with operands uniform below
    ``10**length`` (digits drawn i.i.d. uniform); same indexing as :func:`cascade_length_distribution`."""
    length = _check_positive(length, "length")
    n = _check_positive(n, "n")
    sums = rng.integers(0, 10, size=(n, length)) + rng.integers(0, 10, size=(n, length))
    counts = np.bincount(_cascade_lengths_from_sums(sums), minlength=length + 1)
    return counts / n


# ---------------------------------------------------------------------------------------------------
# Sampling by complexity (Section 4, C3)
# ---------------------------------------------------------------------------------------------------


def _next_run(run: int, cls: int) -> int:
    return 1 if cls == GENERATE else (run + 1 if cls == PROPAGATE and run > 0 else 0)


@lru_cache(maxsize=256)
def _completions(max_digits: int, cascade: int) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """Backward counts: ``table[i][2 * r + h]`` is the number of digit-pair assignments of positions
    ``i..max_digits-1`` that end with maximum cascade exactly ``cascade``, entering position ``i`` with
    current cascade length ``r <= cascade`` and ``h`` = whether ``cascade`` was already reached."""
    table: list[tuple[int, ...]] = [tuple(h for _r in range(cascade + 1) for h in (0, 1))]
    for _ in range(max_digits):
        after = table[-1]
        row = []
        for r in range(cascade + 1):
            for h in (0, 1):
                total = 0
                for cls in _CLASSES:
                    nr = _next_run(r, cls)
                    if nr <= cascade:
                        total += _PAIR_COUNTS[cls] * after[2 * nr + (h or nr == cascade)]
                row.append(total)
        table.append(tuple(row))
    return tuple(reversed(table))  # table[i] for i = 0..max_digits


def _check_cascade(max_digits: int, cascade: int) -> tuple[int, int]:
    max_digits = _check_positive(max_digits, "max_digits")
    if isinstance(cascade, bool) or not isinstance(cascade, (int, np.integer)):
        raise ProblemError(f"cascade must be an integer, got {cascade!r}")
    if not 0 <= cascade <= max_digits:
        raise ProblemError(
            f"no sum of operands below 10**{max_digits} has cascade length {cascade}: "
            f"feasible cascade lengths are 0..{max_digits} (a cascade spans at most max_digits positions)"
        )
    return max_digits, int(cascade)


def _sample_one(rng: np.random.Generator, max_digits: int, cascade: int,
                table: tuple[tuple[int, ...], ...]) -> Problem:
    run, reached = 0, cascade == 0
    a = b = 0
    for i in range(max_digits):
        options = []
        for cls in _CLASSES:
            nr = _next_run(run, cls)
            if nr <= cascade:
                nh = reached or nr == cascade
                options.append((_PAIR_COUNTS[cls] * table[i + 1][2 * nr + nh], cls, nr, nh))
        draw = random_number_below(rng, sum(w for w, *_ in options))
        for weight, cls, nr, nh in options:
            if draw < weight:
                break
            draw -= weight
        pairs = _PAIRS_BY_CLASS[cls]
        x, y = pairs[int(rng.integers(len(pairs)))]
        a += x * 10**i
        b += y * 10**i
        run, reached = nr, nh
    return Problem(a, b, "+")


def sample_by_cascade_length(rng: np.random.Generator, max_digits: int, cascade: int, n: int) -> list[Problem]:
    """``n`` sums with operands uniform below ``10**max_digits`` conditioned on complexity == ``cascade``.

    Exact conditional sampling, no rejection: a backward pass counts, with Python integers, the
    completions of every (position, current cascade, target reached) state; a forward pass then draws
    each position's class (generate / propagate / kill) with probability proportional to its pair count
    times the completions, and the digit pair uniformly within the class. Every pair with the
    prescribed :func:`cascade_length` is therefore equally likely. Feasible values are
    ``0..max_digits``; any other raises :class:`ProblemError` (a ``ValueError``).
    """
    max_digits, cascade = _check_cascade(max_digits, cascade)
    n = _check_non_negative(n, "n")
    table = _completions(max_digits, cascade)
    return [_sample_one(rng, max_digits, cascade, table) for _ in range(n)]


def sample_uniform_over_complexity(rng: np.random.Generator, max_digits: int, n: int) -> list[Problem]:
    """Sabbaghi C3 "uniform distribution on the complexity": for each sample, a cascade length uniform
    on the feasible levels ``0..max_digits``, then a sum drawn exactly from that level."""
    max_digits = _check_positive(max_digits, "max_digits")
    n = _check_non_negative(n, "n")
    levels = rng.integers(0, max_digits + 1, size=n)
    return [_sample_one(rng, max_digits, int(c), _completions(max_digits, int(c))) for c in levels]


def sample_mixed_complexity(rng: np.random.Generator, max_digits: int, n: int,
                            p_uniform: float = 0.5) -> list[Problem]:
    """Sabbaghi C3 hybrid: each sample comes with probability ``p_uniform`` from the uniform
    distribution over numbers (:func:`~lengen_utils.problems.sample_uniform`) and otherwise from
    :func:`sample_uniform_over_complexity` (the paper's 50/50 mixture is the default)."""
    if not 0.0 <= p_uniform <= 1.0:
        raise ProblemError(f"p_uniform must be a probability in [0, 1], got {p_uniform!r}")
    max_digits = _check_positive(max_digits, "max_digits")
    n = _check_non_negative(n, "n")
    out: list[Problem] = []
    for from_uniform in rng.random(n) < p_uniform:
        if from_uniform:
            out.extend(sample_uniform(rng, max_digits, 1))
        else:
            out.extend(sample_uniform_over_complexity(rng, max_digits, 1))
    return out


# ---------------------------------------------------------------------------------------------------
# Single-digit multiplier (Appendix C.4, Figure 14)
# ---------------------------------------------------------------------------------------------------


def _check_multiplier_digit(d: int) -> int:
    d = _check_non_negative(d, "multiplier_digit")
    if d > 9:
        raise ProblemError(f"multiplier_digit must be a single digit 0-9, got {d}")
    return d


def multiplication_levels(multiplier_digit: int, multiplicand: int) -> int:
    """Complexity of ``multiplier_digit * multiplicand``: carry levels of the parallel algorithm (Fig. 3a).

    Definition implemented. Level 0 (the digit-wise products) writes ``v_i = d * x_i`` at every position
    of the multiplicand ``x`` (least significant first), with an empty position above. Each following
    level propagates all carries in parallel: ``v_i <- v_i mod 10 + floor(v_{i-1} / 10)``. The result is
    the number of propagation levels until every position holds a single digit; **the product step is
    not counted** (0 when no product reaches 10, e.g. ``1 * x`` or ``2 * 1234``). Appendix C.4 says the
    maximum dependency length "is equal to the total number of levels in Figure 3a. By the last level,
    every position's value will be a single digit."

    This convention reproduces Figure 14 exactly: with the multiplier uniform on 1..9 and a multiplicand
    uniform below ``10**5``, P(levels = 4) = 0.0019 (paper: 1.9e-3); counting the product step as a level
    would give 0.0344 for the same event. With a 20-digit multiplicand, P(levels <= 4) = 0.99840
    (paper: 99.8%).

    Structure (used by :func:`multiplication_levels_distribution`): after the first level every column
    holds ``u_i = (d x_i mod 10) + floor(d x_{i-1} / 10) <= 9 + 8 = 17``, so later carries are 0 or 1
    and the remaining levels are those of an addition whose column sums are ``u``; hence the result is
    ``0`` if no ``d x_i >= 10``, otherwise ``1 +`` the longest cascade of ``u`` (same cascade definition
    as :func:`cascade_length`). Example: ``9 * 119``: products (81, 9, 9), then (1, 17, 9), (1, 7, 10),
    (1, 7, 0, 1): 3 levels.
    """
    d = _check_multiplier_digit(multiplier_digit)
    x = _check_non_negative(multiplicand, "multiplicand")
    return carry_propagation_levels([d * int(ch) for ch in reversed(str(x))])


def _multiplication_weights(d: int, exact: bool) -> list[np.ndarray]:
    """Per-position weights for :func:`_cascade_dp`: hidden state = the level-0 carry ``floor(d x / 10)``
    of the previous digit (0..8); the class is that of ``u = d x mod 10 + previous carry``."""
    weights = [np.zeros((9, 9), dtype=object if exact else np.float64) for _ in _CLASSES]
    for c_prev in range(9):
        for x in range(10):
            cls = _classify(d * x % 10 + c_prev)
            weights[cls][c_prev, d * x // 10] += 1 if exact else 0.1
    return weights


def multiplication_levels_distribution(length: int, multiplier_digits: Iterable[int] = range(1, 10),
                                       exact: bool = False) -> np.ndarray:
    """Exact distribution of :func:`multiplication_levels` (entry ``k`` = P(levels = k), ``k = 0..length``).

    The multiplicand is uniform below ``10**length`` (digits i.i.d.) and the multiplier uniform over
    ``multiplier_digits`` (default 1..9, as in Appendix C.4). Exact dynamic program, not sampling: by the
    structure stated in :func:`multiplication_levels`, the levels are 0 without any level-0 carry and
    1 + the longest cascade of the first-level columns ``u_i`` otherwise. ``u_i`` depends only on
    ``x_i`` and the previous level-0 carry, so a forward DP over positions with state (previous carry
    0..8, any carry yet, current cascade, longest cascade) is exact. (The top column receives at most
    ``floor(81 / 10) = 8`` and never continues a cascade.) ``exact=True`` returns ``Fraction`` objects.
    """
    length = _check_positive(length, "length")
    digits = [_check_multiplier_digit(d) for d in multiplier_digits]
    if not digits:
        raise ProblemError("multiplier_digits is empty")
    dtype = object if exact else np.float64
    levels = np.zeros(length + 2, dtype=dtype)
    for d in digits:
        by_flag_max = _cascade_dp(_multiplication_weights(d, exact), length, exact)
        levels[0] += by_flag_max[0].sum()  # no level-0 carry: nothing to propagate
        levels[1:] += by_flag_max[1][: length + 1]  # otherwise 1 + longest cascade of the first level
    if any(levels[length + 1:]):
        raise AssertionError("levels exceed the multiplicand length")  # impossible: u_0 <= 9 never generates
    if exact:
        return _as_output(levels[: length + 1], len(digits) * 10**length, exact=True)
    return levels[: length + 1] / len(digits)


def brute_force_multiplication_levels_distribution(length: int, multiplier_digits: Iterable[int] = range(1, 10),
                                                   exact: bool = False) -> np.ndarray:
    """Distribution of :func:`multiplication_levels` by running the parallel algorithm on every multiplicand
    below ``10**length`` and every multiplier digit (vectorised; for tests, ``length <= 5``)."""
    length = _check_positive(length, "length")
    if length > 5:
        raise ProblemError(f"brute force enumerates 10**length multiplicands; length={length} is too large (max 5)")
    digits = [_check_multiplier_digit(d) for d in multiplier_digits]
    if not digits:
        raise ProblemError("multiplier_digits is empty")
    numbers = np.arange(10**length, dtype=np.int64)
    columns = np.stack([(numbers // 10**i) % 10 for i in range(length)] + [np.zeros_like(numbers)], axis=1)
    counts = np.zeros(length + 1, dtype=np.int64)
    for d in digits:
        values = d * columns
        levels = np.zeros(len(numbers), dtype=np.int64)
        while (values >= 10).any():
            levels += (values >= 10).any(axis=1)
            carries = values // 10
            values = values % 10
            values[:, 1:] += carries[:, :-1]
        counts += np.bincount(levels, minlength=length + 1)[: length + 1]
    return _as_output(counts, len(digits) * 10**length, exact)


# ---------------------------------------------------------------------------------------------------
# Test sets and exact match grouped by complexity (Section 4, C1 and C2, Figure 8)
# ---------------------------------------------------------------------------------------------------


def _carry_runs_from_sums(sums: np.ndarray) -> np.ndarray:
    """Vectorised :func:`longest_carry_run` for an integer array of digit sums, shape (n, positions)."""
    sums = np.asarray(sums)
    carry = np.zeros(sums.shape[0], dtype=np.int64)
    run = np.zeros(sums.shape[0], dtype=np.int64)
    best = np.zeros(sums.shape[0], dtype=np.int64)
    for i in range(sums.shape[1]):
        carry = (sums[:, i] + carry >= 10).astype(np.int64)
        run = np.where(carry == 1, run + 1, 0)
        np.maximum(best, run, out=best)
    return best


def _from_digits(digits: np.ndarray) -> int:
    """The integer whose digits (least significant first) are ``digits``."""
    return int("".join(str(int(d)) for d in digits[::-1]))


def sample_by_carry_run(rng: np.random.Generator, max_digits: int, run: int, n: int,
                        max_draws: int = 2_000_000) -> list[Problem]:
    """``n`` sums with operands uniform below ``10**max_digits`` conditioned on
    :func:`longest_carry_run` == ``run`` (Sabbaghi C1, "consecutive carries", Figure 8b).

    Rejection sampling: operand pairs are drawn uniformly in vectorised blocks and kept when their
    longest run of consecutive carry-emitting positions equals ``run``, so every qualifying pair is
    equally likely. Raises :class:`ProblemError` when ``run`` is infeasible (``0..max_digits``) or when
    fewer than ``n`` qualifying pairs turn up within ``max_draws`` draws (too rare a level).
    """
    max_digits, run = _check_cascade(max_digits, run)
    n = _check_non_negative(n, "n")
    out: list[Problem] = []
    drawn = 0
    while len(out) < n:
        if drawn >= max_draws:
            raise ProblemError(f"only {len(out)} of {n} sums with a longest carry run of {run} in "
                               f"{drawn} uniform {max_digits}-digit draws; ask for fewer or a more common run")
        block = min(max(4 * n, 4096), max_draws - drawn)
        a = rng.integers(0, 10, size=(block, max_digits))
        b = rng.integers(0, 10, size=(block, max_digits))
        drawn += block
        for i in np.flatnonzero(_carry_runs_from_sums(a + b) == run)[: n - len(out)]:
            out.append(Problem(_from_digits(a[i]), _from_digits(b[i]), "+"))
    return out


def cascade_test_sets(length: int, levels: Iterable[int], n: int, seed: int = 999) -> dict[int, list[Problem]]:
    """Fixed test sets ``{cascade length: n sums}`` with operands uniform below ``10**length``,
    drawn exactly by :func:`sample_by_cascade_length`; each level has its own seeded generator."""
    return {int(c): sample_by_cascade_length(np.random.default_rng([seed, length, int(c), 1]), length, int(c), n)
            for c in levels}


def carry_run_test_sets(length: int, levels: Iterable[int], n: int, seed: int = 999) -> dict[int, list[Problem]]:
    """Fixed test sets ``{longest carry run: n sums}`` (operands uniform below ``10**length``), drawn by
    :func:`sample_by_carry_run`; each level has its own seeded generator."""
    return {int(r): sample_by_carry_run(np.random.default_rng([seed, length, int(r), 2]), length, int(r), n)
            for r in levels}


def exact_match_per_problem(model, task, problems: Sequence[Problem], batch_size: int = 500,
                            greedy: bool = False) -> np.ndarray:
    """Boolean exact match of ``model`` on every problem (teacher-forced by default; for an encoder the
    two are the same computation, for a decoder they agree example by example)."""
    from .evaluate import greedy_predictions, score, teacher_forced_predictions

    problems = list(problems)
    if not problems:
        raise ValueError("exact_match_per_problem needs at least one problem")
    out = []
    for start in range(0, len(problems), batch_size):
        batch = task.batch(problems[start:start + batch_size]).to(model.device)
        preds = greedy_predictions(model, batch) if greedy else teacher_forced_predictions(model, batch)
        out.append(score(batch, preds)[0])
    return np.concatenate(out).astype(bool)


MEASURES = {"cascade": cascade_length, "carry_run": longest_carry_run}
"""The two complexity measures of Section 4: the cascade of carries (C2) and the longest run of
consecutive carries (C1)."""


@dataclass(frozen=True)
class GroupResult:
    """Exact match of one group of test sums that share a complexity level.

    ``mean_cascade`` and ``mean_carry_run`` describe the group under both measures, so a table can
    show that a group selected by one measure differs (or not) under the other."""

    level: int
    n: int
    exact_match: float
    mean_cascade: float
    mean_carry_run: float

    @property
    def stderr(self) -> float:
        """Binomial standard error of ``exact_match``."""
        return float(np.sqrt(self.exact_match * (1 - self.exact_match) / self.n)) if self.n else float("nan")


def _group_result(level: int, correct: np.ndarray, problems: Sequence[Problem]) -> GroupResult:
    return GroupResult(int(level), len(problems), float(np.mean(correct)),
                       float(np.mean([cascade_length(p.a, p.b) for p in problems])),
                       float(np.mean([longest_carry_run(p.a, p.b) for p in problems])))


def exact_match_by_complexity(model, task, problems: Sequence[Problem], measure: str = "cascade",
                              batch_size: int = 500) -> dict[int, GroupResult]:
    """Exact match of ``model`` on ``problems`` grouped by a complexity measure of each sum
    (``'cascade'``: :func:`cascade_length`; ``'carry_run'``: :func:`longest_carry_run`)."""
    if measure not in MEASURES:
        raise ValueError(f"unknown complexity measure {measure!r}; choose one of {sorted(MEASURES)}")
    problems = list(problems)
    correct = exact_match_per_problem(model, task, problems, batch_size)
    levels = np.array([MEASURES[measure](p.a, p.b) for p in problems])
    return {int(c): _group_result(int(c), correct[levels == c], [p for p, l in zip(problems, levels) if l == c])
            for c in np.unique(levels)}


def evaluate_test_sets(model, task, test_sets: dict[int, Sequence[Problem]],
                       batch_size: int = 500) -> dict[int, GroupResult]:
    """Exact match on each group of a ``{level: problems}`` test set (e.g. from :func:`cascade_test_sets`)."""
    return {level: _group_result(level, exact_match_per_problem(model, task, probs, batch_size), probs)
            for level, probs in test_sets.items()}


def evaluate_by_cascade_length(model, task, length: int, levels: Iterable[int], n: int = 500,
                               seed: int = 999) -> dict[int, GroupResult]:
    """Figure 8a: exact match on ``n`` ``length``-digit sums per cascade length in ``levels``."""
    return evaluate_test_sets(model, task, cascade_test_sets(length, levels, n, seed))


def evaluate_by_carry_run(model, task, length: int, levels: Iterable[int], n: int = 500,
                          seed: int = 999) -> dict[int, GroupResult]:
    """Figure 8b: exact match on ``n`` ``length``-digit sums per longest run of consecutive carries."""
    return evaluate_test_sets(model, task, carry_run_test_sets(length, levels, n, seed))

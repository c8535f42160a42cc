"""Notebook 05's coding exercises: Cho et al.'s coupled position IDs, and the sink, our departure for the
final carry.

Both checkers compare the learner's function with the library (``formats.encode`` in Cho's format, numbered by
``PositionScheme("coupled")`` and ``PositionScheme("coupled_sink")``) on edge and random problems and starts,
and name the mistake: a group numbered the wrong way round, an off-by-one start, ``$`` or the operators in the
wrong place, a sink that does not move with the start.
"""
from __future__ import annotations

import random
from typing import Callable

from ...core.formats import encode
from ...core.positions import PositionScheme
from ...core.problems import Problem
from ..common.exercises import attempt, exercise, expect, expect_answer, is_int_list

#: (problem, start) pairs every checker tries first: one digit, a final carry, unequal operands, zero.
EDGE_CASES = ((Problem(7, 8), 1), (Problem(653, 49), 5), (Problem(0, 0), 1), (Problem(99999, 1), 3),
              (Problem(10, 5), 20))


def text(problem: Problem) -> str:
    """The problem in Cho's format, as one string: ``$653+049=2070$``."""
    return "".join(encode(problem, "cho").tokens)


def library_ids(scheme: str, problem: Problem, start: int) -> list[int]:
    """The library's IDs of ``problem`` in Cho's format under ``scheme``, from ``start``."""
    return PositionScheme(scheme).assign(encode(problem, "cho"), start=start)


def _cases(seed: int, n: int = 40) -> list[tuple[Problem, int]]:
    rng = random.Random(seed)
    digits = lambda: rng.randint(1, 12)
    return list(EDGE_CASES) + [(Problem(rng.randrange(10 ** digits()), rng.randrange(10 ** digits())),
                                rng.randint(1, 40)) for _ in range(n)]


def _as_ids(got, tokens: str) -> list[int]:
    """The learner's IDs once they are a list of ints, one per token."""
    got = [int(i) for i in expect_answer(got, is_int_list, "one int per token, as a list", f"for {tokens!r}")]
    expect(len(got) == len(tokens), f"{tokens!r} has {len(tokens)} tokens, so {len(tokens)} IDs; you gave {len(got)}")
    return got


def _digit_mistake(tokens: str, got: list[int], want: list[int], start: int) -> None:
    """Name the classic mistakes on the digits of one problem (compare the digit IDs only)."""
    digits = [i for i, t in enumerate(tokens) if t.isdigit()]
    mine, theirs = [got[i] for i in digits], [want[i] for i in digits]
    shown = f"for {tokens!r} at start {start} the IDs are {want}; you gave {got}"
    for d in (-1, 1):
        expect(mine != [i + d for i in theirs], f"the digits' IDs are off by one ({'+' if d > 0 else ''}{d}): the lowest "
               f"digit ID is the start itself (the final carry's), {shown}")
    top, low = max(theirs), min(theirs)
    expect(mine != [top + low - i for i in theirs], "the group is numbered the wrong way round: IDs grow towards the "
           f"least significant digit, so the units digits hold the top digit ID, {shown}")
    expect(mine == theirs, f"digits of equal significance must share an ID (the operands are zero-padded and the answer "
           f"is reversed), {shown}")


@exercise("Cho's coupled IDs")
def check_coupled_ids(fn: Callable[[str, int], list[int]]) -> int:
    """``fn(tokens, start)``: Cho's coupled IDs of a problem written in Cho's format (``"$653+049=2070$"``)."""
    cases = _cases(5)
    for problem, start in cases:
        tokens = text(problem)
        want = library_ids("coupled", problem, start)
        got = _as_ids(attempt(fn, tokens, start), tokens)
        if got == want:
            continue
        _digit_mistake(tokens, got, want, start)
        shown = f"for {tokens!r} at start {start} the IDs are {want}; you gave {got}"
        ends = (got[0], got[-1])
        expect(ends == (0, 0), f"`$` gets 0 at every start in Cho's scheme, {shown}")
        ops = [got[i] for i, t in enumerate(tokens) if t in "+="]
        expect(ops == [want[i] for i, t in enumerate(tokens) if t in "+="],
               f"`+` and `=` share the ID one past the top digit ID (next to the units digit they follow), {shown}")
        expect(False, shown)
    return len(cases)


@exercise("The sink for the final carry")
def check_sink_ids(fn: Callable[[str, int], list[int]]) -> int:
    """``fn(tokens, start)``: the ``coupled_sink`` IDs: ``$`` gets the start, every other token its coupled ID from
    start + 1, so ``$`` sits one below the lowest digit ID at every start."""
    cases = _cases(6)
    for problem, start in cases:
        tokens = text(problem)
        want = library_ids("coupled_sink", problem, start)
        got = _as_ids(attempt(fn, tokens, start), tokens)
        if got == want:
            continue
        shown = f"for {tokens!r} at start {start} the sink IDs are {want}; you gave {got}"
        expect(got[1:-1] != library_ids("coupled", problem, start)[1:-1], "every token but `$` gets its coupled ID "
               f"counted from start + 1, not from the start (the start itself is the sink's), {shown}")
        expect((got[0], got[-1]) != (0, 0) or start == 0, f"the sink moves with the start: `$` gets the start, not 0 "
               f"(then it sits one below the lowest digit ID in training as in tests), {shown}")
        _digit_mistake(tokens, got, want, start)
        expect(False, shown)
    return len(cases)


__all__ = ["EDGE_CASES", "check_coupled_ids", "check_sink_ids", "library_ids", "text"]


# --- the coupled relative bias: from coupled IDs to the bias added to the scores (a mechanism exercise) ---------

def library_bias(ids: list[int], row: list[float]) -> list[list[float]]:
    """The bias one head adds to its scores, as the library's
    :class:`~lengen_utils.core.model.encodings.RelativeScalarBias` computes it from the IDs ``ids`` and the head's
    scalars ``row`` (``row[r]`` is the scalar of the clipped ID difference ``r - K``, ``K = (len(row) - 1) // 2``)."""
    import torch

    from ...core.model.encodings import RelativeScalarBias

    K = (len(row) - 1) // 2
    bias = RelativeScalarBias.__new__(RelativeScalarBias)      # the module's own forward, on the given scalars
    torch.nn.Module.__init__(bias)
    bias.max_distance, bias.channels, bias.scale, bias.uniform = K, 1, 1.0, None
    bias.bias = torch.nn.Parameter(torch.tensor([row], dtype=torch.float64), requires_grad=False)
    t = torch.tensor([ids])
    return bias(torch.zeros(1, 1, len(ids), 1, dtype=torch.float64), t, t)[0, 0].tolist()


def _bias_cases(seed: int = 11) -> list[tuple[str, list[int], list[float]]]:
    rng = random.Random(seed)
    cases = []
    for problem, start in list(EDGE_CASES[:3]) + [(Problem(rng.randrange(10**6), rng.randrange(10**4)),
                                                   rng.randint(1, 9)) for _ in range(4)]:
        K = rng.choice([1, 2, 3])
        row = [round(rng.uniform(-2, 2), 3) for _ in range(2 * K + 1)]
        cases.append((text(problem), library_ids("coupled", problem, start), row))
    return cases


@exercise("The coupled relative bias")
def check_coupled_bias(fn: Callable[[list[int], list[float]], object]) -> int:
    """``fn(ids, row)``: the matrix (rows: queries, columns: keys) that one head adds to its attention scores:
    ``row[clip(ids[j] - ids[i], -K, K) + K]``, from the coupled IDs ``ids`` of a problem in Cho's format."""
    import numpy as np

    cases = _bias_cases()
    for tokens, ids, row in cases:
        K, n = (len(row) - 1) // 2, len(ids)
        want = np.array(library_bias(ids, row))
        where = f"for {tokens!r} (coupled IDs {ids}), K={K}, row {row}"
        try:
            fn(list(ids), list(row))
        except IndexError as err:
            expect(False, f"An index fell outside the row ({err}): clip the ID difference to [-K, K], then add K, "
                          f"{where}")
        except Exception:                                   # the stub, or another error: attempt() reports it
            pass
        got = expect_answer(attempt(fn, list(ids), list(row)), lambda x: np.ndim(x) == 2,
                            "a matrix of numbers, one row per query", where)
        got = np.asarray(got, dtype=float)
        if got.shape == want.shape and np.allclose(got, want):
            continue
        expect(got.shape == (n, n), f"One row and one column per token: shape {(n, n)}, yours {got.shape}, {where}")
        r = np.array(row)
        diff = np.array(ids)[None, :] - np.array(ids)[:, None]
        pos = np.arange(n)[None, :] - np.arange(n)[:, None]
        mistakes = {
            "The bias is read at the tokens' positions, not their coupled IDs: coupling is what makes digits of "
            "equal significance close.": r[np.clip(pos, -K, K) + K],
            "The ID difference is reversed: it is key minus query, ids[j] - ids[i].": r[np.clip(-diff, -K, K) + K],
            "row[r] is the scalar of the difference r - K: index the row with the difference plus K.":
                (r[np.clip(diff, 0, 2 * K)], r[np.clip(np.clip(diff, -K, K), 0, 2 * K)]),
        }
        for message, mistake in mistakes.items():
            for candidate in (mistake if isinstance(mistake, tuple) else (mistake,)):
                expect(not np.allclose(got, candidate), f"{message} {where}")
        expect(False, f"Not the bias: the library gives {want.tolist()}, you gave {got.tolist()} {where}")
    return len(cases)


# --- the scalable softmax: the right key's weight, checked against notebook 05's table (a mechanism exercise) ---

#: notebook 05's dilution table: margin 7 at 140 keys, the scalable softmax's s = 0.3
TABLE_MARGIN, TABLE_CONTEXTS, TABLE_SCALE = 7.0, (140, 600, 3000, 30000), 0.3


@exercise("The scalable softmax's weight")
def check_scalable_weight(fn: Callable[[float, int, float], float]) -> int:
    """``fn(margin, n, s)``: the softmax weight of the right key when it is ``margin`` above each of the ``n - 1``
    other keys and every logit is multiplied by ``s log n`` (the scalable softmax). Checked against notebook 05's
    table (``reach.dilution_rows``) and the library's ``reach.right_key_weight`` on random cases."""
    import math

    from .reach import dilution_rows, right_key_weight

    rows = dilution_rows(TABLE_MARGIN, TABLE_CONTEXTS, TABLE_SCALE)
    scaled = TABLE_MARGIN / (TABLE_SCALE * math.log(TABLE_CONTEXTS[0]))      # the table's margin before scaling
    rng = random.Random(7)
    cases = [(scaled, n, TABLE_SCALE, rows[f"{n:,} keys"]["scalable softmax"]) for n in TABLE_CONTEXTS]
    cases += [(m, n, s, right_key_weight(m, n, s)) for m, n, s in
              [(1.0, 1, 0.5)] + [(rng.uniform(0.5, 8), rng.randint(2, 50000), rng.uniform(0.05, 1.0))
                                 for _ in range(12)]]
    for m, n, s, want in cases:
        where = f"for margin {m:.3f}, n = {n:,} keys, s = {s:.3f}"
        got = float(expect_answer(attempt(fn, m, n, s), lambda x: isinstance(x, (int, float)) or
                                  getattr(x, "ndim", 1) == 0, "a number, the weight", where))
        if math.isclose(got, want, rel_tol=1e-6, abs_tol=1e-12):
            continue
        gap = m * s * math.log(n)
        mistakes = {
            "The right key is one of n keys: n - 1 others compete with it, not n.":
                1 / (1 + n * math.exp(-gap)),
            "The logits are multiplied by s log n, so the margin is too: the weight is 1 / (1 + (n-1) e^(-s m log n))"
            " (without the log n the weight still dilutes as n grows).": 1 / (1 + (n - 1) * math.exp(-m * s)),
            "Multiply by s as well as by log n: s is the head's learned scale.":
                1 / (1 + (n - 1) * math.exp(-m * math.log(n))),
            "log is the natural logarithm here.": 1 / (1 + (n - 1) * math.exp(-m * s * math.log10(n))),
            "That is the plain softmax's weight: the scalable softmax multiplies the margin by s log n.":
                1 / (1 + (n - 1) * math.exp(-m)),
            "The others' logits are below the right key's: e^(-margin), not e^(+margin).":
                1 / (1 + (n - 1) * math.exp(min(gap, 700))),
        }
        for message, value in mistakes.items():
            expect(not math.isclose(got, value, rel_tol=1e-6, abs_tol=1e-12), f"{message} ({where})")
        table_note = " (a row of notebook 05's table)" if n in TABLE_CONTEXTS and s == TABLE_SCALE else ""
        expect(False, f"The weight is {want:.6f}{table_note}; you gave {got:.6f} ({where}).")
    return len(cases)

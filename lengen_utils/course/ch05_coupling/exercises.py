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

"""Notebook 02's coding exercises: the absolute position IDs an APE encoder sees in Sabbaghi's frame, and which
of them training on short numbers never showed a digit.

Each checker compares the learner's function with the library (``formats.encode`` in the ``sabbaghi`` format,
numbered by ``PositionScheme("consecutive")``) on edge and random inputs, and names the mistake.
"""
from __future__ import annotations

import random
from typing import Callable

from ...core.formats import DIGITS, encode
from ...core.positions import PositionScheme
from ...core.problems import Problem
from ..common.exercises import attempt, exercise, expect, expect_answer, is_int_list


def library_digit_positions(k: int, l: int) -> list[int]:
    """The consecutive IDs that hold a digit when both operands have ``k`` digits, read off the library's frame."""
    ex = encode(Problem(10 ** k - 1, 10 ** k - 1), "sabbaghi", frame_width=l)
    return [i for i, tok in zip(PositionScheme("consecutive").assign(ex), ex.tokens) if tok in DIGITS]


def library_unseen_positions(k: int, trained: int, l: int) -> list[int]:
    """The IDs holding a digit at length ``k`` that no training problem of 1..``trained`` digits put a digit at."""
    seen = set().union(*(library_digit_positions(j, l) for j in range(1, trained + 1)))
    return sorted(set(library_digit_positions(k, l)) - seen)


def _as_ids(got, where: str) -> list[int]:
    """The learner's IDs, sorted, once they are a list (tuple, range or set) of ints."""
    valid = lambda x: is_int_list(x, (list, tuple, range, set))        # noqa: E731
    return sorted(int(i) for i in expect_answer(got, valid, "the IDs as a list of ints, e.g. [17, 18, 19]", where))


def _shifted(got: list[int], want: list[int], l: int) -> str | None:
    """Which operand's IDs are off by one, if that is the whole mistake."""
    for part, inside in (("a", lambda i: i < l), ("b", lambda i: i > l)):
        mine, theirs = [i for i in got if inside(i)], [i for i in want if inside(i)]
        others_ok = [i for i in got if not inside(i)] == [i for i in want if not inside(i)]
        for d in (-1, 1):
            if others_ok and mine != theirs and mine == [i + d for i in theirs]:
                return part
    return None


@exercise("The IDs that hold digits")
def check_digit_positions(fn: Callable[[int, int], list[int]]) -> int:
    """``fn(k, l)``: the IDs (0, 1, ..., 2l) of the digits of two k-digit operands in Sabbaghi's frame of width l."""
    rng = random.Random(2)
    cases = [(1, 6), (3, 6), (6, 6), (5, 20), (20, 20)] + [(rng.randint(1, l), l) for l in
                                                          (rng.randint(2, 30) for _ in range(25))]
    for k, l in cases:
        want = library_digit_positions(k, l)
        got = _as_ids(attempt(fn, k, l), f"for k={k}, l={l}")
        if got == want:
            continue
        shown = f"For k={k}, l={l} the digits sit at {want}; you gave {got}"
        expect(l not in got, f"ID l = {l} is the `+`, not a digit: {shown}")
        expect(len(got) == 2 * k, f"Two {k}-digit operands have {2 * k} digits: {shown}")
        part = _shifted(got, want, l)
        expect(part != "a", f"The start of a's digits is off by one: a is left-padded, so its {k} digit(s) end at ID "
                            f"l - 1 = {l - 1}, the last ID before `+`. {shown}")
        expect(part != "b", f"The start of b's digits is off by one: b's frame is IDs l + 1 .. 2l, and its digits end "
                            f"at 2l = {2 * l}. {shown}")
        expect(max(got) == 2 * l, f"b is left-padded too: its units digit sits at the end of the frame, ID 2l = "
                                  f"{2 * l}. {shown}")
        expect(False, shown)
    return len(cases)


@exercise("The IDs training never showed a digit at")
def check_unseen_positions(fn: Callable[[int, int, int], list[int]]) -> int:
    """``fn(k, trained, l)``: the digit IDs at test length k at which no training problem (1..trained digits) had a
    digit."""
    rng = random.Random(3)
    cases = [(6, 5, 20), (5, 5, 20), (3, 5, 20), (20, 5, 20), (2, 1, 4)]
    for _ in range(25):
        l = rng.randint(3, 30)
        trained = rng.randint(1, l - 1)
        cases.append((rng.randint(1, l), trained, l))
    for k, trained, l in cases:
        want = library_unseen_positions(k, trained, l)
        got = _as_ids(attempt(fn, k, trained, l), f"for k={k}, trained={trained}, l={l}")
        if got == want:
            continue
        shown = f"For k={k}, trained={trained}, l={l} the answer is {want}; you gave {got}"
        expect(not (k <= trained and got), f"A test no longer than the trained length puts digits only where "
                                           f"training did: the answer is empty. {shown}")
        expect(not set(got) & set(library_digit_positions(trained, l)),
               f"Training on {trained} digits already put digits at {sorted(set(got) & set(library_digit_positions(trained, l)))}: "
               f"these IDs were seen in training. {shown}")
        expect(set(got) <= set(want), f"Some of your IDs hold no digit at length {k}: {shown}")
        missing = set(want) - set(got)
        expect(any(i > l for i in got) or not got or not any(i > l for i in want),
               f"b's frame counts too: its top digits land at IDs training never used. {shown}")
        expect(not missing <= {l - trained - 1, 2 * l - trained},
               f"The boundary is off by one: digit {trained + 1} of a sits at ID l - {trained} - 1 = {l - trained - 1} "
               f"(of b at {2 * l - trained}), and no training problem of at most {trained} digits reached it. {shown}")
        expect(False, shown)
    return len(cases)


__all__ = ["library_digit_positions", "library_unseen_positions", "check_digit_positions", "check_unseen_positions"]

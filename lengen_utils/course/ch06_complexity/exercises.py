"""Notebook 06's coding exercises: Sabbaghi et al.'s complexity of a sum, the length of its longest cascade of
carries (Section 4), and the exact distribution of that length over uniform l-digit sums by dynamic programming
(Appendix C.4, Figure 13).

Each checker compares the learner's function with the library (``carries.cascade_length`` and
``complexity.cascade_length_distribution``) on edge and random inputs, and names the mistake.
"""
from __future__ import annotations

import math
import random
from fractions import Fraction
from typing import Callable, Sequence

import numpy as np

from ...core.carries import cascade_length, cascade_lengths_from_sums, digit_sums, longest_carry_run
from ...analysis.complexity import cascade_length_distribution
from ..common.exercises import attempt, exercise, expect, expect_answer, is_int, is_number

#: sums that show one convention each: the trigger counted (1999 + 1: 3), consecutive carries that do not
#: cascade (55 + 55: 1), 9-sums with no carry below (9 + 90: 0), a generating column right after a cascade
#: (909 + 191: 2, not 3), operands of different lengths (99999 + 1: 5)
EDGE_SUMS = [(0, 0), (9, 0), (5, 5), (1999, 1), (55, 55), (9, 90), (4445, 5555), (909, 191), (99999, 1), (1, 99999),
             (123456789, 876543211), (5555555555, 5555555555), (19, 81), (990, 10)]


def _random_sums(rng: random.Random, n: int) -> list[tuple[int, int]]:
    """Pairs rich in 9-sums (uniform digits almost never make long cascades)."""
    out = []
    for _ in range(n):
        a = b = 0
        for i in range(rng.randint(1, 25)):
            kind = rng.choices("GPK", weights=(3, 5, 2))[0]
            s = rng.randint(10, 18) if kind == "G" else 9 if kind == "P" else rng.randint(0, 8)
            x = rng.randint(max(0, s - 9), min(9, s))
            a, b = a + x * 10**i, b + (s - x) * 10**i
        out.append((a, b) if rng.random() < 0.5 else (a // 10 ** rng.randint(0, 3), b))
    return out


def _units_last(a: int, b: int) -> int:
    """The cascade length read with the columns in the wrong order (most significant first); for diagnosis."""
    return int(cascade_lengths_from_sums(np.array([digit_sums(a, b)[::-1]]))[0])


def _unpadded(a: int, b: int) -> int:
    """The cascade length over the shorter operand's columns only (zip without padding); for diagnosis."""
    short = min(len(str(a)), len(str(b)))
    return cascade_length(a % 10**short, b % 10**short)


def _length(fn: Callable[[int, int], int], a: int, b: int) -> int:
    """The learner's cascade length of ``a + b``, once it is an int."""
    return int(expect_answer(attempt(fn, a, b), is_int, "an int, the length of the longest cascade", f"for {a} + {b}"))


@exercise("The cascade length of a sum")
def check_cascade_length(fn: Callable[[int, int], int]) -> int:
    """``fn(a, b)``: the length of the longest cascade of carries of ``a + b`` (0 when no column carries)."""
    cases = EDGE_SUMS + _random_sums(random.Random(6), 60)
    for a, b in cases:
        want, got = cascade_length(a, b), _length(fn, a, b)
        if got == want:
            continue
        sums = digit_sums(a, b)
        shown = f"{a} + {b} (digit sums, units first: {sums}) has cascade length {want}; you gave {got!r}"
        expect(not (max(sums) < 10 and 9 in sums and got > 0), f"A run of 9-sums with no carry below it carries "
               f"nothing: only a generating column (digit sum >= 10) starts a cascade. {shown}")
        mine = [_length(fn, x, y) for x, y in EDGE_SUMS]          # a convention shows on all the edge sums
        expect(mine != [max(cascade_length(x, y) - 1, 0) for x, y in EDGE_SUMS], f"Off by one: count the generating "
               f"column that triggers the cascade too (1999 + 1: sums 10, 9, 9, cascade 3). {shown}")
        expect(mine != [longest_carry_run(x, y) for x, y in EDGE_SUMS], f"A generating column starts a new cascade "
               f"of 1, even right after another carry: its carry does not depend on the columns below. Letting it "
               f"extend the run counts consecutive carries (C1) instead: 55 + 55 carries twice but cascades once. "
               f"{shown}")
        expect(mine != [_units_last(x, y) for x, y in EDGE_SUMS],
               f"The carry travels from the units digit up: walk the columns least significant first (str(a) starts "
               f"with the most significant digit). {shown}")
        expect(mine != [_unpadded(x, y) for x, y in EDGE_SUMS],
               f"Pad the shorter operand with zeros: every column of the longer one counts (99999 + 1 has the "
               f"sums 10, 9, 9, 9, 9: cascade 5). {shown}")
        expect(False, shown)
    return len(cases)


def _distribution(fn: Callable[[int], Sequence[float]], l: int) -> list:
    """The learner's distribution at length ``l``, once it is l + 1 numbers (Fractions stay exact, others float)."""
    def valid(x) -> bool:
        return isinstance(x, (list, tuple, np.ndarray)) and len(x) == l + 1 and all(map(is_number, x))

    got = expect_answer(attempt(fn, l), valid, f"l + 1 = {l + 1} probabilities, entry k = P(longest cascade = k) for "
                        f"k = 0..{l}", f"for l = {l}")
    return [x if isinstance(x, Fraction) else float(x) for x in got]


def _same(x, y: Fraction) -> bool:
    return x == y if isinstance(x, Fraction) else math.isclose(x, float(y), rel_tol=1e-9, abs_tol=1e-12)


def _shifted(got: list, l: int) -> bool:
    """Whether ``got`` (validated) is the distribution of the cascade length minus one (the trigger not counted)."""
    want = cascade_length_distribution(l, exact=True)
    return all(_same(x, y) for x, y in zip(got, [want[0] + want[1]] + list(want[2:]) + [0]))


@exercise("The exact distribution of the cascade length (DP)")
def check_cascade_distribution(fn: Callable[[int], Sequence[float]]) -> int:
    """``fn(l)``: entry k = P(longest cascade = k) for operands uniform below 10**l, k = 0..l."""
    lengths = [1, 2, 3, 4, 5, 6, 8, 10, 13, 20, 32, 50]
    for l in lengths:
        want = cascade_length_distribution(l, exact=True)
        got = _distribution(fn, l)
        if all(_same(x, y) for x, y in zip(got, want)):
            continue
        k = next(k for k, (x, y) in enumerate(zip(got, want)) if not _same(x, y))
        shown = (f"At l = {l}, P(longest cascade = {k}) is {want[k]} = {float(want[k]):.6g}; you gave "
                 f"{float(got[k]):.6g}")
        total = sum(float(x) for x in got)
        expect(math.isclose(total, 1.0, abs_tol=1e-9), f"The probabilities should sum to 1, yours sum to {total:.6g}: "
               f"every column is generate, propagate or kill (45, 10 and 45 of the 100 digit pairs), and every "
               f"sequence of columns must land in exactly one entry. {shown}")
        expect(not all(_shifted(_distribution(fn, j), j) for j in (1, 2, 3, 4)),
               f"Off by one: you count only the 9-sums; the generating column counts too (a cascade of length k + 1 is "
               f"a generating column and k 9-sums). {shown}")
        if l == 1:
            expect(not _same(got[0], Fraction(45, 100)), "A 9-sum with no carry below it carries nothing: at one digit "
                   f"the cascade is 1 exactly when the column generates (45 of the 100 digit pairs). {shown}")
            expect(False, f"At one digit, P(0) = 55/100 (kill or a lone 9-sum) and P(1) = 45/100 (generate). {shown}")
        expect(not (l == 2 and _same(got[2], Fraction(45 * 10 + 45 * 45, 10**4))),
               f"A generating column starts a new cascade of 1, even right after another carry (its carry does not "
               f"depend on the columns below): at l = 2 a cascade of 2 is a generating units column under a 9-sum, "
               f"45 × 10 of the 10^4 pairs. {shown}")
        expect(False, f"{shown}. Entry k is the probability that the LONGEST cascade is k: carry the state (current "
                      f"cascade, longest so far) through the columns, units first.")
    return len(lengths)


__all__ = ["EDGE_SUMS", "check_cascade_length", "check_cascade_distribution"]

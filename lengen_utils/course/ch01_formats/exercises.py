"""Notebook 01's coding exercises: Cho et al.'s format of an addition (reversed, zero-padded, between `$`), and
McLeish et al.'s Abacus position IDs of a problem written in it.

Each checker compares the learner's function with the library (``formats.encode(..., "cho")`` and
``PositionScheme("abacus")``) on edge and random inputs, and names the mistake.
"""
from __future__ import annotations

import random
from typing import Callable

from ...core.formats import encode
from ...core.positions import PositionScheme
from ...core.problems import Problem
from ..common.exercises import attempt, exercise, expect, expect_answer, is_int_list

EDGE = [(653, 49), (0, 0), (9, 1), (5, 0), (1, 99999), (99999, 1), (12, 345), (1000, 1000)]


def library_cho(a: int, b: int) -> str:
    """The library's Cho-format text of ``a + b``."""
    return encode(Problem(a, b), "cho").text()


def library_abacus(a: int, b: int) -> list[int]:
    """The library's Abacus IDs (evaluation: no random offset) of ``a + b`` in Cho's format."""
    return PositionScheme("abacus").assign(encode(Problem(a, b), "cho"))


def _cases(seed: int) -> list[tuple[int, int]]:
    rng = random.Random(seed)
    digits = lambda: rng.randrange(10 ** rng.randint(0, 7))
    return EDGE + [(digits(), digits()) for _ in range(30)]


def _cho_mistakes(a: int, b: int) -> dict[str, str]:
    """What the usual wrong versions of Cho's format write, each with the message that names it."""
    w = max(len(str(a)), len(str(b)))
    pa, pb, s = str(a).zfill(w), str(b).zfill(w), str(a + b).zfill(w + 1)
    return {
        f"${pa}+{pb}={s}$": "The answer is written reversed, least significant digit first: the units digit comes "
                            "right after `=`",
        f"${pa}+{pb}={str(a + b)[::-1]}$": "Pad the answer to one digit more than the operands (the final carry, "
                                           "0 if there is none) before reversing it",
        f"${pa}+{pb}={str(a + b).zfill(w)[::-1]}$": "The answer has one digit more than the padded operands: room for "
                                                     "the final carry",
        f"${a}+{b}={s[::-1]}$": "Zero-pad both operands to the length of the longer one",
        f"${pa[::-1]}+{pb[::-1]}={s[::-1]}$": "Only the answer is reversed: the operands are written most significant "
                                              "digit first",
        f"{pa}+{pb}={s[::-1]}": "Cho's format opens and closes with `$`",
    }


@exercise("Cho's format")
def check_cho_format(fn: Callable[[int, int], str]) -> int:
    """``fn(a, b)``: the text of ``a + b`` in Cho et al.'s format, e.g. ``"$653+049=2070$"``."""
    cases = _cases(1)
    for a, b in cases:
        want = library_cho(a, b)
        got = expect_answer(attempt(fn, a, b), lambda x: isinstance(x, str), "the text as a string, e.g. "
                            "'$653+049=2070$'", f"for {a} + {b}")
        if got == want:
            continue
        shown = f"for {a} + {b} Cho's format is {want!r}; you gave {got!r}"
        mistakes = {text: message for text, message in _cho_mistakes(a, b).items() if text != want}
        expect(got not in mistakes, f"{mistakes.get(got)}: {shown}")
        expect(False, shown[0].upper() + shown[1:])
    return len(cases)


@exercise("Abacus IDs")
def check_abacus_ids(fn: Callable[[str], list[int]]) -> int:
    """``fn(text)``: McLeish et al.'s Abacus IDs of a problem written in Cho's format, one per character."""
    cases = _cases(2)
    for a, b in cases:
        text, want = library_cho(a, b), library_abacus(a, b)
        got = [int(i) for i in expect_answer(attempt(fn, text), is_int_list, "a list of ints, one per character",
                                             f"for {text!r}")]
        expect(len(got) == len(text), f"One ID per character: {len(text)} for {text!r}, you gave {len(got)}")
        if got == want:
            continue
        shown = f"for {text!r} the Abacus IDs are {want}; you gave {got}"
        digit = [c.isdigit() for c in text]
        expect(all(g == 0 for g, d in zip(got, digit) if not d), f"Every token that is not a digit (`$`, `+`, `=`) "
                                                                  f"gets 0: {shown}")
        expect(got != [i - 1 if d else 0 for i, d in zip(want, digit)],
               f"The units digit gets 1, not 0 (the start is off by one: 0 is the ID of the non-digits): {shown}")
        answer = slice(text.index("=") + 1, len(text) - 1)
        expect(got[answer] == want[answer],
               ("The answer is written reversed, units digit first, so its IDs count up 1, 2, 3, ...: "
                if got[answer] == want[answer][::-1] else "Check the answer's IDs: ") + shown)
        expect(False, f"An operand is indexed from its least significant digit, the last one written (units 1, "
                      f"tens 2, ...): {shown}")
    return len(cases)


__all__ = ["library_cho", "library_abacus", "check_cho_format", "check_abacus_ids"]

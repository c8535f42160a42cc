"""Notebook 08's coding exercises: the scratchpad of addition (thesis Chapter 4; Lee et al. 2023), which writes
before each answer digit the step that produces it (the aligned digit pair and the carry in), and the targets
of the three sub-tasks the thesis splits addition into (digit-wise alignment, modular digit-wise addition
without carries, the carries).

Both checkers compare the learner's function with the library (``formats.encode`` in the ``cho_scratchpad``
format, and ``addition_steps.columns`` / ``column_outputs`` for the sub-tasks) on edge and random sums, and name
the mistake: columns most significant first, the carry out instead of the carry in, a missing final column or
unpadded operands, the step after its digit, the pair as (b, a), the digit sum with the carry instead of mod 10.
"""
from __future__ import annotations

import random
from typing import Callable

from ...core.addition_steps import Column, column_outputs, columns
from ...core.formats import encode, render_columns
from ...core.problems import Problem
from ..common.exercises import ExerciseFailed, _NotAttempted, attempt, exercise, expect, expect_answer

#: sums every checker tries first: zero, one digit with a final carry, a cascade through every column (either
#: way round), operands of different lengths (a longer b too), long operands.
EDGE_SUMS = [(0, 0), (5, 5), (9, 0), (653, 49), (49, 653), (999, 1), (1, 999), (99999, 1), (12, 34567),
             (909, 191), (5555, 4445), (123456789, 876543211), (70, 8)]
#: the sub-tasks of addition (``addition_steps.TARGETS`` without the full task ``sum``), in exercise order
SUBTASKS = ("align", "modsum", "carries")


def random_sums(rng: random.Random, n: int) -> list[tuple[int, int]]:
    """``n`` pairs with operands of 1 to 12 digits drawn apart, so that the lengths often differ."""
    return [(rng.randrange(10 ** rng.randint(1, 12)), rng.randrange(10 ** rng.randint(1, 12))) for _ in range(n)]


def scratchpad_text(a: int, b: int) -> str:
    """The library's ``a + b`` in the ``cho_scratchpad`` format: ``$653+049=3902541060170000$``."""
    return encode(Problem(a, b), "cho_scratchpad").text()


def subtask_text(a: int, b: int, target: str) -> str:
    """The library's answer of a sub-task, units first: ``39546000``, ``2960``, ``0110`` for 653 + 49."""
    return "".join(str(d) for col in columns(Problem(a, b)) for d in column_outputs(col, target))


def _cols(a: int, b: int) -> list[Column]:
    return columns(Problem(a, b))


def _unpadded(a: int, b: int, final: bool) -> list[Column]:
    """The columns as zip makes them, stopping at the shorter operand (then one for the carry, when ``final``)."""
    cols = _cols(a, b)
    short = min(len(str(a)), len(str(b)))
    last = cols[short].carry
    return cols[:short] + ([Column(0, 0, last, last)] if final else [])


def _carry_outs(cols: list[Column]) -> list[int]:
    """The carry out of each column, ``c_{k+1}`` (the last column never carries: it only holds the last carry)."""
    return [c.carry for c in cols[1:]] + [0]


def _steps(cols: list[Column], step: Callable[[Column, int], str]) -> str:
    outs = _carry_outs(cols)
    return "".join(step(c, out) for c, out in zip(cols, outs))


RIGHT_STEP = lambda c, out: f"{c.a}{c.b}{c.carry}{c.digit}"        # noqa: E731
#: planted mistakes of the scratchpad, each the answer part (after ``=``) of ``a + b`` and the message naming it
SCRATCHPAD_MISTAKES: list[tuple[Callable[[int, int], str], str]] = [
    (lambda a, b: _steps(_cols(a, b)[::-1], RIGHT_STEP),
     "Write the columns least significant first: the carry travels from the units column up, and Cho's format "
     "reverses the answer (str(a) starts with the most significant digit)."),
    (lambda a, b: _steps(_cols(a, b), lambda c, out: f"{c.a}{c.b}{out}{c.digit}"),
     "The step holds the carry IN, the carry the column receives from the column below (0 for the units "
     "column), not the carry it sends up: 653 + 49 starts 3 9 0 -> 2, then 5 4 1 -> 0."),
    (lambda a, b: _steps(_cols(a, b), lambda c, out: f"{c.digit}{c.a}{c.b}{c.carry}"),
     "Write each step BEFORE its answer digit (pair, carry in, then the digit): the step is what the model "
     "computes the digit from, 3 9 0 -> 2."),
    (lambda a, b: _steps(_cols(a, b), lambda c, out: f"{c.b}{c.a}{c.carry}{c.digit}"),
     "The aligned pair is (a_k, b_k), the digit of a first: 653 + 49 starts 3 9, not 9 3."),
    (lambda a, b: _steps(_cols(a, b), lambda c, out: f"{c.a}{c.b}{c.carry}{c.modsum}"),
     "The answer digit adds the carry in: (a_k + b_k + c_k) mod 10, so 5 4 1 -> 0, not 9."),
    (lambda a, b: _steps(_cols(a, b)[:-1], RIGHT_STEP),
     "One column more than the longer operand has digits: the last column (0 0, the final carry) writes the "
     "answer's last digit, so 653 + 49 has 4 columns and 999 + 1 ends 0 0 1 -> 1."),
]
SCRATCHPAD_MISTAKES += [(lambda a, b, final=final: _steps(_unpadded(a, b, final), RIGHT_STEP),
                         "Pad the shorter operand with zeros: every column of the longer one has a step (zip stops "
                         "at the shorter string), and one more column holds the final carry.") for final in (1, 0)]


def _spaced(text: str, group: int) -> str:
    return " ".join(text[i:i + group] for i in range(0, len(text), group))


def _answer_part(text: str) -> str:
    return text.split("=", 1)[1].rstrip("$") if "=" in text else text


def _is_str(got: object) -> bool:
    return isinstance(got, str)


def _scratchpad(fn: Callable[[int, int], str], a: int, b: int) -> str:
    """The learner's scratchpad of ``a + b``, once it is a str."""
    return expect_answer(attempt(fn, a, b), _is_str, "a str such as '$653+049=3902541060170000$'", f"for {a} + {b}")


def _check_text(got: str, want: str, a: int, b: int, shown: str) -> None:
    """The parts of the string that are not the steps: no spaces, Cho's prompt, the ``$`` at both ends."""
    expect(got.replace(" ", "") != want, f"Write it without spaces, as the course renders it: {shown}")
    prompt = want[:want.index("=") + 1]
    expect("=" in got, f"Keep the prompt: the operands, '+' and '=' come before the steps. {shown}")
    if got[:got.index("=") + 1] != prompt:
        expect(got[:got.index("=") + 1] != f"${a}+{b}=", f"Zero-pad the operands to the same width in the prompt, "
               f"as Cho's format does ({prompt}). {shown}")
        expect(False, f"The prompt is {prompt!r}: $, the operands zero-padded to the same width, '+' and '='. "
                      f"{shown}")
    expect(got.endswith("$"), f"End with $, the end-of-sequence token. {shown}")


def _diagnose(answer: Callable[..., str], mistakes, shown: str, *extra) -> None:
    """Name a planted mistake when the learner's (validated) answers agree with it on all the edge sums."""
    mine = [answer(a, b, *extra) for a, b in EDGE_SUMS]
    for variant, message in mistakes:
        expect(mine != [variant(a, b, *extra) for a, b in EDGE_SUMS], f"{message} {shown}")


@exercise("The scratchpad of an addition")
def check_scratchpad(fn: Callable[[int, int], str]) -> int:
    """``fn(a, b)``: ``a + b`` in the ``cho_scratchpad`` format, e.g. ``$653+049=3902541060170000$``."""
    cases = EDGE_SUMS + random_sums(random.Random(8), 50)
    for a, b in cases:
        want, got = scratchpad_text(a, b), _scratchpad(fn, a, b)
        if got == want:
            continue
        by_column = render_columns(encode(Problem(a, b), "cho_scratchpad"))
        shown = f"{a} + {b} is {want!r} (by column, units first: {by_column!r}); you gave {got!r}"
        _check_text(got, want, a, b, shown)
        _diagnose(lambda x, y: _answer_part(_scratchpad(fn, x, y)), SCRATCHPAD_MISTAKES, shown)
        n_want, n_got = len(_answer_part(want)), len(_answer_part(got))
        expect(n_got == n_want, f"Write 4 tokens per column (a_k, b_k, carry in, answer digit) for each of the "
               f"{n_want // 4} columns: {n_want} digits after '=', you wrote {n_got}. {shown}")
        expect(False, f"Each column is a_k b_k c_k s_k: the aligned pair, the carry in and the answer digit. {shown}")
    return len(cases)


#: planted mistakes of the sub-tasks, ``(variant(a, b, target), message, the targets it concerns)``
SUBTASK_MISTAKES: list[tuple[Callable[[int, int, str], str], str, tuple[str, ...]]] = [
    (lambda a, b, t: subtask_text(a, b, t)[::-1],
     "Write the columns least significant first, and each pair as a_k b_k: you reversed the whole string, "
     "which swaps the digits of each pair too.", ("align",)),
    (lambda a, b, t: "".join(str(d) for c in _cols(a, b)[::-1] for d in column_outputs(c, t)),
     "Write the columns least significant first (units first, as Cho's format writes the answer): str(a) "
     "starts with the most significant digit.", SUBTASKS),
    (lambda a, b, t: "".join(map(str, _carry_outs(_cols(a, b)))),
     "The carries target is the carry INTO each column (0 for the units column), not the carry out of it: "
     "653 + 49 gives 0 1 1 0.", ("carries",)),
    (lambda a, b, t: "".join(str(c.digit) for c in _cols(a, b)),
     "Modular digit-wise addition leaves the carries out: (a_k + b_k) mod 10, not the answer digit "
     "(a_k + b_k + c_k) mod 10 (653 + 49 gives 2 9 6 0, not 2 0 7 0).", ("modsum",)),
    (lambda a, b, t: "".join(f"{c.b}{c.a}" for c in _cols(a, b)),
     "The aligned pair is (a_k, b_k), the digit of a first: 653 + 49 starts 3 9, not 9 3.", ("align",)),
    (lambda a, b, t: "".join(str(d) for c in _cols(a, b)[:-1] for d in column_outputs(c, t)),
     "One column more than the longer operand has digits (it holds the final carry): 653 + 49 has 4 columns.",
     SUBTASKS),
]
SUBTASK_MISTAKES += [(lambda a, b, t, final=final: "".join(str(d) for c in _unpadded(a, b, final)
                                                           for d in column_outputs(c, t)),
                      "Pad the shorter operand with zeros: every column of the longer one counts (zip stops at the "
                      "shorter string), and one more column holds the final carry.", SUBTASKS) for final in (1, 0)]


def _subtask_answer(fn: Callable, a: int, b: int, target: str, done: list[str]) -> str:
    """The learner's answer, once it is a str; an unwritten target after a written one is a failure, not "not
    attempted"."""
    try:
        got = attempt(fn, a, b, target)
    except _NotAttempted:
        if done:
            raise ExerciseFailed(f"Your function answers {', '.join(map(repr, done))} but not {target!r} yet (it "
                                 f"raised NotImplementedError); write all three targets.") from None
        raise
    return expect_answer(got, _is_str, "a str of digits, units first (653 + 49 gives '39546000', '2960' and '0110')",
                         f"for {a} + {b}, target {target!r}")


@exercise("The target of a sub-task of addition")
def check_subtask_target(fn: Callable[[int, int, str], str]) -> int:
    """``fn(a, b, target)`` for target in align, modsum, carries: the sub-task's answer, units first (for
    653 + 49: ``39546000``, ``2960``, ``0110``)."""
    cases = EDGE_SUMS + random_sums(random.Random(8), 40)
    done: list[str] = []
    for target in SUBTASKS:
        for a, b in cases:
            want, got = subtask_text(a, b, target), _subtask_answer(fn, a, b, target, done)
            if got == want:
                continue
            group = 2 if target == "align" else 1
            shown = (f"{a} + {b}, target {target!r}: the answer is {want!r} (by column, units first: "
                     f"{_spaced(want, group)}); you gave {got!r}")
            expect(got.replace(" ", "") != want, f"Write it without spaces, as the course renders it: {shown}")
            expect(_answer_part(got) != want, f"Return only the answer, the text after '=' without the prompt "
                   f"and the $: {shown}")
            mistakes = [(variant, message) for variant, message, targets in SUBTASK_MISTAKES if target in targets]
            _diagnose(lambda x, y, t: _subtask_answer(fn, x, y, t, done), mistakes, shown, target)
            expect(len(got) == len(want), f"Write {group} digit{'s' * (group - 1)} per column for each of the "
                   f"{len(want) // group} columns: {len(want)} digits, you wrote {len(got)}. {shown}")
            expect(False, shown)
        done.append(target)
    return len(cases) * len(SUBTASKS)


__all__ = ["EDGE_SUMS", "SUBTASKS", "SCRATCHPAD_MISTAKES", "SUBTASK_MISTAKES", "check_scratchpad",
           "check_subtask_target", "random_sums", "scratchpad_text", "subtask_text"]

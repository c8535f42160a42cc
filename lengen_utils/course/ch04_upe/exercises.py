"""Notebook 04's coding exercises: which vector each query-key pair adds under UPE (Sabbaghi eq. 3.3), and
Sabbaghi's multiplication input (eq. 3.2) with the positions where the answer is read.

Each checker compares the learner's function with the library (``interpret.vector_table``, which asks the UPE
module itself, and ``formats.encode`` in the ``sabbaghi`` format) on edge and random inputs, and names the mistake.
"""
from __future__ import annotations

import random
import re
from typing import Callable

from ...core.formats import encode
from ...analysis.interpret import vector_table
from ...core.positions import uniform_slots
from ...core.problems import Problem
from ...core.tasks import Task, TaskConfig
from ..common.exercises import attempt, exercise, expect, expect_answer


def _task(frame: int, k: int) -> Task:
    return Task(TaskConfig(op="*", format="sabbaghi", frame_width=frame, multiplier_digits=k, max_digits=frame,
                           max_position=frame + k + 2))


def _vector_cases() -> list[tuple[Task, Problem]]:
    rng = random.Random(4)
    cases = [(5, 2, 4297, 56), (5, 1, 4297, 7), (4, 3, 9, 100), (6, 1, 1, 1), (3, 3, 999, 999)]
    for _ in range(8):
        frame, k = rng.randint(2, 8), rng.randint(1, 3)
        cases.append((frame, k, rng.randint(1, 10 ** rng.randint(1, frame) - 1), rng.randint(1, 10 ** k - 1)))
    return [(_task(frame, k), Problem(a, b, "*")) for frame, k, a, b in cases]


def _is_label(got: object) -> bool:
    """A vector's label: ``"p_{d}"`` or ``"c_{r}"``."""
    return isinstance(got, str) and re.fullmatch(r"[pc]_\{-?\d+\}", got) is not None


def _is_frame(got: object) -> bool:
    """A pair (tokens, targets): a list of str, and a list of str or None."""
    return (isinstance(got, tuple) and len(got) == 2 and all(isinstance(part, (list, tuple)) for part in got)
            and all(isinstance(t, str) for t in got[0]) and all(t is None or isinstance(t, str) for t in got[1]))


@exercise("Which vector a pair uses (eq. 3.3)")
def check_which_vector(fn: Callable[[int, int, list[int], list[int]], str]) -> int:
    """``fn(i, j, ids, slots)``: the label of the vector that query ``i`` adds to key ``j``, ``"c_{r}"`` or
    ``"p_{d}"``, given every token's position ID and UPE slot (0: not a multiplier digit)."""
    pairs = 0
    for task, problem in _vector_cases():
        ex = task.example(problem)
        ids, slots = [int(i) for i in task.position_ids(ex)], uniform_slots(ex)
        labels = vector_table(task, problem).labels
        for i in range(len(ids)):
            for j in range(len(ids)):
                got = expect_answer(attempt(fn, i, j, list(ids), list(slots)), _is_label, "a label such as "
                                    "'p_{-3}' or 'c_{1}'", f"for query {i} and key {j} of {problem.b} × {problem.a}")
                want = labels[i][j]
                pairs += 1
                if got == want:
                    continue
                shown = (f"For {problem.b} × {problem.a} (l = {task.config.frame_width}), query {i} ({ex.tokens[i]!r}, "
                         f"slot {slots[i]}) and key {j} ({ex.tokens[j]!r}, slot {slots[j]}) the module adds {want}; "
                         f"you gave {got!r}")
                expect(not (i == j and slots[j]), f"A token looking at itself uses p_{{0}}, even a multiplier digit "
                                                  f"(eq. 3.3 gives c_r only to pairs with j != i). {shown}")
                expect(not (slots[i] and got == f"c_{{{slots[i]}}}"), "The uniform vector belongs to the "
                       f"key, not the query: c_r is used when key j is the multiplier digit of slot r. {shown}")
                expect(not (slots[j] and got.startswith("p_")), "Key j is a multiplier digit: every other query sees "
                       f"it through its slot's c_r, whatever the distance. {shown}")
                expect(got != f"c_{{{slots[j] - 1}}}", f"Slots count from 1 (0 means no uniform vector): key j with "
                                                       f"slot r uses c_r. {shown}")
                expect(got != f"p_{{{ids[i] - ids[j]}}}", f"The offset is reversed: the pair uses p_(j - i), key "
                                                          f"minus query (id of j minus id of i). {shown}")
                expect(False, shown)
    return pairs


def _frame_cases() -> list[tuple[int, int, int]]:
    rng = random.Random(5)
    cases = [(7, 4297, 6), (56, 4297, 5), (9, 99999, 5), (1, 1, 1), (123, 7, 4), (9, 1, 20)]
    for _ in range(25):
        l, k = rng.randint(1, 20), rng.randint(1, 3)
        cases.append((rng.randint(1, 10 ** k - 1), rng.randint(0, 10 ** rng.randint(1, l) - 1), l))
    return cases


@exercise("Sabbaghi's multiplication input (eq. 3.2) and its answer")
def check_frame(fn: Callable[[int, int, int], tuple[list[str], list]]) -> int:
    """``fn(multiplier, multiplicand, l)``: the tokens of eq. 3.2's input and, per token, the answer token the
    model must write there (``None`` where nothing is read)."""
    cases = _frame_cases()
    for b, a, l in cases:
        ex = encode(Problem(a, b, "*"), "sabbaghi", frame_width=l)
        want_tokens, want_targets = list(ex.tokens), list(ex.targets)
        got = expect_answer(attempt(fn, b, a, l), _is_frame, "a pair (tokens, targets): the input's tokens, a list of "
                            "str, and one target per token, a str or None", f"for {b} × {a} in l = {l}")
        tokens, targets = list(got[0]), list(got[1])
        shown = f"For {b} × {a} in l = {l}"
        if tokens != want_tokens:
            full = f"{shown} the input is {want_tokens}; you gave {tokens}"
            digits = list(str(b))
            expect("×" not in tokens, f"The multiplication token is '*', not '×'. {full}")
            expect(tokens[:len(digits)] == digits, f"The multiplier comes first, unpadded, most significant digit "
                                                   f"first. {full}")
            expect(len(tokens) == len(want_tokens), f"The input is the multiplier's k digits, '*', and a frame of l "
                                                    f"positions: {len(want_tokens)} tokens. {full}")
            expect(tokens[len(digits) + 1:] != list(str(a)) + ["pad"] * (l - len(str(a))), "The multiplicand is "
                   f"right-aligned in its frame: the pads come first, its units digit is the last token. {full}")
            expect(False, full)
        if targets != want_targets:
            full = f"{shown} the targets are {want_targets}; you gave {targets}"
            expect(len(targets) == len(tokens), f"Give one target per input token (None where nothing is read). {full}")
            answer = [t for t in want_targets if t is not None]
            mine = [t for t in targets if t is not None]
            digits_mine, digits_answer = [t for t in mine if t != "pad"], [t for t in answer if t != "pad"]
            expect(digits_mine == digits_answer or digits_mine != digits_answer[::-1], "The answer is written most "
                   f"significant digit first, its units digit at the last position. {full}")
            expect(len(mine) >= len(answer) or len(mine) == len(digits_answer), "The answer is read at the last l + k "
                   f"positions (the frame, '*' and the multiplier's lower digits), not only in the frame: a product "
                   f"can have up to l + k digits. {full}")
            expect(len(mine) != len(digits_answer), "The answer block is left-padded with 'pad': the places above the "
                   f"product's top digit are supervised as 'pad', not None. {full}")
            expect(False, full)
    return len(cases)


__all__ = ["check_frame", "check_which_vector"]

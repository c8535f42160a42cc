"""Notebook 09's coding exercise: build the fused-row scratchpad of N x M multiplication (:mod:`lengen_utils.core.nxm`).

The checker compares the learner's rows with the library's on edge and random products and names the mistake: the
multiplier read most significant digit first, the row above added whole (its final digit not dropped), row 0
missing, or the rows of ``A * b_k`` alone (no running sum).
"""
from __future__ import annotations

import random
from typing import Callable

from ...core.nxm import fused_rows as library_rows
from ..common.exercises import attempt, exercise, expect, expect_answer, is_int_list

#: products that tell the mistakes apart: a multiplier with zeros and with unequal digits (the order shows), a
#: one-digit operand on either side, rows whose carries reach the top digit
EDGE = [(12, 34), (7, 8), (5, 1), (1, 5), (99, 99), (123, 405), (9, 1000), (987654321, 99), (100, 7), (31, 13)]


def _mistake(a: int, b: int, got: list[int]) -> str:
    """What a wrong list of rows most likely did, named for the learner."""
    want = library_rows(a, b)
    digits = [int(d) for d in reversed(str(b))]
    if got == library_rows(a, int(str(b)[::-1])) and len(str(b)) == len(str(int(str(b)[::-1]))):
        return "the multiplier's digits are taken most significant first; row k adds A times b_k, units digit first"
    if got == want[1:]:
        return "row 0 is missing: the list starts with U_0 = 0"
    whole = [0]
    for digit in digits:
        whole.append(whole[-1] + a * digit * 10 ** (len(whole) - 1))
    if got == whole:
        return ("these are the full running products: each row drops the final digit of the row above "
                "(U_{k-1} // 10) before adding A * b_k")
    if got == [0] + [a * d for d in digits]:
        return "each row is A * b_k alone: add the row above, without its final digit (U_{k-1} // 10)"
    return f"for {a} x {b} the rows are {want}, you gave {got}"


@exercise("The fused-row scratchpad")
def check_fused_rows(fn: Callable[[int, int], list[int]]) -> int:
    """``fn(a, b)``: ``[U_0, U_1, ..., U_M]`` with ``U_0 = 0`` and ``U_k = U_{k-1} // 10 + a * b_k``."""
    rng = random.Random(9)
    cases = EDGE + [(rng.randint(1, 10 ** rng.randint(1, 12)), rng.randint(1, 10 ** rng.randint(1, 12)))
                    for _ in range(40)]
    for a, b in cases:
        got = expect_answer(attempt(fn, a, b), is_int_list, "a list of ints, the rows U_0 ... U_M", f"for {a} x {b}")
        got = [int(x) for x in got]
        expect(got == library_rows(a, b), _mistake(a, b, got))
    return len(cases)


__all__ = ["check_fused_rows"]

"""Solutions of notebook 09's coding exercises (try them first)."""
from __future__ import annotations


def fused_rows(a: int, b: int) -> list[int]:
    rows = [0]                                   # U_0: nothing added yet
    for digit in reversed(str(b)):               # the multiplier's digits, units first: b_1, b_2, ...
        rows.append(rows[-1] // 10 + a * int(digit))   # the row above loses its final digit, then adds A * b_k
    return rows

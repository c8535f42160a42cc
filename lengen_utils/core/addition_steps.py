"""The column steps of schoolbook addition, and the sub-tasks they split into (thesis, Chapter 4).

Write ``a + b`` in ``W`` columns, units first. Column ``k`` holds the **aligned digit pair** ``(a_k, b_k)``
(0 past an operand's last digit), the **carry in** ``c_k`` (``c_0 = 0``; ``c_{k+1} = 1`` when
``a_k + b_k + c_k >= 10``) and the **sum digit** ``s_k = (a_k + b_k + c_k) mod 10``. For ``653 + 49`` in
``W = 4`` columns::

    k        0  1  2  3
    a_k      3  5  6  0
    b_k      9  4  0  0
    c_k      0  1  1  0
    s_k      2  0  7  0          653 + 49 = 702

The thesis splits addition into three sub-tasks (its "compositionality gap": accuracy on the sub-tasks
against accuracy on the full task). Each is one output per column:

* ``align``: digit-wise alignment, the pair ``a_k b_k`` (two tokens per column): ``39 54 60 00``;
* ``modsum``: modular digit-wise addition without carries, ``(a_k + b_k) mod 10``: ``2 9 6 0``;
* ``carries``: the carry bits, ``c_k``: ``0 1 1 0``.

They compose digit by digit: ``s_k = (modsum_k + carries_k) mod 10``. ``sum`` is the full task, ``s_k``.
Problems layer: plain digits, no tokens or formats (:mod:`lengen_utils.core.formats` writes them).
"""
from __future__ import annotations

from dataclasses import dataclass

from .problems import Problem, ProblemError, num_digits

#: The outputs a column can be asked for: the full task and its three sub-tasks.
TARGETS = ("sum", "align", "modsum", "carries")

__all__ = ["TARGETS", "Column", "columns", "column_outputs", "target_value"]


@dataclass(frozen=True)
class Column:
    """Column ``k`` of ``a + b``: the aligned pair, the carry in and the sum digit."""

    a: int
    b: int
    carry: int
    digit: int

    @property
    def modsum(self) -> int:
        """``(a_k + b_k) mod 10``: the column's sum without the carry."""
        return (self.a + self.b) % 10


def columns(problem: Problem, width: int | None = None) -> list[Column]:
    """The ``width`` columns of an addition, units first (default: as many as the answer has digits,
    ``L + 1`` for ``L``-digit operands); a width too narrow for the answer is refused."""
    if not isinstance(problem, Problem) or problem.op != "+":
        raise ProblemError(f"column steps are defined for additions, got {problem!r}")
    need = max(num_digits(problem.a), num_digits(problem.b)) + 1
    width = need if width is None else width
    if isinstance(width, bool) or not isinstance(width, int) or width < num_digits(problem.answer):
        raise ProblemError(f"width={width!r} columns cannot hold the answer {problem.answer} "
                           f"({num_digits(problem.answer)} digits)")
    out, carry = [], 0
    for k in range(width):
        x, y = problem.a // 10**k % 10, problem.b // 10**k % 10
        total = x + y + carry
        out.append(Column(x, y, carry, total % 10))
        carry = total // 10
    return out


def column_outputs(column: Column, target: str) -> tuple[int, ...]:
    """What ``target`` writes for one column: ``(a_k, b_k)`` for ``align``, one digit for the others."""
    if target == "align":
        return (column.a, column.b)
    if target == "modsum":
        return (column.modsum,)
    if target == "carries":
        return (column.carry,)
    if target == "sum":
        return (column.digit,)
    raise ProblemError(f"unknown target {target!r}; choose one of {TARGETS}")


def target_value(problem: Problem, target: str, width: int | None = None) -> int:
    """The target read most significant column first, as one number: ``a + b`` for ``sum``, the digit-wise
    sum without carries for ``modsum`` (653 + 49 -> 692), the carry bits for ``carries`` (-> 110), and the
    interleaved pairs for ``align`` (-> 605439)."""
    digits = [d for col in reversed(columns(problem, width)) for d in column_outputs(col, target)]
    return int("".join(map(str, digits)))

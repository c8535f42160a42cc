"""Three channels of coupled position IDs for the fused-row scratchpad (:mod:`.format`): (row, column, level).

Cho et al.'s coupling gives digits that work together one ID. A row digit of N x M multiplication works with
tokens along three directions, so each token gets three IDs (Cho, Cha, Bhojanapalli and Yun 2024 also use three
channels: two at digit level and one at operand level; these are ours, for the fused rows):

* **row**: the multiplier digit ``b_k`` and every token of row ``k`` get ``k``; the multiplicand's digits, ``=`` and
  row 0 get 0; ``*`` and the closing ``$`` get ``M + 1`` (one past the top multiplier digit);
* **column**: the multiplicand digit ``a_t`` and digit ``t`` of every row get ``t + 1``; the ``+`` opening a row and
  the multiplier's digits get 0; the opening ``$`` gets ``N + 1`` (one past the top digit of ``a``: the slot where
  the last digit of a row finds no digit of ``a``);
* **level**: 0 for the multiplicand (and the opening ``$``), 1 for the multiplier (with ``*`` and ``=``), 2 for
  the scratchpad.

From the token that writes digit ``t + 1`` of row ``k`` (it sits at row ``k``, column ``t + 1``, level 2), what the
digit needs is at fixed offsets whatever ``N`` and ``M`` are: the row above at (-1, +1, 0) and (-1, +2, 0), the
multiplicand at (., 0, -2) and (., +1, -2), the row's multiplier digit at (0, <= 0, -1), and the next row's
multiplier digit (or ``*``, "no more rows") at (+1, ., -1). A relative bias over the clipped vector of
differences (:class:`~lengen_utils.core.model.encodings.RelativeScalarBias`) can hold each of these lookups in one
entry. Each channel's start (added to its IDs, level excepted) is drawn in training with ``random_start``; at
evaluation it is 0.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..example import Example
from ..positions import PositionRangeError
from ..problems import num_digits
from .cho import ChoPositions

#: The N x M position schemes, and the format each numbers.
NXM_SCHEMES = ("row_coupled", "cho_coupled", "cho_ends")
SCHEME_FORMAT = {"row_coupled": "fused_rows", "cho_coupled": "cho_scratchpad", "cho_ends": "cho_scratchpad"}
NXM_CHANNELS = ("row", "column", "level")
LEVELS = 3


@dataclass(frozen=True)
class RowPositions:
    """The fused-row scheme: ``assign`` returns one ``(row, column, level)`` triple per token."""

    name: str = "row_coupled"
    random_start: bool = False
    max_position: int = 64
    eval_start: int = 0

    def __post_init__(self) -> None:
        if self.name != "row_coupled":
            raise ValueError(f"RowPositions numbers the 'row_coupled' scheme, not {self.name!r}")
        if self.max_position < LEVELS:
            raise ValueError(f"max_position must be >= {LEVELS} (the level channel uses 0..2), got {self.max_position}")

    @property
    def default_start(self) -> int:
        return self.eval_start

    @staticmethod
    def spans(n_digits: int, m_digits: int) -> tuple[int, int]:
        """How far above its start the row and column IDs reach for an ``n_digits x m_digits`` problem."""
        return m_digits + 1, n_digits + 1

    def longest_square(self) -> int:
        """The widest ``L x L`` product whose IDs fit ``max_position`` at the evaluation start."""
        return max(0, self.max_position - self.default_start - 1)

    def check_fits(self, n_digits: int, m_digits: int, starts: tuple[int, int] | None = None) -> None:
        """Refuse a problem whose IDs would pass ``max_position``, naming the channel, the operand and the limit."""
        starts = (self.default_start,) * 2 if starts is None else starts
        for channel, span, start, operand in zip(NXM_CHANNELS, self.spans(n_digits, m_digits), starts,
                                                 ("multiplier", "multiplicand")):
            if start + span > self.max_position:
                raise PositionRangeError(
                    f"a {n_digits}-digit x {m_digits}-digit product needs {channel} IDs up to {start + span} (its "
                    f"{operand} sets them), but the IDs stop at max_position={self.max_position}; use a shorter "
                    f"{operand}, or a task with TaskConfig(max_position={start + span}) or more")

    def starts(self, example: Example, rng: np.random.Generator | None = None) -> tuple[int, int]:
        """The row and column starts: drawn with ``rng`` and ``random_start`` (training), else fixed."""
        n, m = num_digits(example.problem.a), num_digits(example.problem.b)
        if rng is None or not self.random_start:
            return self.default_start, self.default_start
        self.check_fits(n, m, (self.default_start, self.default_start))
        return tuple(int(rng.integers(self.default_start, self.max_position - span + 1))
                     for span in self.spans(n, m))

    def assign(self, example: Example, rng: np.random.Generator | None = None,
               start: tuple[int, int] | None = None) -> list[tuple[int, int, int]]:
        row_start, col_start = self.starts(example, rng) if start is None else start
        self.check_fits(num_digits(example.problem.a), num_digits(example.problem.b), (row_start, col_start))
        return row_ids(example, row_start, col_start)


def row_ids(example: Example, row_start: int = 0, col_start: int = 0) -> list[tuple[int, int, int]]:
    """The (row, column, level) IDs of a fused-row example (see the module docstring)."""
    n, m = num_digits(example.problem.a), num_digits(example.problem.b)
    ids: list[tuple[int, int, int]] = []
    row, col = 0, 0                                  # where the scratchpad is: row k, next column
    for role, sig in zip(example.roles, example.significance):
        if role == "bos":
            triple = (0, n + 1, 0)
        elif role == "a":
            triple = (0, sig + 1, 0)
        elif role == "op":
            triple = (m + 1, 0, 1)
        elif role == "b":
            triple = (sig + 1, 0, 1)
        elif role == "eq":
            triple, row, col = (0, 0, 1), 0, 1
        elif role == "sep":
            row, col = row + 1, 1
            triple = (row, 0, 2)
        elif role == "answer":
            triple, col = (row, col, 2), col + 1
        elif role == "eos":
            triple = (m + 1, 0, 2)
        else:
            raise ValueError(f"the row_coupled scheme numbers fused-row examples; role {role!r} is not one of them")
        ids.append((triple[0] + row_start, triple[1] + col_start, triple[2]))
    return ids


def nxm_scheme(name: str, random_start: bool = False, max_position: int = 64) -> RowPositions | ChoPositions:
    """The scheme called ``name`` (one of :data:`NXM_SCHEMES`)."""
    if name not in NXM_SCHEMES:
        raise ValueError(f"unknown N x M position scheme {name!r}; choose one of {NXM_SCHEMES}")
    kind = RowPositions if name == "row_coupled" else ChoPositions
    return kind(name, random_start, max_position)


__all__ = ["NXM_SCHEMES", "NXM_CHANNELS", "SCHEME_FORMAT", "RowPositions", "nxm_scheme", "row_ids"]

"""Two-dimensional position coupling (Cho et al. Section 6.2, Figure 9): a row ID and a column ID.

A board token gets a *pair* of IDs, one per channel. A cell in row r and column c (from 0) gets

    (row, column) = (s_row + 1 + r, s_col + 1 + c)

in the input board and the *same* pair in the answer board, so the cell and its answer are coupled
in both directions. ``=`` gets ``(s_row, s_col)`` and ``$`` (BOS/EOS) gets ``(0, 0)``. This is the
reference code's ``MineSweeperGeneratorDatasetWithCoupledPositions`` (which numbers the channels
column first; we put the row first). Each channel has its own start: drawn uniformly in training,
``s in 1..max_position - side``, so that every row of the table is trained, and fixed (1) at
evaluation. A side of n cells thus needs IDs up to ``start + n``; beyond ``max_position`` the
assignment raises :class:`~lengen_utils.core.positions.PositionRangeError` naming the channel and the limit.

``coupled2d_next`` is our departure (notebook 05, section 8). A decoder predicts the token *after* each
position, so in Cho's IDs the answer for cell k+1 is written at a position that carries the IDs of cell k.
Inside a row the two differ by one column, a fixed offset; at the end of a row the next cell is the first
of the next row, and the offset is "one row down, width - 1 columns back", which depends on the board's
width, so a board wider than any training board asks for an offset no training board showed. Here every
position carries the IDs of the cell it *predicts*: ``=`` gets cell 0's pair, the answer token of cell k
gets cell k+1's pair, and the last answer token gets the pair one row below the board, first column (the
next cell in reading order; the model learns that nothing is there and writes ``$``). The input cells keep
Cho's IDs. The neighbourhood a prediction reads is then always the same 3 x 3 offsets, on any board.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .example import Example
from .positions import PositionRangeError

BOARD_SCHEMES = ("coupled2d", "coupled2d_next")
CHANNELS = ("row", "column")


@dataclass(frozen=True)
class BoardPositions:
    """The 2-D coupling scheme: ``assign`` returns one ``(row ID, column ID)`` pair per token."""

    name: str = "coupled2d"
    random_start: bool = False
    max_position: int = 16
    eval_start: int = 1

    def __post_init__(self) -> None:
        if self.name not in BOARD_SCHEMES:
            raise ValueError(f"unknown board position scheme {self.name!r}; choose one of {BOARD_SCHEMES}")
        if self.max_position < 2:
            raise ValueError(f"max_position must be >= 2 (a 1-cell side needs IDs up to 2), got {self.max_position}")

    @property
    def default_start(self) -> int:
        return self.eval_start

    @property
    def predicts_next(self) -> bool:
        """True for ``coupled2d_next``: positions carry the IDs of the cell they predict."""
        return self.name == "coupled2d_next"

    def span(self, channel: int, side: int) -> int:
        """How far above its start a channel's IDs reach on a side of ``side`` cells (the row channel of
        ``coupled2d_next`` reaches one row below the board, for the closing ``$``)."""
        return side + (1 if self.predicts_next and channel == 0 else 0)

    def _check(self, channel: int, side: int, start: int) -> None:
        top = start + self.span(channel, side)
        if top > self.max_position:
            raise PositionRangeError(
                f"a board with {side} {CHANNELS[channel]}s needs {CHANNELS[channel]} IDs up to {top} "
                f"(start {start}), but the table stops at max_position={self.max_position}; use smaller boards "
                f"or a model with a larger position table")

    def starts(self, example: Example, rng: np.random.Generator | None = None) -> tuple[int, int]:
        """The two starts: drawn independently per channel with ``rng`` and ``random_start``, else fixed."""
        sides = (example.problem.height, example.problem.width)
        out = []
        for channel, side in enumerate(sides):
            if rng is not None and self.random_start:
                top = self.max_position - self.span(channel, side)
                self._check(channel, side, self.default_start)
                out.append(int(rng.integers(self.default_start, top + 1)))
            else:
                out.append(self.default_start)
        return out[0], out[1]

    def assign(self, example: Example, rng: np.random.Generator | None = None,
               start: tuple[int, int] | None = None) -> list[tuple[int, int]]:
        """``(row, column)`` IDs for every token of a board example."""
        row_start, col_start = self.starts(example, rng) if start is None else start
        board = example.problem
        for channel, (side, s) in enumerate(zip((board.height, board.width), (row_start, col_start))):
            self._check(channel, side, s)
        return board_ids(example, row_start, col_start, predicts_next=self.predicts_next)


def board_ids(example: Example, row_start: int = 1, col_start: int = 1,
              predicts_next: bool = False) -> list[tuple[int, int]]:
    """Cho et al.'s 2-D coupled IDs for a board example; with ``predicts_next``, ``coupled2d_next``'s IDs
    (``=`` and the answer cells carry the pair of the cell they predict; see the module docstring)."""
    w = example.problem.width

    def cell(k: int) -> tuple[int, int]:   # the pair of the k-th cell in reading order
        return row_start + 1 + k // w, col_start + 1 + k % w

    ids: list[tuple[int, int]] = []
    k = 0                                   # index of the cell within its board (input or answer)
    for role in example.roles:
        if role in ("bos", "eos"):
            ids.append((0, 0))
        elif role == "eq":
            ids.append(cell(0) if predicts_next else (row_start, col_start))
            k = 0
        elif role == "answer" and predicts_next:
            ids.append(cell(k + 1))
            k += 1
        else:                               # an input cell (or a Cho answer cell): row-major order
            ids.append(cell(k))
            k += 1
    return ids


__all__ = ["BOARD_SCHEMES", "CHANNELS", "BoardPositions", "board_ids"]

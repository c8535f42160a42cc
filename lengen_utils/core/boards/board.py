"""Boards of the *minesweeper generator* task (Cho et al. Section 6.2), and the samplers that draw them.

A :class:`Board` is a rectangle of cells, each a mine (``M``) or empty (``*``). Its exact answer is a
board of the same size whose cell is ``M`` where the input has a mine, and otherwise the count of
mines among its (up to) 8 adjacent cells, ``0``..``8``.

The samplers follow the reference code's data generator (HanseulJo/position-coupling,
``src/data/minesweeper.py``): width and height drawn independently and uniformly in
``min_side..max_side``, a mine ratio drawn uniformly in ``[0.1, 0.25]`` per board (their task config's
``min_mine_ratio``/``max_mine_ratio``), then every cell a mine with that probability. (Their code
compares a standard *normal* draw with the ratio, which makes about 55-60% of the cells mines; we
read the ratio as the probability it names.) Test boards are square, ``width x width``, as in the
paper's Figure 10.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..problems import ProblemError

MINE = "M"
EMPTY = "*"
#: The mine ratio range of the reference code's task config (min_mine_ratio, max_mine_ratio).
MINE_RATIO = (0.1, 0.25)
#: Widest side a board may have (a sanity limit; the task's position table is the real limit).
MAX_SIDE = 64


class BoardError(ProblemError):
    """A board the task does not cover: empty, ragged, too large, or cells other than ``M`` / ``*``."""


def _check_side(value, name: str, limit: int = MAX_SIDE) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise BoardError(f"{name} must be a whole number of cells, got {value!r} ({type(value).__name__})")
    if not 1 <= value <= limit:
        raise BoardError(f"{name}={value} is outside 1..{limit} cells")
    return int(value)


@dataclass(frozen=True)
class Board:
    """A ``height x width`` board; ``mines[r][c]`` is True where cell (r, c) holds a mine (row 0 on top).
    Rows may be given as lists or tuples; they are stored as tuples."""

    mines: tuple[tuple[bool, ...], ...]

    def __post_init__(self) -> None:
        rows = self.mines
        if not isinstance(rows, (tuple, list)):
            hint = "; convert an array with .tolist()" if hasattr(rows, "tolist") else ""
            raise BoardError(f"a board is a list (or tuple) of rows of True/False cells, got "
                             f"{type(rows).__name__} {rows!r}{hint}")
        if not rows:
            raise BoardError(f"a board needs at least one row of cells, got {rows!r}")
        rows = tuple(tuple(row) if isinstance(row, list) else row for row in rows)   # lists are read as tuples
        _check_side(len(rows), "height")
        width = _check_side(len(rows[0]) if isinstance(rows[0], tuple) else 0, "width")
        for r, row in enumerate(rows):
            if not isinstance(row, tuple) or len(row) != width:
                raise BoardError(f"row {r} has {len(row) if isinstance(row, tuple) else row!r} cells; "
                                 f"every row must have the first row's width {width}")
            if any(not isinstance(cell, (bool, np.bool_)) for cell in row):
                raise BoardError(f"row {r} holds {row!r}; cells must be True (mine) or False (empty)")
        object.__setattr__(self, "mines", tuple(tuple(bool(c) for c in row) for row in rows))

    @property
    def height(self) -> int:
        return len(self.mines)

    @property
    def width(self) -> int:
        return len(self.mines[0])

    @property
    def cells(self) -> tuple[tuple[str, ...], ...]:
        """The input board as symbols: ``M`` (mine) or ``*`` (empty)."""
        return tuple(tuple(MINE if m else EMPTY for m in row) for row in self.mines)

    @property
    def answer(self) -> tuple[tuple[str, ...], ...]:
        """The exact output board: ``M`` on a mine, else the number of mines among the 8 neighbours."""
        counts = neighbour_counts(np.array(self.mines, dtype=np.int64))
        return tuple(tuple(MINE if m else str(int(n)) for m, n in zip(mrow, nrow))
                     for mrow, nrow in zip(self.mines, counts))

    @classmethod
    def parse(cls, rows) -> "Board":
        """A board from strings of ``M`` and ``*``, e.g. ``Board.parse(["*M*", "***"])``."""
        if isinstance(rows, str):
            rows = rows.split()
        if not isinstance(rows, (list, tuple)) or not rows:
            raise BoardError(f"Board.parse needs a list of row strings such as ['*M*', '***'], got {rows!r}")
        out = []
        for r, row in enumerate(rows):
            if not isinstance(row, str) or not row or set(row) - {MINE, EMPTY}:
                raise BoardError(f"row {r} is {row!r}; rows are non-empty strings of {MINE!r} (mine) and "
                                 f"{EMPTY!r} (empty cell)")
            out.append(tuple(ch == MINE for ch in row))
        return cls(tuple(out))

    def text(self) -> str:
        """The input board, one line per row."""
        return "\n".join("".join(row) for row in self.cells)


def neighbour_counts(mines: np.ndarray) -> np.ndarray:
    """For a 0/1 array ``[H, W]``, the number of mines among each cell's 8 neighbours (the cell excluded)."""
    h, w = mines.shape
    padded = np.zeros((h + 2, w + 2), dtype=np.int64)
    padded[1:-1, 1:-1] = mines
    total = sum(padded[1 + dr:1 + dr + h, 1 + dc:1 + dc + w]
                for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0))
    return total


def random_board(rng: np.random.Generator, height: int, width: int,
                 mine_ratio: tuple[float, float] = MINE_RATIO) -> Board:
    """One board: a ratio drawn uniformly in ``mine_ratio``, then each cell a mine with that probability."""
    height, width = _check_side(height, "height"), _check_side(width, "width")
    low, high = mine_ratio
    if not 0 <= low <= high <= 1:
        raise BoardError(f"mine_ratio must be 0 <= low <= high <= 1, got {mine_ratio!r}")
    p = rng.uniform(low, high)
    return Board(tuple(map(tuple, (rng.random((height, width)) < p).tolist())))


def sample_boards(rng: np.random.Generator, n: int, min_side: int, max_side: int) -> list[Board]:
    """Training boards: width and height each uniform in ``min_side..max_side`` (Cho et al.: 5-9 each)."""
    min_side, max_side = _check_side(min_side, "min_side"), _check_side(max_side, "max_side")
    if min_side > max_side:
        raise BoardError(f"min_side={min_side} exceeds max_side={max_side}")
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
        raise BoardError(f"the number of boards must be a whole number >= 1, got {n!r}")
    sides = rng.integers(min_side, max_side + 1, size=(n, 2))
    return [random_board(rng, int(h), int(w)) for w, h in sides]


def sample_square_boards(rng: np.random.Generator, width: int, n: int) -> list[Board]:
    """Test boards: ``n`` square boards of side ``width`` (the paper's Figure 10 test sets)."""
    width = _check_side(width, "width")
    return sample_boards(rng, n, width, width)


__all__ = ["MINE", "EMPTY", "MINE_RATIO", "MAX_SIDE", "Board", "BoardError", "neighbour_counts",
           "random_board", "sample_boards", "sample_square_boards"]

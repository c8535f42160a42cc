"""The minesweeper generator's format (Cho et al. Section 6.2, Figure 9): a board in, its counts out.

The board is flattened row by row into one sequence, then ``=``, then the answer board flattened
the same way, wrapped in ``$`` (BOS/EOS) like Cho's arithmetic format::

    board  * M      sequence  $ * M M * = 2 M M 2 $
           M *

Cells are the tokens ``M`` (mine) and ``*`` (empty); answer cells are ``M`` or a count ``0``..``8``.
The next-token targets run from ``=`` to the closing ``$``, so an exact match needs every answer cell
and the ``$`` right. The structure of the board is *not* in the tokens (no row separators): it is in
the two position-ID channels of :mod:`lengen_utils.core.positions2d`. The result is the same
:class:`~lengen_utils.core.formats.Example` every other format produces (roles ``bos``, ``cell``, ``eq``,
``answer``, ``eos``; no significance), with the :class:`~lengen_utils.core.boards.Board` as its problem.
"""
from __future__ import annotations

from .board import Board
from ..example import Example
from ..vocab import BOS_EOS, FormatError, render

#: The board formats (kept apart from :data:`~lengen_utils.core.formats.FORMATS`, whose formats write numbers).
BOARD_FORMATS = ("minesweeper",)


def encode_board(board: Board, format_name: str = "minesweeper") -> Example:
    """Write ``board`` and its answer as one decoder sequence ``$ cells = answer cells $``."""
    if format_name not in BOARD_FORMATS:
        raise FormatError(f"unknown board format {format_name!r}; choose one of {BOARD_FORMATS}")
    if not isinstance(board, Board):
        raise FormatError(f"encode_board needs a Board, got {type(board).__name__} {board!r}; "
                          f"build one with Board.parse(['*M', 'M*'])")
    cells = [c for row in board.cells for c in row]
    answer = [c for row in board.answer for c in row]
    tokens = [BOS_EOS, *cells, "=", *answer, BOS_EOS]
    roles = ["bos", *["cell"] * len(cells), "eq", *["answer"] * len(answer), "eos"]
    eq = 1 + len(cells)
    targets: list[str | None] = [None] * len(tokens)
    for i in range(eq, len(tokens) - 1):        # next-token prediction from '=' on
        targets[i] = tokens[i + 1]
    return Example(tuple(tokens), tuple(targets), tuple(roles), (None,) * len(tokens), board, format_name,
                   causal=True, answer_width=len(answer))


def decode_board(example: Example, predicted: list[str | None] | None = None) -> tuple[tuple[str, ...], ...]:
    """The answer board read back from the supervised positions (the example's own targets by default).

    ``predicted[i]`` is what a model produced at position i; a prediction of the wrong length or one
    that does not end with ``$`` raises :class:`~lengen_utils.core.formats.FormatError`.
    """
    board = example.problem
    if not isinstance(board, Board):
        raise FormatError(f"decode_board reads board examples; this one holds a {type(board).__name__}")
    source = example.targets if predicted is None else predicted
    if len(source) != len(example):
        raise FormatError(f"predicted has {len(source)} symbols; the example has {len(example)} positions")
    symbols = [source[i] for i in example.supervised]
    if symbols[-1] != BOS_EOS:
        raise FormatError(f"the answer board should end with {BOS_EOS!r}, got {render(symbols[-1:])!r}")
    cells = symbols[:-1]
    w = board.width
    return tuple(tuple(cells[r * w:(r + 1) * w]) for r in range(board.height))


__all__ = ["BOARD_FORMATS", "encode_board", "decode_board"]

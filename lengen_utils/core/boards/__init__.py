"""The 2-D task's boards (Cho et al. Section 6.2, the minesweeper generator): :mod:`.board` (a board and its
samplers, re-exported here), :mod:`.format` (its tokens) and :mod:`.task` (the task class beside the arithmetic one)."""
from .board import (MINE, Board, BoardError, neighbour_counts, random_board, sample_boards,  # noqa: F401
                    sample_square_boards)

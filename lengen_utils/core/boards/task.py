"""The 2-D task: Cho et al.'s minesweeper generator (Section 6.2), beside the arithmetic task.

A problem is a :class:`~lengen_utils.core.boards.Board`; training boards have ``min_digits..max_digits`` cells per
side (:attr:`BoardTask.sides`; width and height drawn apart), and an evaluation "length" is the width of a square
board (Cho et al.'s Figure 10). Each token gets a (row, column) pair of IDs (:mod:`~lengen_utils.core.positions2d`);
packed boards lie one below the other in row IDs. The model and the training loop are the arithmetic task's.
"""
from __future__ import annotations

import numpy as np

from .format import encode_board
from .board import Board, sample_boards, sample_square_boards
from ..config_checks import ConfigError, require_int
from ..constants import EVAL_SEED
from ..example import Example
from ..positions2d import BoardPositions
from ..problems import ProblemError
from ..task_base import Task
from ..task_config import BOARD_PACK_GAP


class BoardTask(Task, kind="minesweeper"):
    """Samples, encodes and batches minesweeper boards."""

    def _position_scheme(self) -> BoardPositions:
        c = self.config
        return BoardPositions(c.positions, c.random_start, c.max_position)

    @property
    def sides(self) -> tuple[int, int]:
        """The fewest and most cells per side of a training board (the config's ``min_digits, max_digits``)."""
        return self.config.min_digits, self.config.max_digits

    def at_start(self, start: int) -> Task:
        raise ConfigError("at_start is for arithmetic tasks; a board task has one start per ID channel")

    def longest_operand(self) -> int:
        raise ConfigError("longest_operand is for arithmetic tasks; a board's size limit is per ID channel")

    def sample_train_problems(self, rng: np.random.Generator, n: int, progress: float | None = None) -> list[Board]:
        """``n`` training boards, each side drawn in :attr:`sides` (no curriculum: the config refuses one)."""
        return sample_boards(rng, n, *self.sides)

    def eval_problems(self, length: int, n: int, seed: int = EVAL_SEED) -> list[Board]:
        """A fixed test set: ``n`` square boards of side ``length``, as in Cho et al.'s Figure 10."""
        seed = require_int(seed, "seed", error=ProblemError)
        return sample_square_boards(np.random.default_rng([seed, length]), length, n)

    def example(self, problem: Board, rng: np.random.Generator | None = None) -> Example:
        return encode_board(problem, self.config.format)

    def _packed_ids(self, group: list[Example], rng: np.random.Generator) -> list[list[tuple[int, int]]]:
        """Packed boards lie one below the other in row IDs, each in its own band of rows (at least
        :data:`BOARD_PACK_GAP` rows apart, so no cell of one board is a neighbour of a cell of another); the column
        start of each board is drawn on its own."""
        rows = [self.scheme.span(0, e.problem.height) + 1 + BOARD_PACK_GAP for e in group]
        row_starts = self._random_slots(rows, self.scheme.default_start, rng)
        ids = []
        for e, row_start in zip(group, row_starts):
            col_start = self.scheme.starts(e, rng)[1]
            ids.append(self.scheme.assign(e, start=(row_start, col_start)))
        return ids


__all__ = ["BoardTask"]

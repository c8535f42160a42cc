"""Where a board model errs: the accuracy of every answer cell, and the cells that start a new row.

Exact match on a board needs every cell right, so one weak cell position sinks it. These functions split
the errors by where the cell sits (teacher forcing: every answer cell is predicted from the true cells
before it), which is how notebook 05 found the end of a row to be the weak spot of Cho's 2-D IDs.
"""
from __future__ import annotations

import numpy as np

from ..constants import EVAL_SEED
from ..model import Transformer
from ..tasks import BoardTask, Task
from .lengths import check_positive_int, check_seed, teacher_forced_predictions


def cell_accuracy(model: Transformer, task: Task, width: int, n: int, seed: int = EVAL_SEED) -> np.ndarray:
    """``[width, width]``: how often each answer cell of a square test board is right (teacher forcing)."""
    check_positive_int(width, "width")
    check_positive_int(n, "n")
    check_seed(seed)
    if not isinstance(task, BoardTask):
        raise ValueError(f"cell_accuracy reads board tasks; this task is {task.config.task!r}")
    batch = task.batch(task.eval_problems(width, n, seed=seed))
    preds = teacher_forced_predictions(model, batch)
    where = list(batch.examples[0].supervised[:-1])          # the positions that predict the answer cells
    right = (preds[:, where] == batch.targets[:, where]).float().mean(0)
    return right.cpu().numpy().reshape(width, width)


def row_start_split(grid: np.ndarray) -> dict[str, float]:
    """Mean accuracy of the first cell of rows 2 onwards (the cell after a row ends) and of all other cells."""
    grid = np.asarray(grid, dtype=float)
    if grid.ndim != 2 or grid.shape[0] < 2:
        raise ValueError(f"row_start_split needs a grid of at least 2 rows, got shape {grid.shape}")
    others = np.concatenate([grid[0], grid[1:, 1:].ravel()])
    return {"first column (rows 2+)": float(grid[1:, 0].mean()), "all other cells": float(others.mean())}


__all__ = ["cell_accuracy", "row_start_split"]

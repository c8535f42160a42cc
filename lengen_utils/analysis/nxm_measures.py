"""Measures of an N x M multiplication model (notebook 09): exact match over a grid of operand lengths, and where
the errors sit in the fused-row scratchpad (by row and column).

Every score is teacher-forced: the model reads the true scratchpad and each position's argmax is compared with the
next token. An exact match needs every supervised token right, which is the same event as greedy decoding writing
the whole scratchpad, and so the product, correctly (a greedy run diverges only after its first wrong token).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

import numpy as np

from ..core.constants import EVAL_SEED, IGNORE_INDEX
from ..core.evaluate.lengths import eval_batches, teacher_forced_predictions
from ..core.model import Transformer
from ..core.nxm.positions import row_ids
from ..core.nxm.task import NxMTask
from ..core.problems import Problem


@dataclass(frozen=True)
class CellResult:
    """One cell of the grid: ``count`` products of an ``n_digits`` by an ``m_digits`` number."""

    n_digits: int
    m_digits: int
    count: int
    exact_match: float       # share of products whose whole scratchpad is right
    token_accuracy: float    # share of supervised tokens right


def _scores(model: Transformer, task: NxMTask, problems: list[Problem], batch_size: int):
    """Per batch: the batch and a ``[B, T]`` array that is True where a supervised token is wrong."""
    for batch in eval_batches(model, task, problems, batch_size):
        preds = teacher_forced_predictions(model, batch)
        supervised = batch.targets != IGNORE_INDEX
        yield batch, ((preds != batch.targets) & supervised).cpu().numpy(), supervised.cpu().numpy()


def evaluate_cell(model: Transformer, task: NxMTask, n_digits: int, m_digits: int, count: int,
                  seed: int = EVAL_SEED, batch_size: int = 200) -> CellResult:
    """Exact match and token accuracy on the task's fixed test set of one cell."""
    problems = task.cell_problems(n_digits, m_digits, count, seed)
    right, wrong_tokens, tokens = 0, 0, 0
    for _batch, wrong, supervised in _scores(model, task, problems, batch_size):
        right += int((~wrong.any(1)).sum())
        wrong_tokens += int(wrong.sum())
        tokens += int(supervised.sum())
    return CellResult(n_digits, m_digits, count, right / count, 1 - wrong_tokens / tokens)


def evaluate_grid(model: Transformer, task: NxMTask, n_values: Iterable[int], m_values: Iterable[int], count: int,
                  seed: int = EVAL_SEED, progress: bool = False) -> dict[tuple[int, int], CellResult]:
    """:func:`evaluate_cell` for every ``(n, m)`` of the grid ``n_values x m_values``."""
    from tqdm.auto import tqdm  # third-party, imported lazily (pulls in ipywidgets in notebooks)

    cells = [(n, m) for n in n_values for m in m_values]
    return {(n, m): evaluate_cell(model, task, n, m, count, seed)
            for n, m in tqdm(cells, desc="grid", disable=not progress, leave=False)}


def error_map(model: Transformer, task: NxMTask, problems: list[Problem], batch_size: int = 200) -> np.ndarray:
    """Error rate of each scratchpad place, ``[rows, columns]``: entry ``[k, c]`` is the share of wrong predictions
    of the token at row ``k`` and column ``c`` (column 0: the ``+`` or ``$`` that closes the row before; column
    ``t + 1``: digit ``t``), over ``problems`` of one shape (a cell of the grid)."""
    shapes = {(len(str(p.a)), len(str(p.b))) for p in problems}
    if len(shapes) != 1:
        raise ValueError(f"error_map reads problems of one shape (one cell of the grid), got shapes {sorted(shapes)}")
    (n, m), = shapes
    wrong_sum, seen = np.zeros((m + 2, n + 2)), np.zeros((m + 2, n + 2))
    for batch, wrong, supervised in _scores(model, task, problems, batch_size):
        for b, example in enumerate(batch.examples):
            ids = row_ids(example)
            for i in np.flatnonzero(supervised[b]):
                row, col, level = ids[i + 1]
                if level == 2:
                    wrong_sum[row, col] += wrong[b, i]
                    seen[row, col] += 1
    with np.errstate(invalid="ignore"):
        return np.where(seen > 0, wrong_sum / np.maximum(seen, 1), np.nan)


__all__ = ["CellResult", "evaluate_cell", "evaluate_grid", "error_map"]

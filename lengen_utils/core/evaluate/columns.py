"""What a multiplication encoder with a carry head gets right, column by column (notebook 04, section 4).

Answer digit ``s`` of ``a x b`` is ``(column sum + carry) mod 10``: the column sum adds the ``k`` digit products
``a_{s-r} b_r``, the carry comes from every column below (:func:`~lengen_utils.core.carries.column_carries`). A model
trained with carry targets (``TaskConfig.carry_targets``) also reads out the carry it computed, so the two parts
can be told apart: if the carry read-out is right and the digit is wrong, the column sum is what failed.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from ..batches import carry_target_ids
from ..constants import EVAL_SEED
from ..model import Transformer
from ..tasks import Task
from .lengths import check_positive_int, check_seed


@dataclass(frozen=True)
class ColumnScore:
    """One answer column ``s`` at one length, over the test problems."""

    digit: float            # the answer digit is right
    carry: float            # the carry read-out is right
    digit_if_carry: float   # the answer digit is right, among the problems whose carry read-out is right (nan: none)


def column_scores(model: Transformer, task: Task, length: int, n: int = 500,
                  seed: int = EVAL_SEED) -> dict[int, ColumnScore]:
    """``{s: ColumnScore}`` for the answer columns ``s = 0..length + k - 1`` of ``n`` fixed test problems with
    ``length``-digit multiplicands (one encoder pass; the model needs a carry head)."""
    if model.carry_head is None:
        raise ValueError("column_scores reads the carry head: this model has none (ModelConfig.carry_classes=0); "
                         "train it with TaskConfig(carry_targets=True)")
    if task.config.op != "*" or model.cfg.causal:
        raise ValueError(f"column_scores is for a multiplication encoder, not op={task.config.op!r} "
                         f"with causal={model.cfg.causal}")
    check_positive_int(length, "length")
    check_positive_int(n, "n")
    check_seed(seed)
    batch = task.batch(task.eval_problems(length, n, seed))
    carries = carry_target_ids(batch.examples, batch.tokens.shape[1])
    model.eval()
    with torch.no_grad():
        logits, hidden = model(**batch.model_inputs(), return_hidden=True)
        carry_logits, _ = model.column_logits(hidden)
    digit_ok = (logits.argmax(-1) == batch.targets).numpy()
    carry_ok = (carry_logits.argmax(-1) == carries).numpy()
    width = length + (task.config.multiplier_digits or 1)
    by_column: dict[int, tuple[list[bool], list[bool]]] = {s: ([], []) for s in range(width)}
    for row, ex in enumerate(batch.examples):
        for pos, s in zip(ex.supervised, ex.target_significance):
            if s in by_column:
                by_column[s][0].append(bool(digit_ok[row, pos]))
                by_column[s][1].append(bool(carry_ok[row, pos]))
    scores = {}
    for s, (digits, carried) in by_column.items():
        d, c = np.array(digits), np.array(carried)
        scores[s] = ColumnScore(float(d.mean()), float(c.mean()), float(d[c].mean()) if c.any() else float("nan"))
    return scores


__all__ = ["ColumnScore", "column_scores"]

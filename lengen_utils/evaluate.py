"""Exact match and per-digit accuracy, teacher-forced and by greedy decoding.

* **Exact match (EM)**: every supervised token right (Sabbaghi: "an output is deemed correct only if all
  digits, including pad symbols, are correct"; Cho: every answer token and the closing ``$``).
* **Per-digit accuracy**: accuracy of the answer digit of each significance (Sabbaghi Table 1).
* **Teacher-forced** reads all predictions from one forward pass over the true sequence;
  **greedy** feeds the model its own outputs. For a decoder the two EMs agree example by example
  (if every teacher-forced step is right, greedy reproduces the answer, and conversely); for an
  encoder they are the same computation.
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

import numpy as np
import torch

from .device import autocast
from .model import Transformer
from .tasks import Batch, Task


@dataclass
class LengthResult:
    length: int
    n: int
    exact_match: float
    per_digit: dict[int, float] = field(default_factory=dict)   # significance -> accuracy


@torch.no_grad()
def teacher_forced_predictions(model: Transformer, batch: Batch) -> torch.Tensor:
    """Argmax token at every position of the true sequence, ``[B, T]``."""
    model.eval()
    with autocast(model.device):
        logits = model(**batch.model_inputs())
    return logits.argmax(-1)


@torch.no_grad()
def greedy_predictions(model: Transformer, batch: Batch) -> torch.Tensor:
    """Predictions when the model reads its own earlier outputs (decoder) or one pass (encoder).

    Position IDs of the answer do not depend on its digits (they follow the answer width), so the
    whole ID sequence is known before decoding starts.
    """
    if not model.cfg.causal:
        return teacher_forced_predictions(model, batch)
    model.eval()
    tokens = batch.tokens.clone()
    supervised = batch.targets != -100
    first = supervised.float().argmax(1)                    # the '=' position of each example
    steps = int(supervised.sum(1).max())
    rows = torch.arange(tokens.shape[0], device=tokens.device)
    preds = torch.full_like(tokens, -1)
    for t in range(steps):
        pos = first + t
        active = supervised[rows, pos.clamp(max=tokens.shape[1] - 1)] & (pos < tokens.shape[1])
        with autocast(model.device):
            logits = model(tokens, batch.position_ids, batch.key_padding, batch.uniform_slots)
        step_pred = logits[rows, pos.clamp(max=tokens.shape[1] - 1)].argmax(-1)
        preds[rows[active], pos[active]] = step_pred[active]
        nxt = (pos + 1).clamp(max=tokens.shape[1] - 1)
        write = active & (pos + 1 < tokens.shape[1])
        tokens[rows[write], nxt[write]] = step_pred[write]
    return preds


def score(batch: Batch, preds: torch.Tensor) -> tuple[np.ndarray, dict[int, tuple[int, int]]]:
    """Per-example exact match (bool array) and per-significance (correct, total) counts."""
    supervised = batch.targets != -100
    right = (preds == batch.targets) | ~supervised
    em = right.all(1).cpu().numpy()
    per_digit: dict[int, list[int]] = defaultdict(lambda: [0, 0])
    right_np = right.cpu().numpy()
    for b, ex in enumerate(batch.examples):
        for i, s in zip(ex.supervised, ex.target_significance):
            if s is not None:
                per_digit[s][0] += int(right_np[b, i])
                per_digit[s][1] += 1
    return em, {s: (c, t) for s, (c, t) in per_digit.items()}


def evaluate_length(model: Transformer, task: Task, length: int, n: int = 1000, seed: int = 999,
                    batch_size: int = 500, greedy: bool = False) -> LengthResult:
    """EM and per-digit accuracy on ``n`` fixed problems whose operands have ``length`` digits."""
    return evaluate_problems(model, task, task.eval_problems(length, n, seed), length, batch_size, greedy)


def evaluate_problems(model: Transformer, task: Task, problems, length: int = 0, batch_size: int = 500,
                      greedy: bool = False) -> LengthResult:
    """EM and per-digit accuracy on any list of problems (e.g. shifted in-distribution data);
    ``length`` is only a label stored in the result."""
    problems = list(problems)
    if not problems:
        raise ValueError("evaluate_problems needs at least one problem")
    n = len(problems)
    ems, counts = [], defaultdict(lambda: [0, 0])
    for start in range(0, n, batch_size):
        batch = task.batch(problems[start:start + batch_size]).to(model.device)
        preds = greedy_predictions(model, batch) if greedy else teacher_forced_predictions(model, batch)
        em, per = score(batch, preds)
        ems.append(em)
        for s, (c, t) in per.items():
            counts[s][0] += c
            counts[s][1] += t
    em_all = np.concatenate(ems)
    return LengthResult(length, n, float(em_all.mean()), {s: c / t for s, (c, t) in sorted(counts.items())})


def evaluate_lengths(model: Transformer, task: Task, lengths, n: int = 1000, seed: int = 999,
                     batch_size: int = 500, greedy: bool = False, progress: bool = False) -> dict[int, LengthResult]:
    """:func:`evaluate_length` for each length; returns ``{length: LengthResult}``."""
    from tqdm.auto import tqdm

    out = {}
    for length in tqdm(list(lengths), desc="evaluating", disable=not progress, leave=False):
        out[int(length)] = evaluate_length(model, task, int(length), n, seed, batch_size, greedy)
    return out


def exact_match_table(results: dict[int, LengthResult]) -> dict[int, float]:
    return {k: r.exact_match for k, r in results.items()}


@torch.no_grad()
def predict(model: Transformer, task: Task, problems) -> list[int | None]:
    """Greedy answers to ``problems`` as ints (None where the output is not a number)."""
    from .formats import FormatError, decode_answer, ids_to_tokens

    batch = task.batch(list(problems)).to(model.device)
    preds = greedy_predictions(model, batch).cpu()
    answers = []
    for b, ex in enumerate(batch.examples):
        predicted = [None] * len(ex)
        for i in ex.supervised:
            predicted[i] = ids_to_tokens([max(int(preds[b, i]), 0)])[0]
        try:
            answers.append(decode_answer(ex, predicted))
        except FormatError:
            answers.append(None)
    return answers

"""Exact match and per-digit accuracy by operand length, teacher-forced and by greedy decoding.

* **Exact match (EM)**: every supervised token right (Sabbaghi: "an output is deemed correct only if all
  digits, including pad symbols, are correct"; Cho: every answer token and the closing ``$``).
* **Per-digit accuracy**: accuracy of the answer digit of each significance (Sabbaghi Table 1).
* **Teacher-forced** reads all predictions from one forward pass over the true sequence;
  **greedy** feeds the model its own outputs. For a decoder the two EMs agree example by example
  (if every teacher-forced step is right, greedy reproduces the answer, and conversely); for an
  encoder they are the same computation.

Long inputs (:mod:`lengen_utils.core.model.blocked`): a decoder reads a sequence longer than ``QUERY_BLOCK``
positions in blocks of queries through a KV cache (teacher forcing and greedy decoding's prompt alike), so
no ``[B, H, T, T]`` tensor is built; position IDs that every problem of a batch shares are passed once
(the biases broadcast); and ``batch_size`` is an upper bound, cut for long sequences so that a batch's
estimated activations fit in ``EVAL_MEMORY_BYTES`` (:func:`~lengen_utils.core.model.blocked.rows_within_budget`).
None of these changes a result beyond float rounding.

Arguments are checked before any model call: a length, a test-set size or a batch size that is not a
positive integer, a seed that is not an int, and an empty list of problems, raise :class:`EvaluationError` (a
``ValueError``); a value of the wrong type is named by its type (``got the string '3'``).
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field, replace
from typing import Iterable, Iterator, Sequence

import numpy as np
import torch

from ..batches import Batch
from ..compatibility import check_compatible
from ..config_checks import is_int, require_int, type_phrase
from ..constants import EVAL_SEED, IGNORE_INDEX
from ..device import autocast
from ..example import decode_answer
from ..model import Transformer, greedy_decode
from ..model.blocked import QUERY_BLOCK, blocked_forward, rows_within_budget, shared_rows
from ..boards.board import Board
from ..problems import Problem
from ..tasks import Task
from ..vocab import FormatError, ids_to_tokens

__all__ = [
    "EvaluationError", "LengthResult", "teacher_forced_predictions", "greedy_predictions", "score",
    "predictions", "evaluate_length", "evaluate_problems", "evaluate_lengths", "exact_match_table", "predict",
    "eval_batches", "with_shared_positions",
]


class EvaluationError(ValueError):
    """An evaluation request that cannot run: no problems, or a length, size or batch size that is not
    a positive integer."""


def check_positive_int(value: object, name: str) -> int:
    """``value`` as an int, or :class:`EvaluationError` naming ``name`` and the limit (an integer >= 1).

    Floats are refused even when whole (``2.7`` must not run as length 2); bools and strings are refused too,
    by their type's name (``got the string '3'``)."""
    value = require_int(value, name, error=EvaluationError, expected="an integer >= 1")
    if value < 1:
        raise EvaluationError(f"{name} must be an integer >= 1, got {value}")
    return value


def check_seed(seed: object) -> int:
    """``seed`` (of a test set) as an int, or :class:`EvaluationError` naming its type: NumPy would take
    ``True`` or ``'1'`` as some other seed and measure on another test set without a word."""
    return require_int(seed, "seed", error=EvaluationError)


def check_problems(problems: Iterable[Problem], caller: str) -> list[Problem]:
    """``problems`` as a non-empty list of :class:`~lengen_utils.core.problems.Problem`, else :class:`EvaluationError`."""
    if isinstance(problems, Problem):
        raise EvaluationError(f"{caller} takes a list of problems, got a single Problem; wrap it in a list")
    problems = list(problems)
    if not problems:
        raise EvaluationError(f"{caller} needs at least one problem, got an empty list")
    for i, p in enumerate(problems):
        if not isinstance(p, (Problem, Board)):   # a Board: the minesweeper task (Cho et al. Section 6.2)
            raise EvaluationError(f"{caller} takes Problem objects; item {i} is {p!r} ({type(p).__name__})")
    return problems


@dataclass
class LengthResult:
    """EM and per-digit accuracy on ``n`` problems of operand length ``length``."""

    length: int
    n: int
    exact_match: float
    per_digit: dict[int, float] = field(default_factory=dict)   # significance -> accuracy


def with_shared_positions(batch: Batch) -> Batch:
    """``batch`` with its position IDs (and UPE slots) as one row when every problem has the same ones
    (:func:`~lengen_utils.core.model.blocked.shared_rows`; only checked on the CPU, where batches are built)."""
    ids, slots = shared_rows(batch.position_ids), shared_rows(batch.uniform_slots)
    if ids is batch.position_ids and slots is batch.uniform_slots:
        return batch
    return replace(batch, position_ids=ids, uniform_slots=slots)


def _rows(batch: Batch, a: int, b: int) -> Batch:
    """Rows ``a:b`` of a batch as built by :meth:`~lengen_utils.core.tasks.Task.batch` (one row per problem)."""
    pick = lambda t: None if t is None else t[a:b]  # noqa: E731
    return Batch(batch.tokens[a:b], batch.targets[a:b], batch.position_ids[a:b], batch.key_padding[a:b],
                 pick(batch.uniform_slots), batch.examples[a:b], number_ids=pick(batch.number_ids),
                 digits=pick(batch.digits))


def eval_batches(model: Transformer, task: Task, problems: Sequence[Problem], batch_size: int) -> Iterator[Batch]:
    """``problems`` encoded in batches of at most ``batch_size`` on the model's device; a batch of long
    sequences is cut to :func:`~lengen_utils.core.model.blocked.rows_within_budget` rows, and its position IDs
    are shared when every row has the same (:func:`with_shared_positions`)."""
    for start in range(0, len(problems), batch_size):
        batch = task.batch(list(problems[start:start + batch_size]))
        rows = rows_within_budget(model.cfg, batch.tokens.shape[1], len(batch.examples))
        for a in range(0, len(batch.examples), rows):
            part = batch if rows >= len(batch.examples) else _rows(batch, a, a + rows)
            yield with_shared_positions(part).to(model.device)


def _digits(model: Transformer, batch: Batch) -> torch.Tensor | None:
    """Each row's operand length, for a model whose loops grow with it (else ``None``)."""
    return batch.digits if model.cfg.reads_digits else None


@torch.no_grad()
def teacher_forced_predictions(model: Transformer, batch: Batch) -> torch.Tensor:
    """Argmax token at every position of the true sequence, ``[B, T]``; a decoder reads a sequence longer
    than ``QUERY_BLOCK`` positions in blocks of queries (:func:`~lengen_utils.core.model.blocked.blocked_forward`)."""
    model.eval()
    batch = with_shared_positions(batch)
    with autocast(model.device):
        if model.cfg.causal and batch.number_ids is None and batch.tokens.shape[1] > QUERY_BLOCK:
            logits = blocked_forward(model, batch.tokens, batch.position_ids, batch.key_padding,
                                     batch.uniform_slots, block=QUERY_BLOCK, digits=_digits(model, batch))
        else:
            logits = model(**batch.model_inputs(digits=model.cfg.reads_digits))
    return logits.argmax(-1)


@torch.no_grad()
def greedy_predictions(model: Transformer, batch: Batch) -> torch.Tensor:
    """Predictions when the model reads its own earlier outputs (decoder: KV-cached greedy decoding,
    :func:`lengen_utils.core.model.greedy_decode`) or one pass (encoder).

    Position IDs of the answer do not depend on its digits (they follow the answer width), so the
    whole ID sequence is known before decoding starts.
    """
    if not model.cfg.causal:
        return teacher_forced_predictions(model, batch)
    model.eval()
    batch = with_shared_positions(batch)
    with autocast(model.device):
        return greedy_decode(model, batch.tokens, batch.position_ids, batch.targets != IGNORE_INDEX,
                             batch.key_padding, batch.uniform_slots, block=QUERY_BLOCK, digits=_digits(model, batch))


def predictions(model: Transformer, batch: Batch, greedy: bool = False) -> torch.Tensor:
    """:func:`greedy_predictions` or :func:`teacher_forced_predictions` of one batch."""
    return greedy_predictions(model, batch) if greedy else teacher_forced_predictions(model, batch)


def score(batch: Batch, preds: torch.Tensor) -> tuple[np.ndarray, dict[int, tuple[int, int]]]:
    """Per-example exact match (bool array) and per-significance (correct, total) counts."""
    supervised = batch.targets != IGNORE_INDEX
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


def evaluate_length(model: Transformer, task: Task, length: int, n: int = 1000, seed: int = EVAL_SEED,
                    batch_size: int = 500, greedy: bool = False) -> LengthResult:
    """EM and per-digit accuracy on ``n`` fixed problems whose operands have ``length`` digits.

    ``batch_size`` is an upper bound: long sequences run in smaller batches (:func:`eval_batches`)."""
    length = check_positive_int(length, "length (operand digits)")
    n = check_positive_int(n, "n (problems per length)")
    seed = check_seed(seed)
    batch_size = check_positive_int(batch_size, "batch_size")
    return evaluate_problems(model, task, task.eval_problems(length, n, seed), length, batch_size, greedy)


def evaluate_problems(model: Transformer, task: Task, problems: Iterable[Problem], length: int = 0,
                      batch_size: int = 500, greedy: bool = False) -> LengthResult:
    """EM and per-digit accuracy on any list of problems (e.g. shifted in-distribution data);
    ``length`` is only a label stored in the result."""
    problems = check_problems(problems, "evaluate_problems")
    batch_size = check_positive_int(batch_size, "batch_size")
    check_compatible(model.cfg, task.config)
    n = len(problems)
    ems, counts = [], defaultdict(lambda: [0, 0])
    for batch in eval_batches(model, task, problems, batch_size):
        em, per = score(batch, predictions(model, batch, greedy))
        ems.append(em)
        for s, (c, t) in per.items():
            counts[s][0] += c
            counts[s][1] += t
    em_all = np.concatenate(ems)
    return LengthResult(length, n, float(em_all.mean()), {s: c / t for s, (c, t) in sorted(counts.items())})


def evaluate_lengths(model: Transformer, task: Task, lengths: Iterable[int], n: int = 1000, seed: int = EVAL_SEED,
                     batch_size: int = 500, greedy: bool = False, progress: bool = False) -> dict[int, LengthResult]:
    """:func:`evaluate_length` for each length; returns ``{length: LengthResult}``.

    Every length is checked (an integer >= 1) before the first one is evaluated."""
    if isinstance(lengths, (str, bytes)) or not isinstance(lengths, Iterable):
        one = f" (write [{lengths}] for one length)" if is_int(lengths) else ""
        raise EvaluationError(f"lengths must be a list of integers >= 1, got {type_phrase(lengths)}{one}")
    lengths = [check_positive_int(length, "length (operand digits)") for length in lengths]
    if not lengths:
        raise EvaluationError("lengths is empty: give at least one operand length (an integer >= 1)")
    n = check_positive_int(n, "n (problems per length)")
    seed = check_seed(seed)
    batch_size = check_positive_int(batch_size, "batch_size")
    from tqdm.auto import tqdm  # third-party, imported lazily (pulls in ipywidgets in notebooks)

    return {length: evaluate_length(model, task, length, n, seed, batch_size, greedy)
            for length in tqdm(lengths, desc="evaluating", disable=not progress, leave=False)}


def exact_match_table(results: dict[int, LengthResult]) -> dict[int, float]:
    """``{length: exact match}`` of :func:`evaluate_lengths`'s results."""
    return {k: r.exact_match for k, r in results.items()}


@torch.no_grad()
def predict(model: Transformer, task: Task, problems: Sequence[Problem], batch_size: int = 500) -> list[int | None]:
    """Greedy answers to ``problems`` as ints (None where the output is not a number)."""
    problems = check_problems(problems, "predict")
    boards = [i for i, p in enumerate(problems) if isinstance(p, Board)]
    if boards:   # a board's answer is a grid of counts, not a number: returning None would hide that
        raise EvaluationError(f"predict decodes numeric answers; item {boards[0]} is a minesweeper Board. "
                              f"Score boards with evaluate_lengths (exact match of the whole count board)")
    batch_size = check_positive_int(batch_size, "batch_size")
    check_compatible(model.cfg, task.config)
    answers: list[int | None] = []
    for batch in eval_batches(model, task, problems, batch_size):
        preds = greedy_predictions(model, batch).cpu()
        for b, ex in enumerate(batch.examples):
            predicted = [None] * len(ex)
            for i in ex.supervised:
                predicted[i] = ids_to_tokens([max(int(preds[b, i]), 0)])[0]
            try:
                answers.append(decode_answer(ex, predicted))
            except FormatError:
                answers.append(None)
    return answers

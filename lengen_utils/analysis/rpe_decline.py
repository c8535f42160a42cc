"""Why an RPE encoder trained on short sums fails on long ones: three measurements that can tell the causes apart.

An encoder in Sabbaghi et al.'s format (``format="sabbaghi"``: operand ``a`` right-aligned in a frame of ``l``
tokens, the operator, then ``b`` right-aligned in the next frame; the answer is read at the operator and the ``b``
positions) trained on sums of at most ``max_digits`` digits loses exact match on longer sums. The carry-cascade
explanation predicts that the long-range digits fail first and that sums without long cascades stay right. Each
function below measures one prediction:

* :func:`digit_accuracy_by_significance`: accuracy of each answer digit by significance (0 = units digit). Under
  the cascade explanation the units digit, which needs no carry, stays right at every length.
* :func:`exact_match_by_cascade`: exact match on the test sums whose longest carry cascade
  (:func:`~lengen_utils.core.carries.cascade_length`) is at most ``max_cascade``, and on the rest. Under the cascade
  explanation the easy subset succeeds.
* :func:`pad_only_attention_mass`: the attention that answer queries put on the positions training only ever
  filled with ``pad`` (:func:`pad_only_positions`); :func:`pad_only_offset_mass` the same by offset, the unit a
  relative encoding learns (:func:`pad_only_offsets`). In distribution those keys hold ``pad``; in a longer sum they
  hold digits, which the model never saw there. A mass that grows with the length points at the inputs the model
  reads, not at the carries it computes.

All three return plain numbers (:class:`CascadeSplit` for the second); :func:`measure_rpe_decline` gathers them in
one :class:`RpeDeclineReport`. Analysis layer: imports only :mod:`lengen_utils.core`.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterable, Iterator

import numpy as np
import torch

from ..core.batches import Batch
from ..core.carries import cascade_length
from ..core.constants import EVAL_SEED, IGNORE_INDEX
from ..core.evaluate import evaluate_lengths, exact_match_per_problem
from ..core.evaluate.lengths import check_positive_int, eval_batches
from ..core.formats import answer_width
from ..core.model import Transformer
from ..core.problems import Problem
from ..core.tasks import Task
from ..core.vocab import PAD, TOKEN_ID

__all__ = [
    "CascadeSplit", "RpeDeclineReport", "digit_accuracy_by_significance", "exact_match_by_cascade",
    "pad_only_positions", "pad_only_attention_mass", "pad_only_offsets", "pad_only_offset_mass",
    "measure_rpe_decline",
]


def _answer_digits(task: Task, length: int) -> int:
    """How many answer digits a sum (or product) of ``length``-digit operands can have: ``length + 1`` for addition,
    ``length + k`` for a ``k``-digit multiplier."""
    c = task.config
    k = c.multiplier_digits if (c.op == "*" and c.multiplier_digits is not None) else length
    return answer_width(Problem(10**length - 1, 10**k - 1, c.op), c.multiplier_digits)


def digit_accuracy_by_significance(model: Transformer, task: Task, lengths: Iterable[int], n: int = 500,
                                   seed: int = EVAL_SEED) -> dict[int, dict[int, float]]:
    """``{length: {significance: accuracy}}`` on ``n`` test problems per length (``task.eval_problems``).

    Significance 0 is the units digit. :func:`~lengen_utils.core.evaluate.evaluate_lengths` already keys its
    ``per_digit`` by significance (an encoder's answer block read right to left:
    :attr:`~lengen_utils.core.example.Example.target_significance`); here only the answer's digits are kept,
    ``0 .. length`` for addition (``length + 1`` entries), ``0 .. length + k - 1`` for a ``k``-digit multiplier.
    The Sabbaghi frame's remaining answer slots, whose target is always ``pad``, are left out."""
    results = evaluate_lengths(model, task, lengths, n=n, seed=seed)
    return {length: {s: acc for s, acc in sorted(r.per_digit.items()) if s < _answer_digits(task, length)}
            for length, r in results.items()}


@dataclass(frozen=True)
class CascadeSplit:
    """Exact match on test sums split by their longest carry cascade: ``easy`` (cascade <= ``max_cascade``) and
    ``hard`` (the rest). An exact match is ``nan`` for an empty group."""

    length: int
    max_cascade: int
    n_easy: int
    n_hard: int
    exact_match_easy: float
    exact_match_hard: float
    exact_match: float          # over all n problems

    @property
    def n(self) -> int:
        return self.n_easy + self.n_hard


def exact_match_by_cascade(model: Transformer, task: Task, length: int, n: int = 2000, max_cascade: int = 1,
                           seed: int = EVAL_SEED) -> CascadeSplit:
    """Exact match of ``model`` on the ``n`` test sums ``task.eval_problems(length, n, seed)``, split by
    :func:`~lengen_utils.core.carries.cascade_length` (the longest run of a generating position and the
    propagating positions above it; 0 without carries): cascade <= ``max_cascade`` against the rest.

    The test sums are the task's own evaluation set, not sums drawn per cascade level
    (:func:`~lengen_utils.core.evaluate.evaluate_by_cascade_length`), so the groups hold what a length's exact
    match is made of."""
    if task.config.op != "+":
        raise ValueError(f"carry cascades are defined for addition; this task's op is {task.config.op!r}")
    length = check_positive_int(length, "length (operand digits)")
    n = check_positive_int(n, "n (problems)")
    if isinstance(max_cascade, bool) or not isinstance(max_cascade, (int, np.integer)) or max_cascade < 0:
        raise ValueError(f"max_cascade must be an integer >= 0, got {max_cascade!r}")
    problems = task.eval_problems(length, n, seed)
    correct = exact_match_per_problem(model, task, problems)
    easy = np.array([cascade_length(p.a, p.b) <= max_cascade for p in problems])
    mean = lambda x: float(np.mean(x)) if len(x) else math.nan  # noqa: E731
    return CascadeSplit(length, int(max_cascade), int(easy.sum()), int((~easy).sum()), mean(correct[easy]),
                        mean(correct[~easy]), mean(correct))


def _training_batches(task: Task, n: int, seed: int, batch_size: int) -> Iterator[Batch]:
    """``n`` training sequences in batches, from a generator seeded with ``seed`` (a curriculum task at the end of its
    schedule)."""
    n = check_positive_int(n, "n (training sequences)")
    batch_size = check_positive_int(batch_size, "batch_size")
    rng = np.random.default_rng(seed)
    progress = 1.0 if task.config.curriculum != "none" else None
    for start in range(0, n, batch_size):
        yield task.train_batch(rng, min(batch_size, n - start), progress)


def pad_only_positions(task: Task, n: int = 2000, seed: int = 0, batch_size: int = 500) -> frozenset[int]:
    """Position IDs whose token is ``pad`` in every one of ``n`` training sequences (``task.train_batch``).

    Read from the training data, not from the format: in the Sabbaghi format trained on <= ``max_digits`` digits
    these are the frame positions more than ``max_digits`` places left of each frame's right end. A position ID
    that never occurs in the sample is not in the set. A curriculum task is sampled at the end of its schedule."""
    seen: set[int] = set()
    not_pad: set[int] = set()
    for batch in _training_batches(task, n, seed, batch_size):
        if batch.position_ids.shape != batch.tokens.shape:
            raise ValueError("pad_only_positions reads one position-ID channel per token; this task has "
                             f"position IDs of shape {tuple(batch.position_ids.shape)}")
        real = batch.key_padding
        ids, tokens = batch.position_ids[real], batch.tokens[real]
        seen.update(ids.unique().tolist())
        not_pad.update(ids[tokens != TOKEN_ID[PAD]].unique().tolist())
    return frozenset(seen - not_pad)


def _digit_queries(batch: Batch, answer_digits: int) -> torch.Tensor:
    """``[B, T]``: True at the supervised positions that produce an answer digit (significance < ``answer_digits``),
    False at the others, and at the Sabbaghi answer slots whose target is always ``pad``."""
    mask = torch.zeros(batch.targets.shape, dtype=torch.bool)
    for b, ex in enumerate(batch.examples):
        for i, s in zip(ex.supervised, ex.target_significance):
            mask[b, i] = s is not None and s < answer_digits
    return mask.to(batch.targets.device)


@torch.no_grad()
def _pad_only_mass(model: Transformer, task: Task, problems: list[Problem], pad_only: frozenset[int],
                   batch_size: int, answer_digits: int | None) -> float:
    """Mean attention mass of the answer queries on the ``pad_only`` key positions, over queries, problems, heads
    and layers; with ``answer_digits``, only the queries that produce one of the answer's digits count."""
    total, count = 0.0, 0
    keys_of_interest = torch.tensor(sorted(pad_only), dtype=torch.long, device=model.device)
    for batch in eval_batches(model, task, problems, batch_size):
        _, weights = model(**batch.model_inputs(digits=model.cfg.reads_digits), return_attention=True)
        on_keys = torch.isin(batch.position_ids, keys_of_interest).float()     # [B or 1, Tk]
        queries = batch.targets != IGNORE_INDEX                                # [B, Tq]
        if answer_digits is not None:
            queries &= _digit_queries(batch, answer_digits)
        queries = queries.float()
        for w in weights:                                                      # [B, H, Tq, Tk] per layer
            mass = (w.float() * on_keys[:, None, None, :]).sum(-1)             # [B, H, Tq]
            total += float((mass * queries[:, None, :]).sum())
            count += int(queries.sum()) * w.shape[1]
    return total / count


def pad_only_attention_mass(model: Transformer, task: Task, lengths: Iterable[int], n: int = 100,
                            seed: int = EVAL_SEED, pad_only: frozenset[int] | None = None,
                            batch_size: int = 50, digit_queries_only: bool = False) -> dict[int, float]:
    """``{length: mass}``: the mean attention mass (in [0, 1]) that answer queries (positions with a supervised
    target) put on the keys that training only filled with ``pad`` (:func:`pad_only_positions`, computed from the
    training data unless given), averaged over the queries, the ``n`` test problems
    (``task.eval_problems(length, n, seed)``), the heads and the layers.

    The in-distribution length ``task.config.max_digits`` is always measured too (its key is in the result), for
    comparison: there those keys still hold ``pad``. With ``digit_queries_only`` only the queries that produce one of
    the answer's ``length + 1`` digits count (not the frame's answer slots whose target is always ``pad``): the mix of
    the two kinds of query changes with the length, the digit queries are the same kind at every length."""
    lengths = [check_positive_int(length, "length (operand digits)") for length in lengths]
    n = check_positive_int(n, "n (problems per length)")
    batch_size = check_positive_int(batch_size, "batch_size")
    if model.cfg.causal:
        raise ValueError("pad_only_attention_mass is for an encoder (every query sees every key); this model is causal")
    if pad_only is None:
        pad_only = pad_only_positions(task)
    model.eval()
    wanted = sorted(set(lengths) | {task.config.max_digits})
    return {length: (_pad_only_mass(model, task, task.eval_problems(length, n, seed), pad_only, batch_size,
                                    _answer_digits(task, length) if digit_queries_only else None)
                     if pad_only else 0.0)
            for length in wanted}


DIGIT_IDS = tuple(TOKEN_ID[d] for d in "0123456789")


def _digit_targets(batch: Batch) -> torch.Tensor:
    """``[B, T]``: True where the target is an answer digit (not ``pad``, not unsupervised)."""
    return torch.isin(batch.targets, torch.tensor(DIGIT_IDS, device=batch.targets.device))


def _offsets(batch: Batch) -> torch.Tensor:
    """``[B, Tq, Tk]``: key position ID minus query position ID."""
    ids = batch.position_ids
    return ids[:, None, :] - ids[:, :, None]


def pad_only_offsets(task: Task, n: int = 2000, seed: int = 0, batch_size: int = 500) -> frozenset[int]:
    """Offsets ``j - i`` (key ID minus query ID) at which, in ``n`` training sequences, a query whose target is an
    answer digit only ever found ``pad``: offsets that occur, minus those that ever held a digit or the operator.

    This is the relative view of :func:`pad_only_positions`: a relative encoding learns one vector per offset, and
    these are the vectors whose keys were always ``pad`` while the model learned to add."""
    occurs: set[int] = set()
    filled: set[int] = set()
    for batch in _training_batches(task, n, seed, batch_size):
        pairs = _digit_targets(batch)[:, :, None] & batch.key_padding[:, None, :]      # [B, Tq, Tk]
        offsets = _offsets(batch)
        occurs.update(offsets[pairs].unique().tolist())
        not_pad = pairs & (batch.tokens != TOKEN_ID[PAD])[:, None, :]
        filled.update(offsets[not_pad].unique().tolist())
    return frozenset(occurs - filled)


@torch.no_grad()
def pad_only_offset_mass(model: Transformer, task: Task, lengths: Iterable[int], n: int = 100,
                         seed: int = EVAL_SEED, offsets: frozenset[int] | None = None,
                         batch_size: int = 50) -> dict[int, float]:
    """``{length: mass}``: the mean attention (over answer-digit queries, the ``n`` test problems, heads and layers)
    on keys at the offsets training only filled with ``pad`` (:func:`pad_only_offsets`). In distribution those keys
    hold ``pad`` (an attention sink); in a longer sum they hold digits the model never read from there. An attention
    window that hides those offsets makes the mass zero by construction. The trained length is always included."""
    lengths = [check_positive_int(length, "length (operand digits)") for length in lengths]
    if model.cfg.causal:
        raise ValueError("pad_only_offset_mass is for an encoder (every query sees every key); this model is causal")
    offsets = pad_only_offsets(task) if offsets is None else offsets
    chosen = torch.tensor(sorted(offsets), dtype=torch.long)
    model.eval()
    result = {}
    for length in sorted(set(lengths) | {task.config.max_digits}):
        total, count = 0.0, 0
        for batch in eval_batches(model, task, task.eval_problems(length, n, seed), batch_size):
            _, weights = model(**batch.model_inputs(digits=model.cfg.reads_digits), return_attention=True)
            on = torch.isin(_offsets(batch), chosen.to(batch.position_ids.device)).float()   # [B or 1, Tq, Tk]
            queries = _digit_targets(batch).float()                                        # [B, Tq]
            for w in weights:
                mass = (w.float() * on[:, None]).sum(-1)                                    # [B, H, Tq]
                total += float((mass * queries[:, None, :]).sum())
                count += int(queries.sum()) * w.shape[1]
        result[length] = total / count if count else math.nan
    return result


@dataclass(frozen=True)
class RpeDeclineReport:
    """The three measurements of one model: per-digit accuracy by significance, the cascade split at one length,
    and the pad-only attention mass (with the in-distribution length included)."""

    per_digit: dict[int, dict[int, float]]
    cascade: CascadeSplit
    pad_only_mass: dict[int, float]
    pad_only: frozenset[int]


def measure_rpe_decline(model: Transformer, task: Task, lengths: Iterable[int], cascade_at: int,
                        n_digits: int = 500, n_cascade: int = 2000, n_attention: int = 100,
                        max_cascade: int = 1) -> RpeDeclineReport:
    """:func:`digit_accuracy_by_significance` and :func:`pad_only_attention_mass` at ``lengths``, and
    :func:`exact_match_by_cascade` at ``cascade_at`` digits, in one :class:`RpeDeclineReport`."""
    lengths = list(lengths)
    pad_only = pad_only_positions(task)
    return RpeDeclineReport(
        digit_accuracy_by_significance(model, task, lengths, n=n_digits),
        exact_match_by_cascade(model, task, cascade_at, n=n_cascade, max_cascade=max_cascade),
        pad_only_attention_mass(model, task, lengths, n=n_attention, pad_only=pad_only),
        pad_only,
    )

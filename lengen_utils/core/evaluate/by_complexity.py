"""Exact match grouped by the complexity of each sum (Sabbaghi et al., Section 4, C1 and C2, Figure 8).

A model's exact match is split by a complexity measure of its test sums: the cascade of carries (C2,
:func:`~lengen_utils.core.carries.cascade_length`) or the longest run of consecutive carries (C1,
:func:`~lengen_utils.core.carries.longest_carry_run`). The test sets come from
:mod:`lengen_utils.core.complexity`; results are :class:`GroupResult` per level.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Sequence

import numpy as np

from ..carries import MEASURES, cascade_length, longest_carry_run
from ..complexity import carry_run_test_sets, cascade_test_sets
from ..config_checks import require_ints
from ..constants import EVAL_SEED
from ..model import Transformer
from ..problems import Problem
from ..tasks import Task
from .lengths import (EvaluationError, check_positive_int, check_problems, check_seed, eval_batches, predictions,
                      score)

__all__ = [
    "exact_match_per_problem", "GroupResult", "exact_match_by_complexity", "evaluate_test_sets",
    "evaluate_by_cascade_length", "evaluate_by_carry_run",
]


def exact_match_per_problem(model: Transformer, task: Task, problems: Sequence[Problem], batch_size: int = 500,
                            greedy: bool = False) -> np.ndarray:
    """Boolean exact match of ``model`` on every problem (teacher-forced by default; for an encoder the
    two are the same computation, for a decoder they agree example by example)."""
    problems = check_problems(problems, "exact_match_per_problem")
    batch_size = check_positive_int(batch_size, "batch_size")
    out = []
    for batch in eval_batches(model, task, problems, batch_size):
        out.append(score(batch, predictions(model, batch, greedy))[0])
    return np.concatenate(out).astype(bool)


@dataclass(frozen=True)
class GroupResult:
    """Exact match of one group of test sums that share a complexity level.

    ``mean_cascade`` and ``mean_carry_run`` describe the group under both measures, so a table can
    show that a group selected by one measure differs (or not) under the other."""

    level: int
    n: int
    exact_match: float
    mean_cascade: float
    mean_carry_run: float

    @property
    def stderr(self) -> float:
        """Binomial standard error of ``exact_match``."""
        return float(np.sqrt(self.exact_match * (1 - self.exact_match) / self.n)) if self.n else float("nan")


def _group_result(level: int, correct: np.ndarray, problems: Sequence[Problem]) -> GroupResult:
    return GroupResult(int(level), len(problems), float(np.mean(correct)),
                       float(np.mean([cascade_length(p.a, p.b) for p in problems])),
                       float(np.mean([longest_carry_run(p.a, p.b) for p in problems])))


def exact_match_by_complexity(model: Transformer, task: Task, problems: Sequence[Problem], measure: str = "cascade",
                              batch_size: int = 500) -> dict[int, GroupResult]:
    """Exact match of ``model`` on ``problems`` grouped by a complexity measure of each sum
    (``'cascade'``: :func:`~lengen_utils.core.carries.cascade_length`; ``'carry_run'``:
    :func:`~lengen_utils.core.carries.longest_carry_run`)."""
    if measure not in MEASURES:
        raise EvaluationError(f"unknown complexity measure {measure!r}; choose one of {sorted(MEASURES)}")
    problems = check_problems(problems, "exact_match_by_complexity")
    correct = exact_match_per_problem(model, task, problems, batch_size)
    levels = np.array([MEASURES[measure](p.a, p.b) for p in problems])
    return {int(c): _group_result(int(c), correct[levels == c], [p for p, l in zip(problems, levels) if l == c])
            for c in np.unique(levels)}


def evaluate_test_sets(model: Transformer, task: Task, test_sets: dict[int, Sequence[Problem]],
                       batch_size: int = 500) -> dict[int, GroupResult]:
    """Exact match on each group of a ``{level: problems}`` test set (e.g. from
    :func:`~lengen_utils.core.complexity.cascade_test_sets`)."""
    return {level: _group_result(level, exact_match_per_problem(model, task, probs, batch_size), probs)
            for level, probs in test_sets.items()}


def _check_levels(length: object, levels: object, n: object, seed: object) -> tuple[int, tuple[int, ...], int, int]:
    """The arguments of the complexity test sets, checked (types named) before a test set is drawn."""
    return (check_positive_int(length, "length (operand digits)"),
            require_ints(levels, "levels", error=EvaluationError, kind="a list"),
            check_positive_int(n, "n (problems per level)"), check_seed(seed))


def evaluate_by_cascade_length(model: Transformer, task: Task, length: int, levels: Iterable[int], n: int = 500,
                               seed: int = EVAL_SEED) -> dict[int, GroupResult]:
    """Figure 8a: exact match on ``n`` ``length``-digit sums per cascade length in ``levels``."""
    length, levels, n, seed = _check_levels(length, levels, n, seed)
    return evaluate_test_sets(model, task, cascade_test_sets(length, levels, n, seed))


def evaluate_by_carry_run(model: Transformer, task: Task, length: int, levels: Iterable[int], n: int = 500,
                          seed: int = EVAL_SEED) -> dict[int, GroupResult]:
    """Figure 8b: exact match on ``n`` ``length``-digit sums per longest run of consecutive carries."""
    length, levels, n, seed = _check_levels(length, levels, n, seed)
    return evaluate_test_sets(model, task, carry_run_test_sets(length, levels, n, seed))

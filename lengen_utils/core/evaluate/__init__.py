"""Evaluation of trained models: exact match by operand length (:mod:`.lengths`), grouped by the
complexity of each sum (:mod:`.by_complexity`, Sabbaghi et al. Figure 8), and a multiplication encoder's answer
columns next to its carry read-out (:mod:`.columns`)."""
from __future__ import annotations

from .by_complexity import (GroupResult, evaluate_by_carry_run, evaluate_by_cascade_length, evaluate_test_sets,
                            exact_match_by_complexity, exact_match_per_problem)
from .columns import ColumnScore, column_scores
from .lengths import (EvaluationError, LengthResult, evaluate_length, evaluate_lengths, evaluate_problems,
                      exact_match_table, greedy_predictions, predict, predictions, score,
                      teacher_forced_predictions)

__all__ = [
    "EvaluationError", "LengthResult", "teacher_forced_predictions", "greedy_predictions", "predictions", "score",
    "evaluate_length", "evaluate_problems", "evaluate_lengths", "exact_match_table", "predict",
    "exact_match_per_problem", "GroupResult", "exact_match_by_complexity", "evaluate_test_sets",
    "evaluate_by_cascade_length", "evaluate_by_carry_run", "ColumnScore", "column_scores",
]

"""Task complexity (Sabbaghi et al., Section 4 and Appendix C.4): cascades of carries and carry levels.

The complexity of a sample is its maximum dependency length. This package gathers everything about it
under one name, for the notebooks (``from lengen_utils.analysis import complexity as C``); each piece lives in
the layer it belongs to:

* per-sample measures (problems layer, :mod:`lengen_utils.core.carries`): :func:`digit_sums`,
  :func:`carry_propagation_levels`, :func:`cascade_length`, :func:`longest_carry_run`,
  :func:`multiplication_levels`;
* samplers and fixed test sets by complexity (problems layer, :mod:`lengen_utils.core.complexity`):
  :func:`sample_by_cascade_length`, :func:`sample_uniform_over_complexity`,
  :func:`sample_mixed_complexity`, :func:`sample_by_carry_run`, :func:`cascade_test_sets`,
  :func:`carry_run_test_sets`;
* exact distributions (this package): :mod:`.addition` (:func:`cascade_length_distribution` by
  dynamic programming, :func:`brute_force_cascade_distribution`, :func:`monte_carlo_cascade_distribution`)
  and :mod:`.multiplication` (:func:`multiplication_levels_distribution`,
  :func:`brute_force_multiplication_levels_distribution`);
* exact match grouped by complexity, Figure 8 (evaluation layer, :mod:`lengen_utils.core.evaluate`):
  :func:`exact_match_per_problem`, :func:`exact_match_by_complexity`, :func:`evaluate_test_sets`,
  :func:`evaluate_by_cascade_length`, :func:`evaluate_by_carry_run` (results as :class:`GroupResult`).
"""
from __future__ import annotations

from ...core.carries import (GENERATE, KILL, MEASURES, PROPAGATE, carry_propagation_levels, cascade_length, digit_sums,
                       longest_carry_run, multiplication_levels)
from ...core.complexity import (carry_run_test_sets, cascade_test_sets, sample_by_carry_run,
                                   sample_by_cascade_length, sample_mixed_complexity, sample_uniform_over_complexity)
from ...core.evaluate import (GroupResult, evaluate_by_carry_run, evaluate_by_cascade_length, evaluate_test_sets,
                        exact_match_by_complexity, exact_match_per_problem)
from .addition import brute_force_cascade_distribution, cascade_length_distribution, monte_carlo_cascade_distribution
from .multiplication import brute_force_multiplication_levels_distribution, multiplication_levels_distribution

__all__ = [
    "digit_sums",
    "carry_propagation_levels",
    "cascade_length",
    "longest_carry_run",
    "cascade_length_distribution",
    "brute_force_cascade_distribution",
    "monte_carlo_cascade_distribution",
    "sample_by_cascade_length",
    "sample_uniform_over_complexity",
    "sample_mixed_complexity",
    "multiplication_levels",
    "multiplication_levels_distribution",
    "brute_force_multiplication_levels_distribution",
    "sample_by_carry_run",
    "cascade_test_sets",
    "carry_run_test_sets",
    "exact_match_per_problem",
    "GroupResult",
    "exact_match_by_complexity",
    "evaluate_test_sets",
    "evaluate_by_cascade_length",
    "evaluate_by_carry_run",
    "GENERATE",
    "PROPAGATE",
    "KILL",
    "MEASURES",
]

"""Two small theoretical results, computed rather than only quoted; one module per paper result.

* Sabbaghi et al., Section 5, Proposition 5.1 (Appendix D): why APE fails and RPE generalizes on a
  ring regression task, simulated exactly with a factored linear attention.
  :mod:`.linear_attention` holds the setting and the closed-form population loss,
  :mod:`.linear_attention_training` trains the APE, APE + shift and RPE models and measures them.
* Cho et al., Section 5.2, Proposition 5.2: the largest exact match a 1-layer NoPE decoder can reach on
  m-digit addition, counted exactly (:mod:`.nope_bound`).
"""
from __future__ import annotations

from .linear_attention import (KINDS, LinearAttentionConfig, LinearAttentionKind, attention_matrix,
                               expected_unseen_loss_ape, monte_carlo_loss, pairwise_sq_error, population_loss,
                               target_matrix, train_mask_second_moment, train_masks)
from .linear_attention_training import (LinearAttentionResult, per_position_test_loss, seen_interior,
                                        seen_positions, train_all, train_linear_attention, unseen_interior)
from .nope_bound import (MAX_NOPE_DIGITS, PAPER_NOPE_MAX_EM, NopeBound, OperandDistribution,
                         nope_max_exact_match, nope_max_exact_match_bound, nope_max_exact_match_brute_force,
                         nope_max_exact_match_table)

__all__ = [
    "LinearAttentionKind", "KINDS", "LinearAttentionConfig", "LinearAttentionResult", "expected_unseen_loss_ape",
    "target_matrix", "train_masks", "train_mask_second_moment", "attention_matrix", "pairwise_sq_error",
    "population_loss", "monte_carlo_loss", "train_linear_attention", "per_position_test_loss", "seen_positions",
    "unseen_interior", "seen_interior", "train_all", "OperandDistribution", "PAPER_NOPE_MAX_EM", "NopeBound",
    "MAX_NOPE_DIGITS", "nope_max_exact_match_bound", "nope_max_exact_match", "nope_max_exact_match_table",
    "nope_max_exact_match_brute_force",
]

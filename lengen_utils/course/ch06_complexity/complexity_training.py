"""Notebook 06, sections 3 and 4: what a trained RPE encoder feels (C1, C2) and harder examples (C3)."""
from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from ..common.claims import claim
from ..notebook import pct
from ..common.paper_claims import ClaimRow

UNIFORM, COMPLEXITY, MIXED = "uniform over numbers", "uniform over complexity", "50/50 mixture"
EASY, HARD = range(0, 5), range(6, 11)      # cascade levels: easy ones, and ones 5-digit training sums never show
NAMES = {UNIFORM: "nb06-rpe-uniform", COMPLEXITY: "nb06-rpe-cascade", MIXED: "nb06-rpe-mixed"}


def mean_em(results: Mapping[int, object], levels) -> float:
    """The mean exact match over ``levels`` of ``{level: GroupResult}``."""
    return float(np.mean([results[k].exact_match for k in levels]))


def check_cascade_vs_run(by_cascade: Mapping, by_run: Mapping, length: int, n: int) -> list[ClaimRow]:
    """C2: exact match falls with the cascade length; C1: far less with runs of carries; the rows."""
    low_c, high_c = mean_em(by_cascade, (1, 2, 3)), mean_em(by_cascade, (8, 9, 10))
    low_r, high_r = mean_em(by_run, (1, 2, 3)), mean_em(by_run, (8, 9, 10))
    claim(low_c - high_c > 0.2, "exact match should fall by more than 0.2 from cascades 1-3 to cascades 8-10 (C2)",
          f"{low_c:.3f} → {high_c:.3f}", "Then the cascade length is not what makes a sum hard for this model.")
    claim(low_r - high_r < 0.5 * (low_c - high_c), "grouped by consecutive carries, exact match should fall less than "
          "half as much as by cascade length (C1)", f"a drop of {low_r - high_r:.3f} against {low_c - high_c:.3f}",
          "Then consecutive carries explain the errors as well as cascades do.")
    how = f"{length}-digit sums, {n} per level"
    return [ClaimRow("EM falls with the cascade length (C2, Fig. 8a)", "qualitative (plot)",
                     f"EM {low_c:.2f} at cascade 1-3 → {high_c:.2f} at 8-10", f"`evaluate_by_cascade_length`, {how}"),
            ClaimRow("EM barely moves with consecutive carries (C1, Fig. 8b)", "qualitative (plot)",
                     f"EM {low_r:.2f} at run 1-3 → {high_r:.2f} at 8-10", f"`evaluate_by_carry_run`, {how}")]


def check_length(em20: Mapping[str, float]) -> None:
    """On uniform 20-digit sums the model trained uniformly over complexity collapses, the uniform one not."""
    claim(em20[COMPLEXITY] < 0.1, "trained only uniformly over the complexity, the model should hardly generalize in "
          "length (< 10% on 20-digit sums)", pct(em20[COMPLEXITY]), "If it does now, rewrite the 'first surprise'.")
    claim(em20[UNIFORM] > 0.1, "trained uniformly over the numbers, it should keep more than 10% at 20 digits",
          pct(em20[UNIFORM]))


def check_harder_examples(c3: Mapping[str, Mapping[int, object]], em20: Mapping[str, float], n_seen: int, p5: float,
                          length: int, n: int) -> list[ClaimRow]:
    """C3 (Figure 8c): complex samples lift cascades 6-10; hard-only training costs easy sums; rows."""
    h, e = ({label: mean_em(r, levels) for label, r in c3.items()} for levels in (HARD, EASY))
    claim(h[COMPLEXITY] > h[UNIFORM] + 0.2, "training uniformly over the complexity should lift exact match at "
          "cascades 6-10 by more than 0.2 over the uniform model", f"{h[COMPLEXITY]:.3f} against {h[UNIFORM]:.3f}")
    claim(h[MIXED] > h[UNIFORM] + 0.05, "the 50/50 mixture should lift exact match at cascades 6-10 by more than 0.05",
          f"{h[MIXED]:.3f} against {h[UNIFORM]:.3f}")
    claim(e[MIXED] > e[COMPLEXITY] + 0.1, "training only on hard sums should cost the easy ones: the mixture should beat "
          "it by more than 0.1 at cascades 0-4", f"{e[MIXED]:.3f} against {e[COMPLEXITY]:.3f}")
    return [ClaimRow("More complex training samples help at high cascades (C3, Fig. 8c)", "qualitative (plot)",
                     f"EM at cascade 6-10: uniform {h[UNIFORM]:.2f}, complexity {h[COMPLEXITY]:.2f}, mixture "
                     f"{h[MIXED]:.2f}", f"3 zoo models, equal budget, {length}-digit sums, {n} per level"),
            ClaimRow("Mixture best at most levels; uniform-complexity loses on easy ones", "qualitative",
                     f"EM at cascade 0-4: uniform {e[UNIFORM]:.2f}, complexity {e[COMPLEXITY]:.2f}, mixture "
                     f"{e[MIXED]:.2f}; EM on uniform 20-digit sums: complexity {em20[COMPLEXITY]:.2f}",
                     "same; 20-digit EM from the zoo manifest"),
            ClaimRow("cascade-5 samples seen: uniform-complexity / mixture", "≈ 16k / 8k",
                     f"{n_seen / 6:,.0f} / {n_seen / 2 * (1 / 6 + p5):,.0f}",
                     f"expected counts in our {n_seen:,} training sums")]

"""Notebook 06, sections 3 and 4: what a trained RPE encoder feels (C1, C2) and harder examples (C3), the three
training distributions compared by their medians over three seeds each."""
from __future__ import annotations

from collections.abc import Iterable, Mapping

import numpy as np

from ...analysis.complexity import evaluate_test_sets
from ...lab.zoo import load
from ..common.claims import claim
from ..common.paper_claims import ClaimRow
from ..common.seeds import built_entries, medians
from ..notebook import pct
from .recipes import COMPLEXITY as SAMPLERS

EASY, HARD = range(0, 5), range(6, 11)      # cascade levels: easy ones, and ones 5-digit training sums never show
NAMES = {recipe.title: recipe.id for recipe in SAMPLERS.recipes()}     # label (the row's title) -> recipe
UNIFORM, COMPLEXITY, MIXED = NAMES                                      # the three training distributions
BySeed = Mapping[str, Mapping[int, Mapping[int, float]]]    # {label: {seed: {level or length: EM}}}


def mean_em(results: Mapping[int, object], levels: Iterable[int]) -> float:
    """The mean exact match over ``levels`` of ``{level: GroupResult or EM}``."""
    return float(np.mean([getattr(results[k], "exact_match", results[k]) for k in levels]))


def load_seeds() -> dict[str, dict[int, tuple]]:
    """``{label: {seed: (model, task)}}``: the built seeds of the three recipes."""
    return {label: {seed: load(name) for seed, name in built_entries(recipe).items()}
            for label, recipe in NAMES.items()}


def em_by_level(models: Mapping[str, Mapping[int, tuple]], test_sets: Mapping[int, list]) -> dict:
    """``{label: {seed: {level: EM}}}`` of every seed on the same test sets (``{level: problems}``)."""
    return {label: {seed: {k: r.exact_match for k, r in evaluate_test_sets(m, t, test_sets).items()}
                    for seed, (m, t) in seeds.items()} for label, seeds in models.items()}


def bands(by_seed: BySeed) -> dict[str, dict[int, tuple[float, float, float]]]:
    """``{label: {level: (median, min, max)}}`` over the seeds, for ``plots.median_band`` and ``notebook.table``."""
    bands = {}
    for label, runs in by_seed.items():
        values = {k: [run[k] for run in runs.values()] for k in next(iter(runs.values()))}
        bands[label] = {k: (float(np.median(v)), min(v), max(v)) for k, v in values.items()}
    return bands


def median_mean_em(by_seed: BySeed, levels: Iterable[int]) -> dict[str, float]:
    """Per label, the median over seeds of each seed's mean exact match over ``levels``."""
    levels = list(levels)
    return {label: float(np.median([mean_em(run, levels) for run in runs.values()])) for label, runs in by_seed.items()}


def check_cascade_vs_run(by_cascade: Mapping, by_run: Mapping, length: int, n: int) -> list[ClaimRow]:
    """C2: exact match falls with the cascade length; C1: far less with runs of carries; the rows."""
    low_c, high_c = mean_em(by_cascade, (1, 2, 3)), mean_em(by_cascade, (8, 9, 10))
    low_r, high_r = mean_em(by_run, (1, 2, 3)), mean_em(by_run, (8, 9, 10))
    claim(low_c - high_c > 0.2, "exact match should fall by more than 0.2 from cascades 1-3 to cascades 8-10 (C2)",
          f"{low_c:.3f} → {high_c:.3f}", "Then the cascade length is not what makes a sum hard for this model.")
    claim(low_r - high_r < 0.5 * (low_c - high_c), "grouped by consecutive carries, exact match should fall less than "
          "half as much as by cascade length (C1)", f"a drop of {low_r - high_r:.3f} against {low_c - high_c:.3f}",
          "Then consecutive carries explain the errors as well as cascades do.")
    how = f"one seed (seed 0), {length}-digit sums, {n} per level"
    return [ClaimRow("EM falls with the cascade length (C2, Fig. 8a)", "qualitative (plot)",
                     f"one seed: EM {low_c:.2f} at cascade 1-3 → {high_c:.2f} at 8-10",
                     f"`evaluate_by_cascade_length`, {how}"),
            ClaimRow("EM barely moves with consecutive carries (C1, Fig. 8b)", "qualitative (plot)",
                     f"one seed: EM {low_r:.2f} at run 1-3 → {high_r:.2f} at 8-10", f"`evaluate_by_carry_run`, {how}")]


def check_length(em20: BySeed) -> None:
    """On uniform 20-digit sums the models trained uniformly over complexity collapse, the uniform ones not (medians
    over seeds; ``em20[label][seed][20]``)."""
    med = {label: em[20] for label, em in medians(em20).items()}
    claim(med[COMPLEXITY] < 0.1, "trained only uniformly over the complexity, the models should hardly generalize in "
          "length (median < 10% on 20-digit sums)", pct(med[COMPLEXITY]), "If they do now, rewrite the 'first "
          "surprise'.")
    claim(med[UNIFORM] > 0.1, "trained uniformly over the numbers, they should keep more than 10% at 20 digits "
          "(median)", pct(med[UNIFORM]))


def check_harder_examples(c3: BySeed, em20: BySeed, n_seen: int, p5: float, length: int, n: int) -> list[ClaimRow]:
    """C3 (Figure 8c), medians over seeds: complex samples lift cascades 6-10, the mixture most; hard-only training
    costs the easy sums."""
    h, e = median_mean_em(c3, HARD), median_mean_em(c3, EASY)
    claim(h[MIXED] > h[UNIFORM] + 0.2, "the 50/50 mixture should lift exact match at cascades 6-10 by more than 0.2 "
          "over the uniform recipe (medians)", f"{h[MIXED]:.3f} against {h[UNIFORM]:.3f}")
    claim(h[COMPLEXITY] > h[UNIFORM] + 0.05, "training uniformly over the complexity should lift it too, by more than "
          "0.05 (medians)", f"{h[COMPLEXITY]:.3f} against {h[UNIFORM]:.3f}",
          "Then complex samples alone do not help at high cascades here: update the text.")
    claim(h[MIXED] > h[COMPLEXITY], "the mixture should do best of the three at cascades 6-10, as in the paper "
          "(medians)", f"mixture {h[MIXED]:.3f}, uniform over complexity {h[COMPLEXITY]:.3f}")
    claim(e[COMPLEXITY] < min(e[UNIFORM], e[MIXED]), "training only on hard sums should cost the easy ones: the lowest "
          "median of the three at cascades 0-4", f"uniform over complexity {e[COMPLEXITY]:.3f}, uniform "
          f"{e[UNIFORM]:.3f}, mixture {e[MIXED]:.3f}")
    seeds = len(next(iter(c3.values())))
    em20_complexity = medians(em20)[COMPLEXITY][20]
    return [ClaimRow("More complex training samples help at high cascades (C3, Fig. 8c)", "qualitative (plot)",
                     f"EM at cascade 6-10: uniform {h[UNIFORM]:.2f}, complexity {h[COMPLEXITY]:.2f}, mixture "
                     f"{h[MIXED]:.2f}", f"3 recipes × {seeds} seeds (medians), equal budget, {length}-digit sums, "
                     f"{n} per level"),
            ClaimRow("Mixture best at high cascades; uniform-complexity loses on easy ones", "qualitative",
                     f"EM at cascade 0-4: uniform {e[UNIFORM]:.2f}, complexity {e[COMPLEXITY]:.2f}, mixture "
                     f"{e[MIXED]:.2f}; EM on uniform 20-digit sums: complexity {em20_complexity:.2f}",
                     "same; 20-digit EM live, median over seeds"),
            ClaimRow("cascade-5 samples seen: uniform-complexity / mixture", "≈ 16k / 8k",
                     f"{n_seen / 6:,.0f} / {n_seen / 2 * (1 / 6 + p5):,.0f}",
                     f"expected counts in our {n_seen:,} training sums")]

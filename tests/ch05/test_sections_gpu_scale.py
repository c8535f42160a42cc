"""Notebook 05's "At paper scale" (lengen_utils.course.ch05_coupling.gpu_scale): the specs name built recipes, and the
live check asks every seed for mastery, then each model's reach, on planted numbers."""
from __future__ import annotations

import pytest

from lengen_utils.course.ch05_coupling import gpu_scale as gpu
from lengen_utils.course.common import paper_scale
from lengen_utils.course.common.claims import ClaimFailed

GOOD = {gpu.COUPLED.recipe: {30: 1.0, 100: 1.0, 200: 0.96}, gpu.NX2.recipe: {40: 1.0, 80: 0.96, 120: 0.85},
        gpu.MINESWEEPER.recipe: {9: 1.0, 12: 0.95, 14: 0.85}, gpu.CHO_PLAIN.recipe: {30: 1.0, 50: 0.95, 100: 0.2}}


def lives(recipe: str | None = None, **points: float) -> dict[str, dict[str, dict[int, float]]]:
    """One seed per model, the good numbers above with ``points`` (``at200=0.5``) changed in ``recipe``."""
    changed = {int(k[2:]): v for k, v in points.items()}
    return {r: {f"{r}-s0": {**p, **(changed if r == recipe else {})}} for r, p in GOOD.items()}


def test_the_specs_name_built_recipes_and_the_lengths_the_check_reads():
    assert gpu.NB05 == (gpu.COUPLED, gpu.NX2, gpu.MINESWEEPER, gpu.CHO_PLAIN)
    for spec in gpu.NB05:
        assert set(spec.live_lengths) == set(GOOD[spec.recipe]) and spec.recipe in gpu.REACH
        assert paper_scale.recorded(spec), spec.recipe
    for points in paper_scale.recorded(gpu.COUPLED).values():
        assert set(gpu.COUPLED.live_lengths) <= set(points), sorted(points)
    rows = paper_scale.recorded_rows(gpu.CHO_PLAIN, lengths=(30, 100))
    assert any("selected (step" in r for r in rows) and any("final (step" in r for r in rows)


@pytest.mark.parametrize("recipe, points, match", [
    (gpu.COUPLED.recipe, {"at30": 0.9}, r"should master its trained range \(30 digits\); got 90\.0%"),
    (gpu.COUPLED.recipe, {"at200": 0.5}, "add 200-digit numbers"),
    (gpu.NX2.recipe, {"at40": 0.9}, r"trained range \(40 digits\)"),
    (gpu.NX2.recipe, {"at80": 0.9}, "80-digit"),
    (gpu.NX2.recipe, {"at120": 0.7}, "120 digits"),
    (gpu.MINESWEEPER.recipe, {"at9": 0.9}, r"trained range \(boards to 9 x 9\)"),
    (gpu.MINESWEEPER.recipe, {"at12": 0.9}, "12 x 12"),
    (gpu.MINESWEEPER.recipe, {"at14": 0.8}, "14 x 14"),
    (gpu.CHO_PLAIN.recipe, {"at30": 0.9}, "trained range"),
    (gpu.CHO_PLAIN.recipe, {"at50": 0.8}, "50 digits"),
    (gpu.CHO_PLAIN.recipe, {"at100": 0.6}, "100 digits.*text"),
])
def test_the_live_check_names_each_failure(recipe, points, match):
    gpu.check(lives())
    with pytest.raises(ClaimFailed, match=match):
        gpu.check(lives(recipe, **points))

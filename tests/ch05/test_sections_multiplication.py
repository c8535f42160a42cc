"""Notebook 05 section 7's claim checks and prose (lengen_utils.course.ch05_coupling.multiplication), on planted
numbers."""
from __future__ import annotations

import pytest

from lengen_utils.course.common.claims import ClaimFailed
from lengen_utils.course.ch05_coupling import multiplication as mul


def live(two: dict[int, float], one10: float) -> dict[str, dict[int, float]]:
    out = {f"{mul.OURS[2]}-s{s}": dict(two) for s in range(3)}
    out.update({f"{mul.OURS[1]}-s{s}": {10: one10, 20: 0.0, 30: 0.0} for s in range(3)})
    return out


def test_check_ours_passes_and_names_each_failure():
    mul.check_ours(live({10: 0.99, 20: 0.96, 30: 0.85}, 0.1), trained=10)
    with pytest.raises(ClaimFailed, match=r"median >= 95% at 20 digits \(2x.*got 90\.0%"):
        mul.check_ours(live({10: 0.99, 20: 0.90, 30: 0.85}, 0.1), trained=10)
    with pytest.raises(ClaimFailed, match=r">= 80% at 30 digits.*got 70\.0%"):
        mul.check_ours(live({10: 0.99, 20: 0.96, 30: 0.70}, 0.1), trained=10)
    with pytest.raises(ClaimFailed, match=r"master 10-digit multiplicands.*got 50\.0%.*says nothing about length"):
        mul.check_ours(live({10: 0.5, 20: 0.96, 30: 0.85}, 0.1), trained=10)
    with pytest.raises(ClaimFailed, match=r"1 layer at the same budget should fail in distribution.*got 99\.0%"):
        mul.check_ours(live({10: 0.99, 20: 0.96, 30: 0.85}, 0.99), trained=10)


def test_check_cho_recipe_messages():
    ok = {"EM 5": 0.0, "EM 10": 0.0, "units digit": 1.0, "digits 1–9 (mean)": 0.1}
    mul.check_cho_recipe({"a": ok})
    with pytest.raises(ClaimFailed, match="should not master the trained lengths.*got 80.0% at 5 digits"):
        mul.check_cho_recipe({"a": {**ok, "EM 5": 0.8}})
    with pytest.raises(ClaimFailed, match="units digit .* should be learned.*got 50.0%"):
        mul.check_cho_recipe({"a": {**ok, "units digit": 0.5}})


def test_check_ids_asks_each_column_for_one_shared_id():
    from lengen_utils.core.formats import encode
    from lengen_utils.core.positions import PositionScheme
    from lengen_utils.core.problems import Problem

    ex = encode(Problem(653, 7, "*"), "cho", multiplier_digits=2)
    ids = PositionScheme("coupled").assign(ex)
    mul.check_ids(ex, ids)
    units = [i for i in range(len(ex.tokens)) if ex.significance[i] == 0]
    with pytest.raises(ClaimFailed, match="the three units digits .* should share one ID"):
        mul.check_ids(ex, [i + 1 if n == units[0] else i for n, i in enumerate(ids)])

"""Notebook 03's tables and claim checks (lengen_utils.course.ch03_rpe.rpe) on planted numbers."""
from __future__ import annotations

import pytest

from lengen_utils.course.common.claims import ClaimFailed
from lengen_utils.course.ch03_rpe import rpe

L = 22


def curve(**points) -> dict[int, float]:
    """A curve over 1..L with planted values (``k10=0.9``), 1.0 elsewhere."""
    return {k: points.get(f"k{k}", 1.0) for k in range(1, L + 1)}


def good_live():
    return {"rpe": curve(k10=0.93, k20=0.5, k22=0.2), "rpe8": curve(k20=0.99, k21=0.97, k22=0.6),
            "rpe_shift": curve(k20=0.98, k21=0.96, k22=0.3), "ape": {5: 1.0, 10: 0.0}}


def test_check_curves_passes_and_names_each_claim():
    live = good_live()
    rpe.check_curves(live, L)
    with pytest.raises(ClaimFailed, match=r"plain RPE trained on ≤ 5 digits.*got 100\.0% and 80\.0%"):
        rpe.check_curves({**live, "rpe": curve(k10=0.8)}, L)
    with pytest.raises(ClaimFailed, match=r"APE, same task and budget.*got 20\.0%"):
        rpe.check_curves({**live, "ape": {5: 1.0, 10: 0.2}}, L)
    with pytest.raises(ClaimFailed, match=r"RPE \+ shift augmentation should hold 95% at 20 digits.*got 90\.0%"):
        rpe.check_curves({**live, "rpe_shift": curve(k20=0.9, k22=0.3)}, L)
    with pytest.raises(ClaimFailed, match=r"trained on ≤ 8 digits should hold 95% at 20 digits.*got 94\.0%"):
        rpe.check_curves({**live, "rpe8": curve(k20=0.94, k22=0.6)}, L)
    with pytest.raises(ClaimFailed, match=r"full frame width \(22 digits\) RPE should drop.*got 96\.0% to 90\.0%"):
        rpe.check_curves({**live, "rpe_shift": curve(k21=0.96, k22=0.9)}, L)


def test_figure2b_rows_put_ours_next_to_the_paper():
    rows = rpe.figure2b_rows({"ours": curve(k10=0.9, k22=0.1)}, L)
    assert rows["ours"] == {"k=5": 1.0, "k=10 (2x)": 0.9, "k=15 (3x)": 1.0, "k=20 (4x)": 1.0, "k=21": 1.0,
                            "k=22 (full frame)": 0.1}
    assert rows["Sabbaghi Fig. 2b (≤ 5, l = 50)"]["k=22 (full frame)"] == "(abrupt fall at k=50)"


def test_check_figure2b():
    em, em_sh, em8 = curve(k10=0.93, k15=0.8, k20=0.5, k22=0.2), curve(k20=0.98, k21=0.96, k22=0.3), curve(k22=0.6)
    rpe.check_figure2b(em, em_sh, em8, L)
    with pytest.raises(ClaimFailed, match=r"keep 90% at 10 digits and most sums \(over 50%\) at 15; got 93\.0% and 40\.0%"):
        rpe.check_figure2b({**em, 15: 0.4}, em_sh, em8, L)
    with pytest.raises(ClaimFailed, match=r"plain RPE should miss the course's target \(95\.0%\) at 20 digits.*got 96\.0%"):
        rpe.check_figure2b({**em, 20: 0.96}, em_sh, em8, L)
    with pytest.raises(ClaimFailed, match=r"RPE \+ shift should meet the target at 20 digits and hold 90% at 21"):
        rpe.check_figure2b(em, {**em_sh, 21: 0.8}, em8, L)
    with pytest.raises(ClaimFailed, match=r"trained on ≤ 8 digits should meet the target at 20 digits; got 90\.0%"):
        rpe.check_figure2b(em, em_sh, {**em8, 20: 0.9}, L)
    with pytest.raises(ClaimFailed, match=r"RPE from 8 digits should fall at the full frame width \(22 digits\)"):
        rpe.check_figure2b(em, em_sh, curve(), L)


def test_check_units():
    rpe.check_units({20: 0.99, L: 0.4}, L)
    with pytest.raises(ClaimFailed, match=r"right at 20 digits.*got 90\.0%"):
        rpe.check_units({20: 0.9, L: 0.4}, L)
    with pytest.raises(ClaimFailed, match=r"the units digit should break \(10 points below its 99\.0% at 20\).*got 95\.0%"):
        rpe.check_units({20: 0.99, L: 0.95}, L)


def test_check_frame():
    per8 = {k: {s: 0.99 for s in range(k + 1)} for k in (L - 2, L - 1)}
    per8[L] = {0: 0.3, 1: 0.9, **{s: 0.99 for s in range(2, L + 1)}}
    per = {20: {0: 0.95}, L: {0: 0.2}}
    em8 = curve(k21=0.96, k22=0.25)
    rpe.check_frame(per, per8, em8, L)
    with pytest.raises(ClaimFailed, match=r"every digit of the ≤ 8 model should be right in 98% of the sums; got 90\.0%"):
        rpe.check_frame(per, {**per8, L - 1: {**per8[L - 1], 3: 0.9}}, em8, L)
    with pytest.raises(ClaimFailed, match=r"the units digit should break.*got units 95\.0%, tens 90\.0%"):
        rpe.check_frame(per, {**per8, L: {**per8[L], 0: 0.95}}, em8, L)
    with pytest.raises(ClaimFailed, match=r"exact match should fall by 10 points from 21 to 22 digits"):
        rpe.check_frame(per, per8, curve(k21=0.96, k22=0.9), L)
    with pytest.raises(ClaimFailed, match=r"units digit should collapse at 22 digits \(20 points below its 95\.0% at 20\); got 80\.0%"):
        rpe.check_frame({**per, L: {0: 0.8}}, per8, em8, L)


def test_check_shift():
    rpe.check_shift({15: 0.8, 20: 0.5}, {15: 0.99, 20: 0.98})
    with pytest.raises(ClaimFailed, match=r"lift RPE by 10 points at 15 digits; got 95\.0% to 99\.0%"):
        rpe.check_shift({15: 0.95, 20: 0.5}, {15: 0.99, 20: 0.98})


def test_check_vectors():
    rpe.check_vectors([[-23, 0, 5], [1, -1, 2]], L)
    rpe.check_vectors([[0, -23], [-1, 1]], L)
    with pytest.raises(ClaimFailed, match=r"layer 1's two largest vectors should be at offsets -\(l\+1\) = -23.*got \[-22, 0\]"):
        rpe.check_vectors([[-22, 0], [1, -1]], L)
    with pytest.raises(ClaimFailed, match=r"layer 2's two largest vectors.*got \[1, 2\]"):
        rpe.check_vectors([[-23, 0], [1, 2]], L)


def seeds3(*runs: dict[int, float]) -> dict[int, dict[int, float]]:
    """Three seeds' ``{length: EM}``; one run given alone stands for all three."""
    return dict(enumerate(runs if len(runs) == 3 else runs * 3))


def test_check_comparison_reads_medians_over_seeds():
    live = {"APE": seeds3({5: 1.0, 10: 0.0}), "NoPE": seeds3({5: 0.0, 10: 0.0}),
            "RoPE": seeds3({5: 1.0, 10: 0.2}, {5: 1.0, 10: 0.9}, {5: 0.9, 10: 0.1}),   # one good seed, one weak
            "ALiBi": seeds3({5: 0.02, 10: 0.0}), "RPE": seeds3({5: 1.0, 10: 0.93})}
    rpe.check_comparison(live)                       # RoPE's median: 100% at 5, 20% at 10
    with pytest.raises(ClaimFailed, match=r"lead every other encoding by 50 points \(medians; the best other is RoPE "
                                          r"at 60\.0%\).*got 93\.0%"):
        rpe.check_comparison({**live, "RoPE": seeds3({5: 1.0, 10: 0.6})})
    with pytest.raises(ClaimFailed, match=r"ALiBi should not fit even 5-digit sums.*got 50\.0%"):
        rpe.check_comparison({**live, "ALiBi": seeds3({5: 0.5, 10: 0.0})})
    with pytest.raises(ClaimFailed, match=r"APE should fit 5 digits \(95%\) and nothing at 10 \(5%; medians\); got "
                                          r"100\.0% and 10\.0%"):
        rpe.check_comparison({**live, "APE": seeds3({5: 1.0, 10: 0.1})})
    with pytest.raises(ClaimFailed, match=r"RoPE should fit 5 digits \(95%\) and generalize only a little"):
        rpe.check_comparison({**live, "RoPE": seeds3({5: 0.9, 10: 0.2})})


def test_the_comparison_names_three_seed_recipes():
    from lengen_utils.lab import zoo

    assert {label: len(zoo.recipe_entries(recipe)) for label, recipe in rpe.COMPARISON.items()} == {
        "APE": 3, "NoPE": 3, "RoPE": 3, "ALiBi": 3, "RPE": 3}
    assert zoo.entry("nb03-rpe-l5").name == "nb03-rpe-l5-s0"      # the id still names the run it named: seed 0


def test_the_paper_scale_spec_names_a_built_recipe_at_its_recorded_lengths():
    from lengen_utils.course.common.paper_scale import recorded
    for points in recorded(rpe.PAPER_SCALE).values():
        assert set(rpe.PAPER_SCALE.live_lengths) <= set(points)


def test_the_paper_scale_check_holds_the_prose_to_the_numbers():
    rpe.check_paper_scale({"e-s0": {5: 1.0, 10: 0.9, 20: 0.5, 30: 0.0}})
    with pytest.raises(ClaimFailed, match="master its trained range"):
        rpe.check_paper_scale({"e-s0": {5: 0.9, 10: 0.9, 20: 0.5, 30: 0.0}})
    with pytest.raises(ClaimFailed, match="generalize past"):
        rpe.check_paper_scale({"e-s0": {5: 1.0, 10: 0.5, 20: 0.1, 30: 0.0}})
    with pytest.raises(ClaimFailed, match="update the prose"):
        rpe.check_paper_scale({"e-s0": {5: 1.0, 10: 1.0, 20: 1.0, 30: 0.9}})

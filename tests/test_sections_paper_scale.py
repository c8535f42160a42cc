"""Notebooks 03, 04 and 05, "at paper scale": the GPU entries' live evaluation, figure, prose and claim checks."""
import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402

from lengen_utils.course.common.claims import ClaimFailed  # noqa: E402
from lengen_utils.course.common import paper_scale as ps  # noqa: E402


def test_the_specs_name_built_recipes_and_lengths_they_were_recorded_at():
    for spec in (ps.COUPLED, ps.RPE):
        rec = ps.recorded(spec)
        assert rec, spec.recipe
        for points in rec.values():
            assert set(spec.live_lengths) <= set(points), (spec.recipe, sorted(points))


def test_an_unbuilt_or_unknown_recipe_is_named():
    with pytest.raises(KeyError, match="no zoo recipe"):
        ps.seeds(ps.PaperScale("no-such-recipe", (5,), 10, "paper"))


def test_live_evaluation_and_figure_on_the_rpe_encoder():
    live = ps.live_figure(ps.RPE, n=30)                     # 30 problems per length: seconds on the CPU
    assert list(live) == list(ps.recorded(ps.RPE))
    assert live["sabbaghi-rpe-add-5to50-s0"][5] == 1.0
    fig = plt.gcf()
    labels = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    assert any("recorded on the GPU" in t for t in labels) and any("live" in t for t in labels)
    plt.close(fig)


def _live(points):
    return {"some-entry-s0": points}


def test_the_coupled_check_fails_with_a_teaching_message():
    ps.check_coupled(_live({30: 1.0, 100: 1.0, 200: 0.96}))
    with pytest.raises(ClaimFailed, match="trained range"):
        ps.check_coupled(_live({30: 0.9, 100: 1.0, 200: 1.0}))
    with pytest.raises(ClaimFailed, match="200-digit"):
        ps.check_coupled(_live({30: 1.0, 100: 1.0, 200: 0.5}))


def test_the_rpe_check_holds_the_prose_to_the_numbers():
    ps.check_rpe(_live({5: 1.0, 10: 0.9, 20: 0.5, 30: 0.0}))
    with pytest.raises(ClaimFailed, match="generalize past"):
        ps.check_rpe(_live({5: 1.0, 10: 0.5, 20: 0.1, 30: 0.0}))
    with pytest.raises(ClaimFailed, match="update the prose"):
        ps.check_rpe(_live({5: 1.0, 10: 1.0, 20: 1.0, 30: 0.9}))


def test_the_nx2_check_asks_for_mastery_then_2x_and_3x():
    ps.check_nx2(_live({40: 1.0, 80: 0.96, 120: 0.85}))
    with pytest.raises(ClaimFailed, match="trained range"):
        ps.check_nx2(_live({40: 0.9, 80: 1.0, 120: 1.0}))
    with pytest.raises(ClaimFailed, match="80-digit"):
        ps.check_nx2(_live({40: 1.0, 80: 0.9, 120: 0.9}))
    with pytest.raises(ClaimFailed, match="120 digits"):
        ps.check_nx2(_live({40: 1.0, 80: 1.0, 120: 0.7}))


def test_the_minesweeper_check_asks_for_mastery_then_widths_12_and_14():
    ps.check_minesweeper(_live({9: 1.0, 12: 0.95, 14: 0.85}))
    with pytest.raises(ClaimFailed, match="trained range"):
        ps.check_minesweeper(_live({9: 0.9, 12: 1.0, 14: 1.0}))
    with pytest.raises(ClaimFailed, match="12 x 12"):
        ps.check_minesweeper(_live({9: 1.0, 12: 0.9, 14: 0.9}))
    with pytest.raises(ClaimFailed, match="14 x 14"):
        ps.check_minesweeper(_live({9: 1.0, 12: 1.0, 14: 0.8}))


def test_the_3_digit_check_measures_the_recorded_test_set():
    em5 = ps.recorded(ps.UPE_M3)["sabbaghi-upe-m3-9l-s0"][5]
    ps.check_upe_m3(em5 - 0.05)                 # beats a lower CPU median, and is not mastered (< 95%)
    with pytest.raises(ClaimFailed, match="CPU median"):
        ps.check_upe_m3(min(0.99, em5 + 0.01))


def test_the_published_recipe_check_holds_the_prose_to_a_fifth_of_the_steps():
    ps.check_cho_plain(_live({30: 1.0, 50: 0.95, 100: 0.2}))
    with pytest.raises(ClaimFailed, match="trained range"):
        ps.check_cho_plain(_live({30: 0.9, 50: 0.95, 100: 0.2}))
    with pytest.raises(ClaimFailed, match="50 digits"):
        ps.check_cho_plain(_live({30: 1.0, 50: 0.8, 100: 0.2}))
    with pytest.raises(ClaimFailed, match="100 digits.*text"):
        ps.check_cho_plain(_live({30: 1.0, 50: 0.95, 100: 0.6}))


def test_hiding_x_check_asks_for_the_collapse_then_its_removal_and_an_honest_retention():
    seen, hidden = {"seen": {5: 0.93, 15: 0.03, 16: 0.0}}, {"hidden": {5: 0.9, 14: 0.7, 15: 0.65, 16: 0.6}}
    ps.check_upe_masked(hidden, seen)
    assert ps.retention(hidden["hidden"], 16) == pytest.approx(0.6 / 0.9)
    with pytest.raises(ClaimFailed, match="sees x, should collapse at 15"):
        ps.check_upe_masked(hidden, {"seen": {5: 0.93, 15: 0.5, 16: 0.0}})
    with pytest.raises(ClaimFailed, match="x hidden, should keep >= 40% at 16"):
        ps.check_upe_masked({"hidden": {5: 0.9, 15: 0.65, 16: 0.3}}, seen)
    with pytest.raises(ClaimFailed, match="less than 80%"):
        ps.check_upe_masked({"hidden": {5: 0.9, 15: 0.85, 16: 0.85}}, seen)


def test_recorded_rows_show_both_checkpoints_of_a_selected_run():
    rows = ps.recorded_rows(ps.CHO_PLAIN, lengths=(30, 100))
    assert any("selected (step" in r for r in rows) and any("final (step" in r for r in rows)
    assert all(set(cells) == {"30 dig", "100 dig"} for cells in rows.values())


def _m2_record(em5: float, em16: float, worst5: float = 0.99, worst16: float = 0.98) -> dict:
    cols = lambda worst: {"0": 1.0, "1": worst, "2": 1.0}             # noqa: E731
    return {"metrics": {"em": {"5": em5, "16": em16}, "per_digit": {"5": cols(worst5), "16": cols(worst16)}},
            "train": {"steps": 8000, "batch_size": 256}}


def test_m2_rows_and_target_check_read_the_gpu_records():
    rows = ps.m2_rows()
    assert list(rows) == list(ps.M2_RUNS) and rows["schedule to its end, 256 per step"]["seeds"] == "3"
    assert rows["cut short by the time bound"]["steps x batch"].startswith("8,500 x 128")   # where the bound stopped it
    ps.check_m2_target()                                   # the records support the notebook's sentence
    cols = ps.m2_column_rows()
    assert len(cols) == 3 and all(set(r) >= {"worst column, 5 dig", "worst column, 16 dig"} for r in cols.values())


@pytest.mark.parametrize("big, annealed, match", [
    ([_m2_record(0.98, 0.70)] * 3, [_m2_record(0.94, 0.70)] * 3, "should keep >= 80%"),
    ([_m2_record(0.93, 0.90)] * 3, [_m2_record(0.94, 0.70)] * 3, "should master 5 digits"),
    ([_m2_record(0.98, 0.90)] * 3, [_m2_record(0.94, 0.90)] * 3, "should fall short of 80%"),
    ([_m2_record(0.98, 0.90, 0.99, 0.90)] * 3, [_m2_record(0.94, 0.70)] * 3, "within 3 points"),
])
def test_m2_target_check_fails_when_the_records_do_not_support_the_text(big, annealed, match, monkeypatch):
    fake = {ps.M2_RUNS["schedule to its end, 256 per step"]: big, ps.M2_RUNS["schedule to its end, 128 per step"]:
            annealed, ps.M2_RUNS["cut short by the time bound"]: [_m2_record(0.9, 0.6)]}
    monkeypatch.setattr(ps, "m2_records", lambda recipe: {f"{recipe}-s{i}": r for i, r in enumerate(fake[recipe])})
    with pytest.raises(ClaimFailed, match=match):
        ps.check_m2_target()

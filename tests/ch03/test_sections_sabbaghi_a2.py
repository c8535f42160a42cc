"""Notebook 03, section 6 (Sabbaghi A2 with the paper's own recipe): the checks hold the prose to the data."""
import pytest

from lengen_utils.analysis.rpe_decline import CascadeSplit
from lengen_utils.course.common.claims import ClaimFailed
from lengen_utils.course.ch03_rpe import sabbaghi_a2 as s
from lengen_utils.course.ch03_rpe.recipes import A2_LADDER

A2_IDS = {f"a2-{rung}": A2_LADDER.id(rung) for rung in A2_LADDER.variants}


def _board(curves: dict[str, dict[int, float]], mastered: dict[str, bool] | None = None) -> dict:
    mastered = mastered or {}
    methods = {}
    for rung, curve in curves.items():
        methods[A2_IDS[rung]] = {"mastered": mastered.get(rung, True),
                                     "lengths": {k: {"median": v, "min": v, "max": v} for k, v in curve.items()}}
    return {"methods": methods}


GOOD = {"a2-ours": {6: 0.99, 10: 0.98, 20: 0.8, 30: 0.02, 40: 0.0},
        "a2-uniform": {6: 0.5, 10: 0.2, 20: 0.0, 30: 0.0, 40: 0.0},
        "a2-select": {1: 0.1, 6: 0.4, 10: 0.1, 20: 0.0, 30: 0.0, 40: 0.0},
        "a2-window": {6: 0.97, 10: 0.97, 20: 0.92, 30: 0.85, 40: 0.8}}


def test_the_ladder_check_reads_the_four_rungs_the_text_names():
    s.check_ladder(_board(GOOD))
    with pytest.raises(ClaimFailed, match="should be built"):
        s.check_ladder(_board({k: v for k, v in GOOD.items() if k != "a2-window"}))
    with pytest.raises(ClaimFailed, match="decline earlier"):
        s.check_ladder(_board({**GOOD, "a2-uniform": GOOD["a2-ours"]}))
    with pytest.raises(ClaimFailed, match="whole recipe.*stop at its trained length"):
        s.check_ladder(_board({**GOOD, "a2-select": {1: 0.1, 6: 0.7, 10: 0.5, 20: 0.0, 30: 0.0, 40: 0.0}}))
    with pytest.raises(ClaimFailed, match="should miss 1-digit sums"):
        s.check_ladder(_board({**GOOD, "a2-select": {1: 0.99, 6: 0.4, 10: 0.1, 20: 0.0, 30: 0.0, 40: 0.0}}))
    with pytest.raises(ClaimFailed, match="a2-window should master"):
        s.check_ladder(_board(GOOD, {"a2-window": False}))
    with pytest.raises(ClaimFailed, match="at 40 digits"):
        s.check_ladder(_board({**GOOD, "a2-window": {6: 0.97, 10: 0.97, 20: 0.92, 30: 0.7, 40: 0.6}}))


def _decline(units30=0.4, middle30=0.8, easy=0.1, mass=0.5) -> s.Decline:
    per = {k: {sig: 0.9 for sig in range(k + 1)} for k in (10, 20, 30, 40)}
    per[30].update({0: units30, 7: middle30})
    return s.Decline("m", 5, per, CascadeSplit(30, 1, 100, 300, easy, 0.0, easy / 4),
                     {5: mass, 10: mass, 20: mass, 30: mass, 40: mass})


def test_the_decline_check_tests_each_prediction_of_the_cascade_explanation():
    s.check_decline(_decline())
    with pytest.raises(ClaimFailed, match="units digit should be worse"):
        s.check_decline(_decline(units30=0.85))
    with pytest.raises(ClaimFailed, match="cascade <= 1 should fail too"):
        s.check_decline(_decline(easy=0.9))
    with pytest.raises(ClaimFailed, match="park >= 20%"):
        s.check_decline(_decline(mass=0.05))


def test_the_sink_check_wants_none_with_the_window_and_much_without():
    rows = {"a": {"5 digits": 0.4, "40 digits": 0.35}, "w": {"5 digits": 0.0, "40 digits": 0.0}}
    s.check_sink(rows, "w")
    with pytest.raises(ClaimFailed, match="windowed model should leave no attention"):
        s.check_sink({**rows, "w": {"5 digits": 0.02, "40 digits": 0.0}}, "w")
    with pytest.raises(ClaimFailed, match="a should park"):
        s.check_sink({**rows, "a": {"5 digits": 0.1, "40 digits": 0.35}}, "w")


def test_the_paper_recipe_records_hold_what_the_text_says():
    s.check_paper_recipe()                                      # the records in assets/records.json
    rows = s.paper_rows()
    assert any("selected (step" in r for r in rows) and any("final (step" in r for r in rows)
    assert any(r.startswith("our GPU recipe") for r in rows)
    assert all(b["stored"].startswith("no") for b in s.paper_budget().values())


def test_every_rung_has_a_label_in_order():
    labels = list(s.RUNG_LABELS.values())
    assert labels[0].startswith("1. ") and labels[-1].startswith("7. ") and len(labels) == len(A2_IDS)
    assert s.WINDOWED == labels[-1]


def test_window_cost_check_names_a_window_that_costs_nothing():
    costly = {"seed 0, 20 digits": {"cascade <= 2": 0.95, "cascade > 2": 0.25}}
    s.check_window_cost(costly)
    with pytest.raises(ClaimFailed, match=r"seed 0, 20 digits: the windowed model should get .* got 80\.0% against "
                                          r"95\.0%\. Then the window costs"):
        s.check_window_cost({"seed 0, 20 digits": {"cascade <= 2": 0.95, "cascade > 2": 0.8}})


def test_the_rungs_and_gpu_recipes_are_found_by_role_and_axis():
    """What section 6 reads, found by the rows' roles (``ladder-figure``, ``attention-sink``) and axes (the window, the
    width d_model), is the runs its text names."""
    assert s.BAND_RUNGS == (A2_IDS["a2-ours"], A2_IDS["a2-uniform"], A2_IDS["a2-select"], A2_IDS["a2-window"])
    assert s.WINDOW == A2_IDS["a2-window"] and s.WINDOWED == s.RUNG_LABELS[s.WINDOW]
    assert list(s.SINK_MODELS.values()) == ["a2-ours-s0", "a2-select-s0", "a2-window-s0"]
    assert (s.PAPER_RECIPE, s.OUR_GPU_RECIPE, s.DIAGNOSED) == ("sabbaghi-a2-paper", "sabbaghi-rpe-add-5to50",
                                                               "sabbaghi-rpe-add-5to50-s0")

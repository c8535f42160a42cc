"""Notebook 04's multiplication explorer, driven programmatically: choices, messages, live button."""
import pytest

pytest.importorskip("ipywidgets")

import matplotlib  # noqa: E402

matplotlib.use("Agg")

from lengen_utils.course import plots  # noqa: E402
from lengen_utils.course.ch04_upe.widget import MultiplicationExplorer, nb04_entries  # noqa: E402

FAKE = {
    "upe-s0": {1: 1.0, 5: 1.0, 10: 0.8, 15: 0.3},
    "upe-s1": {1: 1.0, 5: 0.98, 10: 0.6, 15: 0.1},
    "upe-s2": {1: 1.0, 5: 1.0, 10: 0.7, 15: 0.2},
    "ape-s0": {1: 1.0, 5: 0.97, 10: 0.0, 15: 0.0},
    "upe3-s0": {1: 0.9, 5: 0.9, 10: 0.5, 15: 0.4},
}
ENTRIES = {("UPE", 1, 5): ["upe-s0", "upe-s1", "upe-s2"], ("APE", 1, 5): ["ape-s0"], ("UPE", 3, 5): ["upe3-s0"]}


def _explorer(**kw):
    calls = []

    def evaluate(name, lengths, n):
        calls.append((name, list(lengths), n))
        return {L: 0.5 for L in lengths}

    ex = MultiplicationExplorer(ENTRIES, metrics=FAKE.__getitem__, evaluate=evaluate, n_live=50, **kw)
    return ex, calls


def test_shows_the_median_and_range_over_seeds():
    ex, _ = _explorer()
    ex.show("UPE", 1, 5)
    (curve,) = ex.last_curves.values()
    assert curve[10] == pytest.approx((0.7, 0.6, 0.8)) and curve[15] == pytest.approx((0.2, 0.1, 0.3))
    assert "3 seed(s)" in ex.status.value and "&#9888;" not in ex.status.value
    assert plots.check_figure(ex.last_figure) == []


def test_every_control_change_redraws():
    ex, _ = _explorer()
    ex.show("UPE", 1, 5)
    ex.encoding.value = "APE"
    assert "<b>APE</b>" in ex.status.value and list(ex.last_curves.values())[0][10][0] == 0.0
    ex.encoding.value = "UPE"
    ex.multiplier.value = 3
    assert "3-digit multiplier" in ex.status.value and "&#9888;" not in ex.status.value


@pytest.mark.parametrize("choice", [("RPE", 1, 5), ("APE", 3, 5)])
def test_a_combination_with_no_entry_gives_a_message(choice):
    ex, _ = _explorer()
    ex.show(*choice)
    html = ex.status.value
    assert "&#9888;" in html and "no zoo entry" in html and "Available" in html and "UPE, 1-digit" in html
    assert ex.last_figure is None and ex.button.disabled
    assert ex.reevaluate() is None                        # the button's action refuses politely too


@pytest.mark.parametrize("kw, needle", [({"encoding": "NoPE"}, "encoding"), ({"multiplier": 2}, "multiplier"),
                                        ({"trained": 7}, "trained")])
def test_a_value_not_offered_gives_a_message(kw, needle):
    ex, _ = _explorer()
    ex.show(**kw)
    assert "&#9888;" in ex.status.value and "not offered" in ex.status.value and needle in ex.status.value
    assert ex.last_figure is None and ex.button.disabled
    ex.show("UPE", 1, 5)                                   # a valid choice afterwards works again
    assert ex.last_figure is not None and not ex.button.disabled


def test_live_button_evaluates_the_first_seed_and_draws_it():
    ex, calls = _explorer()
    ex.show("UPE", 1, 5)
    ex.button.click()
    assert calls == [("upe-s0", [5, 10, 15], 50)]
    assert ex.fresh[("UPE", 1, 5)] == {5: 0.5, 10: 0.5, 15: 0.5}
    assert "live re-evaluation" in ex.status.value
    labels = [line.get_label() for line in ex.last_figure.axes[0].get_lines()]
    assert any("live" in lab for lab in labels) and plots.check_figure(ex.last_figure) == []


def test_bad_construction_is_refused_with_the_reason():
    with pytest.raises(ValueError, match="none is built"):
        MultiplicationExplorer({}, metrics=FAKE.__getitem__)
    with pytest.raises(ValueError, match="bad entry"):
        MultiplicationExplorer({("NoPE", 1, 5): ["x"]}, metrics=FAKE.__getitem__)
    with pytest.raises(ValueError, match="bad entry"):
        MultiplicationExplorer({("UPE", 1, 5): []}, metrics=FAKE.__getitem__)


def test_nb04_entries_reads_the_catalog():
    every = nb04_entries(built_only=False)
    assert ("UPE", 1, 5) in every and all(n.startswith("nb04-") for names in every.values() for n in names)
    assert all("-shift-" not in n and "-wd-" not in n for names in every.values() for n in names)
    assert nb04_entries(["nb04-upe-m1-s0", "flagship-coupled", "nb04-upe-shift-m1-s0"], built_only=False) == \
        {("UPE", 1, 5): ["nb04-upe-m1-s0"]}

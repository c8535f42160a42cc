"""The coupling explorer of notebook 05, driven programmatically: curves, generalizable length, messages."""
import pytest

pytest.importorskip("ipywidgets")

import matplotlib  # noqa: E402

matplotlib.use("Agg")

from lengen_utils.lab import zoo  # noqa: E402
from lengen_utils.course.ch05_coupling.widget import CouplingExplorer, default_choices  # noqa: E402

FAKE = {
    "p-s0": {5: 1.0, 10: 1.0, 15: 0.30, 20: 0.05},
    "p-s1": {5: 1.0, 10: 0.99, 15: 0.97, 20: 0.10},
    "p-s2": {5: 1.0, 10: 1.0, 15: 0.96, 20: 0.02},
    "v-s0": {5: 1.0, 10: 1.0, 15: 1.0, 20: 0.99},
    "w-s0": {5: 0.5, 10: 0.1},
}
CHOICES = {(10, "plain"): ["p-s0", "p-s1", "p-s2"], (10, "variant"): ["v-s0", "v-missing"],
           (5, "variant"): ["v-missing"], (15, "weak"): ["w-s0"]}


def fake_metrics(name):
    if name not in FAKE:
        raise zoo.ZooError(f"{name!r} is not built")
    return FAKE[name]


def make(**kw):
    return CouplingExplorer(CHOICES, metrics=fake_metrics, **kw)


def test_median_band_and_generalizable_length():
    ex = make(trained=10, method="plain")
    assert ex.last_curve[15] == (0.96, 0.30, 0.97)        # median, worst, best seed
    assert ex.last_length == 15                           # 20: median 5% <= 95%
    assert "generalizable length <b>15</b>" in ex.status.value and "70" in ex.status.value   # paper's, typed
    assert ex.last_figure is not None


def test_dropdowns_redraw_and_missing_seed_is_named():
    ex = make(trained=10, method="plain")
    ex.method.value = "variant"                           # the observer redraws
    assert ex.last_length == 20 and "lower bound" in ex.status.value
    assert "zoo train v-missing" in ex.status.value and "Fewer than 3 seeds" in ex.status.value


def test_unavailable_combination_gives_message_not_traceback():
    ex = make(trained=10, method="plain")
    ex.trained.value = 5                                  # plain was never trained on 1-5 digits
    assert "&#9888;" in ex.status.value and "variant" in ex.status.value
    assert ex.last_figure is None and ex.last_length is None
    ex.show(method="variant")                             # in the catalog but not built
    assert "not built yet" in ex.status.value and "zoo train v-missing" in ex.status.value


def test_bad_values_from_code_give_messages():
    ex = make()
    ex.show(trained=7)
    assert "&#9888;" in ex.status.value and "[5, 10, 15]" in ex.status.value
    ex.show(method="nope")
    assert "unknown method" in ex.status.value


def test_model_that_fails_in_distribution_is_called_out():
    ex = make(trained=15, method="weak")
    assert ex.last_length == 0 and "does not master" in ex.status.value


def test_empty_choices_refused():
    with pytest.raises(ValueError, match="at least one"):
        CouplingExplorer({}, metrics=fake_metrics)


def test_default_choices_are_catalog_entries():
    choices = default_choices()
    assert (10, "plain coupling (Cho et al.)") in choices
    assert {k for k, _ in choices} >= {5, 10, 15}
    sink = "+ sink for the final carry (the flagship)"
    assert choices[10, sink][:5] == [f"nb05-sink-s{s}" for s in range(5)]
    assert choices[5, sink][0] == "nb05-sink-len5-s0" and choices[15, sink][0] == "nb05-sink-len15-s0"
    for names in choices.values():
        for name in names:
            zoo.entry(name)                               # every name is a real catalog entry

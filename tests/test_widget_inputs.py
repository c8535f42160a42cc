"""The widgets' constructors refuse what ``show`` refuses, and an exception in a callback reaches the
widget the learner looks at (not only ipywidgets' log)."""
import pytest

pytest.importorskip("ipywidgets")

import matplotlib  # noqa: E402

matplotlib.use("Agg")

from lengen_utils.lab import zoo  # noqa: E402
from lengen_utils.course.ch04_upe.widget import MultiplicationExplorer  # noqa: E402
from lengen_utils.course.ch05_coupling.widget import CouplingExplorer  # noqa: E402
from lengen_utils.course.widgets import TrainedLengthExplorer  # noqa: E402

EM = {"p-s0": {5: 1.0, 10: 1.0, 20: 0.1}, "w-s0": {5: 0.5, 10: 0.1}, "m-s0": {1: 1.0, 5: 0.9, 10: 0.2}}
CHOICES = {(10, "plain"): ["p-s0"], (15, "weak"): ["w-s0"], (5, "plain"): ["p-s0"]}


def metrics(name):
    if name not in EM:
        raise zoo.ZooError(f"{name!r} is not built")
    return EM[name]


COUPLING = {
    "a length never trained": (dict(trained=7), r"no model was trained on 1-7 digits; choose one of \[5, 10, 15\]"),
    "an unknown method": (dict(method="nope"), r"unknown method 'nope'; choose one of \['plain', 'weak'\]"),
    "a method not trained at that length": (dict(trained=15, method="plain"),
                                            r"no model with method 'plain' was trained on 1-15 digits; on 1-15 "
                                            r"digits choose one of \['weak'\]"),
}


@pytest.mark.parametrize("name", list(COUPLING))
def test_coupling_explorer_constructor_refuses_what_show_refuses(name):
    kwargs, pattern = COUPLING[name]
    with pytest.raises(ValueError, match=pattern):
        CouplingExplorer(CHOICES, metrics=metrics, draw=False, **kwargs)


def test_coupling_explorer_defaults_and_empty_choice():
    ex = CouplingExplorer(CHOICES, metrics=metrics, draw=False)
    assert (ex.trained.value, ex.method.value) == (10, "plain")
    ex = CouplingExplorer({(15, "weak"): ["w-s0"], (5, "plain"): ["p-s0"]}, metrics=metrics, draw=False, trained=15)
    assert ex.method.value == "weak" and "&#9888;" not in ex.status.value
    with pytest.raises(ValueError, match=r"the choice \(10, 'plain'\) lists no zoo entry"):
        CouplingExplorer({(10, "plain"): []}, metrics=metrics)


ENTRIES = {("UPE", 1, 5): ["m-s0"]}
MULTIPLICATION = {
    "zero live problems": (dict(n_live=0), r"n_live \(problems per length in a live re-evaluation\) must be a "
                                           r"whole number >= 1, got 0"),
    "fractional live problems": (dict(n_live=2.5), r"n_live .* must be a whole number >= 1, got 2\.5"),
    "metrics that is not a function": (dict(metrics=EM), r"metrics must be a function, got dict"),
}


@pytest.mark.parametrize("name", list(MULTIPLICATION))
def test_multiplication_explorer_constructor_refuses(name):
    kwargs, pattern = MULTIPLICATION[name]
    with pytest.raises(ValueError, match=pattern):
        MultiplicationExplorer(ENTRIES, **{"metrics": metrics, **kwargs})


def test_a_failing_live_evaluation_reaches_the_screen():
    def evaluate(name, lengths, n):
        raise RuntimeError("the checkpoint could not be read")
    ex = MultiplicationExplorer(ENTRIES, metrics=metrics, evaluate=evaluate, draw=False)
    ex.show("UPE", 1, 5)
    ex.button.click()                         # ipywidgets logs the exception; the learner must see it
    assert "RuntimeError: the checkpoint could not be read" in ex.status.value
    assert "Evaluating" not in ex.status.value


def test_a_failing_retrain_reaches_the_screen():
    def retrain(name):
        raise OSError("disk full")
    ex = TrainedLengthExplorer({5: "p-s0", 10: "p-s0"}, metrics=metrics, retrain=retrain, draw=False)
    ex.button.click()
    assert "OSError: disk full" in ex.status.value


@pytest.mark.parametrize("names, shown", [({5: 3}, "{5: 3}"), ({"5": "p-s0"}, "{'5': 'p-s0'}"),
                                          ({0: "p-s0"}, "{0: 'p-s0'}")])
def test_length_explorer_refuses_names_of_the_wrong_type(names, shown):
    with pytest.raises(ValueError, match=r"names maps a trained length \(a whole number >= 1\) to a zoo entry "
                                         r"name \(a string\); got " + shown.replace("{", r"\{").replace("}", r"\}")):
        TrainedLengthExplorer(names, metrics=metrics)

"""The trained-length explorer built from a recipe table's axis, with values no cached model has.

``TrainedLengthExplorer.from_table(APE, "trained_length", where=..., unseen=(7,))``: the slider offers the cached
rows and 7; at 7 the plot shows the cached neighbours, the status says nothing is cached, and the button trains the
table's variant there (``RecipeTable.at``), an unregistered entry, never written to ``assets/``.
"""
import pytest

from lengen_utils.course.ch02_ape.recipes import APE
from lengen_utils.course.widgets import TrainedLengthExplorer
from lengen_utils.lab.experiment.entry import ZooEntry

WHERE = {"shift_augment": False}


def fake_metrics(name: str) -> dict[int, float]:
    k = int(name.rsplit("-l", 1)[1])
    return {n: 1.0 if n <= k else 0.0 for n in range(1, 13)}


def make(**kwargs) -> TrainedLengthExplorer:
    trained = []

    def retrain(target):
        trained.append(target)
        k = target.task.max_digits if isinstance(target, ZooEntry) else int(target.rsplit("-l", 1)[1])
        return {n: 1.0 if n <= k else 0.0 for n in range(1, 13)}

    ex = TrainedLengthExplorer.from_table(APE, "trained_length", where=WHERE, unseen=(7, 9), metrics=fake_metrics,
                                          retrain=retrain, draw=False, **kwargs)
    return ex, trained


def test_the_slider_offers_the_cached_rows_and_the_unseen_values():
    ex, _ = make()
    assert ex.names == {2: "nb02-ape-l2", 3: "nb02-ape-l3", 4: "nb02-ape-l4", 5: "nb02-ape-l5", 6: "nb02-ape-l6",
                        8: "nb02-ape-l8", 10: "nb02-ape-l10"}
    assert list(ex.slider.options) == [2, 3, 4, 5, 6, 7, 8, 9, 10]
    assert ex.slider.value == 5                                       # the middle cached row, as before


def test_an_unseen_value_shows_its_neighbours_until_the_button_trains_it():
    ex, trained = make()
    ex.show(7)
    assert "no model trained on at most 7 digits is cached" in ex.status.value
    assert set(ex.last_curves) == {"trained on <= 6 digits (cached)", "trained on <= 8 digits (cached)"}
    with pytest.raises(ValueError, match="is cached; the retrain button trains one"):
        ex.cached(7)
    fresh = ex.retrain(7)
    assert len(trained) == 1 and isinstance(trained[0], ZooEntry)
    assert trained[0].task.max_digits == 7 and trained[0].name == "nb02-ape-l6[trained_length=7]"
    assert fresh[7] == 1.0 and fresh[8] == 0.0
    assert "trained here, not cached" in ex.status.value and "First unseen length 8: EM 0.0%" in ex.status.value
    assert "trained on <= 7 digits (retrained now)" in ex.last_curves


def test_a_cached_value_still_retrains_its_entry_by_name():
    ex, trained = make()
    ex.retrain(5)
    assert trained == ["nb02-ape-l5"]


def test_values_that_are_neither_are_refused_with_the_choices():
    ex, _ = make()
    assert "choose one of [2, 3, 4, 5, 6, 7, 8, 9, 10]" in ex.refusal(11)
    with pytest.raises(ValueError, match="unseen maps a trained length that has no cached entry"):
        TrainedLengthExplorer({5: "nb02-ape-l5"}, unseen={5: APE.recipe("ape-l5").entry(0)}, metrics=fake_metrics,
                              draw=False)
    with pytest.raises(ValueError, match="exceeds the frame"):
        TrainedLengthExplorer.from_table(APE, where=WHERE, unseen=(25,), metrics=fake_metrics, draw=False)

"""A recipe table's named axes: what its rows vary, read from each row's configs, so that code finds rows by value.

``RecipeTable(axes={"trained_length": "task.max_digits"})``: ``along("trained_length")`` is a slider's choices
(``{5: "nb05-len5", 10: "nb05-len10", ...}``), ``select``/``one`` find rows by values, and a value no row has, an
unknown axis or two rows on one value are refused with a sentence that names what there is.
"""
import pytest

from lengen_utils.core.model import ModelConfig
from lengen_utils.core.task_config import TaskConfig
from lengen_utils.core.train import TrainConfig
from lengen_utils.course.ch02_ape.recipes import APE
from lengen_utils.course.ch03_rpe.recipes import ENCODINGS
from lengen_utils.course.ch05_coupling.recipes import MUL, REACH, SINK, TRAINED_LENGTH
from lengen_utils.lab.zoo import recipe_entries
from lengen_utils.lab.experiment.recipe import Recipe, RecipeTable

BASE = Recipe(id="", task=TaskConfig(max_digits=3, max_position=16), model=ModelConfig(max_positions=17),
              train=TrainConfig(steps=10), eval_lengths=(1, 2))
TABLE = RecipeTable(prefix="t", base=BASE, axes={"trained_length": "task.max_digits", "encoding": "model.encoding",
                                                  "steps": "train.steps", "eval_n": "eval_n"},
                    variants={"a": {}, "b": {"task.max_digits": 5}, "c": {"model.encoding": "none"},
                              "d": {"task.max_digits": 5, "model.encoding": "none", "train.steps": 20}})


def test_a_rows_value_is_read_from_its_configs():
    assert TABLE.value("b", "trained_length") == 5
    assert TABLE.value("d", "steps") == 20 and TABLE.value("a", "eval_n") == 1000
    assert TABLE.value("c", "encoding") == "none"


def test_rows_are_found_by_value():
    assert [r.id for r in TABLE.select(trained_length=5)] == ["t-b", "t-d"]
    assert TABLE.one(trained_length=5, encoding="none").id == "t-d"
    assert TABLE.along("trained_length", encoding="none") == {3: "t-c", 5: "t-d"}
    assert list(TABLE.along("steps", trained_length=5)) == [10, 20]          # by increasing value


def test_what_is_not_there_is_named():
    with pytest.raises(KeyError, match="no axis 'layers'; axes: trained_length, encoding, steps, eval_n"):
        TABLE.select(layers=2)
    with pytest.raises(ValueError, match="no row has trained_length=7.*its values: 3, 5"):
        TABLE.select(trained_length=7)
    with pytest.raises(ValueError, match="2 rows have.*t-b, t-d; name another axis"):
        TABLE.one(trained_length=5)
    with pytest.raises(ValueError, match="t-a and t-b both have encoding=.*name another axis"):
        TABLE.along("encoding")


def test_an_axis_must_read_a_field():
    with pytest.raises(ValueError, match="axis 'width' reads 'model.width'.*not a field"):
        RecipeTable(prefix="t", base=BASE, variants={"a": {}}, axes={"width": "model.width"})


def test_the_chapters_sliders_come_from_their_tables():
    """The choices notebooks 02, 03 and 05 offer, and that every choice is a recipe with seeds in the catalog."""
    choices = {
        "nb02 APE": APE.along("trained_length", shift_augment=False),
        "nb03 RPE": ENCODINGS.along("trained_length", encoding="rpe", shift_augment=False),
        "nb05 trained length": TRAINED_LENGTH.along("trained_length"),
        "nb05 sink": SINK.along("trained_length"),
        "nb05 reach": REACH.along("pack"),
        "nb05 N x 2": MUL.along("layers"),
    }
    assert list(choices["nb02 APE"]) == [2, 3, 4, 5, 6, 8, 10]
    assert choices["nb03 RPE"] == {3: "nb03-rpe-l3", 5: "nb03-rpe-l5", 8: "nb03-rpe-l8"}
    assert choices["nb05 sink"] == {5: "nb05-sink-len5", 10: "nb05-sink", 15: "nb05-sink-len15"}
    assert list(choices["nb05 reach"]) == [4, 8, 16] and list(choices["nb05 N x 2"]) == [1, 2]
    for name, along in choices.items():
        for value, recipe_id in along.items():
            assert recipe_entries(recipe_id), f"{name}: {value} -> {recipe_id} has no entries in the catalog"


def test_at_a_value_no_row_has_is_the_nearest_row_with_that_value():
    assert TABLE.at("trained_length", 5, encoding="none").id == "t-d"              # a row has it: that row
    six = TABLE.at("trained_length", 6, encoding="learned")
    assert six.id == "t-b[trained_length=6]" and six.task.max_digits == 6      # the nearest row, 5
    assert (six.model, six.train) == (TABLE.recipe("b").model, TABLE.recipe("b").train)
    tie = TABLE.at("trained_length", 4, encoding="none")                         # 3 and 5 are as near: the lower
    assert tie.id == "t-c[trained_length=4]" and tie.model.encoding == "none"
    with pytest.raises(ValueError, match="max_digits=30.*exceeds"):
        APE.at("trained_length", 30, shift_augment=False)                         # past the frame l = 20

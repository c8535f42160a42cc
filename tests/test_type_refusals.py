"""A value of the wrong type is refused by its type, not reported as a wrong value.

A seed or a trained length given as a string ('1', as ``input()`` returns it) must not get "no such seed; its
seeds: 0, 1, 2", and a bare int given for a seed set must not fail with "'int' object is not iterable". Every
public entry point that takes a seed, a length, a digit count or a seed set is fed a string, a float or a bool
where an int is expected (an int where a set is expected); each case asserts the error type and the words of
the message. Valid inputs (NumPy ints included) still run.
"""
from __future__ import annotations

import numpy as np
import pytest
import torch

from lengen_utils.core.config_checks import ConfigError, int_refusal, is_int, require_int, require_ints, type_phrase
from lengen_utils.core.device import seed_everything
from lengen_utils.core.evaluate import (EvaluationError, column_scores, evaluate_by_carry_run,
                                        evaluate_by_cascade_length, evaluate_length, evaluate_lengths)
from lengen_utils.core.evaluate.boards import cell_accuracy
from lengen_utils.core.model import ModelConfig, Transformer
from lengen_utils.core.multiseed import init_models
from lengen_utils.core.problems import ProblemError
from lengen_utils.core.tasks import Task, TaskConfig
from lengen_utils.course.notebook import setup
from lengen_utils.lab import zoo
from lengen_utils.lab.bench import prepare
from lengen_utils.lab.sweep_grid import SweepError, expand
from lengen_utils.lab.zoo import Recipe, ZooError, entry_for
from lengen_utils.lab.zoo.flagship import ape_recipe, coupled_recipe, flagship_recipe, reach_recipe

TASK = TaskConfig(format="cho", positions="coupled", max_digits=3, max_position=16)
TINY_MODEL = ModelConfig(d_model=16, n_heads=2, d_ff=32, n_layers=1, max_positions=32)
TINY_SWEEP = {"name": "tiny", "task": {"format": "cho", "positions": "coupled", "max_digits": 2, "max_position": 12},
              "model": {"d_model": 16, "n_heads": 2, "d_ff": 32, "max_positions": 13},
              "train": {"steps": 3, "batch_size": 8, "lr": 0.003, "warmup_steps": 1},
              "eval_lengths": [1, 2], "eval_n": 10}
# a multiplication encoder with a carry head (tests/test_carry_targets.py), for column_scores
FRAME, K = 12, 3
CARRY_TASK = TaskConfig(op="*", format="sabbaghi", positions="consecutive", max_digits=4, multiplier_digits=K,
                        multiplier_exact=True, frame_width=FRAME, random_start=False, max_position=FRAME + K + 2,
                        carry_targets=True)
CARRY_MODEL = ModelConfig(d_model=16, n_layers=1, n_heads=2, d_ff=32, causal=False, encoding="upe", upe_slots=K,
                          rpe_max_distance=FRAME + K + 2, max_positions=FRAME + K + 3, carry_classes=9 * K)


def recipe() -> Recipe:
    """A small declared recipe with seeds 0 and 3."""
    return Recipe.from_entry(zoo.entry("nb02-ape-l5"), id="tiny", seeds=(0, 3))


# -- the helper --------------------------------------------------------------------------------------------
@pytest.mark.parametrize("value, phrase", [("1", "the string '1'"), (1.0, "the float 1.0"), (True, "the bool True"),
                                           (3, "the int 3"), (None, "None"), ((1, 2), "the tuple (1, 2)"),
                                           (np.float64(2.5), "the float64 2.5")])
def test_type_phrase_names_the_type(value, phrase):
    assert type_phrase(value) == phrase


def test_is_int_takes_ints_and_numpy_ints_only():
    assert is_int(0) and is_int(np.int64(3)) and is_int(np.uint8(2))
    assert not any(is_int(v) for v in ("1", 1.0, 3.0, True, np.bool_(True), None, [1]))


def test_require_int_and_require_ints():
    assert require_int(np.int64(4), "seed") == 4 and type(require_int(np.int64(4), "seed")) is int
    with pytest.raises(ConfigError, match=r"^seed must be an int, got the string '1'$"):
        require_int("1", "seed")
    with pytest.raises(KeyError, match=r"r: seed must be an int, got the bool False"):
        require_int(False, "seed", error=KeyError, owner="r")
    assert int_refusal(2, "seed") is None
    assert require_ints(range(3), "seeds") == (0, 1, 2) and require_ints([np.int64(1)], "seeds") == (1,)
    assert require_ints((), "seeds") == ()                       # empty is the caller's to refuse
    with pytest.raises(ConfigError, match=r"^seeds must be a tuple of ints, got the int 3 \(write seeds=\(3,\) "
                                          r"for one seed\)$"):
        require_ints(3, "seeds")
    with pytest.raises(ConfigError, match=r"^seeds must be a tuple of ints, got the string '012'$"):
        require_ints("012", "seeds")
    with pytest.raises(ConfigError, match=r"^lengths must be ints, got the float 2\.0 \(item 1 of \(1, 2\.0\)\)$"):
        require_ints([1, 2.0], "lengths")
    with pytest.raises(ConfigError, match=r"^seeds must be a tuple of ints, got None$"):
        require_ints(None, "seeds")


# -- every entry point: (call, error type, message) ---------------------------------------------------------
CASES = {
    # the zoo's registry: a seed of a recipe
    "entry_for, a string seed": (lambda: entry_for("nb05-plain", "1"), ZooError,
                                 r"^zoo recipe 'nb05-plain': seed must be an int, got the string '1'$"),
    "entry_for, a float seed": (lambda: entry_for("nb05-plain", 1.0), ZooError,
                                r"seed must be an int, got the float 1\.0"),
    "entry_for, a bool seed": (lambda: entry_for("nb05-plain", True), ZooError,
                               r"seed must be an int, got the bool True"),
    # a recipe: its seed set, one seed, its lengths and test-set size
    "Recipe seeds=3": (lambda: recipe().derive("x", seeds=3), ValueError,
                       r"^x: seeds must be a tuple of ints, got the int 3 \(write seeds=\(3,\) for one seed\)$"),
    "Recipe seeds of strings": (lambda: recipe().derive("x", seeds=("0", "1")), ValueError,
                                r"^x: seeds must be ints, got the string '0' \(item 0 of \('0', '1'\)\)$"),
    "Recipe seeds a string": (lambda: recipe().derive("x", seeds="01"), ValueError,
                              r"x: seeds must be a tuple of ints, got the string '01'"),
    "Recipe a float seed": (lambda: recipe().derive("x", seeds=(1.0,)), ValueError,
                            r"x: seeds must be ints, got the float 1\.0"),
    "Recipe a bool seed": (lambda: recipe().derive("x", seeds=(True,)), ValueError,
                           r"x: seeds must be ints, got the bool True"),
    "Recipe() seeds=3": (lambda: Recipe(id="r", task=TASK, model=TINY_MODEL, train=recipe().train, seeds=3,
                                        eval_lengths=(1, 2)), ValueError,
                         r"^r: seeds must be a tuple of ints, got the int 3 \(write seeds=\(3,\) for one seed\)$"),
    "Recipe.from_entry seeds=3": (lambda: Recipe.from_entry(zoo.entry("nb02-ape-l5"), id="y", seeds=3), ValueError,
                                  r"y: seeds must be a tuple of ints, got the int 3"),
    "Recipe.entry a string seed": (lambda: recipe().entry("0"), ValueError,
                                   r"^tiny: seed must be an int, got the string '0'$"),
    "Recipe.id_with_seed a string seed": (lambda: Recipe.id_with_seed("r", "1"), ValueError,
                                          r"^r: seed must be an int, got the string '1'$"),
    "Recipe eval_lengths=5": (lambda: recipe().derive("x", eval_lengths=5), ValueError,
                              r"x: eval_lengths must be a tuple of ints, got the int 5 \(write eval_lengths=\(5,\) "
                              r"for one length\)"),
    "Recipe a string eval length": (lambda: recipe().derive("x", eval_lengths=(5, "10")), ValueError,
                                    r"x: eval_lengths must be ints, got the string '10'"),
    "Recipe a string eval_n": (lambda: recipe().derive("x", eval_n="100"), ValueError,
                               r"x: eval_n must be an int, got the string '100'"),
    # the recipe builders: a seed, a digit count
    "coupled_recipe a string seed": (lambda: coupled_recipe(seed="1"), ConfigError,
                                     r"^seed must be an int, got the string '1'$"),
    "flagship_recipe a float seed": (lambda: flagship_recipe(seed=1.0), ConfigError,
                                     r"seed must be an int, got the float 1\.0"),
    "reach_recipe a bool seed": (lambda: reach_recipe(seed=True), ConfigError,
                                 r"seed must be an int, got the bool True"),
    "ape_recipe a string seed": (lambda: ape_recipe(seed="0"), ConfigError, r"seed must be an int, got the string '0'"),
    # bench, sweep, several seeds at once
    "bench.prepare a string seed": (lambda: prepare(seed="1", quick=True), ValueError,
                                    r"^seed must be an int, got the string '1'$"),
    "bench.prepare lengths=10": (lambda: prepare(lengths=10, quick=True), ValueError,
                                 r"^lengths must be a tuple of ints, got the int 10 \(write lengths=\(10,\) for one "
                                 r"length\)$"),
    "bench.prepare a string length": (lambda: prepare(lengths=("10",), quick=True), ValueError,
                                      r"lengths must be ints, got the string '10'"),
    "sweep expand seeds=3": (lambda: expand([TINY_SWEEP], 3), SweepError,
                             r"^seeds must be a tuple of ints, got the int 3 \(write seeds=\(3,\) for one seed\)$"),
    "sweep expand a string seed": (lambda: expand([TINY_SWEEP], ("1",)), SweepError,
                                   r"seeds must be ints, got the string '1'"),
    "init_models seeds=3": (lambda: init_models(TINY_MODEL, 3), ValueError,
                            r"^seeds must be a list of ints, got the int 3 \(write seeds=\[3\] for one seed\)$"),
    "init_models a string seed": (lambda: init_models(TINY_MODEL, ["1"]), ValueError,
                                  r"seeds must be ints, got the string '1'"),
    # seeding
    "seed_everything a string": (lambda: seed_everything("1"), ValueError,
                                 r"^seed must be an int, got the string '1'$"),
    "seed_everything a float": (lambda: seed_everything(1.5), ValueError, r"seed must be an int, got the float 1\.5"),
    "notebook setup a string seed": (lambda: setup("0", quiet=True), ValueError,
                                     r"^seed must be an int, got the string '0'$"),
    # a task's fixed test sets
    "eval_problems a string seed": (lambda: Task(TASK).eval_problems(3, 5, "1"), ProblemError,
                                    r"^seed must be an int, got the string '1'$"),
    "eval_problems a bool seed": (lambda: Task(TASK).eval_problems(3, 5, True), ProblemError,
                                  r"seed must be an int, got the bool True"),
    "eval_problems a float seed": (lambda: Task(TASK).eval_problems(3, 5, 2.0), ProblemError,
                                   r"seed must be an int, got the float 2\.0"),
    "eval_problems a string length": (lambda: Task(TASK).eval_problems("3", 5), ProblemError,
                                      r"^length must be a positive whole number of digits \(an int >= 1\), got the "
                                      r"string '3'$"),
    "eval_problems a float count": (lambda: Task(TASK).eval_problems(3, 5.0), ProblemError,
                                    r"the number of problems n must be a whole number >= 0 \(an int\), got the float "
                                    r"5\.0"),
}


@pytest.mark.parametrize("name", list(CASES))
def test_a_wrong_type_is_refused_by_name(name):
    call, error, pattern = CASES[name]
    with pytest.raises(error, match=pattern) as info:
        call()
    text = str(info.value)
    assert "its seeds" not in text and "choose one of" not in text and "not iterable" not in text


# -- evaluation: refused before any model call -----------------------------------------------------------------
@pytest.fixture(scope="module")
def model() -> Transformer:
    torch.manual_seed(0)
    return Transformer(TINY_MODEL)


EVALUATION = {
    "evaluate_length a string seed": (lambda m, t: evaluate_length(m, t, 2, n=5, seed="1"),
                                      r"^seed must be an int, got the string '1'$"),
    "evaluate_length a float length": (lambda m, t: evaluate_length(m, t, 2.0, n=5),
                                       r"^length \(operand digits\) must be an integer >= 1, got the float 2\.0$"),
    "evaluate_length a string n": (lambda m, t: evaluate_length(m, t, 2, n="5"),
                                   r"^n \(problems per length\) must be an integer >= 1, got the string '5'$"),
    "evaluate_lengths a bool seed": (lambda m, t: evaluate_lengths(m, t, [2], n=5, seed=True),
                                     r"^seed must be an int, got the bool True$"),
    "evaluate_lengths a string length": (lambda m, t: evaluate_lengths(m, t, [1, "3"], n=5),
                                         r"^length \(operand digits\) must be an integer >= 1, got the string '3'$"),
    "evaluate_lengths lengths=3": (lambda m, t: evaluate_lengths(m, t, 3, n=5),
                                   r"^lengths must be a list of integers >= 1, got the int 3 \(write \[3\] for one "
                                   r"length\)$"),
    "evaluate_lengths lengths a string": (lambda m, t: evaluate_lengths(m, t, "12", n=5),
                                          r"^lengths must be a list of integers >= 1, got the string '12'$"),
    "cascade levels=3": (lambda m, t: evaluate_by_cascade_length(m, t, 3, 3, n=5),
                         r"^levels must be a list of ints, got the int 3 \(write levels=\[3\] for one level\)$"),
    "cascade a string length": (lambda m, t: evaluate_by_cascade_length(m, t, "3", [0, 1], n=5),
                                r"length \(operand digits\) must be an integer >= 1, got the string '3'"),
    "cascade a string seed": (lambda m, t: evaluate_by_cascade_length(m, t, 3, [0, 1], n=5, seed="7"),
                              r"^seed must be an int, got the string '7'$"),
    "carry run a float level": (lambda m, t: evaluate_by_carry_run(m, t, 3, [0, 1.0], n=5),
                                r"levels must be ints, got the float 1\.0"),
    "carry run a bool n": (lambda m, t: evaluate_by_carry_run(m, t, 3, [0, 1], n=True),
                           r"n \(problems per level\) must be an integer >= 1, got the bool True"),
    "cell_accuracy a string width": (lambda m, t: cell_accuracy(m, t, "3", 5),
                                     r"^width must be an integer >= 1, got the string '3'$"),
    "cell_accuracy a string seed": (lambda m, t: cell_accuracy(m, t, 3, 5, seed="1"),
                                    r"^seed must be an int, got the string '1'$"),
}


@pytest.mark.parametrize("name", list(EVALUATION))
def test_evaluation_refuses_a_wrong_type_before_any_model_call(name, model, monkeypatch):
    call, pattern = EVALUATION[name]
    calls = []
    monkeypatch.setattr(model, "forward", lambda *a, **k: calls.append(1))
    with pytest.raises(EvaluationError, match=pattern):
        call(model, Task(TASK))
    assert not calls, "the input must be refused before the model runs"


@pytest.mark.parametrize("kwargs, pattern", [
    (dict(length="3"), r"^length must be an integer >= 1, got the string '3'$"),
    (dict(seed=1.0), r"^seed must be an int, got the float 1\.0$"),
])
def test_column_scores_refuses_a_wrong_type(kwargs, pattern):
    torch.manual_seed(0)
    args = {"length": 3, "n": 5, **kwargs}
    with pytest.raises(EvaluationError, match=pattern):
        column_scores(Transformer(CARRY_MODEL), Task(CARRY_TASK), **args)


# -- valid inputs run as before ------------------------------------------------------------------------------
def test_valid_inputs_still_run(model):
    seeds = zoo.recipe_entries("nb05-plain")
    first = next(iter(seeds))
    assert entry_for("nb05-plain", first).name == seeds[first] == entry_for("nb05-plain", np.int64(first)).name
    with pytest.raises(ZooError, match=r"has no seed 99; its seeds"):       # a missing int seed: as before
        entry_for("nb05-plain", 99)
    r = recipe().derive("x", seeds=[np.int64(1), 2], eval_lengths=range(1, 4), eval_n=np.int64(7))
    assert r.seeds == (1, 2) and r.eval_lengths == (1, 2, 3) and all(type(s) is int for s in r.seeds)
    assert r.entry(np.int64(2)).name == "x-s2" == Recipe.id_with_seed("x", np.int64(2))
    assert coupled_recipe(seed=np.int64(2)).train.seed == 2
    assert [s.seeds for s in expand([TINY_SWEEP], [np.int64(4)])] == [(4,)]
    assert len(init_models(TINY_MODEL, (0, np.int64(1)))) == 2
    assert Task(TASK).eval_problems(3, 4, np.int64(5)) == Task(TASK).eval_problems(3, 4, 5)
    results = evaluate_lengths(model, Task(TASK), (np.int64(1), 2), n=4, seed=np.int64(3))
    assert set(results) == {1, 2}
    assert set(evaluate_by_cascade_length(model, Task(TASK), 3, range(2), n=4)) == {0, 1}


# -- the widgets: a raise where they raise, a sentence on screen where they show one -------------------------------
from test_widget_inputs import CHOICES, EM, metrics  # noqa: E402  (the same planted zoo as the widgets' input tests)


@pytest.fixture
def widgets():
    pytest.importorskip("ipywidgets")
    import matplotlib

    matplotlib.use("Agg")
    from types import SimpleNamespace

    from lengen_utils.course import widgets as W
    from lengen_utils.course.ch04_upe import widget as ch04
    from lengen_utils.course.ch05_coupling import widget as ch05
    return SimpleNamespace(W=W, ch04=ch04, ch05=ch05)


def test_length_explorer_refuses_a_trained_length_of_the_wrong_type(widgets):
    ex = widgets.W.TrainedLengthExplorer({5: "p-s0", 10: "p-s0"}, metrics=metrics, retrain=lambda name: EM[name],
                                       draw=False)
    words = r"the trained length must be an int, got the string '10'; choose one of \[5, 10\]"
    with pytest.raises(ValueError, match="^" + words + "$"):
        ex.retrain("10")
    with pytest.raises(ValueError, match=r"the trained length must be an int, got the float 5\.0"):
        ex.figure(5.0)
    with pytest.raises(ValueError, match=r"the trained length must be an int, got the bool True"):
        ex.cached(True)
    ex.show("10")
    assert "the trained length must be an int, got the string &#x27;10&#x27;; choose one of [5, 10]" in ex.status.value
    assert "no cached model" not in ex.status.value
    ex.show(7)                                                # an int with no model: as before
    assert "no cached model trained on 7 digits; choose one of [5, 10]" in ex.status.value
    ex.show(np.int64(10))
    assert ex.slider.value == 10 and "&#9888;" not in ex.status.value


def test_coupling_explorer_refuses_a_trained_length_of_the_wrong_type(widgets):
    words = r"the trained length must be an int, got the string '10'; choose one of \[5, 10, 15\]"
    with pytest.raises(ValueError, match="^" + words + "$"):
        widgets.ch05.CouplingExplorer(CHOICES, metrics=metrics, draw=False, trained="10")
    with pytest.raises(ValueError, match=r"a choice's trained length must be an int, got the string '10'"):
        widgets.ch05.CouplingExplorer({("10", "plain"): ["p-s0"]}, metrics=metrics, draw=False)
    ex = widgets.ch05.CouplingExplorer(CHOICES, metrics=metrics, draw=False)
    with pytest.raises(ValueError, match=r"^the trained length must be an int, got the float 10\.0$"):
        ex.curves(10.0, "plain")
    with pytest.raises(ValueError, match=r"the trained length must be an int, got the bool True"):
        ex.available(True)
    ex.show(trained="15")
    assert ("the trained length must be an int, got the string &#x27;15&#x27;; choose one of [5, 10, 15]"
            in ex.status.value)
    assert ex.trained.value == 10                             # nothing moved
    ex.show(trained=np.int64(5))
    assert ex.trained.value == 5 and "&#9888;" not in ex.status.value


def test_multiplication_explorer_refuses_digit_counts_of_the_wrong_type(widgets):
    entries = {("UPE", 1, 5): ["m-s0"]}
    with pytest.raises(ValueError, match=r"the multiplier digits and the trained length must be ints, got the "
                                         r"string '1'"):
        widgets.ch04.MultiplicationExplorer({("UPE", "1", 5): ["m-s0"]}, metrics=metrics, draw=False)
    ex = widgets.ch04.MultiplicationExplorer(entries, metrics=metrics, draw=False)
    ex.show("UPE", "1", 5)
    assert ("the multiplier&#x27;s digit count must be an int, got the string &#x27;1&#x27;; choose one of [1, 3]"
            in ex.status.value)
    assert "is not offered" not in ex.status.value and ex.button.disabled
    ex.show("UPE", 1, True)
    assert "the trained length must be an int, got the bool True; choose one of [5]" in ex.status.value
    ex.show("UPE", np.int64(1), 5)
    assert "&#9888;" not in ex.status.value and not ex.button.disabled


# -- every bool and str field of every config, by its declared type -------------------------------------------
def _config_fields():
    """``(label, build(value) -> config, field, kind)`` for each field declared ``bool`` or ``str`` of the configs
    and the zoo's dataclasses that hold them."""
    import dataclasses

    from lengen_utils.core.train import TrainConfig
    bases = {"TaskConfig": TaskConfig(), "ModelConfig": ModelConfig(), "TrainConfig": TrainConfig(),
             "ZooEntry": zoo.entry("nb02-ape-l5"), "Recipe": recipe()}
    for label, base in bases.items():
        for f in dataclasses.fields(base):
            if f.type in ("bool", "str"):
                yield (f"{label}.{f.name}", lambda value, base=base, f=f: dataclasses.replace(base, **{f.name: value}),
                       getattr(base, f.name), f.type)


CONFIG_FIELDS = {label: (build, default, kind) for label, build, default, kind in _config_fields()}


def test_the_fields_are_found():
    assert {"ModelConfig.shared_channel_table", "ModelConfig.causal", "TaskConfig.mask_operator", "TrainConfig.amp",
            "ModelConfig.encoding", "TaskConfig.sampler", "TrainConfig.data_seeding", "ZooEntry.seeded",
            "Recipe.seed_in_name"} <= set(CONFIG_FIELDS)


@pytest.mark.parametrize("label", sorted(CONFIG_FIELDS))
def test_every_bool_and_str_field_refuses_a_wrong_type_by_name(label):
    """``'no'`` is truthy: a bool field given it would switch its option on (``shared_channel_table='no'`` made the
    channels share one table). A choice given an int must not read as an unknown choice."""
    build, default, kind = CONFIG_FIELDS[label]
    wrong, words = ("no", rf"{label} must be True or False, got the string 'no'") if kind == "bool" else (
        1, rf"{label} must be a string.*got the int 1")
    with pytest.raises(ValueError, match=words):
        build(wrong)
    if kind == "bool":
        build(np.bool_(default))                                # a NumPy bool is a bool

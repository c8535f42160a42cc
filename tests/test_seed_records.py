"""The seeds of a recipe, read and measured in one place (``course.common.seeds``), and a retired entry's record.

* ``live_curves`` / ``Runs.live``: seeds -> live accuracy, the course's one live measurement of cached
  checkpoints (a median [range] of them is ``analysis.generalization.median_and_range``); checked against
  ``evaluate_lengths`` itself.
* A retired entry (``zoo retire``: weights deleted, record moved to ``retired.json``) keeps its measurements readable
  (``metrics``, ``entry_record``, ``recipe_entries(recorded_only=True)``, the leaderboard), while ``load`` refuses it
  with the command that rebuilds it.
"""
import json
import shutil

import pytest

from lengen_utils.analysis.generalization import median_and_range
from lengen_utils.core.evaluate import evaluate_lengths
from lengen_utils.lab.zoo import live_curves, runs
from lengen_utils.lab import zoo
from lengen_utils.lab.leaderboard import leaderboard
from lengen_utils.lab.zoo.records import read_measured, retire

RECIPE = "nb03-rpe-l5"          # three small cached seeds


def test_live_curves_are_evaluate_lengths_of_each_checkpoint():
    names = list(zoo.recipe_entries(RECIPE, built_only=True).values())[:2]
    live = live_curves(names, [5, 8], n=40, seed=11)
    for name in names:
        direct = evaluate_lengths(*zoo.load(name), [5, 8], n=40, seed=11)
        assert live[name] == {k: r.exact_match for k, r in direct.items()}


def test_runs_live_measures_every_built_seed():
    by_seed = runs(RECIPE).live([5], n=30, seed=5)
    names = zoo.recipe_entries(RECIPE, built_only=True)
    assert sorted(by_seed) == sorted(names)
    assert by_seed == {seed: live for seed, live in zip(names, live_curves(names.values(), [5], 30, 5).values())}


@pytest.fixture
def small_store(tmp_path):
    """A copy of the store holding two seeds of RECIPE, for retiring one."""
    names = list(zoo.recipe_entries(RECIPE, built_only=True).values())[:2]
    manifest = zoo.read_manifest()
    (tmp_path / "zoo").mkdir()
    kept = {}
    for name in names:
        shutil.copy(zoo.assets_dir() / manifest[name]["file"], tmp_path / manifest[name]["file"])
        kept[name] = manifest[name]
    (tmp_path / "manifest.json").write_text(json.dumps(kept))
    return tmp_path, names


def test_a_retired_entry_keeps_its_measurements_readable(small_store):
    root, (kept, retired) = small_store
    recorded = zoo.metrics(retired, root)
    retire(retired, root)
    assert not (root / "zoo" / f"{retired}.safetensors").exists()
    assert zoo.metrics(retired, root) == recorded
    assert zoo.entry_record(retired, root)["stored"] is False
    assert set(read_measured(root)) == {kept, retired}
    seeds = zoo.recipe_entries(RECIPE, assets=root, recorded_only=True)
    assert set(seeds.values()) == {kept, retired}
    assert set(zoo.recipe_entries(RECIPE, built_only=True, assets=root).values()) == {kept}
    with pytest.raises(zoo.ZooError, match="retired.*zoo train"):
        zoo.load(retired, assets=root)
    board = leaderboard(tag=zoo.entry(kept).tags[0], assets=root)
    method = board["methods"][RECIPE]
    assert set(method["entries"]) == {kept, retired}


def test_runs_by_id_or_by_a_tables_axes():
    from lengen_utils.course.ch05_coupling.recipes import TRAINED_LENGTH
    by_axis, by_id = runs(TRAINED_LENGTH, trained_length=10), runs("nb05-len10")
    assert by_axis == by_id and by_axis.recipe_id == "nb05-len10"
    assert set(by_id.recorded().items()) >= set(by_id.built().items())
    assert set(by_id.entries) == set(by_id.recorded()) == {0, 1, 2, 3, 4}      # five seeds, all recorded
    assert by_id.curves() == {s: zoo.metrics(name) for s, name in by_id.recorded().items()}
    assert by_id.band() == median_and_range(by_id.curves())
    with pytest.raises(TypeError, match="select a row of a RecipeTable"):
        runs("nb05-len10", trained_length=10)

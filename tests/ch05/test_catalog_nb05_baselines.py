"""Fast checks of notebook 05's baseline entries (section 5): one task for all, only positions and budget differ."""
import pytest

from lengen_utils.lab import zoo
from lengen_utils.lab.leaderboard import leaderboard
from lengen_utils.core.tasks import Task
from lengen_utils.course.ch05_coupling.recipes import BASELINES

TAG = "nb05-baselines"
SEEDS = (0, 1, 2)

NAMES = sorted(name for recipe in BASELINES.ids() for name in zoo.recipe_entries(recipe).values())
SAME_TASK = ("op", "sampler", "min_digits", "max_digits", "eval_sampler", "pack")


@pytest.mark.parametrize("name", NAMES)
def test_every_baseline_trains_and_is_tested_like_plain_coupling(name):
    e, plain = zoo.entry(name), zoo.entry("nb05-plain-s0")
    assert {f: getattr(e.task, f) for f in SAME_TASK} == {f: getattr(plain.task, f) for f in SAME_TASK}
    assert e.task.format in ("cho", "cho_hints") and e.model.causal
    assert e.eval_lengths == plain.eval_lengths and e.eval_n == plain.eval_n
    assert (e.model.d_model, e.model.n_heads) == (plain.model.d_model, plain.model.n_heads)
    assert e.train.batch_size * e.task.pack == plain.train.batch_size * plain.task.pack   # problems per step
    assert TAG in e.tags and name.startswith("nb05-base-")


@pytest.mark.parametrize("name", NAMES)
def test_the_longest_test_fits_the_position_table(name):
    e = zoo.entry(name)
    assert max(e.eval_lengths) <= Task(e.task).longest_operand()
    assert e.task.max_position < e.model.max_positions


@pytest.mark.parametrize("recipe", BASELINES.ids())
def test_seeds_of_a_method_differ_only_in_the_seed(recipe):
    configs = [zoo.entry_for(recipe, s).configs() for s in SEEDS]
    for c in configs:
        c["train"].pop("seed")
    assert all(c == configs[0] for c in configs)


def test_the_baselines_leaderboard_holds_coupling_and_every_baseline():
    tagged = {n for n, e in zoo.catalog().items() if TAG in e.tags}
    assert tagged == set(NAMES) | {f"nb05-{m}-s{s}" for m in ("plain", "both") for s in SEEDS}
    board = leaderboard(TAG)
    assert set(board["missing"]) | {n for m in board["methods"].values() for n in m["entries"]} == tagged

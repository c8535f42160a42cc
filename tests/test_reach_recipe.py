"""The flagship without its table (reach_recipe): its seeds and the entries of the reach figure."""
from __future__ import annotations

from dataclasses import replace

from lengen_utils.core.tasks import Task
from lengen_utils.lab.zoo import entry
from lengen_utils.lab.experiment.lab_recipes import FLAGSHIP_RUNS

FLAGSHIP_SEEDS = FLAGSHIP_RUNS.recipe("reach").seeds
REACH_PACKS = (4, 8, 16)
from lengen_utils.lab.zoo.flagship import BATCH, REACH_DIGITS, REACH_PACK, flagship_recipe, reach_recipe


def test_the_seeds_are_the_recipe_and_place_the_longest_test():
    for seed in FLAGSHIP_SEEDS:
        e = entry(f"flagship-reach-s{seed}")
        assert e == reach_recipe(seed=seed)
        assert e.train.seed == seed and "flagship-seeds" in e.tags
        assert Task(e.task).longest_operand() >= max(e.eval_lengths) == REACH_DIGITS
    assert len(FLAGSHIP_SEEDS) >= 5


def test_reach_is_the_flagship_without_its_table_plus_the_scalable_softmax():
    flagship, reach = flagship_recipe(), reach_recipe()
    assert (reach.model.encoding, reach.model.length_scale) == ("none", True)
    same_model = replace(reach.model, encoding=flagship.model.encoding, max_positions=flagship.model.max_positions,
                         length_scale=False)
    assert same_model == flagship.model
    assert replace(reach.task, max_position=flagship.task.max_position, pack=flagship.task.pack) == flagship.task
    assert reach.task.pack == REACH_PACK and reach.train.batch_size * REACH_PACK == BATCH   # same problems per step
    assert replace(reach.train, batch_size=flagship.train.batch_size) == flagship.train


def test_the_figure_entries_change_only_the_pack_and_the_softmax():
    for pack in REACH_PACKS:
        e = entry(f"nb05-reach-pack{pack}-s0")
        assert e.task.pack == pack and not e.model.length_scale
        assert e.train.batch_size * pack == BATCH                      # the same problems per step
        assert replace(e.task, pack=REACH_PACK) == reach_recipe().task
        assert replace(e.model, length_scale=True) == reach_recipe().model

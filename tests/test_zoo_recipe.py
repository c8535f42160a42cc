"""The zoo's unit, :class:`Recipe`: configs shared by a set of seeds, variants by ``derive``, entries per seed, and
the store's lookups by (recipe, seed)."""
from __future__ import annotations

import pytest

from lengen_utils.lab import zoo
from lengen_utils.lab.zoo import Recipe, registry, with_overrides
from lengen_utils.lab.experiment.entry import ZooError


def small() -> Recipe:
    return Recipe.from_entry(zoo.entry("nb02-ape-l5"), id="tiny", seeds=(0, 3))


def test_a_recipe_makes_one_entry_per_seed_with_the_seed_in_train_and_name():
    r = small()
    names = [e.name for e in r.entries()]
    assert names == ["tiny-s0", "tiny-s3"]
    assert [e.train.seed for e in r.entries()] == [0, 3]
    assert all(e.recipe == "tiny" and e.task == r.task and e.model == r.model for e in r.entries())
    with pytest.raises(ValueError, match="not 1"):
        r.entry(1)


def test_derive_applies_overrides_and_fields_and_leaves_the_base_alone():
    base = small()
    v = base.derive("tiny-wide", "model.d_model=128", "train.lr=0.01", seeds=(5,), eval_n=10)
    assert (v.id, v.model.d_model, v.train.lr, v.seeds, v.eval_n) == ("tiny-wide", 128, 0.01, (5,), 10)
    assert base.model.d_model != 128 and base.seeds == (0, 3)


def test_overrides_of_one_section_apply_together():
    # op "*" alone would not fit the packed IDs; with pack=1 in the same call it does
    coupled = Recipe.from_entry(zoo.coupled_recipe())
    v = coupled.derive("x", 'task.op="*"', "task.multiplier_digits=2", "task.pack=1")
    assert (v.task.op, v.task.pack) == ("*", 1)
    with pytest.raises(ValueError, match="refused"):
        coupled.derive("x", 'task.op="*"')


@pytest.mark.parametrize("bad, match", [("model.no_such=1", "no field"), ("d_model=3", "SECTION.FIELD"),
                                        ("model.encoding=bogus", "refused")])
def test_a_bad_override_is_named(bad, match):
    with pytest.raises(Exception, match=match):
        with_overrides(small(), [bad])


@pytest.mark.parametrize("fields, match", [({"seeds": ()}, "seeds"), ({"seeds": (1, 1)}, "seeds"),
                                           ({"seeds": (-1,)}, "seeds"), ({"id": "two words"}, "one word"),
                                           ({"eval_lengths": ()}, "eval_lengths")])
def test_a_contradictory_recipe_is_refused(fields, match):
    with pytest.raises(ValueError, match=match):
        small().derive(fields.pop("id", "ok"), **fields)


def test_declared_recipes_are_registered_with_their_seeds():
    CHO_ADDITION = zoo.get_recipe("cho-addition-1to30")
    assert zoo.recipe_entries(CHO_ADDITION.id) == {0: "cho-addition-1to30-s0", 1: "cho-addition-1to30-s1"}
    for recipe_id in ("nb05-mulu-1l", "nb05-mulu-2l"):
        assert zoo.get_recipe(recipe_id).seeds == (0, 1, 2)
    with pytest.raises(ValueError, match="twice"):
        zoo.register_recipe(CHO_ADDITION)


def test_a_recipe_registered_as_entries_is_found_too():
    r = zoo.get_recipe("nb05-plain")
    assert r.seeds == tuple(zoo.recipe_entries("nb05-plain"))
    assert r.entry(r.seeds[0]).configs() == zoo.entry_for("nb05-plain", r.seeds[0]).configs()
    with pytest.raises(ZooError, match="did you mean"):
        zoo.get_recipe("nb05-plian")


def test_the_store_loads_by_recipe_and_seed():
    by_seed, _ = zoo.load("nb05-plain", seed=1)
    by_name, _ = zoo.load(zoo.entry_for("nb05-plain", 1).name)
    assert all((a == b).all() for a, b in zip(by_seed.state_dict().values(), by_name.state_dict().values()))
    with pytest.raises(ZooError, match="no seed 99"):
        zoo.load("nb05-plain", seed=99)

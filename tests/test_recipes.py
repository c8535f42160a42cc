"""Seeds and recipes are data of the zoo store: ``ZooEntry.recipe`` / ``.seed``, ``recipe_entries`` and
``entry_for``; no code outside :mod:`lengen_utils.zoo` builds ``f"{recipe}-s{seed}"`` or parses a name."""
from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path

import pytest

from lengen_utils import zoo
from lengen_utils.zoo import registry
from lengen_utils.zoo.catalog_nb05 import NB05_SEEDS
from lengen_utils.zoo.catalog_nb08 import NB08_SEEDS

ROOT = Path(__file__).resolve().parents[1]


# -- the store: recipes and seeds as data ---------------------------------------------------------------------

def test_every_catalog_entry_is_one_seed_of_one_recipe():
    recipes = {e.recipe for e in zoo.catalog().values()}
    seen = []
    for recipe in recipes:
        seeds = zoo.recipe_entries(recipe)
        assert list(seeds) == sorted(seeds) and seeds, recipe
        for seed, name in seeds.items():
            e = zoo.entry(name)
            assert (e.recipe, e.seed) == (recipe, seed) and e.seed == e.train.seed
            assert zoo.entry_for(recipe, seed) is e
        seen += seeds.values()
    assert sorted(seen) == sorted(zoo.catalog())          # each entry exactly once


def test_recipe_entries_of_real_recipes():
    plain = zoo.recipe_entries("nb05-plain")
    assert set(plain) == set(NB05_SEEDS)                    # not the 2- and 3-layer recipes nb05-plain-2l, -3l
    assert all(zoo.entry(n).model.n_layers == zoo.entry(plain[0]).model.n_layers for n in plain.values())
    assert set(zoo.recipe_entries("nb08-direct")) == set(NB08_SEEDS)
    one = zoo.recipe_entries("flagship-coupled")            # a recipe of one entry, without a seed suffix
    assert one == {zoo.entry("flagship-coupled").train.seed: "flagship-coupled"}
    assert not zoo.entry("flagship-coupled").seeded and zoo.entry(plain[0]).seeded
    assert zoo.recipe_entries("no-such-recipe") == {} and zoo.recipe_entries("nb05") == {}


def test_built_only_reads_the_manifest(tmp_path):
    plain = zoo.recipe_entries("nb05-plain")
    (tmp_path / "manifest.json").write_text(json.dumps({plain[1]: {}, "flagship-ape": {}}))
    assert zoo.recipe_entries("nb05-plain", built_only=True, assets=tmp_path) == {1: plain[1]}
    assert zoo.recipe_entries("nb05-plain", built_only=False, assets=tmp_path) == plain


def test_entry_for_names_the_recipe_the_seed_and_the_seeds_that_exist():
    seeds = ", ".join(map(str, zoo.recipe_entries("nb05-plain")))
    with pytest.raises(zoo.ZooError, match=rf"^zoo recipe 'nb05-plain' has no seed 99; its seeds: {seeds}$"):
        zoo.entry_for("nb05-plain", 99)
    with pytest.raises(zoo.ZooError, match=r"^unknown zoo recipe 'nb05-plian' \(asked for seed 0\); closest "
                                           r"recipes: nb05-plain"):
        zoo.entry_for("nb05-plian", 0)
    with pytest.raises(zoo.ZooError, match="nb05-plain-s0"):  # a name is not a recipe
        zoo.entry_for("nb05-plain-s0", 0)


def test_the_name_suffix_is_the_training_seed_and_replace_derives_the_recipe_again():
    e = zoo.entry_for("nb05-plain", 0)
    other = replace(e, name="nb05-other-s3", train=replace(e.train, seed=3))
    assert (other.recipe, other.seed, other.seeded) == ("nb05-other", 3, True)
    assert replace(e, name="nb05-plain-x").recipe == "nb05-plain-x"
    with pytest.raises(ValueError, match=r"nb05-plain-s5: the name's seed suffix -s5 must be the training seed "
                                         r"\(train.seed = 0\)"):
        replace(e, name="nb05-plain-s5")


def test_register_refuses_a_second_entry_for_one_recipe_and_seed(monkeypatch):
    e = zoo.entry_for("nb05-plain", 0)
    monkeypatch.setattr(registry, "ENTRIES", {})
    registry.register(replace(e, name="r-s0"))
    with pytest.raises(ValueError, match=r"zoo entry 'r': recipe 'r' already has seed 0 \('r-s0'\)"):
        registry.register(replace(e, name="r"))
    assert registry.recipe_entries("r") == {0: "r-s0"}


# -- no name is composed or parsed outside the store ------------------------------------------------------------

#: what composing or parsing a seed in a name looks like: f"{m}-s{seed}", "nb05-x-s{s}" templates, f"{m}-s0",
#: m + "-s", name.rsplit("-s") / startswith(m + "-s"), a regex for -s(\d+), and the store's parser itself.
FORBIDDEN = {
    "a name built from a seed": re.compile(r"-s\{"),
    "a seed suffix glued to a recipe": re.compile(r"\}-s\d"),
    "a '-s' string (concatenated or split on)": re.compile(r"""["']-s["']"""),
    "a regex for the seed suffix": re.compile(r"-s\(?\\d"),
    "the store's private parser": re.compile(r"\bsplit_seed\b"),
}


def offences(source: str) -> list[str]:
    """``["line N: what"]`` for each line of ``source`` that composes or parses a seeded name."""
    return [f"line {i}: {what}: {line.strip()}" for i, line in enumerate(source.splitlines(), 1)
            for what, pattern in FORBIDDEN.items() if pattern.search(line)]


@pytest.mark.parametrize("line", ['name = f"{m}-s{seed}"', 'live[f"nb05-len10-s{seed}"]', '"nb05-plain-s{s}"',
                                  'entry(f"{method}-s0")', 'if name.startswith(method + "-s"):',
                                  'method, seed = name.rsplit("-s", 1)', r'NAME = re.compile(r"^nb04-(\w+)-s(\d+)$")',
                                  "from ..zoo import split_seed"])
def test_the_scan_catches_every_way_of_building_or_parsing_a_seed(line):
    assert offences(f"x = 1\n{line}\n")


def test_the_scan_lets_names_and_prose_through():
    assert offences('zoo.load("nb05-plain-s0")\nf"{pct(em)} from {s}"\nf"seed {s} gets"\n'
                    'f"s{sig}"\n"nb05-len10"\nentry_for(m, 0).name\n') == []


def test_no_code_outside_the_store_builds_or_parses_a_seeded_name():
    files = [p for p in sorted((ROOT / "lengen_utils").rglob("*.py")) if "zoo" not in p.relative_to(ROOT).parts[1:2]]
    files += sorted((ROOT / "scripts").rglob("*.py"))
    assert len(files) > 50
    found = {str(p.relative_to(ROOT)): bad for p in files if (bad := offences(p.read_text()))}
    assert not found, ("use lengen_utils.zoo.recipe_entries / entry_for / ZooEntry.recipe instead of names: "
                       + json.dumps(found, indent=1, ensure_ascii=False))

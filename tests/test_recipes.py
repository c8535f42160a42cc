"""Seeds and recipes are data of the zoo store: ``ZooEntry.recipe`` / ``.seed``, ``recipe_entries`` and
``entry_for``; no code outside :mod:`lengen_utils.lab.zoo` builds ``f"{recipe}-s{seed}"`` or parses a name. Variants are
data too: each chapter's ``recipes.py`` writes a family's rows out in a table (``TRAINED_LENGTH``'s ``"len10"`` is
``"nb05-len10"``), code names a recipe by its id, and no code outside the store builds ``f"nb05-len{k}"``."""
from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path

import pytest
from planted_records import full_record

from lengen_utils.lab import zoo
from lengen_utils.lab.zoo import registry
from lengen_utils.lab.experiment.recipe import RecipeTable
from lengen_utils.course.ch05_coupling import recipes as ch05
from lengen_utils.course.ch08_beyond import agenda as nb08
from lengen_utils.course.common.baselines import BASELINE_LABELS

NB05_SEEDS = NB08_SEEDS = (0, 1, 2)
FLAGSHIPS = {"coupled": "flagship-coupled", "ape": "flagship-ape"}

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
    one = zoo.recipe_entries("smoke-coupled-3")             # a recipe of one entry, without a seed suffix
    assert one == {zoo.entry("smoke-coupled-3").train.seed: "smoke-coupled-3"}
    assert not zoo.entry("smoke-coupled-3").seeded and zoo.entry(plain[0]).seeded
    assert zoo.recipe_entries("flagship-coupled") == zoo.recipe_entries("nb05-sink")   # an alias: its entry's recipe
    assert zoo.recipe_entries("no-such-recipe") == {} and zoo.recipe_entries("nb05") == {}


def test_built_only_reads_the_manifest(tmp_path):
    plain = zoo.recipe_entries("nb05-plain")
    (tmp_path / "manifest.json").write_text(json.dumps({plain[1]: full_record(), "flagship-ape": full_record()}))
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


def test_an_entry_is_a_recipe_and_a_seed_and_its_name_is_composed_from_them():
    e = zoo.entry_for("nb05-plain", 0)
    other = replace(e, recipe="nb05-other", train=replace(e.train, seed=3))
    assert (other.recipe, other.seed, other.seeded, other.name) == ("nb05-other", 3, True, "nb05-other-s3")
    alone = replace(e, recipe="nb05-plain-x", seeded=False)
    assert (alone.recipe, alone.seed, alone.name) == ("nb05-plain-x", 0, "nb05-plain-x")
    with pytest.raises(ValueError, match=r"a recipe id is one word, e.g. 'nb05-plain'; got 'nb05 plain'"):
        replace(e, recipe="nb05 plain")


def test_register_refuses_a_second_entry_for_one_recipe_and_seed(monkeypatch):
    e = zoo.entry_for("nb05-plain", 0)
    monkeypatch.setattr(registry, "ENTRIES", {})
    registry.register(replace(e, recipe="r"))
    with pytest.raises(ValueError, match=r"zoo entry 'r': recipe 'r' already has seed 0 \('r-s0'\)"):
        registry.register(replace(e, recipe="r", seeded=False))
    assert registry.recipe_entries("r") == {0: "r-s0"}


# -- variants as data: each family's {variant: recipe}, filled as the entries register -------------------------

def _variant(recipe: str, read) -> set:
    """The set of ``read(entry)`` over every seed of ``recipe`` (one value: the seeds share the variant)."""
    seeds = zoo.recipe_entries(recipe)
    assert seeds, f"{recipe!r} is no recipe of the catalog"
    return {read(zoo.entry(n)) for n in seeds.values()}


@pytest.mark.parametrize("recipes, variants, variant, same", [
    ({5: "nb05-len5", 10: "nb05-len10", 15: "nb05-len15"}, (5, 10, 15), lambda e: e.task.max_digits,
     lambda e: e.task.positions),
    ({5: "nb05-sink-len5", 10: "nb05-sink", 15: "nb05-sink-len15"}, (5, 10, 15), lambda e: e.task.max_digits,
     lambda e: e.task.positions),
    ({2: "nb05-plain-2l", 3: "nb05-plain-3l"}, (2, 3), lambda e: e.model.n_layers, lambda e: e.model.relative_bias),
    ({(1, 2000): "nb05-mul-1l", (1, 6000): "nb05-mul-1l-long", (2, 2000): "nb05-mul-2l", (2, 6000): "nb05-mul-2l-long"},
     [(1, 2000), (1, 6000), (2, 2000), (2, 6000)], lambda e: (e.model.n_layers, e.train.steps), lambda e: e.task.op),
    ({1: "nb05-mulu-1l", 2: "nb05-mulu-2l"}, (1, 2), lambda e: e.model.n_layers, lambda e: e.task.op),
    ({k: f"nb02-ape-l{k}" for k in (2, 3, 4, 5, 6, 8, 10)}, (2, 3, 4, 5, 6, 8, 10), lambda e: e.task.max_digits,
     lambda e: (e.model.encoding, e.task.shift_augment)),
    ({k: f"nb03-rpe-l{k}" for k in (3, 5, 8)}, (3, 5, 8), lambda e: e.task.max_digits, lambda e: e.model.encoding),
    ({"rpe": "nb03-rpe-l5", "learned": "nb03-ape-l5", "none": "nb03-nope-l5", "rope": "nb03-rope-l5",
      "alibi": "nb03-alibi-l5"}, ("rpe", "learned", "none", "rope", "alibi"), lambda e: e.model.encoding,
     lambda e: e.task.max_digits),
    ({p: f"nb05-reach-pack{p}" for p in (4, 8, 16)}, (4, 8, 16), lambda e: e.task.pack, lambda e: e.model.length_scale),
])
def test_each_variant_maps_to_the_recipe_trained_with_it(recipes, variants, variant, same):
    """Every seed of ``recipes[v]`` has the variant ``v``, and the family agrees on what it holds fixed."""
    assert list(recipes) == list(variants) and len(set(recipes.values())) == len(recipes)
    assert {v: _variant(r, variant) for v, r in recipes.items()} == {v: {v} for v in recipes}
    assert len(set().union(*(_variant(r, same) for r in recipes.values()))) == 1


def test_method_maps_name_the_recipes_of_their_methods():
    assert ch05.ABLATION.ids() == ("nb05-plain", "nb05-bias", "nb05-pack", "nb05-both")
    assert set(BASELINE_LABELS) == set(ch05.BASELINES.ids())
    tagged = [r for r in zoo.RECIPES.values() if "nb05-baselines" in r.tags]
    assert tagged and all(r.title for r in tagged), [r.id for r in tagged if not r.title]   # each row names itself
    methods = {r.title: r for r in nb08.ROWS.values()}      # a row at another trained length has its method's title
    for row in nb08.TABLE.recipes():                          # each seed says it is that method
        what = methods[row.title].summary
        assert zoo.get_recipe(row.id).title == row.title, row.id
        assert _variant(row.id, lambda e: e.description.startswith(what)) == {True}, row.id
    positions = {m: _variant(r, lambda e: e.task.positions) for m, r in FLAGSHIPS.items()}
    assert positions["ape"] == {"consecutive"} and next(iter(positions["coupled"])).startswith("coupled")


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


#: what building a recipe's name from a variant looks like: f"nb05-len{k}", f"nb08-{m}", "nb05-base-{}".format(m),
#: "nb05-%s" % m, "nb05-base-" + m, and a bare prefix ("nb08-", "nb05-base-") to glue a variant to or match names on.
#: A whole name ("nb05-len10", "nb05-sink-s0") or one in prose (f"nb05-both-s0 on {a} + {b}") is not a variant's.
_NAME = r"(?:nb0\d|flagship)-"
VARIANT_FORBIDDEN = {
    "a name templated on a variant (f-string, .format or %)": re.compile(_NAME + r"[\w-]*(?:\{|%[sdir(])"),
    "a name glued to a variant (+)": re.compile(r"""["']""" + _NAME + r"""[\w-]*["']\s*\+"""),
    "a name prefix (a string ending in '-')": re.compile(r"""["']""" + _NAME + r"""(?:[\w-]*-)?["']"""),
}


def offences(source: str, patterns: dict[str, re.Pattern] = FORBIDDEN) -> list[str]:
    """``["line N: what"]`` for each line of ``source`` that one of ``patterns`` finds (default: composing or
    parsing a seeded name; :data:`VARIANT_FORBIDDEN`: building a name from a variant)."""
    return [f"line {i}: {what}: {line.strip()}" for i, line in enumerate(source.splitlines(), 1)
            for what, pattern in patterns.items() if pattern.search(line)]


@pytest.mark.parametrize("line", ['name = f"{m}-s{seed}"', 'live[f"nb05-len10-s{seed}"]', '"nb05-plain-s{s}"',
                                  'entry(f"{method}-s0")', 'if name.startswith(method + "-s"):',
                                  'method, seed = name.rsplit("-s", 1)', r'NAME = re.compile(r"^nb04-(\w+)-s(\d+)$")',
                                  "from ..zoo import split_seed"])
def test_the_scan_catches_every_way_of_building_or_parsing_a_seed(line):
    assert offences(f"x = 1\n{line}\n")


def test_the_scan_lets_names_and_prose_through():
    assert offences('zoo.load("nb05-plain-s0")\nf"{pct(em)} from {s}"\nf"seed {s} gets"\n'
                    'f"s{sig}"\n"nb05-len10"\nentry_for(m, 0).name\n') == []


def _outside_the_store() -> list[Path]:
    """The Python files of ``lengen_utils/`` outside the store (``lengen_utils/lab/zoo/`` and the entry and recipe
    definitions in ``lengen_utils/lab/experiment/``), and of ``scripts/``."""
    store = (ROOT / "lengen_utils" / "lab" / "zoo", ROOT / "lengen_utils" / "lab" / "experiment")
    files = [p for p in sorted((ROOT / "lengen_utils").rglob("*.py")) if not set(store) & set(p.parents)]
    files += sorted((ROOT / "scripts").rglob("*.py"))
    assert len(files) > 50
    return files


def _sources() -> dict[str, str]:
    """``{path: source}`` of the code outside the store, and of every notebook's code cells."""
    sources = {str(p.relative_to(ROOT)): p.read_text() for p in _outside_the_store()}
    notebooks = sorted((ROOT / "notebooks").glob("*.ipynb"))
    assert len(notebooks) >= 9
    for nb in notebooks:
        cells = json.loads(nb.read_text())["cells"]
        sources[str(nb.relative_to(ROOT))] = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "code")
    return sources


def test_no_code_outside_the_store_builds_or_parses_a_seeded_name():
    found = {path: bad for path, text in _sources().items() if (bad := offences(text))}
    assert not found, ("use lengen_utils.lab.zoo.recipe_entries / entry_for / ZooEntry.recipe instead of names: "
                       + json.dumps(found, indent=1, ensure_ascii=False))


@pytest.mark.parametrize("line", ['OURS = {k: f"nb05-len{k}" for k in TRAINED}', 'seed_curves(f"nb05-{m}")',
                                  "entry_for(f'nb08-{method}', 0)", 'NO_SIG = [f"nb05-base-{m}" for m in ms]',
                                  'f"nb08-coupled-{m}-l{k}"', 'rf"nb03-rpe-l{k}"', '"nb02-ape-l{}".format(k)',
                                  '"nb05-%s" % method', '"nb05-base-" + m', 'name = "nb05-len" + str(k)',
                                  'PREFIX = "nb08-"', 'if name.startswith("nb05-base-"):',
                                  'zoo.metrics(f"flagship-{name}")'])
def test_the_scan_catches_every_way_of_building_a_name_from_a_variant(line):
    assert offences(f"x = 1\n{line}\n", VARIANT_FORBIDDEN)


def test_the_variant_scan_lets_names_lookups_and_prose_through():
    ok = ('zoo.load("nb05-plain-s0")\nLABELS = {"nb05-len10": "ours", "nb05-sink": "+ sink"}\n'
          'OURS = {k: TRAINED_LENGTH[k] for k in TRAINED}\nMETHODS[f"coupled-{m}"]\n'
          'title=f"nb05-both-s0 on {p.a} + {p.b}: attention"\nf"{label} ({n} seeds, nb05-plain)"\n'
          '"""Notebook 05 (tags ``nb05-trained``, ``nb05-sink``)."""\nf"nb05: {x:.1%} at 30 digits"\n'
          'f"train nb05-len10-s0: {seconds:.0f} s"\nTAG = "nb05"\n"flagship-coupled"\n')
    assert offences(ok, VARIANT_FORBIDDEN) == []


def test_no_code_outside_the_store_builds_a_name_from_a_variant():
    found = {path: bad for path, text in _sources().items() if (bad := offences(text, VARIANT_FORBIDDEN))}
    assert not found, ("name the recipe by its id (\"nb05-len10\") or its table's row (recipes.TRAINED_LENGTH) "
                       "instead of building its name: "
                       + json.dumps(found, indent=1, ensure_ascii=False))


# -- roles: rows found by what they are for ---------------------------------------------------------------------

def test_a_row_is_found_by_its_role_and_the_role_stays_out_of_the_store():
    base = next(iter(zoo.RECIPES.values()))
    table = RecipeTable("t", replace(base, id=""), {"a": {"roles": ("widget", "claim:x")}, "b": {"title": "B"}})
    assert [r.id for r in table.with_role("widget")] == ["t-a"] and table.with_role("nowhere") == ()
    assert table.recipe("a").roles == ("widget", "claim:x")
    assert not hasattr(table.recipe("a").entry(0), "roles")      # an entry (what the store records) has no roles
    # a table built on another table's row does not inherit that row's roles; a shared base (id "") passes them on
    derived = RecipeTable("u", table.recipe("a"), {"c": {}, "d": {"roles": ("own",)}})
    assert derived.recipe("c").roles == () and derived.recipe("d").roles == ("own",)
    shared = RecipeTable("v", replace(base, id="", roles=("every-row",)), {"e": {}})
    assert shared.recipe("e").roles == ("every-row",)


def test_the_zoo_finds_one_row_by_role_and_names_a_missing_one():
    every = [r for r in zoo.RECIPES.values() if r.roles]
    for recipe in every:
        for role in recipe.roles:
            assert recipe in zoo.with_role(role)
    with pytest.raises(zoo.ZooError, match="0 recipes have the role 'no-such-role'.*roles="):
        zoo.with_one_role("no-such-role")


def test_every_role_a_row_declares_is_read_by_the_code():
    """A misspelt role hides its row without an error (``with_role`` finds nothing): every role, or its kind before
    the colon (``claim:``, ``reproduces:``), is written as a string in the package's code outside the recipes
    modules. The kinds' own tests (test_ledger, test_departures) check each prefixed role's value."""
    package = Path(zoo.__file__).resolve().parents[2]
    code = "\n".join(p.read_text() for p in package.rglob("*.py") if not p.name.endswith("recipes.py"))
    roles = {role for recipe in zoo.RECIPES.values() for role in recipe.roles}
    assert len(roles) > 20
    unread = sorted(role for role in roles if not (
        f'"{role}"' in code or any(f'{quote}{role.partition(":")[0]}:' in code for quote in ('"', "'", 'f"'))
        if ":" in role else f'"{role}"' in code))
    assert not unread, f"roles no code reads (misspelt?): {unread}"

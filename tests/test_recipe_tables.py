"""The recipe tables: the catalog they build is the golden one, and every chapter's ``recipes.py`` is plain data.

``tests/data/zoo_catalog_golden.json`` holds every entry (name, recipe, seed, configs, test plan), every alias and
every declared recipe as the catalog built them before the recipes became tables; the tables must reproduce it
exactly (an entry's name and configs are what its cached weights and manifest record were built from).
"""
from __future__ import annotations

import json
from pathlib import Path

from lengen_utils.lab import zoo

GOLDEN = Path(__file__).resolve().parent / "data" / "zoo_catalog_golden.json"


def catalog_dump() -> dict:
    """Every entry, alias and declared recipe of the zoo as JSON-ready data (the golden file's shape)."""
    out: dict = {"entries": {}, "aliases": dict(zoo.ALIASES), "recipes": {}}
    for name, e in zoo.catalog().items():
        out["entries"][name] = {
            "recipe": e.recipe, "seed": e.seed, "configs": e.configs(), "eval_lengths": list(e.eval_lengths),
            "eval_n": e.eval_n, "description": e.description, "tags": list(e.tags), "curve_every": e.curve_every,
            "seeded": e.seeded}
    for rid, r in zoo.RECIPES.items():
        out["recipes"][rid] = {
            "task": r.task.to_dict(), "model": r.model.to_dict(), "train": r.train.to_dict(), "seeds": list(r.seeds),
            "eval_lengths": list(r.eval_lengths), "eval_n": r.eval_n, "description": r.description,
            "tags": list(r.tags), "curve_every": r.curve_every, "seed_in_name": r.seed_in_name}
    return json.loads(json.dumps(out))


def test_the_catalog_is_the_golden_one():
    golden = json.loads(GOLDEN.read_text())
    now = catalog_dump()
    assert now["aliases"] == golden["aliases"]
    assert sorted(now["entries"]) == sorted(golden["entries"]), (
        sorted(set(now["entries"]) ^ set(golden["entries"])))
    assert sorted(now["recipes"]) == sorted(golden["recipes"]), (
        sorted(set(now["recipes"]) ^ set(golden["recipes"])))
    changed = [n for n in golden["entries"] if now["entries"][n] != golden["entries"][n]]
    assert not changed, f"entries changed: {changed}"
    changed = [r for r in golden["recipes"] if now["recipes"][r] != golden["recipes"][r]]
    assert not changed, f"recipes changed: {changed}"

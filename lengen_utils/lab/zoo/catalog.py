"""The zoo's entries: every cached model of the course, as recipe tables registered once.

Each notebook's recipes are data in its chapter folder, ``lengen_utils/course/chNN_<topic>/recipes.py`` (a
:class:`~.recipe.RecipeTable` per experiment, listed in its ``TABLES``); the lab's own (the flagship's runs and the
smoke entry) are in :mod:`.recipes`. This module imports every one of them explicitly (:data:`RECIPE_MODULES`)
and registers all their tables in one call (:func:`register_all`), so that no recipe depends on the order in which
modules were imported. Changing an entry means rebuilding it (``python -m lengen_utils.lab.zoo train NAME``);
``verify`` refuses a manifest that no longer matches.
"""
from __future__ import annotations

from ...course.ch02_ape import recipes as ch02
from ...course.ch03_rpe import recipes as ch03
from ...course.ch04_upe import recipes as ch04
from ...course.ch05_coupling import recipes as ch05
from ...course.ch06_complexity import recipes as ch06
from ...course.ch07_theory import recipes as ch07
from ...course.ch08_beyond import recipes as ch08
from ...course.ch09_nxm import recipes as ch09
from . import recipes as lab
from .aliases import add_alias
from .registry import ENTRIES, catalog, entry, register, register_recipe

#: every module of recipe tables: the lab's own, then each chapter's, in the notebooks' order
RECIPE_MODULES = (lab, ch02, ch03, ch04, ch05, ch06, ch07, ch08, ch09)

#: other names of entries (:mod:`.aliases`): the flagship's models are seeds of notebook 05's recipes, stored once
FLAGSHIP_ALIASES: dict[str, str] = {"flagship-coupled": "nb05-sink-s0", "flagship-ape": "nb05-base-ape-s0"}
#: notebook 03's five encodings at equal budget were one run each, named by the recipe id; with three seeds each, the
#: id goes on naming that run, seed 0 (same configs, same file), so the sections that read one model keep reading it
SEEDED_ALIASES: dict[str, str] = {"nb03-rpe-l5": "nb03-rpe-l5-s0", "nb03-ape-l5": "nb03-ape-l5-s0",
                                  "nb03-nope-l5": "nb03-nope-l5-s0", "nb03-rope-l5": "nb03-rope-l5-s0",
                                  "nb03-alibi-l5": "nb03-alibi-l5-s0"}


def register_all() -> None:
    """Register every table's recipes (with an entry per seed) and the aliases; once."""
    if ENTRIES:
        return
    for module in RECIPE_MODULES:
        for table in module.TABLES:
            for recipe in table.recipes():
                register_recipe(recipe)
    for alias, name in {**FLAGSHIP_ALIASES, **SEEDED_ALIASES}.items():
        add_alias(alias, name)


register_all()

__all__ = ["RECIPE_MODULES", "ENTRIES", "FLAGSHIP_ALIASES", "SEEDED_ALIASES", "catalog", "entry", "register",
           "register_all"]

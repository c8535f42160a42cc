"""The zoo's entries: every cached model of the course, as recipe tables registered once.

Each notebook's recipes are data in its chapter folder, ``lengen_utils/course/chNN_<topic>/recipes.py`` (a
:class:`~lengen_utils.lab.experiment.recipe.RecipeTable` per experiment, listed in its ``TABLES``); the lab's own
(the flagship's runs and the smoke entry) are in :mod:`~lengen_utils.lab.experiment.lab_recipes`. The lab never
imports the course: the package declares its chapters' recipes modules as entry points of the group :data:`RECIPE_GROUP` (``pyproject.toml``,
``[project.entry-points."lengen_utils.recipes"]``), and :func:`register_all` registers the lab's tables, then each
declared module's in the order of their names (the notebooks' order), in one call, so that no recipe depends on the
order in which modules were imported. A chapter's recipes module imports only the core and
:mod:`lengen_utils.lab.experiment`, so importing it first loads no zoo. Changing an entry means rebuilding it
(``python -m lengen_utils.lab.zoo train NAME``); ``verify`` refuses a manifest that no longer matches.
"""
from __future__ import annotations

import importlib
from importlib import metadata
from pathlib import Path
from types import ModuleType

from ..experiment.entry import ZooError
from ..experiment import lab_recipes as lab
from .aliases import FLAGSHIP_ALIASES, SEEDED_ALIASES, add_alias
from .manifest import REPO_ROOT
from .registry import ENTRIES, catalog, entry, register, register_recipe

#: the entry-point group that lists the modules of recipe tables (each holds ``TABLES``)
RECIPE_GROUP = "lengen_utils.recipes"


def declared_in_pyproject(path: Path = REPO_ROOT / "pyproject.toml") -> dict[str, str]:
    """``{name: module}`` of the group :data:`RECIPE_GROUP` as ``pyproject.toml`` declares it (empty without the file):
    the same declaration, read from its source, for a checkout used without installing it (``PYTHONPATH=.``, a GPU
    machine's copy of the working tree) or an installation older than the group."""
    if not path.is_file():
        return {}
    header, declared = f'[project.entry-points."{RECIPE_GROUP}"]', {}
    lines = path.read_text().splitlines()
    for line in lines[lines.index(header) + 1:] if header in lines else []:
        if not line.strip() or line.startswith("["):
            break
        name, _, module = line.partition("=")
        declared[name.strip()] = module.strip().strip('"')
    return declared


def declared_modules() -> tuple[ModuleType, ...]:
    """The recipes modules the package declares (group :data:`RECIPE_GROUP`), by entry-point name: from the installed
    metadata, else from the checkout's ``pyproject.toml`` (:func:`declared_in_pyproject`). None declared raises
    :class:`ZooError` with the command that installs them."""
    points = metadata.entry_points()
    found = points.select(group=RECIPE_GROUP) if hasattr(points, "select") else points.get(RECIPE_GROUP, ())
    declared = {point.name: point.value for point in found} or declared_in_pyproject()
    modules = tuple(importlib.import_module(declared[name]) for name in sorted(declared))
    if not modules:
        raise ZooError(f"no recipe tables are declared (entry-point group {RECIPE_GROUP!r}): the package's metadata "
                       f"is missing or older than its code; install it with `pip install -e .` in the repository "
                       f"(or `bash scripts/install.sh`)")
    return modules


#: every module of recipe tables: the lab's own, then each chapter's, in the notebooks' order
RECIPE_MODULES: tuple[ModuleType, ...] = (lab, *declared_modules())


def register_all() -> None:
    """Register every table's recipes (with an entry per seed) and the aliases (:mod:`.aliases`: the flagship's names
    and notebook 03's seeded ids); once."""
    if ENTRIES:
        return
    for module in RECIPE_MODULES:
        for table in module.TABLES:
            for recipe in table.recipes():
                register_recipe(recipe)
    for alias, name in {**FLAGSHIP_ALIASES, **SEEDED_ALIASES}.items():
        add_alias(alias, name)


register_all()

__all__ = ["ENTRIES", "FLAGSHIP_ALIASES", "RECIPE_GROUP", "RECIPE_MODULES", "SEEDED_ALIASES", "catalog",
           "declared_in_pyproject", "declared_modules", "entry", "register", "register_all"]

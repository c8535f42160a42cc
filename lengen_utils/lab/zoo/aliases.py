"""Other names of zoo entries: one training run, one checkpoint, one manifest record, and more than one name.

``flagship-coupled`` is the flagship's name in the tour, the README and ``bench``; the run itself is seed 0 of
notebook 05's recipe ``nb05-sink`` (the same configs), stored once as ``nb05-sink-s0``. Every lookup of the zoo
(``entry``, ``load``, ``metrics``, ``verify``, ``train``, ``recipe_entries``) reads an alias as the entry it names.

:data:`RENAMED` lists the recipe ids that 0.3 shortened (ids are at most 24 characters; a variant's settings are
its fields). An old id, and its entries' old names, still resolve to the new ones until 0.4, with a warning that
names the new id (a ``FutureWarning``: the deprecation of a name a learner types, shown wherever it is called
from); ``python -m lengen_utils.lab.zoo migrate --ids`` renames an older assets folder.
"""
from __future__ import annotations

import sys
import warnings
from pathlib import Path

_ZOO = str(Path(__file__).parent)

#: ``{alias: entry name}``
ALIASES: dict[str, str] = {}

#: the flagship's names in the tour, the README and ``bench``: seeds of notebook 05's recipes, stored once (the catalog
#: adds them, and :data:`SEEDED_ALIASES`, once every table is registered)
FLAGSHIP_COUPLED, FLAGSHIP_APE = "flagship-coupled", "flagship-ape"
FLAGSHIP_ALIASES: dict[str, str] = {FLAGSHIP_COUPLED: "nb05-sink-s0", FLAGSHIP_APE: "nb05-base-ape-s0"}
#: notebook 03's five encodings at equal budget were one run each, named by the recipe id; with three seeds each, the
#: id goes on naming that run, seed 0 (same configs, same file), so the sections that read one model keep reading it
SEEDED_ALIASES: dict[str, str] = {"nb03-rpe-l5": "nb03-rpe-l5-s0", "nb03-ape-l5": "nb03-ape-l5-s0",
                                  "nb03-nope-l5": "nb03-nope-l5-s0", "nb03-rope-l5": "nb03-rope-l5-s0",
                                  "nb03-alibi-l5": "nb03-alibi-l5-s0"}

#: ``{old recipe id: new recipe id}``: the ids renamed in 0.3, resolved with a deprecation until 0.4
RENAMED: dict[str, str] = {
    "nb04-upe-m3-f20-w3-big": "nb04-upe-m3-big",
    "nb04-upe-m3-f20-w3-big-cur": "nb04-upe-m3-big-cur",
    "nb04-upe-m3-f20-w3-deep-cur": "nb04-upe-m3-deep-cur",
    "nb04-upe-m3-f20-w3-wide-cur": "nb04-upe-m3-wide-cur",
    "nb04-upe-m3-f20-w3-long-cur": "nb04-upe-m3-long-cur",
    "nb04-upe-m3-f20-w3-big-cur-carry": "nb04-upe-m3-big-carry",
    "nb04-upe-m3-f20-w3-long-cur-carry": "nb04-upe-m3-long-carry",
    "nb04-upe-m3-f20-w3-big-cur-carry-prod": "nb04-upe-m3-big-heads",
    "nb04-upe-m3-f20-w3-long-cur-carry-prod": "nb04-upe-m3-long-heads",
    "nb04-rpe-m3-f20-w3-long-cur-carry-prod": "nb04-rpe-m3-long-heads",
    "nb06-rpe-uniform-complexity": "nb06-rpe-cascade",
    "nb06-rpe-mixed-complexity": "nb06-rpe-mixed",
    "nb08-coupled-scratch-long": "nb08-coupled-scratch-6k",
    "nb08-length-curriculum-long": "nb08-length-cur-6k",
    "sabbaghi-rpe-addition-5to50": "sabbaghi-rpe-add-5to50",
    "sabbaghi-upe-m3-9l-masked": "sabbaghi-upe-m3-masked",
    "sabbaghi-upe-m3-9l-masked-b256": "sabbaghi-upe-m3-b256",
    "sabbaghi-upe-m3-9l-masked-annealed": "sabbaghi-upe-m3-annealed",
}

#: ``{old entry name: new entry name}`` of the renamed recipes' entries, filled as the registry registers them
RENAMED_ENTRIES: dict[str, str] = {}


def add_alias(alias: str, name: str) -> str:
    """Let ``alias`` name the entry ``name``; returns ``alias``. An alias is never a second entry, nor an alias
    of an alias."""
    if alias in ALIASES or alias == name or name in ALIASES:
        raise ValueError(f"zoo alias {alias!r} -> {name!r}: an alias names one entry, once, and not another alias")
    ALIASES[alias] = name
    return alias


def _renamed(old: str, new: str) -> str:
    frame, level = sys._getframe(), 1          # the warning names the first caller outside the zoo's own modules
    while frame is not None and frame.f_code.co_filename.startswith(_ZOO):
        frame, level = frame.f_back, level + 1
    warnings.warn(f"zoo id {old!r} is deprecated: it is now {new!r} (renamed in lengen 0.3: ids are at most 24 "
                  f"characters); the old id stops resolving in 0.4", FutureWarning, stacklevel=level)
    return new


def resolve(name: str) -> str:
    """The entry name that ``name`` stands for: ``name`` itself, the entry an alias names, or (with a
    ``FutureWarning``) the new name of a renamed entry."""
    if name in RENAMED_ENTRIES:
        return _renamed(name, RENAMED_ENTRIES[name])
    return ALIASES.get(name, name)


def resolve_recipe(recipe_id: str) -> str:
    """``recipe_id`` itself, or (with a ``FutureWarning``) the new id of a renamed recipe."""
    return _renamed(recipe_id, RENAMED[recipe_id]) if recipe_id in RENAMED else recipe_id

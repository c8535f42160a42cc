"""Other names of zoo entries: one training run, one checkpoint, one manifest record, and more than one name.

``flagship-coupled`` is the flagship's name in the tour, the README and ``bench``; the run itself is seed 0 of
notebook 05's recipe ``nb05-sink`` (the same configs), stored once as ``nb05-sink-s0``. Every lookup of the zoo
(``entry``, ``load``, ``metrics``, ``verify``, ``train``, ``recipe_entries``) reads an alias as the entry it names.
"""
from __future__ import annotations

#: ``{alias: entry name}``
ALIASES: dict[str, str] = {}


def add_alias(alias: str, name: str) -> str:
    """Let ``alias`` name the entry ``name``; returns ``alias``. An alias is never a second entry, nor an alias
    of an alias."""
    if alias in ALIASES or alias == name or name in ALIASES:
        raise ValueError(f"zoo alias {alias!r} -> {name!r}: an alias names one entry, once, and not another alias")
    ALIASES[alias] = name
    return alias


def resolve(name: str) -> str:
    """The entry name that ``name`` stands for (``name`` itself unless it is an alias)."""
    return ALIASES.get(name, name)

"""Comparing a recipe with a paper's setup: the departures table, and the check that it shows every difference.

:func:`departures` gives one :class:`Departure` row per compared field (:data:`~.vocabulary.COMPARED`), then one per
hand-labelled departure (:data:`~.setups.EXTRA_DEPARTURES`); :func:`departures_table` renders them as plain dicts
and :func:`to_markdown` as a Markdown table. :func:`unlabelled_departures`, :func:`stale_labels` and
:func:`reference_additions` are the completeness check (tests/test_departures.py): a config field in which a
reproduction differs from its reference recipe is shown by a row or labelled, and a reference adds nothing unseen.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, fields
from typing import Any, Iterable, Mapping, Sequence

from ...core.model import ModelConfig
from ...core.task_config import TaskConfig
from ...core.train import TrainConfig
from ..zoo import Recipe, get_recipe
from .setups import (IMPLEMENTATION_FIELDS, INERT_UNLESS, PAPER_SETUPS, REPRODUCTIONS, labelled_departures,
                     reference_recipe, setup_of)
from .vocabulary import COMPARED, COMPARED_PATHS, NOT_SETUP_FIELDS, NOT_STATED, PaperSetup, matches


# == comparing =====================================================================================================
@dataclass(frozen=True)
class Departure:
    """One row of a departures table: the field, the paper's value and its source, ours, and whether they differ
    (``None``: the paper does not state it). A hand-labelled row (:data:`EXTRA_DEPARTURES`) has the reference
    recipe's value in ``paper`` and ``source`` ``"reference <id>"``."""
    field: str
    paths: tuple[str, ...]
    paper: Any
    source: str
    ours: Any
    differs: bool | None
    note: str = ""

    @property
    def status(self) -> str:
        return NOT_STATED if self.differs is None else ("differs" if self.differs else "same")


def read_path(recipe: Recipe, path: str) -> Any:
    """The value of ``path`` in ``recipe``: ``"task.sampler"`` (a config's field) or ``"eval_lengths"`` (its own)."""
    section, _, name = path.partition(".")
    return getattr(getattr(recipe, section), name) if name else getattr(recipe, section)


def config_fields(recipe: Recipe) -> dict[str, Any]:
    """Every config field of ``recipe`` by path: ``{"task.op": "+", ..., "train.select_every": 0}``."""
    return {f"{section}.{f.name}": getattr(getattr(recipe, section), f.name)
            for section in ("task", "model", "train") for f in fields(getattr(recipe, section))}


def _same_value(a: Any, b: Any) -> bool:
    if isinstance(a, float) or isinstance(b, float):
        return isinstance(a, (int, float)) and isinstance(b, (int, float)) and math.isclose(a, b)
    return a == b


def config_differences(recipe: Recipe, reference: Recipe) -> list[str]:
    """The config field paths in which ``recipe`` differs from ``reference``, sorted."""
    ours, theirs = config_fields(recipe), config_fields(reference)
    return sorted(p for p in ours if not _same_value(ours[p], theirs[p]))


def reference_additions(reference: Recipe) -> list[str]:
    """The config fields of a reference recipe that no compared row reads and that are switched on (away from the
    config's default), except :data:`IMPLEMENTATION_FIELDS` and fields inert in that config (:data:`INERT_UNLESS`).
    Empty for every claim (tests/test_departures.py): a reference adds nothing the table does not show, so a recipe
    derived from a reproduction cannot carry an addition into its own reference unseen."""
    values = config_fields(reference)
    defaults = config_fields(Recipe(id="defaults", task=TaskConfig(), model=ModelConfig(), train=TrainConfig(),
                                    eval_lengths=(1,)))
    found = []
    for path, value in values.items():
        if path in COMPARED_PATHS or path in NOT_SETUP_FIELDS or path in IMPLEMENTATION_FIELDS:
            continue
        switch = INERT_UNLESS.get(path)
        if switch is not None and values[switch[0]] == switch[1]:
            continue
        if not _same_value(value, defaults[path]):
            found.append(path)
    return sorted(found)


def unlabelled_departures(recipe: Recipe, setup: PaperSetup, reference: Recipe | None = None,
                          labelled: Mapping[str, str] | None = None) -> list[str]:
    """The config fields in which ``recipe`` differs from the reference recipe of ``setup``'s claim
    (:func:`reference_recipe`, or ``reference``) that its departures table would not show: read by no compared row,
    not labelled (:func:`labelled_departures` of the recipe's roles, and ``labelled``, more ``{path: why}``) and not in
    :data:`NOT_SETUP_FIELDS`. Empty for every recipe of :data:`REPRODUCTIONS` (tests/test_departures.py)."""
    reference = reference_recipe(setup.claim) if reference is None else reference
    labelled = {**labelled_departures(recipe), **(labelled or {})}
    return [p for p in config_differences(recipe, reference)
            if p not in COMPARED_PATHS and p not in labelled and p not in NOT_SETUP_FIELDS]


def stale_labels(recipe: Recipe, setup: PaperSetup, reference: Recipe | None = None) -> list[str]:
    """The hand-labelled departures of ``recipe`` in which it does not differ from the reference recipe (a label
    left behind), or that a compared row already shows."""
    reference = reference_recipe(setup.claim) if reference is None else reference
    differing = set(config_differences(recipe, reference))
    return sorted(p for p in labelled_departures(recipe) if p not in differing or p in COMPARED_PATHS)


def departures(recipe: Recipe, setup: PaperSetup) -> list[Departure]:
    """One row per compared field (:data:`COMPARED`, in order), then one per hand-labelled departure of the recipe
    (:data:`EXTRA_DEPARTURES`)."""
    rows = []
    for c in COMPARED:
        stated, ours = setup.field(c.name), c.read(recipe)
        differs = None if not stated.stated else not matches(stated.value, ours)
        rows.append(Departure(c.label, c.paths, stated.value, stated.source, ours, differs, stated.note))
    labelled = labelled_departures(recipe)
    if labelled:
        reference = reference_recipe(setup.claim)
        for path, why in labelled.items():
            theirs, ours = read_path(reference, path), read_path(recipe, path)
            rows.append(Departure(path, (path,), theirs, f"reference {reference.id}", ours,
                                  not _same_value(theirs, ours), why))
    return rows


def _show(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, int):
        return f"{value:,}" if value >= 10_000 else str(value)
    if isinstance(value, tuple):
        return "(" + ", ".join(_show(x) for x in value) + ")"
    return str(value)


COLUMNS = ("field", "paper", "source", "ours", "status", "note")


def departures_table(recipe_id: str, claim: str | None = None, *, only_departures: bool = False) -> list[dict]:
    """The departures table of the zoo recipe ``recipe_id`` against the paper setup of ``claim`` (default: the claim
    it reproduces, :data:`REPRODUCTIONS`): one dict of strings per row (:data:`COLUMNS`). ``only_departures`` keeps
    the rows that differ or that the paper does not state. Render it with :func:`to_markdown`."""
    if claim is None:
        if recipe_id not in REPRODUCTIONS:
            raise KeyError(f"{recipe_id!r} reproduces no claim in REPRODUCTIONS; name the claim "
                           f"({', '.join(sorted(PAPER_SETUPS))})")
        claim = REPRODUCTIONS[recipe_id]
    rows = departures(get_recipe(recipe_id), setup_of(claim))
    return [{"field": d.field, "paper": _show(d.paper), "source": d.source, "ours": _show(d.ours),
             "status": d.status, "note": d.note}
            for d in rows if not only_departures or d.status != "same"]


def to_markdown(rows: Sequence[Mapping[str, Any]], columns: Iterable[str] | None = None) -> str:
    """``rows`` (dicts, e.g. :func:`departures_table`'s) as a Markdown table of ``columns`` (default: the first
    row's keys); ``|`` inside a cell is escaped."""
    if not rows:
        raise ValueError("no rows to render")
    columns = list(rows[0] if columns is None else columns)

    def cell(value: Any) -> str:
        return str(value).replace("|", "\\|").replace("\n", " ")

    lines = ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    lines += ["| " + " | ".join(cell(row.get(c, "")) for c in columns) + " |" for row in rows]
    return "\n".join(lines)

"""The zoo's registry: every entry by name, and the seeds of each recipe. Entries are declared in
:mod:`.catalog` and its sections.

A *recipe* is what the seeds of one experiment share (task, model, training, lengths): its entries differ only
in ``train.seed``. The catalog declares recipes (:class:`~.recipe.Recipe`, :func:`register_recipe`), each with
its seeds; :func:`get_recipe` finds one. Code outside the store looks seeds up here -- :func:`recipe_entries`
(``{seed: name}``) and
:func:`entry_for` (one seed's entry) -- and never builds ``f"{recipe}-s{seed}"`` or parses a name itself.
"""
from __future__ import annotations

import difflib
from pathlib import Path

from ...core.config_checks import require_int
from .aliases import ALIASES, RENAMED, RENAMED_ENTRIES, resolve, resolve_recipe
from ..experiment.entry import MAX_ID_LENGTH, ZooEntry, ZooError, entry_name
from .manifest import read_manifest, read_recorded
from ..experiment.recipe import Recipe

ENTRIES: dict[str, ZooEntry] = {}
RECIPES: dict[str, Recipe] = {}         # the recipes declared as :class:`Recipe` (the others are entries' recipes)


def register(entry: ZooEntry) -> ZooEntry:
    """Add ``entry`` to the catalog (a name may be registered once, and a recipe's seed too)."""
    if entry.name in ENTRIES or entry.name in ALIASES:
        raise ValueError(f"zoo entry {entry.name!r} registered twice")
    if "[" in entry.recipe:
        raise ValueError(f"zoo recipe id {entry.recipe!r} names a derived run ({{base}}[{{label}}]): register a "
                         f"recipe of its own, with a short id")
    if len(entry.recipe) > MAX_ID_LENGTH:
        raise ValueError(f"zoo recipe id {entry.recipe!r} has {len(entry.recipe)} characters, more than "
                         f"{MAX_ID_LENGTH}: a variant's settings belong in its fields, not in its id")
    if entry.recipe in RENAMED:
        raise ValueError(f"zoo recipe {entry.recipe!r} was renamed {RENAMED[entry.recipe]!r}: register the new id")
    taken = recipe_entries(entry.recipe).get(entry.seed)
    if taken is not None:
        raise ValueError(f"zoo entry {entry.name!r}: recipe {entry.recipe!r} already has seed {entry.seed} "
                         f"({taken!r})")
    ENTRIES[entry.name] = entry
    for old in (old for old, new in RENAMED.items() if new == entry.recipe):    # its name before 0.3 resolves too
        RENAMED_ENTRIES[entry_name(old, entry.seed, entry.seeded)] = entry.name
    return entry


def register_recipe(recipe: Recipe) -> Recipe:
    """Add ``recipe`` and an entry per seed (:meth:`Recipe.entry`) to the catalog; returns the recipe."""
    if recipe.id in RECIPES or recipe_entries(recipe.id):
        raise ValueError(f"zoo recipe {recipe.id!r} registered twice")
    for e in recipe.entries():
        register(e)
    RECIPES[recipe.id] = recipe
    return recipe


def get_recipe(recipe_id: str) -> Recipe:
    """The recipe ``recipe_id`` (an alias stands for its entry's recipe): a declared :class:`Recipe`, or the one that
    entries registered one by one share (then built from its lowest seed's entry, with every registered seed).
    Unknown: :class:`ZooError`."""
    recipe_id = resolve_recipe(recipe_id)
    if recipe_id in ALIASES and resolve(recipe_id) in ENTRIES:
        recipe_id = ENTRIES[resolve(recipe_id)].recipe
    if recipe_id in RECIPES:
        return RECIPES[recipe_id]
    seeds = recipe_entries(recipe_id)
    if not seeds:
        close = _close_recipes(recipe_id, 3)
        raise ZooError(f"unknown zoo recipe {recipe_id!r}" + (f"; did you mean {', '.join(close)}?" if close else ""))
    first = ENTRIES[next(iter(seeds.values()))]
    return Recipe.from_entry(first, seeds=tuple(seeds))


def with_role(role: str) -> tuple[Recipe, ...]:
    """Every declared recipe whose ``roles`` hold ``role`` (``"claim:sabbaghi-a1"``), in the catalog's order: how the
    ledger and the course find a row by what it is for instead of typing its id."""
    return tuple(recipe for recipe in RECIPES.values() if role in recipe.roles)


def with_one_role(role: str) -> Recipe:
    """The one declared recipe with ``role``; none or several raise :class:`ZooError` naming them."""
    found = with_role(role)
    if len(found) != 1:
        raise ZooError(f"{len(found)} recipes have the role {role!r}" + (
            f": {', '.join(r.id for r in found)}" if found else "; a recipe table's row declares it (roles=(...))"))
    return found[0]


def catalog() -> dict[str, ZooEntry]:
    """Every entry, by name."""
    return ENTRIES


def closest(name: str, known: list[str], renamed: dict[str, str], n: int = 5, cutoff: float = 0.5) -> list[str]:
    """The ``n`` names closest to ``name``, for a "did you mean": ``known`` names and the deprecated ids of
    ``renamed`` (``{old: new}``) compete alike, and an old id that wins is shown as its new one ("NEW (renamed from
    OLD)"), so a typo in an old id points at what it became, not at another recipe that happens to look alike."""
    shown: list[str] = []
    for match in difflib.get_close_matches(name, sorted(known) + sorted(renamed), n=2 * n, cutoff=cutoff):
        label = f"{renamed[match]} (renamed from {match})" if match in renamed else match
        if match in renamed and renamed[match] in shown:       # the new name itself is listed already: say so there
            shown[shown.index(renamed[match])] = label
        elif not any(s.split(" ")[0] == label.split(" ")[0] for s in shown):
            shown.append(label)
    return shown[:n]


def unknown_entries_message(names: list[str]) -> str:
    """One sentence for names that are no entry: each with its closest entries or aliases (or renamed ids, as their
    new names), and where the full list is (the catalog holds hundreds: listing them all buries the answer)."""
    parts = []
    for name in names:
        close = closest(name, list(ENTRIES) + list(ALIASES), RENAMED_ENTRIES)
        parts.append(f"{name!r} (closest: {', '.join(close)})" if close else repr(name))
    return (f"unknown zoo entr{'y' if len(names) == 1 else 'ies'} {'; '.join(parts)}; "
            f"`python -m lengen_utils.lab.zoo list` lists the {len(ENTRIES)} known entries")


def _close_recipes(recipe_id: str, n: int) -> list[str]:
    return closest(recipe_id, sorted({e.recipe for e in ENTRIES.values()}), RENAMED, n=n, cutoff=0.6)


def entry(name: str) -> ZooEntry:
    """The entry called ``name`` (or that the alias ``name`` stands for, :mod:`.aliases`); an unknown name raises
    :class:`ZooError` naming the closest known ones."""
    name = resolve(name)
    if name not in ENTRIES:
        raise ZooError(unknown_entries_message([name]))
    return ENTRIES[name]


def recipe_entries(recipe: str, built_only: bool = False, assets: Path | None = None, *,
                   recorded_only: bool = False) -> dict[int, str]:
    """``{seed: entry name}`` of the catalog's entries of ``recipe``, by increasing seed (``{}`` for an unknown
    recipe). ``built_only`` keeps the entries whose weights are stored (in the manifest of ``assets``, default the
    zoo's); ``recorded_only`` keeps those whose measurements are recorded, stored or retired (``retired.json``). An
    alias stands for its entry's recipe (``flagship-coupled`` -> the seeds of ``nb05-sink``)."""
    recipe = resolve_recipe(recipe)
    if recipe in ALIASES and resolve(recipe) in ENTRIES:
        recipe = ENTRIES[resolve(recipe)].recipe
    found = {e.seed: name for name, e in ENTRIES.items() if e.recipe == recipe}
    if (built_only or recorded_only) and found:
        kept = read_manifest(assets) if built_only else read_recorded(assets)
        found = {seed: name for seed, name in found.items() if name in kept}
    return dict(sorted(found.items()))


def entry_for(recipe: str, seed: int) -> ZooEntry:
    """The entry of ``recipe`` trained with ``seed``; a missing one raises :class:`ZooError` naming the recipe,
    the seed and the seeds that exist (or, for an unknown recipe, the closest known recipes). A seed that is not
    an int (``'1'``, as ``input()`` returns it) raises :class:`ZooError` naming its type."""
    seed = require_int(seed, "seed", error=ZooError, owner=f"zoo recipe {recipe!r}")
    recipe = resolve_recipe(recipe)
    seeds = recipe_entries(recipe)
    if seed in seeds:
        return ENTRIES[seeds[seed]]
    if seeds:
        raise ZooError(f"zoo recipe {recipe!r} has no seed {seed!r}; its seeds: {', '.join(map(str, seeds))}")
    close = _close_recipes(recipe, 5)
    raise ZooError(f"unknown zoo recipe {recipe!r} (asked for seed {seed!r}); "
                   f"{'closest recipes: ' + ', '.join(close) if close else 'no recipe is close'}")

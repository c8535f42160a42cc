"""A sweep's grid: base configs x overrides x grid points x seeds, expanded into checked tasks, each a zoo
:class:`~lengen_utils.lab.zoo.Recipe` (its id names the grid point, its seeds are trained one by one or as one
batched model).

The base configs come from JSON files (:func:`load_config`) or the zoo (:func:`from_entry`, :func:`from_recipe`);
``--set`` and ``--grid`` items are ``section.field=value`` overrides (or ``eval_n=`` / ``eval_lengths=``), applied
by the zoo's one override function (:func:`~lengen_utils.lab.zoo.with_overrides`), and ``--seeds`` a seed list
(:func:`parse_seeds`). :func:`expand` checks every grid point as ``fit`` and
the configs would (fields, the model against the task, the eval lengths against the position IDs,
``--group-seeds``'s limits) before it returns any, so that a bad point fails before anything trains.
:mod:`lengen_utils.lab.sweep` runs the specs and records their results.
"""
from __future__ import annotations

import itertools
import json
from dataclasses import replace
from pathlib import Path
from typing import Iterable

from . import zoo
from ..core.compatibility import check_compatible
from ..core.config_checks import ConfigError, require_ints
from ..core.model import ModelConfig
from ..core.multiseed import check_seeds_config
from ..core.positions import PositionRangeError
from ..core.problems import ProblemError
from ..core.task_config import TaskConfig
from ..core.tasks import Task
from ..core.train import TrainConfig
from ..core.vocab import FormatError
from .zoo import Recipe, variant_id, with_overrides

SECTIONS = {"task": TaskConfig, "model": ModelConfig, "train": TrainConfig}
SEED = "train.seed"


class SweepError(ValueError):
    """A sweep that cannot be expanded or run (bad config file, override, seed list, missing Ray)."""


def load_config(path: str | Path) -> list[dict]:
    """Base configs from a JSON file: one object, a list of them, or ``{"runs": [...]}``; each object has
    ``task``, ``model``, ``train`` sections (config fields), ``eval_lengths``, ``eval_n`` and a ``name``."""
    try:
        data = json.loads(Path(path).read_text())
    except (OSError, json.JSONDecodeError) as exc:
        raise SweepError(f"cannot read sweep config {path}: {exc}") from exc
    runs = data["runs"] if isinstance(data, dict) and "runs" in data else data
    runs = runs if isinstance(runs, list) else [runs]
    for i, run in enumerate(runs):
        if not isinstance(run, dict) or "eval_lengths" not in run:
            raise SweepError(f"{path}: run {i} must be an object with task/model/train sections and eval_lengths")
        run.setdefault("name", f"{Path(path).stem}-{i}" if len(runs) > 1 else Path(path).stem)
    return runs


def from_entry(name: str) -> dict:
    """The base config of a zoo entry."""
    try:
        e = zoo.entry(name)
    except KeyError as exc:
        raise SweepError(str(exc)) from exc
    return {"name": e.name, "task": e.task.to_dict(), "model": e.model.to_dict(), "train": e.train.to_dict(),
            "eval_lengths": list(e.eval_lengths), "eval_n": e.eval_n}


def from_recipe(recipe_id: str) -> dict:
    """The base config of a zoo recipe, with its seeds (``--seeds`` replaces them)."""
    try:
        r = zoo.get_recipe(recipe_id)
    except KeyError as exc:
        raise SweepError(str(exc)) from exc
    return {"name": r.id, "task": r.task.to_dict(), "model": r.model.to_dict(),
            "train": {**r.train.to_dict(), "seed": r.seeds[0]}, "eval_lengths": list(r.eval_lengths),
            "eval_n": r.eval_n, "seeds": list(r.seeds)}


def apply_overrides(recipe: Recipe, items: list[str]) -> Recipe:
    """``recipe`` with ``--set`` / ``--grid`` items applied together (:func:`~lengen_utils.lab.zoo.with_overrides`);
    a malformed item, an unknown field or a value the config refuses raises :class:`SweepError` naming it."""
    try:
        return with_overrides(recipe, items)
    except (ConfigError, TypeError, ValueError) as err:
        raise SweepError(f"config {recipe.id!r}: {err}") from None


def parse_seeds(text: str) -> tuple[int, ...]:
    """``0,1,2`` or ``0-4`` (inclusive) or a mix: ``0-2,7``."""
    seeds: list[int] = []
    try:
        for part in filter(None, text.split(",")):
            lo, dash, hi = part.strip().partition("-")
            seeds += list(range(int(lo), int(hi) + 1)) if dash else [int(lo)]
    except ValueError:
        raise SweepError(f"bad seed list {text!r}; write e.g. 0,1,2 or 0-9") from None
    if not seeds or len(set(seeds)) != len(seeds) or min(seeds) < 0:
        raise SweepError(f"seed list {text!r} must name distinct non-negative seeds")
    return tuple(seeds)


def _whole(name: str, value, what: str) -> int:
    """``value`` if it is a whole number >= 1 (a string, float or bool is refused by name)."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise SweepError(f"config {name!r}: {what} must be a whole number >= 1, got {value!r} ({type(value).__name__})")
    return value


def _fields(base: dict) -> tuple[str, tuple[int, ...], int]:
    """The name, eval lengths and eval size of a config, each of the right type."""
    name = base.get("name")
    if not isinstance(name, str) or not name:
        raise SweepError(f"a config's name must be a non-empty string, got {name!r}")
    for section in SECTIONS:
        if not isinstance(base.get(section, {}), dict):
            raise SweepError(f"config {name!r}: {section} must be an object of {SECTIONS[section].__name__} "
                             f"fields, got {type(base[section]).__name__} {base[section]!r}")
    lengths = base.get("eval_lengths")
    if not isinstance(lengths, (list, tuple)) or not lengths:
        raise SweepError(f"config {name!r}: eval_lengths must be a non-empty list of whole numbers >= 1, e.g. "
                         f"[1, 2, 12], got {lengths!r} ({type(lengths).__name__})")
    lengths = tuple(_whole(name, x, "every eval length") for x in lengths)
    return name, lengths, _whole(name, base.get("eval_n", 500), "eval_n")


def _check_lengths(name: str, task: TaskConfig, lengths: tuple[int, ...]) -> None:
    """The longest eval length must be encodable and get position IDs (refused now, not after training)."""
    t = Task(task)
    try:
        t.batch(t.eval_problems(max(lengths), 1))
    except (PositionRangeError, FormatError, ProblemError) as exc:
        raise SweepError(f"config {name!r}: eval length {max(lengths)} cannot be evaluated ({exc}); drop it "
                         f"from eval_lengths or widen the task") from None


def _base_seeds(name: str, seeds, default: int) -> tuple[int, ...]:
    """A config's own seeds (a recipe's, or a config file's ``"seeds"``), else ``(train.seed,)``."""
    if seeds is None:
        return (default,)
    if (not isinstance(seeds, (list, tuple)) or not seeds or len(set(seeds)) != len(seeds)
            or any(isinstance(x, bool) or not isinstance(x, int) or x < 0 for x in seeds)):
        raise SweepError(f"config {name!r}: seeds must be a list of distinct whole numbers >= 0, got {seeds!r}")
    return tuple(seeds)


def _recipe(base: dict, own_seeds: bool) -> Recipe:
    """A base config (a JSON object or a zoo recipe's) as a checked recipe; ``own_seeds`` False drops its
    ``"seeds"`` (a ``train.seed`` override or grid sets them)."""
    name, lengths, eval_n = _fields(base)
    try:
        train = TrainConfig.from_dict(base.get("train", {}))
        task, model = TaskConfig.from_dict(base.get("task", {})), ModelConfig.from_dict(base.get("model", {}))
        seeds = _base_seeds(name, base.get("seeds") if own_seeds else None, train.seed)
        return Recipe(id=name, task=task, model=model, train=train, seeds=seeds, eval_lengths=lengths, eval_n=eval_n)
    except (ConfigError, TypeError, ValueError) as exc:
        raise SweepError(f"config {name!r}: {exc}") from None


def _specs(recipe: Recipe, seeds: tuple[int, ...] | None, group: bool, seeded: bool) -> list[Recipe]:
    """The tasks of one grid point, fully checked: one recipe per seed, or one of all its seeds (``group``)."""
    name = recipe.id
    _fields({"name": name, "eval_lengths": recipe.eval_lengths, "eval_n": recipe.eval_n})
    if seeds is None:
        seeds = (recipe.train.seed,) if seeded else recipe.seeds
    try:
        check_compatible(recipe.model, recipe.task)
        if group:
            check_seeds_config(recipe.model, seeds)
    except (ConfigError, TypeError, ValueError) as exc:
        raise SweepError(f"config {name!r}: {exc}") from None
    _check_lengths(name, recipe.task, recipe.eval_lengths)
    groups = [seeds] if group else [(s,) for s in seeds]
    return [replace(recipe, train=replace(recipe.train, seed=g[0]), seeds=g) for g in groups]


def _axes(grid: Iterable[str]) -> list[list[str]]:
    axes = []
    for item in grid:
        key, sep, values = item.partition("=")
        if not sep or not values:
            raise SweepError(f"bad grid {item!r}; write e.g. train.lr=0.001,0.003")
        axes.append([f"{key}={v}" for v in values.split(",")])
    return axes


def expand(bases: Iterable[dict], seeds: tuple[int, ...] | None = None, sets: Iterable[str] = (),
           grid: Iterable[str] = (), group_seeds: bool = False) -> list[Recipe]:
    """Every base config x every grid point (``key=v1,v2``) x every seed (or one group of all seeds),
    each checked before any is returned.

    ``seeds`` replaces each config's ``train.seed``; ``None`` keeps it, so a grid over ``train.seed``
    trains those seeds (a bare int, or a seed that is not an int, raises :class:`SweepError` naming its type).
    Both at once is refused, as is ``group_seeds`` with a ``train.seed`` grid. A
    point's name lists its grid values except ``train.seed``: the seeds of one config share a name."""
    if seeds is not None:
        seeds = require_ints(seeds, "seeds", error=SweepError)
    sets, grid = list(sets), list(grid)
    seeded = [item for item in sets + grid if item.partition("=")[0].strip() == SEED]
    if seeded and seeds is not None:
        raise SweepError(f"--seeds and {seeded[0]!r} both set the training seed; give the seeds once: "
                         f"--seeds 0,1,2 (or drop --seeds and keep --grid {SEED}=0,1,2)")
    if seeded and group_seeds:
        raise SweepError(f"--group-seeds batches the seeds of --seeds; with {seeded[0]!r} each seed is its own "
                         f"task: write --seeds 0,1,2 --group-seeds instead")
    axes = _axes(grid)
    specs = []
    for base in bases:
        recipe = _recipe(base, own_seeds=not seeded)   # a train.seed override or grid replaces the config's seeds
        for point in itertools.product(*axes):
            point_recipe = apply_overrides(recipe, sets + list(point))
            label = [item for item in point if item.partition("=")[0] != SEED]
            if label:
                point_recipe = replace(point_recipe, id=variant_id(recipe.id, ",".join(label)))
            specs += _specs(point_recipe, seeds, group_seeds, bool(seeded))
    return specs

"""A recipe: the unit of the zoo. The configs that the seeds of one experiment share, the seeds, and the test plan.

A :class:`Recipe` makes one :class:`~.entry.ZooEntry` per seed (:meth:`Recipe.entry`), named ``{id}-s{seed}``:
the one place a seed goes into a name. A variant is derived, not copied: ``base.derive("my-variant",
"model.d_model=512", "task.max_digits=30", seeds=(0, 1))`` reads each ``SECTION.FIELD=VALUE`` override with the
package's one override parser (:func:`~lengen_utils.core.config_checks.parse_override`, as ``bench --set`` and
``sweep --set`` do), and the config refuses a value it cannot take. :func:`with_overrides` applies the same
overrides to anything that has ``task``, ``model`` and ``train`` (a recipe or one entry).
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from typing import Iterable, Mapping, TypeVar

from ...core.config_checks import (ConfigError, check_field_types, override_value, parse_override, require_int,
                                   require_ints)
from ...core.model import ModelConfig
from ...core.task_config import TaskConfig
from ...core.train import TrainConfig
from .entry import ZooEntry, entry_name, variant_id

Configured = TypeVar("Configured")      # a Recipe or a ZooEntry: anything with task, model and train


#: the recipe fields a ``--set`` string may set besides the configs' (``eval_n=200``, ``eval_lengths=[5, 10]``)
RECIPE_FIELDS = ("eval_n", "eval_lengths")
#: the plain keys a typed override may set (a :class:`Recipe`'s fields; an entry has all but :data:`RECIPE_ONLY`)
PLAIN_FIELDS = ("eval_n", "eval_lengths", "description", "tags", "curve_every", "title", "summary", "roles", "seeds",
                "seed_in_name")
#: the plain keys of a recipe that its entries do not have (what the code reads from the row, not the store)
RECIPE_ONLY = ("title", "summary", "roles", "seeds", "seed_in_name")
SECTIONS = ("task", "model", "train")


def parse_overrides(item: Configured, overrides: Iterable[str]) -> dict[str, object]:
    """``SECTION.FIELD=VALUE`` strings (the CLI's ``--set``) as the typed mapping :func:`with_overrides` applies:
    ``"model.d_model=512"`` -> ``{"model.d_model": 512}`` (values read as JSON by the package's one override parser,
    :func:`~lengen_utils.core.config_checks.parse_override`), and on a :class:`Recipe` ``eval_n=`` / ``eval_lengths=``.
    A malformed override or an unknown field raises ``ValueError`` naming it."""
    configs = {"task": item.task.to_dict(), "model": item.model.to_dict(), "train": item.train.to_dict()}
    typed: dict[str, object] = {}
    for text in overrides:
        key, sep, value = text.partition("=")
        if sep and key.strip() in RECIPE_FIELDS and isinstance(item, Recipe):
            typed[key.strip()] = override_value(value)
            continue
        try:
            section, name, value = parse_override(text, configs)
        except ConfigError as err:
            extra = f" (or {', '.join(f'{f}=...' for f in RECIPE_FIELDS)} on a recipe)" if isinstance(item, Recipe) else ""
            raise ValueError(f"{err}{extra}") from None
        if name == "betas" and isinstance(value, list):
            value = tuple(value)
        typed.pop(f"{section}.{name}", None)        # a later override of a field wins (and is named last)
        typed[f"{section}.{name}"] = value
    return typed


def with_overrides(item: Configured, overrides: Mapping[str, object] | Iterable[str]) -> Configured:
    """``item`` (a :class:`Recipe` or one entry) with ``overrides`` applied: the package's one override function.

    ``overrides`` is a mapping of typed values, dotted keys for config fields and plain keys for the recipe's own
    (``{"model.d_model": 512, "train.lr": 3e-3, "seeds": (0, 1), "eval_n": 200, "description": "..."}``: the recipe
    tables), or ``SECTION.FIELD=VALUE`` strings (``bench --set``, ``sweep --set`` and ``--grid``), read by
    :func:`parse_overrides` into that mapping. The overrides of one section are applied together, so that fields
    that must change together (``task.op`` and ``task.pack``) can. An unknown field or a value the config refuses
    raises ``ValueError`` naming it."""
    if isinstance(overrides, Mapping):
        typed, texts = dict(overrides), {}
    else:
        overrides = list(overrides)
        typed = parse_overrides(item, overrides)
        texts = {text.partition("=")[0].strip(): text for text in overrides}     # the words a refusal quotes
    by_section: dict[str, dict] = {}
    own: dict[str, object] = {}
    plain = PLAIN_FIELDS if isinstance(item, Recipe) else tuple(f for f in PLAIN_FIELDS if f not in RECIPE_ONLY)
    config_fields = {section: {f.name for f in fields(getattr(item, section))} for section in SECTIONS}
    for key, value in typed.items():
        section, dot, name = key.partition(".")
        if not dot:
            if key not in plain:
                raise ValueError(f"override {key!r}: not a field of {type(item).__name__} (plain keys: "
                                 f"{', '.join(plain)}; config fields as SECTION.FIELD)")
            own[key] = value
            continue
        if name not in config_fields.get(section, ()):
            raise ValueError(f"override {key!r}: no such config field (SECTION one of {', '.join(SECTIONS)})")
        by_section.setdefault(section, {})[name] = value
    for section, changes in by_section.items():
        try:
            item = replace(item, **{section: replace(getattr(item, section), **changes)})
        except (TypeError, ValueError) as err:
            what = ", ".join(repr(texts.get(f"{section}.{name}", f"{section}.{name}={value!r}"))
                             for name, value in changes.items())
            raise ValueError(f"override{'s' if len(changes) > 1 else ''} {what} refused: {err}") from None
    return replace(item, **own) if own else item


@dataclass(frozen=True)
class Recipe:
    """One experiment's configs, seeds and test plan; ``train.seed`` is replaced by each seed.

    ``description`` may hold ``{seed}``, filled in for each entry. ``id=""`` makes a *base*: a recipe that only
    :class:`RecipeTable` rows derive from, never registered nor trained itself."""
    id: str
    task: TaskConfig
    model: ModelConfig
    train: TrainConfig
    seeds: tuple[int, ...] = (0,)
    eval_lengths: tuple[int, ...] = ()
    eval_n: int = 1000
    description: str = ""
    tags: tuple[str, ...] = field(default_factory=tuple)
    curve_every: int = 0
    title: str = ""                    # the row's short name in tables and plots ("FIRE + index hints")
    summary: str = ""                  # what the row changes, in one line, for the chapters' tables
    #: what the code uses the row for ("claim:sabbaghi-a1", "widget"): the course and the ledger find rows by role
    #: (:meth:`RecipeTable.with_role`, ``zoo.with_role``) instead of typing their ids; not stored with the entries
    roles: tuple[str, ...] = field(default_factory=tuple)
    seed_in_name: bool = True          # False: a one-seed recipe whose entry is named by the id alone

    def __post_init__(self) -> None:
        check_field_types(self, ValueError)
        if self.id.strip() != self.id or " " in self.id:
            raise ValueError(f"a recipe id is one word, e.g. 'nb05-plain'; got {self.id!r}")
        seeds = require_ints(self.seeds, "seeds", error=ValueError, owner=self.id)
        if not seeds or len(set(seeds)) != len(seeds) or any(s < 0 for s in seeds):
            raise ValueError(f"{self.id}: seeds must be distinct integers >= 0, got {self.seeds!r}")
        if not self.seed_in_name and len(seeds) != 1:
            raise ValueError(f"{self.id}: an entry named by the id alone has one seed, got {self.seeds!r}")
        eval_lengths = require_ints(self.eval_lengths, "eval_lengths", error=ValueError, owner=self.id)
        if not eval_lengths:
            raise ValueError(f"{self.id}: name the operand lengths to test (eval_lengths)")
        require_int(self.eval_n, "eval_n", error=ValueError, owner=self.id)
        object.__setattr__(self, "seeds", seeds)
        object.__setattr__(self, "eval_lengths", eval_lengths)
        object.__setattr__(self, "tags", tuple(self.tags))
        object.__setattr__(self, "roles", tuple(self.roles))

    @classmethod
    def from_entry(cls, e: ZooEntry, id: str | None = None, seeds: Iterable[int] | None = None) -> "Recipe":
        """The recipe that ``e`` is one seed of (its id ``e.recipe`` unless ``id`` is given; seeds ``(e.seed,)``).
        Its entries are named as ``e`` is (with or without ``-sN``) unless ``seeds`` are given."""
        return cls(id=id or e.recipe, task=e.task, model=e.model, train=e.train,
                   seeds=seeds if seeds is not None else (e.seed,), eval_lengths=e.eval_lengths,
                   eval_n=e.eval_n, description=e.description, tags=e.tags, curve_every=e.curve_every,
                   seed_in_name=e.seeded if seeds is None else True)

    def derive(self, id: str, *overrides: str, **fields) -> "Recipe":
        """A variant called ``id``: ``SECTION.FIELD=VALUE`` overrides of the configs, then recipe ``fields``
        (``seeds=``, ``eval_lengths=``, ``description=``, ``tags=``, ...). Its entries carry the seed in their
        names unless ``seed_in_name=False`` is given."""
        return with_overrides(replace(self, id=id), {**parse_overrides(self, overrides), "seed_in_name": True, **fields})

    @staticmethod
    def id_with_seed(recipe_id: str, seed: int) -> str:
        """``{recipe_id}-s{seed}``: the name of one seed's entry (the one place a seed goes into a name). A seed
        that is not an int raises ``ValueError`` naming its type (``-s1`` must not come from the string '1')."""
        return entry_name(recipe_id, require_int(seed, 'seed', error=ValueError, owner=recipe_id))

    def entry(self, seed: int) -> ZooEntry:
        """The zoo entry of one seed, named ``{id}-s{seed}`` (or ``{id}`` without ``seed_in_name``). A seed that
        is not an int raises ``ValueError`` naming its type."""
        seed = require_int(seed, "seed", error=ValueError, owner=self.id)
        if not self.id:
            raise ValueError("a base recipe (id '') has no entries: a RecipeTable's rows do")
        if seed not in self.seeds:
            raise ValueError(f"{self.id} has seeds {self.seeds}, not {seed!r}")
        return ZooEntry(recipe=self.id, seeded=self.seed_in_name, task=self.task, model=self.model,
                        train=replace(self.train, seed=seed),
                        eval_lengths=self.eval_lengths, eval_n=self.eval_n,
                        description=self.description.format(seed=seed), tags=self.tags, curve_every=self.curve_every)

    def entries(self) -> list[ZooEntry]:
        """One entry per seed, by increasing seed."""
        return [self.entry(s) for s in sorted(self.seeds)]


@dataclass(frozen=True)
class RecipeTable:
    """A chapter's recipes as data: a ``base`` and ``variants``, ``{label: typed overrides of the base}``
    (:func:`with_overrides`' mapping). Each row is the recipe ``{prefix}-{label}`` (:meth:`id`, the one place an id
    is composed); the base itself is not a recipe of the zoo unless a row with no overrides says so.

    ``axes`` names what the rows vary, ``{axis: the field it reads}`` (``{"trained_length": "task.max_digits",
    "encoding": "model.encoding"}``): a row's value on an axis is read from its own configs, never typed twice, and
    code finds rows by value (:meth:`select`, :meth:`one`, :meth:`along`) instead of typing their ids."""
    prefix: str
    base: Recipe
    variants: dict[str, dict[str, object]]
    axes: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for axis, path in self.axes.items():
            try:
                _read_field(self.base, path)
            except AttributeError:
                raise ValueError(f"table {self.prefix!r}: axis {axis!r} reads {path!r}, which is not a field of a "
                                 f"recipe (SECTION.FIELD of task, model, train, or a recipe field)") from None

    def axis_field(self, axis: str) -> str:
        """The field that ``axis`` reads; an unknown axis raises ``KeyError`` naming the table's axes."""
        if axis not in self.axes:
            raise KeyError(f"table {self.prefix!r} has no axis {axis!r}; axes: {', '.join(self.axes) or 'none'}")
        return self.axes[axis]

    def value(self, label: str, axis: str) -> object:
        """Row ``label``'s value on ``axis``, read from its recipe."""
        return _read_field(self.recipe(label), self.axis_field(axis))

    def select(self, **where: object) -> tuple[Recipe, ...]:
        """The rows whose values equal ``where`` (``select(encoding="rpe", trained_length=5)``), in the table's
        order. An unknown axis raises ``KeyError``; a value no row has raises ``ValueError`` naming the values."""
        rows = list(self.variants)
        for axis, wanted in where.items():
            have = {label: self.value(label, axis) for label in rows}
            rows = [label for label in rows if have[label] == wanted]
            if not rows:
                values = sorted({repr(v) for v in have.values()})
                raise ValueError(f"table {self.prefix!r}: no row has {axis}={wanted!r} (with the other values "
                                 f"asked); its values: {', '.join(values)}")
        return tuple(self.recipe(label) for label in rows)

    def one(self, **where: object) -> Recipe:
        """The one row whose values equal ``where``; none or several raise ``ValueError`` naming them."""
        rows = self.select(**where)
        if len(rows) != 1:
            raise ValueError(f"table {self.prefix!r}: {len(rows)} rows have {where}: "
                             f"{', '.join(r.id for r in rows)}; name another axis to tell them apart")
        return rows[0]

    def along(self, axis: str, **where: object) -> dict[object, str]:
        """``{value: recipe id}`` of the rows matching ``where`` along ``axis``, by increasing value: a slider's
        choices (``along("trained_length", encoding="rpe")``). Two rows on one value raise ``ValueError``."""
        path, out = self.axis_field(axis), {}
        for recipe in self.select(**where):
            value = _read_field(recipe, path)
            if value in out:
                raise ValueError(f"table {self.prefix!r}: {out[value]} and {recipe.id} both have {axis}={value!r} "
                                 f"with {where}; name another axis to tell them apart")
            out[value] = recipe.id
        return dict(sorted(out.items()))

    def id(self, label: str) -> str:
        """The id of row ``label``: ``f"{prefix}-{label}"``."""
        if label not in self.variants:
            raise KeyError(f"table {self.prefix!r} has no row {label!r}; rows: {', '.join(self.variants)}")
        return f"{self.prefix}-{label}"

    def ids(self) -> tuple[str, ...]:
        """Every row's id, in the table's order."""
        return tuple(self.id(label) for label in self.variants)

    def recipe(self, label: str) -> Recipe:
        """Row ``label``: the base with that row's overrides, called :meth:`id` (``label``). A base that is another
        table's row keeps its roles to itself: a role says what code uses that one row for."""
        roles = self.base.roles if not self.base.id else ()
        return with_overrides(replace(self.base, id=self.id(label), roles=roles), self.variants[label])

    def recipes(self) -> tuple[Recipe, ...]:
        """Every row's recipe, in the table's order."""
        return tuple(self.recipe(label) for label in self.variants)

    def with_role(self, role: str) -> tuple[Recipe, ...]:
        """The rows whose ``roles`` hold ``role``, in the table's order (none: an empty tuple)."""
        return tuple(recipe for recipe in self.recipes() if role in recipe.roles)

    def at(self, axis: str, value: object, **where: object) -> Recipe:
        """The recipe at ``value`` of ``axis`` among the rows matching ``where``: that row, or, for a value no row has,
        the row with the nearest value (the lower one on a tie) with only the axis's field changed, an unregistered
        variant called ``{row id}[{axis}={value}]`` that a widget can train live. A value the configs refuse (past the
        position table, say) raises ``ValueError`` naming the limit."""
        along = self.along(axis, **where)
        if value in along:
            return self.one(**{**where, axis: value})
        nearest = min(along, key=lambda have: (abs(have - value), have))
        row = self.one(**{**where, axis: nearest})
        path = self.axis_field(axis)
        return with_overrides(replace(row, id=variant_id(row.id, f"{axis}={value}")),
                              {path: value, "description": f"{row.id} with {path} = {value}: a variant trained live, "
                                                           f"not cached"})


def _read_field(recipe: Recipe, path: str) -> object:
    """``recipe``'s value at ``path``: ``"task.max_digits"`` or a recipe field (``"eval_n"``)."""
    section, dot, name = path.partition(".")
    return getattr(getattr(recipe, section), name) if dot else getattr(recipe, path)


__all__ = ["PLAIN_FIELDS", "RECIPE_FIELDS", "Recipe", "RecipeTable", "parse_overrides", "with_overrides"]

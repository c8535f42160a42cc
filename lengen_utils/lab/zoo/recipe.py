"""A recipe: the unit of the zoo. The configs that the seeds of one experiment share, the seeds, and the test plan.

A :class:`Recipe` makes one :class:`~.entry.ZooEntry` per seed (:meth:`Recipe.entry`), named ``{id}-s{seed}``:
the one place a seed goes into a name. A variant is derived, not copied: ``base.derive("my-variant",
"model.d_model=512", "task.max_digits=30", seeds=(0, 1))`` reads each ``SECTION.FIELD=VALUE`` override with the
package's one override parser (:func:`~lengen_utils.core.config_checks.parse_override`, as ``bench --set`` and
``sweep --set`` do), and the config refuses a value it cannot take. :func:`with_overrides` applies the same
overrides to anything that has ``task``, ``model`` and ``train`` (a recipe or one entry).
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Iterable, TypeVar

from ...core.config_checks import ConfigError, override_value, parse_override, require_int, require_ints
from ...core.model import ModelConfig
from ...core.task_config import TaskConfig
from ...core.train import TrainConfig
from .entry import ZooEntry

Configured = TypeVar("Configured")      # a Recipe or a ZooEntry: anything with task, model and train


#: the recipe fields an override may set besides the configs' (``eval_n=200``, ``eval_lengths=[5, 10]``)
RECIPE_FIELDS = ("eval_n", "eval_lengths")


def with_overrides(item: Configured, overrides: Iterable[str]) -> Configured:
    """``item`` with ``SECTION.FIELD=VALUE`` overrides applied (section: task, model or train; value read as JSON),
    and, on a :class:`Recipe`, ``eval_n=`` / ``eval_lengths=``: the package's one override function (``bench --set``,
    ``sweep --set`` and ``--grid``, :meth:`Recipe.derive`). The overrides of one section are applied together, so that
    fields that must change together (``task.op`` and ``task.pack``) can; a later override of a field wins. A
    malformed override, an unknown field or a value the config refuses raises ``ValueError`` naming it."""
    configs = {"task": item.task.to_dict(), "model": item.model.to_dict(), "train": item.train.to_dict()}
    by_section: dict[str, dict] = {}
    texts: dict[str, list[str]] = {}
    own: dict[str, object] = {}
    for text in overrides:
        key, sep, value = text.partition("=")
        if sep and key.strip() in RECIPE_FIELDS and isinstance(item, Recipe):
            own[key.strip()] = override_value(value)
            continue
        try:
            section, name, value = parse_override(text, configs)
        except ConfigError as err:
            extra = f" (or {', '.join(f'{f}=...' for f in RECIPE_FIELDS)} on a recipe)" if isinstance(item, Recipe) else ""
            raise ValueError(f"{err}{extra}") from None
        if name == "betas" and isinstance(value, list):
            value = tuple(value)
        by_section.setdefault(section, {})[name] = value
        texts.setdefault(section, []).append(text)
    for section, fields in by_section.items():
        try:
            item = replace(item, **{section: replace(getattr(item, section), **fields)})
        except (TypeError, ValueError) as err:
            what = ", ".join(map(repr, texts[section]))
            raise ValueError(f"override{'s' if len(texts[section]) > 1 else ''} {what} refused: {err}") from None
    return replace(item, **own) if own else item


@dataclass(frozen=True)
class Recipe:
    """One experiment's configs, seeds and test plan; ``train.seed`` is replaced by each seed.

    ``description`` may hold ``{seed}``, filled in for each entry."""
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
    seed_in_name: bool = True          # False: a one-seed recipe whose entry is named by the id alone

    def __post_init__(self) -> None:
        if not self.id or self.id.strip() != self.id or " " in self.id:
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
        return replace(with_overrides(self, overrides), id=id, **{"seed_in_name": True, **fields})

    @staticmethod
    def id_with_seed(recipe_id: str, seed: int) -> str:
        """``{recipe_id}-s{seed}``: the name of one seed's entry (the one place a seed goes into a name). A seed
        that is not an int raises ``ValueError`` naming its type (``-s1`` must not come from the string '1')."""
        return f"{recipe_id}-s{require_int(seed, 'seed', error=ValueError, owner=recipe_id)}"

    def entry(self, seed: int) -> ZooEntry:
        """The zoo entry of one seed, named ``{id}-s{seed}`` (or ``{id}`` without ``seed_in_name``). A seed that
        is not an int raises ``ValueError`` naming its type."""
        seed = require_int(seed, "seed", error=ValueError, owner=self.id)
        if seed not in self.seeds:
            raise ValueError(f"{self.id} has seeds {self.seeds}, not {seed!r}")
        name = self.id_with_seed(self.id, seed) if self.seed_in_name else self.id
        return ZooEntry(name=name, task=self.task, model=self.model, train=replace(self.train, seed=seed),
                        eval_lengths=self.eval_lengths, eval_n=self.eval_n,
                        description=self.description.format(seed=seed), tags=self.tags, curve_every=self.curve_every)

    def entries(self) -> list[ZooEntry]:
        """One entry per seed, by increasing seed."""
        return [self.entry(s) for s in sorted(self.seeds)]


__all__ = ["RECIPE_FIELDS", "Recipe", "with_overrides"]

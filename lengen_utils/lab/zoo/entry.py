"""A zoo entry: a name, the three configs (task, model, training) and the lengths to evaluate.

The training config's seed also seeds the initialisation, so an entry defines one model exactly
(up to floating-point differences between machines and thread counts). The seeds of one recipe are
separate entries whose names end in ``-sN`` (``nb05-plain-s0``, ``nb05-plain-s1``, ...): the store reads
that suffix once, here, into :attr:`ZooEntry.recipe` and checks it against ``train.seed``; code outside
the store asks the registry (``recipe_entries``, ``entry_for``) instead of composing or parsing names.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

import torch

from ...core.model import ModelConfig, Transformer
from ...core.task_config import TaskConfig
from ...core.train import LOG_EVERY, TrainConfig


RECORD_ONLY_TAG = "record-only"   # weights too large for assets/: only the record is kept (records.json)
GPU_TAG = "gpu"     # the tag of an entry built (and retrained by ``verify``) only on an NVIDIA GPU
_SEED = re.compile(r"^(?P<method>.+)-s(?P<seed>\d+)$")


def split_seed(name: str) -> tuple[str, int | None]:
    """``"nb05-plain-s2"`` -> ``("nb05-plain", 2)``: the seeds of one recipe share the name before ``-sN``.
    A name without ``-sN`` is its own recipe (seed None). The store's own parser: outside
    :mod:`lengen_utils.lab.zoo`, read :attr:`ZooEntry.recipe` and :attr:`ZooEntry.seed` instead."""
    match = _SEED.match(name)
    return (match["method"], int(match["seed"])) if match else (name, None)


class ZooError(KeyError):
    """An unknown zoo name, a manifest without the entry asked for, or a manifest of the wrong shape."""

    def __str__(self) -> str:  # KeyError quotes its message; show it plainly
        return str(self.args[0])


@dataclass(frozen=True)
class ZooEntry:
    name: str
    task: TaskConfig
    model: ModelConfig
    train: TrainConfig
    eval_lengths: tuple[int, ...]
    eval_n: int = 1000
    description: str = ""
    tags: tuple[str, ...] = field(default_factory=tuple)
    curve_every: int = 0      # > 0: every this many steps, EM at the longest trained length (the learning curve)

    def __post_init__(self) -> None:
        # the builder's callback runs at fit's logged steps
        if not isinstance(self.curve_every, int) or self.curve_every < 0 or self.curve_every % LOG_EVERY:
            raise ValueError(f"{self.name}: curve_every must be 0 or a positive multiple of {LOG_EVERY} (the "
                             f"training loop's logged steps), got {self.curve_every!r}")
        recipe, seed = split_seed(self.name)          # the one place a name is parsed
        if seed is not None and seed != self.train.seed:
            raise ValueError(f"{self.name}: the name's seed suffix -s{seed} must be the training seed "
                             f"(train.seed = {self.train.seed})")
        object.__setattr__(self, "_recipe", recipe)    # derived data, not a field: replace() derives it again
        object.__setattr__(self, "_seeded", seed is not None)

    @property
    def recipe(self) -> str:
        """The recipe this entry is one seed of: the name without its ``-sN`` suffix (``nb05-plain-s2`` ->
        ``nb05-plain``); an entry whose name has no seed suffix is its own recipe (``smoke-coupled-3``)."""
        return self._recipe

    @property
    def seeded(self) -> bool:
        """Whether the name carries the seed (``-sN``): one seed of a multi-seed recipe. A recipe without the
        suffix has one entry, its seed still ``train.seed``."""
        return self._seeded

    @property
    def seed(self) -> int:
        """The seed of the initialisation and of the training data (``train.seed``)."""
        return self.train.seed

    @property
    def needs_gpu(self) -> bool:
        """Whether this entry trains at a paper's scale on a GPU (tag ``gpu``): ``zoo train`` and a retraining
        ``zoo verify`` refuse it without CUDA; CI checks its file and evaluates it briefly on the CPU."""
        return GPU_TAG in self.tags

    @property
    def command(self) -> str:
        """The command that (re)builds this entry's asset and manifest record."""
        device = " --device cuda" if self.needs_gpu else ""
        return f"python -m lengen_utils.lab.zoo train{device} {self.name}"

    def configs(self) -> dict:
        """``{"task": ..., "model": ..., "train": ...}`` as JSON-ready dicts."""
        return {"task": self.task.to_dict(), "model": self.model.to_dict(), "train": self.train.to_dict()}

    def build(self) -> Transformer:
        """A freshly initialised model (seeded, so ``verify`` starts from the same weights)."""
        torch.manual_seed(self.seed)
        return Transformer(self.model)

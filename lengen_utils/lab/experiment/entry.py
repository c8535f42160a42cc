"""A zoo entry: one seed of a recipe, ``(recipe, seed)``, with the three configs (task, model, training) and the
lengths to evaluate.

The training config's seed also seeds the initialisation, so an entry defines one model exactly (up to
floating-point differences between machines and thread counts). Its name (the manifest's key and the checkpoint's
file name) is composed here, by :func:`entry_name`, and never parsed: ``nb05-plain`` seed 2 is ``nb05-plain-s2``.
Code outside the store asks the registry (``recipe_entries``, ``entry_for``) for a seed's entry.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import torch

from ...core.config_checks import check_field_types
from ...core.model import ModelConfig, Transformer
from ...core.task_config import TaskConfig
from ...core.train import LOG_EVERY, TrainConfig


RECORD_ONLY_TAG = "record-only"   # weights too large for assets/: only the record is kept (records.json)
GPU_TAG = "gpu"     # the tag of an entry built (and retrained by ``verify``) only on an NVIDIA GPU
#: the longest recipe id (a name adds ``-sN``): ids are short words, the variant's settings are its fields
MAX_ID_LENGTH = 24


def variant_id(base: str, label: str) -> str:
    """The id of a recipe derived for one run and never registered: ``{base}[{label}]`` (a sweep's grid point
    ``smoke-coupled-3[model.causal=false]``, a paper's reference setup ``sabbaghi-m2-k3[reference]``, a throughput
    shape). The one place such an id is composed; the catalog refuses ``[`` in its ids."""
    return f"{base}[{label}]"


def entry_name(recipe: str, seed: int, seeded: bool = True) -> str:
    """The name of ``recipe``'s entry of ``seed``: ``{recipe}-s{seed}``, or ``recipe`` alone for a one-seed recipe
    whose entry carries no seed in its name (``seeded=False``). The one place a seed goes into a name."""
    return f"{recipe}-s{seed}" if seeded else recipe


class ZooError(KeyError):
    """An unknown zoo name, a manifest without the entry asked for, or a manifest of the wrong shape."""

    def __str__(self) -> str:  # KeyError quotes its message; show it plainly
        return str(self.args[0])


@dataclass(frozen=True)
class ZooEntry:
    """One seed (``train.seed``) of recipe ``recipe``; ``seeded=False``: the recipe's one entry, called by its id."""
    recipe: str
    task: TaskConfig
    model: ModelConfig
    train: TrainConfig
    eval_lengths: tuple[int, ...]
    eval_n: int = 1000
    description: str = ""
    tags: tuple[str, ...] = field(default_factory=tuple)
    curve_every: int = 0      # > 0: every this many steps, EM at the longest trained length (the learning curve)
    seeded: bool = True       # False: a one-seed recipe whose entry is named by the recipe id alone

    def __post_init__(self) -> None:
        check_field_types(self, ValueError)
        # the builder's callback runs at fit's logged steps
        if not isinstance(self.curve_every, int) or self.curve_every < 0 or self.curve_every % LOG_EVERY:
            raise ValueError(f"{self.name}: curve_every must be 0 or a positive multiple of {LOG_EVERY} (the "
                             f"training loop's logged steps), got {self.curve_every!r}")
        if not self.recipe or self.recipe.strip() != self.recipe or " " in self.recipe:
            raise ValueError(f"a recipe id is one word, e.g. 'nb05-plain'; got {self.recipe!r}")

    @property
    def name(self) -> str:
        """The entry's name in the manifest and on disk (:func:`entry_name`): ``nb05-plain`` seed 2 is
        ``nb05-plain-s2``; a recipe's only unseeded entry is called by the id (``smoke-coupled-3``)."""
        return entry_name(self.recipe, self.seed, self.seeded)

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

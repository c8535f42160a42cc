"""What every task shares: a :class:`Task` turns a :class:`~lengen_utils.core.task_config.TaskConfig` into
model-ready :class:`~lengen_utils.core.batches.Batch` objects.

``Task(config)`` builds the task class of ``config.task``: the arithmetic task (:class:`~lengen_utils.core.tasks.
ArithmeticTask`, addition and multiplication) or the 2-D board task (:class:`~lengen_utils.core.boards.task.BoardTask`,
Cho et al.'s minesweeper generator). Both share the model and the training loop: they differ in how problems are
drawn, written as tokens and given position IDs, which is what each subclass supplies. Here lives the rest: the
fixed training set, collation, packing several problems into one sequence in random, non-overlapping slots of IDs.
A subclass names the ``config.task`` it serves (``class BoardTask(Task, kind="minesweeper")``); import tasks from
:mod:`lengen_utils.core.tasks`, which defines or imports every kind.
"""
from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from .batches import Batch, collate, concat_examples
from .config_checks import ConfigError
from .constants import EVAL_SEED, TRAIN_SET_SEED
from .example import Example
from .positions import PositionRangeError
from .task_config import TASKS, TaskConfig


def _require_config(config: object) -> None:
    if not isinstance(config, TaskConfig):
        raise ConfigError(f"Task needs a TaskConfig, got {type(config).__name__}; use TaskConfig.from_dict for a dict")


class Task:
    """Samples, encodes and batches problems for one :class:`TaskConfig`; ``Task(config)`` is the task class of
    ``config.task``."""

    kind: ClassVar[str]
    _kinds: ClassVar[dict[str, type["Task"]]] = {}

    def __init_subclass__(cls, kind: str | None = None, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if kind is None:
            return
        if kind not in TASKS:
            raise ValueError(f"{cls.__name__}: task kind {kind!r} is not one of TaskConfig's tasks {TASKS}")
        if kind in Task._kinds:
            raise ValueError(f"task kind {kind!r} has a class already ({Task._kinds[kind].__name__})")
        cls.kind = kind
        Task._kinds[kind] = cls

    def __new__(cls, config: TaskConfig | None = None, *args: Any, **kwargs: Any) -> "Task":
        if cls is Task:             # pick the class of config.task (unpickling calls __new__ on the subclass)
            _require_config(config)
            if config.task not in Task._kinds:
                raise ConfigError(f"no task class serves task={config.task!r}; import Task from "
                                  f"lengen_utils.core.tasks, which defines every kind ({', '.join(TASKS)})")
            cls = Task._kinds[config.task]
        return super().__new__(cls)

    def __init__(self, config: TaskConfig):
        _require_config(config)
        if not hasattr(self, "kind"):
            raise ConfigError(f"{type(self).__name__} subclasses the shared Task without a kind: subclass "
                              f"ArithmeticTask or BoardTask (lengen_utils.core.tasks) to change one of them")
        if config.task != self.kind:
            raise ConfigError(f"{type(self).__name__} serves task={self.kind!r}, not {config.task!r}; "
                              f"Task(config) picks the class")
        self.config = config
        self.scheme = self._position_scheme()
        self._train_set: list[Any] | None = None   # TaskConfig.train_set_size: drawn on first use

    # -- what a kind supplies -------------------------------------------------------------------
    def _position_scheme(self):
        """The scheme that gives each token its position IDs."""
        raise NotImplementedError

    def sample_train_problems(self, rng: np.random.Generator, n: int, progress: float | None = None) -> list:
        """``n`` training problems; ``progress`` (``step / steps``) places a curriculum in its schedule."""
        raise NotImplementedError

    def eval_problems(self, length: int, n: int, seed: int = EVAL_SEED) -> list:
        """A fixed test set of ``n`` problems of size ``length`` (digits, or a board's width)."""
        raise NotImplementedError

    def example(self, problem: Any, rng: np.random.Generator | None = None) -> Example:
        """``problem`` in the task's format (``rng``: training-time randomness, None at evaluation)."""
        raise NotImplementedError

    def _sample_train_set(self, rng: np.random.Generator, n: int) -> list:
        """The ``n`` problems of a fixed training set (TaskConfig.train_set_size)."""
        raise NotImplementedError

    def _packed_ids(self, group: list[Example], rng: np.random.Generator) -> list[list]:
        """Position IDs of the problems of one packed sequence, each in its own slot of IDs."""
        raise NotImplementedError

    def _annotate(self, batch: Batch, examples: list[Example]) -> Batch:
        """Task-specific extras of a collated batch (none by default)."""
        return batch

    # -- shared ---------------------------------------------------------------------------------
    @property
    def _with_slots(self) -> bool:
        """Whether batches carry the multiplier's UPE slots (arithmetic multiplication only)."""
        return self.config.op == "*" and self.config.task == "arithmetic"

    def train_set(self) -> list:
        """The fixed training set of ``config.train_set_size`` problems (drawn once, with the seed
        ``TRAIN_SET_SEED``, so every run of the config trains on the same set, as a paper's data set)."""
        n = self.config.train_set_size
        if not n:
            raise ConfigError("this task draws fresh training problems every step (train_set_size=0)")
        if self._train_set is None:
            self._train_set = self._sample_train_set(np.random.default_rng([TRAIN_SET_SEED, n]), n)
        return self._train_set

    def position_ids(self, example: Example, rng: np.random.Generator | None = None) -> list:
        return self.scheme.assign(example, rng)

    def batch(self, problems: list, rng: np.random.Generator | None = None) -> Batch:
        """Encode ``problems``; with ``rng`` the position starts are random (training), else fixed."""
        examples = [self.example(p, rng) for p in problems]
        ids = [self.position_ids(e, rng) for e in examples]
        return self._annotate(collate(examples, ids, with_slots=self._with_slots), examples)

    def train_batch(self, rng: np.random.Generator, batch_size: int, progress: float | None = None) -> Batch:
        """``batch_size`` training sequences (each holding ``config.pack`` problems); ``progress`` (``step /
        steps``) places a curriculum task in its schedule."""
        if self.config.pack == 1:
            return self.batch(self.sample_train_problems(rng, batch_size, progress), rng)
        return self.packed_batch(self.sample_train_problems(rng, batch_size * self.config.pack, progress), rng)

    def packed_batch(self, problems: list, rng: np.random.Generator) -> Batch:
        """Concatenate consecutive groups of ``config.pack`` problems into one sequence each.

        Each problem keeps its own coupled IDs, placed in a random slot of ``1..max_position`` that
        overlaps no other problem of the sequence (random gaps between slots, random order). The
        closing ``$`` of one problem is not trained to predict the next one's opening ``$``.
        """
        k = self.config.pack
        if len(problems) % k:
            raise ValueError(f"{len(problems)} problems do not split into sequences of {k}")
        examples, ids = [], []
        for g in range(0, len(problems), k):
            group = [self.example(p) for p in problems[g:g + k]]
            examples.append(concat_examples(group))
            ids.append([i for g_ids in self._packed_ids(group, rng) for i in g_ids])
        return collate(examples, ids, with_slots=self._with_slots)

    def _random_slots(self, extents: list[int], first_id: int, rng: np.random.Generator) -> list[int]:
        """Starts for blocks of ``extents`` IDs in ``first_id..max_position``: no overlap, random gaps, random order."""
        k = len(extents)
        slack = self.config.max_position - first_id + 1 - sum(extents)
        if slack < 0:
            raise PositionRangeError(f"{k} packed problems need {sum(extents)} position IDs but "
                                     f"max_position={self.config.max_position}")
        cuts = np.sort(rng.integers(0, slack + 1, size=k))
        gaps = np.diff(np.concatenate([[0], cuts]))            # k non-negative gaps summing to <= slack
        starts, nxt = [0] * k, first_id
        for slot, i in enumerate(rng.permutation(k)):
            nxt += int(gaps[slot])
            starts[i] = nxt
            nxt += extents[i]
        return starts


__all__ = ["Task"]

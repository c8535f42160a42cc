"""A task ties a problem sampler, a format and a position-ID scheme into model-ready batches.

:class:`~lengen_utils.core.task_config.TaskConfig` is the whole data side of an experiment; ``Task(config)``
draws training batches (random position starts, augmentation, packing, curricula) and evaluation sets (fixed
start, fixed seed) as :class:`~lengen_utils.core.batches.Batch` objects. It builds the class of ``config.task``:
:class:`ArithmeticTask` (here) or the 2-D :class:`~lengen_utils.core.boards.task.BoardTask`; what they share is
:class:`~lengen_utils.core.task_base.Task`. This module is where tasks are imported from: it defines or imports
every kind, so ``Task(config)`` knows them all.

The config, the batches and the config checks live in their own modules (:mod:`.task_config`,
:mod:`.batches`, :mod:`.config_checks`); their names are re-exported here, where they were first defined.
"""
from __future__ import annotations

import numpy as np
import torch

from . import problems as P
from .batches import Batch, carry_target_ids, collate, problem_digits, product_target_ids
from .boards.task import BoardTask
from .nxm.task import NxMTask
from .complexity import sample_mixed_complexity, sample_uniform_over_complexity
from .config_checks import ConfigError, check_bool, check_choice, check_int, config_from_dict, require_int
from .constants import EVAL_SEED
from .curriculum import curriculum_cap, sample_cascade_stage
from .formats import N_HINTS, Example, answer_width, encode, get_format
from .positions import PositionRangeError, PositionScheme
from .spaces import add_spaces
from .task_base import Task
from .task_config import (BOARD_PACK_GAP, COMPLEXITY_SAMPLERS, DEFAULT_MAX_POSITION, SAMPLERS, TASKS,
                          TaskConfig)
from .text_filler import add_filler, filler_rng, frame_ids
from .vocab import TOKEN_ID

__all__ = [
    "Task", "ArithmeticTask", "BoardTask", "NxMTask", "TaskConfig", "Batch", "collate", "problem_digits", "ConfigError", "check_bool", "check_choice",
    "check_int", "config_from_dict", "SAMPLERS", "COMPLEXITY_SAMPLERS", "DEFAULT_MAX_POSITION", "TASKS",
    "BOARD_PACK_GAP",
]


class ArithmeticTask(Task, kind="arithmetic"):
    """Addition and multiplication: samples operands, writes them in the config's format and gives each token its
    (coupled, consecutive, uniform...) position ID."""

    def _position_scheme(self) -> PositionScheme:
        c = self.config
        return PositionScheme(c.positions, c.random_start, c.max_position)

    def _sample_train_set(self, rng: np.random.Generator, n: int) -> list[P.Problem]:
        c = self.config
        return self._sample(rng, c.max_digits, n, c.multiplier_digits, c.multiplier_exact)

    def at_start(self, start: int) -> "ArithmeticTask":
        """The same task, evaluated with the position IDs starting at ``start`` instead of the scheme's default
        (Cho et al. evaluate at 1): a probe of how a model depends on where its IDs begin. Training is unchanged."""
        check_int("Task.at_start", "start", start, minimum=0)
        other = type(self)(self.config)
        other.scheme = PositionScheme(self.config.positions, self.config.random_start, self.config.max_position,
                                      eval_start=start)
        return other

    def longest_operand(self) -> int:
        """The widest test operand (digits) whose problems the position IDs place at the evaluation start;
        a longer test length raises :class:`PositionRangeError`."""
        c = self.config
        return self.scheme.longest_operand(c.op, c.format, multiplier_digits=c.multiplier_digits,
                                           frame_width=c.frame_width)

    # -- problems -------------------------------------------------------------------------------
    def sample_train_problems(self, rng: np.random.Generator, n: int, progress: float | None = None) -> list[P.Problem]:
        """``n`` training problems; a curriculum task draws them for ``progress`` (``step / steps``) of training."""
        c = self.config
        top, multiplier_digits, exact, cap = c.max_digits, c.multiplier_digits, c.multiplier_exact, None
        if c.curriculum != "none":
            if progress is None:
                raise ConfigError(f"the task's curriculum={c.curriculum!r} draws problems by training progress; "
                                  f"pass progress=step/steps (train.fit does)")
            cap = curriculum_cap(c.curriculum, progress, c.curriculum_fraction, c.min_digits, c.max_digits,
                                 c.multiplier_digits)
        if c.train_set_size:                           # a fixed set (no curriculum: TaskConfig refuses both)
            pool = self.train_set()
            probs = [pool[i] for i in rng.integers(0, len(pool), size=n)]
        elif cap is not None and c.curriculum == "cascade":
            probs = sample_cascade_stage(rng, c.min_digits, c.max_digits, cap, n)
        else:
            if cap is not None and c.curriculum == "multiplier":
                multiplier_digits, exact = cap, True
            elif cap is not None:                      # length: operands up to the cap
                top = cap
            probs = self._sample(rng, top, n, multiplier_digits, exact)
        if c.shift_augment:
            probs = [self._shift(p, rng) for p in probs]
        return probs

    def _sample(self, rng: np.random.Generator, top: int, n: int, multiplier_digits: int | None,
                multiplier_exact: bool) -> list[P.Problem]:
        """``n`` problems from the task's sampler with operands up to ``top`` digits."""
        c = self.config
        if c.sampler == "uniform":
            return P.sample_uniform(rng, top, n, c.op, multiplier_digits, multiplier_exact)
        if c.sampler == "exact":
            return P.sample_exact_length(rng, top, n, c.op, multiplier_digits, multiplier_exact)
        if c.sampler in ("uniform_complexity", "mixed_complexity"):  # Sabbaghi C3: addition only
            return (sample_uniform_over_complexity(rng, c.max_digits, n) if c.sampler == "uniform_complexity"
                    else sample_mixed_complexity(rng, c.max_digits, n))
        return P.sample_balanced(rng, top, n, c.op, multiplier_digits, c.min_digits, multiplier_exact)

    def _shift(self, problem: P.Problem, rng: np.random.Generator) -> P.Problem:
        room = self.config.train_width
        used = max(P.num_digits(problem.a), P.num_digits(problem.b) if problem.op == "+" else 0)
        shift = int(rng.integers(0, room - used + 1))
        return P.shift_with_zeros(problem, shift)

    def eval_problems(self, length: int, n: int, seed: int = EVAL_SEED) -> list[P.Problem]:
        """A fixed test set: operands of exactly ``length`` digits (or uniform below ``10**length``). A seed that
        is not an int raises :class:`~lengen_utils.core.problems.ProblemError` naming its type (NumPy would take
        ``True`` or ``'1'`` as another seed); the samplers check ``length`` and ``n``."""
        seed = require_int(seed, "seed", error=P.ProblemError)
        rng = np.random.default_rng([seed, length])
        c = self.config
        if c.eval_sampler == "uniform":
            return P.sample_uniform(rng, length, n, c.op, c.multiplier_digits, c.multiplier_exact)
        k = c.multiplier_digits if c.op == "*" else None
        return P.sample_exact_length(rng, length, n, c.op, k, c.multiplier_exact)

    # -- encoding -------------------------------------------------------------------------------
    def example(self, problem: P.Problem, rng: np.random.Generator | None = None) -> Example:
        """``problem`` in the task's format; with ``filler_max`` its filler text is drawn from ``rng``
        (training) or fixed by the problem (evaluation, :func:`~lengen_utils.core.text_filler.filler_rng`)."""
        c = self.config
        example = encode(problem, c.format, frame_width=c.frame_width, multiplier_digits=c.multiplier_digits,
                         hint_offset=self._hint_offset(problem, rng))
        if c.filler_max:
            example = add_filler(example, rng if rng is not None else filler_rng(problem), c.filler_max)
        if c.spaces and rng is not None:       # random spaces: training only, the test input is the plain one
            example = add_spaces(example, rng, c.spaces)
        return example

    def _hint_offset(self, problem: P.Problem, rng: np.random.Generator | None) -> int:
        """The first index-hint letter: random in training with ``random_start`` (Zhou et al. draw it, so
        that every hint token is trained, as Cho's random start does for position IDs), else ``a`` (0)."""
        c = self.config
        if rng is None or not c.random_start or not get_format(c.format).index_hints:
            return 0
        return int(rng.integers(0, N_HINTS - answer_width(problem, c.multiplier_digits) + 1))

    def _annotate(self, batch: Batch, examples: list[Example]) -> Batch:
        """The arithmetic extras of a collated batch: frame IDs for the arithmetic heads (an encoder's
        :mod:`~lengen_utils.core.text_filler`), the hidden operator, carry and product targets."""
        c = self.config
        if get_format(c.format).layout == "encoder":
            batch.number_ids = torch.zeros_like(batch.position_ids)
            for b, e in enumerate(examples):
                batch.number_ids[b, :len(e)] = torch.tensor(frame_ids(e))
        if c.mask_operator:                    # the operator is hidden from every query, as padding is
            batch.key_padding &= batch.tokens != TOKEN_ID[c.op]
        if c.carry_targets:
            batch.carry_targets = carry_target_ids(examples, batch.tokens.shape[1])
        if c.product_targets:
            batch.product_targets = product_target_ids(examples, batch.tokens.shape[1], c.multiplier_digits)
        return batch

    def _packed_ids(self, group: list[Example], rng: np.random.Generator) -> list[list[int]]:
        """Coupled IDs of packed arithmetic problems, each in its own slot of IDs."""
        at_zero = [self.scheme.assign(e, start=0) for e in group]
        extents = [max(ids) + 1 for ids in at_zero]               # IDs start..start+span of each
        starts = self._random_slots(extents, self.scheme.default_start, rng)
        if self.scheme.shifts_with_start:                         # the slots fit (_random_slots checked)
            return [[i + s for i in ids] for ids, s in zip(at_zero, starts)]
        return [self.scheme.assign(e, start=s) for e, s in zip(group, starts)]

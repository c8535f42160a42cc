"""A task ties a problem sampler, a format and a position-ID scheme into model-ready batches.

:class:`~lengen_utils.core.task_config.TaskConfig` is the whole data side of an experiment; :class:`Task` draws
training batches (random position starts, augmentation, packing, curricula) and evaluation sets (fixed
start, fixed seed) as :class:`~lengen_utils.core.batches.Batch` objects.

The config, the batches and the config checks live in their own modules (:mod:`.task_config`,
:mod:`.batches`, :mod:`.config_checks`); their names are re-exported here, where they were first defined.
"""
from __future__ import annotations

import numpy as np
import torch

from . import problems as P
from .batches import Batch, carry_target_ids, collate, concat_examples, problem_digits, product_target_ids
from .board_format import encode_board
from .boards import sample_boards, sample_square_boards
from .complexity_sampling import sample_mixed_complexity, sample_uniform_over_complexity
from .config_checks import ConfigError, check_bool, check_choice, check_int, config_from_dict, require_int
from .constants import EVAL_SEED, TRAIN_SET_SEED
from .curriculum import curriculum_cap, sample_cascade_stage
from .formats import N_HINTS, Example, answer_width, encode, get_format
from .positions import PositionRangeError, PositionScheme
from .positions2d import BoardPositions
from .spaces import add_spaces
from .task_config import (BOARD_PACK_GAP, COMPLEXITY_SAMPLERS, DEFAULT_MAX_POSITION, SAMPLERS, TASKS,
                          TaskConfig)
from .text_filler import add_filler, filler_rng, frame_ids
from .vocab import TOKEN_ID

__all__ = [
    "Task", "TaskConfig", "Batch", "collate", "problem_digits", "ConfigError", "check_bool", "check_choice",
    "check_int", "config_from_dict", "SAMPLERS", "COMPLEXITY_SAMPLERS", "DEFAULT_MAX_POSITION", "TASKS",
    "BOARD_PACK_GAP",
]


class Task:
    """Samples, encodes and batches problems for one :class:`TaskConfig`."""

    def __init__(self, config: TaskConfig):
        if not isinstance(config, TaskConfig):
            raise ConfigError(f"Task needs a TaskConfig, got {type(config).__name__}; "
                              f"use TaskConfig.from_dict for a dict")
        self.config = config
        self.board = config.task == "minesweeper"
        scheme = BoardPositions if self.board else PositionScheme
        self.scheme = scheme(config.positions, config.random_start, config.max_position)
        self._train_set: list[P.Problem] | None = None   # TaskConfig.train_set_size: drawn on first use

    def train_set(self) -> list[P.Problem]:
        """The fixed training set of ``config.train_set_size`` problems (drawn once, with the seed
        ``TRAIN_SET_SEED``, so every run of the config trains on the same set, as a paper's data set)."""
        n = self.config.train_set_size
        if not n:
            raise ConfigError("this task draws fresh training problems every step (train_set_size=0)")
        if self._train_set is None:
            rng = np.random.default_rng([TRAIN_SET_SEED, n])
            self._train_set = self._sample(rng, self.config.max_digits, n, self.config.multiplier_digits,
                                           self.config.multiplier_exact)
        return self._train_set

    def at_start(self, start: int) -> "Task":
        """The same task, evaluated with the position IDs starting at ``start`` instead of the scheme's default
        (Cho et al. evaluate at 1): a probe of how a model depends on where its IDs begin. Training is unchanged."""
        if self.board:
            raise ConfigError("at_start is for arithmetic tasks; a board task has one start per ID channel")
        check_int("Task.at_start", "start", start, minimum=0)
        other = Task(self.config)
        other.scheme = PositionScheme(self.config.positions, self.config.random_start, self.config.max_position,
                                      eval_start=start)
        return other

    def longest_operand(self) -> int:
        """The widest test operand (digits) whose problems the position IDs place at the evaluation start;
        a longer test length raises :class:`PositionRangeError`."""
        if self.board:
            raise ConfigError("longest_operand is for arithmetic tasks; a board's size limit is per ID channel")
        c = self.config
        return self.scheme.longest_operand(c.op, c.format, multiplier_digits=c.multiplier_digits,
                                           frame_width=c.frame_width)

    # -- problems -------------------------------------------------------------------------------
    def sample_train_problems(self, rng: np.random.Generator, n: int, progress: float | None = None) -> list[P.Problem]:
        """``n`` training problems; a curriculum task draws them for ``progress`` (``step / steps``) of training."""
        c = self.config
        if self.board:
            return sample_boards(rng, n, c.min_digits, c.max_digits)
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
        if self.board:               # square boards of side `length`, as in Cho et al.'s Figure 10
            return sample_square_boards(rng, length, n)
        if c.eval_sampler == "uniform":
            return P.sample_uniform(rng, length, n, c.op, c.multiplier_digits, c.multiplier_exact)
        k = c.multiplier_digits if c.op == "*" else None
        return P.sample_exact_length(rng, length, n, c.op, k, c.multiplier_exact)

    # -- encoding -------------------------------------------------------------------------------
    def example(self, problem: P.Problem, rng: np.random.Generator | None = None) -> Example:
        """``problem`` in the task's format; with ``filler_max`` its filler text is drawn from ``rng``
        (training) or fixed by the problem (evaluation, :func:`~lengen_utils.core.text_filler.filler_rng`)."""
        c = self.config
        if self.board:
            return encode_board(problem, c.format)
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

    def position_ids(self, example: Example, rng: np.random.Generator | None = None) -> list[int]:
        return self.scheme.assign(example, rng)

    def batch(self, problems: list[P.Problem], rng: np.random.Generator | None = None) -> Batch:
        """Encode ``problems``; with ``rng`` the position starts are random (training), else fixed."""
        examples = [self.example(p, rng) for p in problems]
        ids = [self.position_ids(e, rng) for e in examples]
        batch = collate(examples, ids, with_slots=self.config.op == "*")
        if not self.board and get_format(self.config.format).layout == "encoder":   # the arithmetic heads' index (text_filler)
            batch.number_ids = torch.zeros_like(batch.position_ids)
            for b, e in enumerate(examples):
                batch.number_ids[b, :len(e)] = torch.tensor(frame_ids(e))
        if self.config.mask_operator:          # the operator is hidden from every query, as padding is
            batch.key_padding &= batch.tokens != TOKEN_ID[self.config.op]
        if self.config.carry_targets:
            batch.carry_targets = carry_target_ids(examples, batch.tokens.shape[1])
        if self.config.product_targets:
            batch.product_targets = product_target_ids(examples, batch.tokens.shape[1], self.config.multiplier_digits)
        return batch

    def train_batch(self, rng: np.random.Generator, batch_size: int, progress: float | None = None) -> Batch:
        """``batch_size`` training sequences (each holding ``config.pack`` problems); ``progress`` (``step /
        steps``) places a curriculum task in its schedule."""
        if self.config.pack == 1:
            return self.batch(self.sample_train_problems(rng, batch_size, progress), rng)
        return self.packed_batch(self.sample_train_problems(rng, batch_size * self.config.pack, progress), rng)

    def packed_batch(self, problems: list[P.Problem], rng: np.random.Generator) -> Batch:
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
            group_ids = self._packed_board_ids(group, rng) if self.board else self._packed_ids(group, rng)
            examples.append(concat_examples(group))
            ids.append([i for g_ids in group_ids for i in g_ids])
        return collate(examples, ids, with_slots=self.config.op == "*")

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

    def _packed_ids(self, group: list[Example], rng: np.random.Generator) -> list[list[int]]:
        """Coupled IDs of packed arithmetic problems, each in its own slot of IDs."""
        at_zero = [self.scheme.assign(e, start=0) for e in group]
        extents = [max(ids) + 1 for ids in at_zero]               # IDs start..start+span of each
        starts = self._random_slots(extents, self.scheme.default_start, rng)
        if self.scheme.shifts_with_start:                         # the slots fit (_random_slots checked)
            return [[i + s for i in ids] for ids, s in zip(at_zero, starts)]
        return [self.scheme.assign(e, start=s) for e, s in zip(group, starts)]

    def _packed_board_ids(self, group: list[Example], rng: np.random.Generator) -> list[list[tuple[int, int]]]:
        """Packed boards lie one below the other in row IDs, each in its own band of rows (at least
        :data:`BOARD_PACK_GAP` rows apart, so no cell of one board is a neighbour of a cell of another); the column
        start of each board is drawn on its own."""
        rows = [self.scheme.span(0, e.problem.height) + 1 + BOARD_PACK_GAP for e in group]
        row_starts = self._random_slots(rows, self.scheme.default_start, rng)
        ids = []
        for e, row_start in zip(group, row_starts):
            col_start = self.scheme.starts(e, rng)[1]
            ids.append(self.scheme.assign(e, start=(row_start, col_start)))
        return ids

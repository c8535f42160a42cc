"""The N x M multiplication task (notebook 09): both operands of ``min_digits..max_digits`` digits, drawn apart.

A problem is a :class:`~lengen_utils.core.problems.Problem` ``a * b``; it is written as the fused-row scratchpad
(:mod:`.format`) with (row, column, level) IDs (:mod:`.positions`). An evaluation "length" ``L`` is an ``L x L``
product; :meth:`NxMTask.cell_problems` draws any ``N x M`` cell of the grid. The model and the training loop are
the arithmetic task's.
"""
from __future__ import annotations

import numpy as np

from ..config_checks import ConfigError, require_int
from ..constants import EVAL_SEED
from ..example import Example
from ..problems import Problem, ProblemError, random_number_with_digits
from ..task_base import Task
from .format import encode_nxm
from .positions import nxm_scheme


#: Training draws this many times the batch, sorts it by length and keeps one slice, chosen at random (see
#: :meth:`NxMTask.train_batch`).
BUCKETS = 4


def _operand(rng: np.random.Generator, digits: int) -> int:
    """A number of exactly ``digits`` digits (1..9 for one digit: a zero operand makes an empty product)."""
    return int(rng.integers(1, 10)) if digits == 1 else random_number_with_digits(rng, digits)


class NxMTask(Task, kind="nxm"):
    """Samples, encodes and batches N x M products."""

    def _position_scheme(self):
        c = self.config
        return nxm_scheme(c.positions, c.random_start, c.max_position)

    def at_start(self, start: int) -> Task:
        raise ConfigError("at_start is for arithmetic tasks; an N x M task has a start per ID channel")

    def longest_operand(self) -> int:
        """The widest square test (``L x L``) whose IDs fit ``max_position`` at the evaluation start."""
        return self.scheme.longest_square()

    def sample_train_problems(self, rng: np.random.Generator, n: int, progress: float | None = None) -> list[Problem]:
        """``n`` products, each operand's length uniform in ``min_digits..max_digits`` (drawn apart), then its digits."""
        c = self.config
        lengths = rng.integers(c.min_digits, c.max_digits + 1, size=(n, 2))
        return [Problem(_operand(rng, int(na)), _operand(rng, int(nb)), "*") for na, nb in lengths]

    def _sample_train_set(self, rng: np.random.Generator, n: int) -> list[Problem]:
        return self.sample_train_problems(rng, n)

    def train_batch(self, rng: np.random.Generator, batch_size: int, progress: float | None = None):
        """A batch of products of similar length: draw ``BUCKETS`` times ``batch_size`` problems, sort them by
        sequence length and keep one of the ``BUCKETS`` slices, chosen uniformly. Every drawn problem is kept with
        probability ``1 / BUCKETS`` whatever its length, so the training distribution is unchanged; a batch pads
        to its own longest sequence, and uniform lengths in 1..10 would otherwise leave about 60% padding."""
        pool = self.sample_train_problems(rng, batch_size * BUCKETS, progress)
        pool.sort(key=lambda p: (len(str(p.a)) + 1) * (len(str(p.b)) + 2))
        k = int(rng.integers(0, BUCKETS))
        return self.batch(pool[k * batch_size:(k + 1) * batch_size], rng)

    def cell_problems(self, n_digits: int, m_digits: int, count: int, seed: int = EVAL_SEED) -> list[Problem]:
        """A fixed test set of ``count`` products of an ``n_digits``-digit by an ``m_digits``-digit number."""
        for name, value in (("n_digits", n_digits), ("m_digits", m_digits), ("count", count)):
            if require_int(value, name, error=ProblemError) < 1:
                raise ProblemError(f"{name} must be a whole number >= 1, got {value!r}")
        seed = require_int(seed, "seed", error=ProblemError)
        self.scheme.check_fits(n_digits, m_digits)
        rng = np.random.default_rng([seed, n_digits, m_digits])
        return [Problem(_operand(rng, n_digits), _operand(rng, m_digits), "*") for _ in range(count)]

    def eval_problems(self, length: int, n: int, seed: int = EVAL_SEED) -> list[Problem]:
        """``n`` square products ``length x length`` (the grid's diagonal)."""
        return self.cell_problems(length, length, n, seed)

    def example(self, problem: Problem, rng: np.random.Generator | None = None) -> Example:
        return encode_nxm(problem, self.config.format)

    def _packed_ids(self, group: list[Example], rng: np.random.Generator) -> list[list[tuple[int, int, int]]]:
        raise ConfigError("the N x M task writes one product per sequence (pack=1)")


__all__ = ["NxMTask"]

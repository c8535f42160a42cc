"""Curricula: training problems from simple to complex (thesis Chapter 4, "simple to complex tasks").

A curriculum holds the hard problems back for the first ``fraction`` of training, in equal stages, then
hands over to the task's own sampler for the rest:

* ``length``: short to long. Stage ``i`` of ``max_digits - min_digits + 1`` draws with the task's sampler
  capped at ``min_digits + i`` digits (balanced sampling: lengths uniform in ``min_digits..min_digits + i``).
* ``cascade``: easy to hard by the cascade of carries (Sabbaghi et al. Section 4; notebook 06). Stage ``i``
  of ``max_digits + 1`` draws a length ``L`` uniform in ``min_digits..max_digits`` and operands uniform below
  ``10**L`` conditioned on a cascade of at most ``i`` (stage 0: no carry at all; stage 1: carries that no 9
  passes on), exactly (:func:`~lengen_utils.core.complexity.sample_with_cascade_at_most`).
* ``multiplier``: short to long multipliers (multiplication with ``multiplier_digits = k``). Stage ``i`` of
  ``k`` draws multipliers of exactly ``i + 1`` digits, so a model learns one partial product (k = 1) before
  it adds the second and the third; the multiplicand keeps the task's sampler. Under UPE the multiplier digit
  of significance r always holds the vector c_{r+1} (:func:`~lengen_utils.core.positions.uniform_slots`), so
  the roles a stage trains stay the roles of the next one.

With ``fraction = 0.5`` and 1-10 digit operands the length curriculum spends 5% of training on each length
cap 1, 2, ..., 10, then 50% on the task's own distribution. The number of problems per step never changes,
so a curriculum and uniform sampling see the same number of problems (the comparison of notebook 08).
Problems layer: it draws :class:`~lengen_utils.core.problems.Problem` objects; the task applies it
(``TaskConfig(curriculum=...)``) and the training loop passes the progress ``step / steps``.
"""
from __future__ import annotations

import numpy as np

from .complexity import sample_with_cascade_at_most
from .problems import Problem

CURRICULA = ("none", "length", "cascade", "multiplier")
DEFAULT_FRACTION = 0.5

__all__ = ["CURRICULA", "DEFAULT_FRACTION", "stage", "curriculum_cap", "sample_cascade_stage"]


def stage(progress: float, fraction: float, levels: int) -> int | None:
    """The stage ``0..levels-1`` at ``progress`` (0: first step, 1: the end) of a curriculum whose ramp takes the
    first ``fraction`` of training in ``levels`` equal stages; ``None`` once the ramp is over."""
    if not 0 <= progress <= 1:
        raise ValueError(f"progress must be a fraction of training in [0, 1], got {progress!r}")
    if progress >= fraction:
        return None
    return min(levels - 1, int(progress / fraction * levels))


def curriculum_cap(curriculum: str, progress: float, fraction: float, min_digits: int, max_digits: int,
                   multiplier_digits: int | None = None) -> int | None:
    """The cap at ``progress``: the longest operand (``length``), the longest cascade (``cascade``) or the
    multiplier's exact width (``multiplier``) allowed; ``None`` when nothing is held back (no curriculum, or
    the ramp is over)."""
    if curriculum == "none":
        return None
    if curriculum == "length":
        i = stage(progress, fraction, max_digits - min_digits + 1)
        return None if i is None else min_digits + i
    if curriculum == "cascade":
        return stage(progress, fraction, max_digits + 1)
    if curriculum == "multiplier":
        if multiplier_digits is None:
            raise ValueError("curriculum='multiplier' ramps the multiplier's width; pass multiplier_digits")
        i = stage(progress, fraction, multiplier_digits)
        return None if i is None else i + 1
    raise ValueError(f"unknown curriculum {curriculum!r}; choose one of {CURRICULA}")


def sample_cascade_stage(rng: np.random.Generator, min_digits: int, max_digits: int, cap: int, n: int) -> list[Problem]:
    """``n`` sums of a cascade curriculum's stage: per problem a length ``L`` uniform in ``min_digits..max_digits``,
    then operands uniform below ``10**L`` with a cascade of at most ``cap``."""
    lengths = rng.integers(min_digits, max_digits + 1, size=n)
    return [sample_with_cascade_at_most(rng, int(L), min(cap, int(L)), 1)[0] for L in lengths]

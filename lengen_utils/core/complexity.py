"""Sampling sums by complexity: the training distributions of Sabbaghi et al., Section 4 (C3), and the
fixed test sets of Figure 8 (one set per cascade length, or per longest run of consecutive carries).

Problems layer: imports only :mod:`~lengen_utils.core.problems`, :mod:`~lengen_utils.core.carries` and
:mod:`~lengen_utils.core.constants`, so that :mod:`lengen_utils.core.tasks` can offer
``TaskConfig(sampler='uniform_complexity')`` and ``'mixed_complexity'``.

* :func:`sample_by_cascade_length`: exact conditional sampling at one cascade length (no rejection);
* :func:`sample_uniform_over_complexity`, :func:`sample_mixed_complexity`: C3's "uniform distribution on
  the complexity" and its 50/50 mixture with the uniform distribution over numbers;
* :func:`sample_with_cascade_at_most`: the uniform distribution below a cascade cap (a curriculum's stage);
* :func:`sample_by_carry_run`: rejection sampling at one longest carry run (C1);
* :func:`cascade_test_sets`, :func:`carry_run_test_sets`: seeded test sets ``{level: problems}``.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Iterable

import numpy as np

from .carries import (CLASSES, GENERATE, PAIR_COUNTS, PAIRS_BY_CLASS, PROPAGATE, carry_runs_from_sums,
                      check_non_negative, check_positive)
from .constants import EVAL_SEED
from .problems import Problem, ProblemError, random_number_below, sample_uniform

__all__ = [
    "sample_by_cascade_length", "sample_uniform_over_complexity", "sample_mixed_complexity",
    "sample_with_cascade_at_most",
    "sample_by_carry_run", "cascade_test_sets", "carry_run_test_sets",
]


def _next_run(run: int, cls: int) -> int:
    return 1 if cls == GENERATE else (run + 1 if cls == PROPAGATE and run > 0 else 0)


@lru_cache(maxsize=256)
def _completions(max_digits: int, cascade: int) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """Backward counts: ``table[i][2 * r + h]`` is the number of digit-pair assignments of positions
    ``i..max_digits-1`` that end with maximum cascade exactly ``cascade``, entering position ``i`` with
    current cascade length ``r <= cascade`` and ``h`` = whether ``cascade`` was already reached."""
    table: list[tuple[int, ...]] = [tuple(h for _r in range(cascade + 1) for h in (0, 1))]
    for _ in range(max_digits):
        after = table[-1]
        row = []
        for r in range(cascade + 1):
            for h in (0, 1):
                total = 0
                for cls in CLASSES:
                    nr = _next_run(r, cls)
                    if nr <= cascade:
                        total += PAIR_COUNTS[cls] * after[2 * nr + (h or nr == cascade)]
                row.append(total)
        table.append(tuple(row))
    return tuple(reversed(table))  # table[i] for i = 0..max_digits


def _check_level(max_digits: int, level: int, measure: str = "cascade length") -> tuple[int, int]:
    """``(max_digits, level)`` as ints; :class:`ProblemError` naming the feasible levels ``0..max_digits``."""
    max_digits = check_positive(max_digits, "max_digits")
    if isinstance(level, bool) or not isinstance(level, (int, np.integer)):
        raise ProblemError(f"the {measure} must be an integer, got {level!r}")
    if not 0 <= level <= max_digits:
        raise ProblemError(
            f"no sum of operands below 10**{max_digits} has {measure} {level}: "
            f"feasible {measure}s are 0..{max_digits} (one spans at most max_digits positions)"
        )
    return max_digits, int(level)


def _sample_one(rng: np.random.Generator, max_digits: int, cascade: int,
                table: tuple[tuple[int, ...], ...]) -> Problem:
    run, reached = 0, cascade == 0
    a = b = 0
    for i in range(max_digits):
        options = []
        for cls in CLASSES:
            nr = _next_run(run, cls)
            if nr <= cascade:
                nh = reached or nr == cascade
                options.append((PAIR_COUNTS[cls] * table[i + 1][2 * nr + nh], cls, nr, nh))
        draw = random_number_below(rng, sum(w for w, *_ in options))
        for weight, cls, nr, nh in options:
            if draw < weight:
                break
            draw -= weight
        pairs = PAIRS_BY_CLASS[cls]
        x, y = pairs[int(rng.integers(len(pairs)))]
        a += x * 10**i
        b += y * 10**i
        run, reached = nr, nh
    return Problem(a, b, "+")


def sample_by_cascade_length(rng: np.random.Generator, max_digits: int, cascade: int, n: int) -> list[Problem]:
    """``n`` sums with operands uniform below ``10**max_digits`` conditioned on complexity == ``cascade``.

    Exact conditional sampling, no rejection: a backward pass counts, with Python integers, the
    completions of every (position, current cascade, target reached) state; a forward pass then draws
    each position's class (generate / propagate / kill) with probability proportional to its pair count
    times the completions, and the digit pair uniformly within the class. Every pair with the
    prescribed :func:`cascade_length` is therefore equally likely. Feasible values are
    ``0..max_digits``; any other raises :class:`ProblemError` (a ``ValueError``).
    """
    max_digits, cascade = _check_level(max_digits, cascade)
    n = check_non_negative(n, "n")
    table = _completions(max_digits, cascade)
    return [_sample_one(rng, max_digits, cascade, table) for _ in range(n)]


def sample_uniform_over_complexity(rng: np.random.Generator, max_digits: int, n: int) -> list[Problem]:
    """Sabbaghi C3 "uniform distribution on the complexity": for each sample, a cascade length uniform
    on the feasible levels ``0..max_digits``, then a sum drawn exactly from that level."""
    max_digits = check_positive(max_digits, "max_digits")
    n = check_non_negative(n, "n")
    levels = rng.integers(0, max_digits + 1, size=n)
    return [_sample_one(rng, max_digits, int(c), _completions(max_digits, int(c))) for c in levels]


def sample_with_cascade_at_most(rng: np.random.Generator, max_digits: int, cap: int, n: int) -> list[Problem]:
    """``n`` sums with operands uniform below ``10**max_digits`` conditioned on complexity ``<= cap``: exact, no
    rejection (a level ``j <= cap`` is drawn with probability proportional to the number of pairs at that
    level, then a sum exactly at it). ``cap >= max_digits`` is the uniform distribution itself; ``cap = 0``
    holds sums without a carry."""
    max_digits, cap = _check_level(max_digits, cap, "cascade cap")
    n = check_non_negative(n, "n")
    weights = [_completions(max_digits, j)[0][int(j == 0)] for j in range(cap + 1)]
    total = sum(weights)
    out = []
    for _ in range(n):
        draw = random_number_below(rng, total)
        level = 0
        while draw >= weights[level]:
            draw -= weights[level]
            level += 1
        out.append(_sample_one(rng, max_digits, level, _completions(max_digits, level)))
    return out


def sample_mixed_complexity(rng: np.random.Generator, max_digits: int, n: int,
                            p_uniform: float = 0.5) -> list[Problem]:
    """Sabbaghi C3 hybrid: each sample comes with probability ``p_uniform`` from the uniform
    distribution over numbers (:func:`~lengen_utils.core.problems.sample_uniform`) and otherwise from
    :func:`sample_uniform_over_complexity` (the paper's 50/50 mixture is the default)."""
    if not 0.0 <= p_uniform <= 1.0:
        raise ProblemError(f"p_uniform must be a probability in [0, 1], got {p_uniform!r}")
    max_digits = check_positive(max_digits, "max_digits")
    n = check_non_negative(n, "n")
    out: list[Problem] = []
    for from_uniform in rng.random(n) < p_uniform:
        if from_uniform:
            out.extend(sample_uniform(rng, max_digits, 1))
        else:
            out.extend(sample_uniform_over_complexity(rng, max_digits, 1))
    return out


def _from_digits(digits: np.ndarray) -> int:
    """The integer whose digits (least significant first) are ``digits``."""
    return int("".join(str(int(d)) for d in digits[::-1]))


def sample_by_carry_run(rng: np.random.Generator, max_digits: int, run: int, n: int,
                        max_draws: int = 2_000_000) -> list[Problem]:
    """``n`` sums with operands uniform below ``10**max_digits`` conditioned on
    :func:`longest_carry_run` == ``run`` (Sabbaghi C1, "consecutive carries", Figure 8b).

    Rejection sampling: operand pairs are drawn uniformly in vectorised blocks and kept when their
    longest run of consecutive carry-emitting positions equals ``run``, so every qualifying pair is
    equally likely. Raises :class:`ProblemError` when ``run`` is infeasible (``0..max_digits``) or when
    fewer than ``n`` qualifying pairs turn up within ``max_draws`` draws (too rare a level).
    """
    max_digits, run = _check_level(max_digits, run, "longest carry run")
    n = check_non_negative(n, "n")
    out: list[Problem] = []
    drawn = 0
    while len(out) < n:
        if drawn >= max_draws:
            raise ProblemError(f"only {len(out)} of {n} sums with a longest carry run of {run} in "
                               f"{drawn} uniform {max_digits}-digit draws; ask for fewer or a more common run")
        block = min(max(4 * n, 4096), max_draws - drawn)
        a = rng.integers(0, 10, size=(block, max_digits))
        b = rng.integers(0, 10, size=(block, max_digits))
        drawn += block
        for i in np.flatnonzero(carry_runs_from_sums(a + b) == run)[: n - len(out)]:
            out.append(Problem(_from_digits(a[i]), _from_digits(b[i]), "+"))
    return out


def cascade_test_sets(length: int, levels: Iterable[int], n: int, seed: int = EVAL_SEED) -> dict[int, list[Problem]]:
    """Fixed test sets ``{cascade length: n sums}`` with operands uniform below ``10**length``,
    drawn exactly by :func:`sample_by_cascade_length`; each level has its own seeded generator."""
    return {int(c): sample_by_cascade_length(np.random.default_rng([seed, length, int(c), 1]), length, int(c), n)
            for c in levels}


def carry_run_test_sets(length: int, levels: Iterable[int], n: int, seed: int = EVAL_SEED) -> dict[int, list[Problem]]:
    """Fixed test sets ``{longest carry run: n sums}`` (operands uniform below ``10**length``), drawn by
    :func:`sample_by_carry_run`; each level has its own seeded generator."""
    return {int(r): sample_by_carry_run(np.random.default_rng([seed, length, int(r), 2]), length, int(r), n)
            for r in levels}

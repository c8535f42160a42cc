"""Exact distribution of the cascade length of a uniformly random sum (Sabbaghi et al., App. C.4, Fig. 13).

Three ways to the same table, entry ``k`` = P(maximum cascade length = ``k``) for operands uniform on
``[0, 10**length)``:

* :func:`cascade_length_distribution`: exact dynamic programming over digit positions;
* :func:`brute_force_cascade_distribution`: enumeration of every operand pair (small lengths, tests);
* :func:`monte_carlo_cascade_distribution`: sampling, as the paper's histograms do.

The measure itself, :func:`~lengen_utils.core.carries.cascade_length`, is defined in :mod:`lengen_utils.core.carries`.
"""
from __future__ import annotations

from fractions import Fraction
from typing import Sequence

import numpy as np

from ...core.carries import PAIR_COUNTS, cascade_lengths_from_sums, check_positive
from ...core.problems import ProblemError

__all__ = ["cascade_length_distribution", "brute_force_cascade_distribution", "monte_carlo_cascade_distribution"]


def _addition_dp(pair_weights: Sequence, length: int, dtype: type) -> np.ndarray:
    """Forward DP for addition: every position is generate / propagate / kill with the given weights,
    independently. Returns the total weight of each maximum cascade length 0..length."""
    w_gen, w_prop, w_kill = pair_weights
    size = length + 2
    table = np.zeros((size, size), dtype=dtype)  # table[r, m]
    table[0, 0] = 1
    r = np.arange(1, size - 1)
    for _ in range(length):
        by_max = table.sum(axis=0)
        new = np.zeros_like(table)
        new[0, :] = w_kill * by_max + w_prop * table[0, :]
        new[1, 1:] = w_gen * by_max[1:]
        new[1, 1] += w_gen * by_max[0]
        new[2:, :] += w_prop * np.triu(table[1:-1, :], k=2)
        new[r + 1, r + 1] += w_prop * table[r, r]
        table = new
    return table.sum(axis=0)[: length + 1]



def _as_output(values: np.ndarray, total: int, exact: bool) -> np.ndarray:
    if exact:
        return np.array([Fraction(int(v), total) for v in values], dtype=object)
    return np.asarray(values, dtype=np.float64) / (1.0 if total == 1 else float(total))


def cascade_length_distribution(length: int, exact: bool = False) -> np.ndarray:
    """Exact distribution of :func:`cascade_length` for operands uniform on ``[0, 10**length)``.

    Entry ``k`` (``k = 0..length``) is P(maximum cascade length = k). The digit pairs are i.i.d. over
    positions, so each position is generate / propagate / kill with probability 0.45 / 0.10 / 0.45;
    a forward dynamic program over positions tracks (current cascade length, maximum so far).
    Cost: ``length`` vectorised steps on a ``(length + 2)**2`` table, O(length**3) arithmetic in all.
    ``exact=True`` counts digit-pair sequences with Python integers and returns ``Fraction`` objects
    (slower; meant for small lengths and tests); the default returns float64 probabilities.
    """
    length = check_positive(length, "length")
    if exact:
        return _as_output(_addition_dp(PAIR_COUNTS, length, object), 100**length, exact=True)
    return _addition_dp([count / 100.0 for count in PAIR_COUNTS], length, np.float64)


def brute_force_cascade_distribution(length: int, exact: bool = False) -> np.ndarray:
    """Distribution of :func:`cascade_length` by enumerating all ``10**(2*length)`` operand pairs.

    For tests (``length <= 3``: a million pairs). Same indexing as :func:`cascade_length_distribution`.
    """
    length = check_positive(length, "length")
    if length > 3:
        raise ProblemError(f"brute force enumerates 10**(2*length) pairs; length={length} is too large (max 3)")
    numbers = np.arange(10**length)
    digits = np.stack([(numbers // 10**i) % 10 for i in range(length)], axis=1)
    sums = (digits[:, None, :] + digits[None, :, :]).reshape(-1, length)
    counts = np.bincount(cascade_lengths_from_sums(sums), minlength=length + 1)
    return _as_output(counts, 100**length, exact)


def monte_carlo_cascade_distribution(rng: np.random.Generator, length: int, n: int) -> np.ndarray:
    """Empirical distribution of :func:`cascade_length` over ``n`` sums with operands uniform below
    ``10**length`` (digits drawn i.i.d. uniform); same indexing as :func:`cascade_length_distribution`."""
    length = check_positive(length, "length")
    n = check_positive(n, "n")
    sums = rng.integers(0, 10, size=(n, length)) + rng.integers(0, 10, size=(n, length))
    counts = np.bincount(cascade_lengths_from_sums(sums), minlength=length + 1)
    return counts / n


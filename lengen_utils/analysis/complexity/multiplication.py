"""Exact distribution of the carry levels of ``d * x`` for a single-digit multiplier (Sabbaghi et al.,
Appendix C.4, Figure 14).

* :func:`multiplication_levels_distribution`: exact dynamic programming over the multiplicand's digits
  (a Markov chain whose hidden state is the previous level-0 carry);
* :func:`brute_force_multiplication_levels_distribution`: the parallel algorithm run on every
  multiplicand (small lengths, tests).

The measure itself, :func:`~lengen_utils.core.carries.multiplication_levels`, is in :mod:`lengen_utils.core.carries`.
"""
from __future__ import annotations

from typing import Iterable, Sequence

import numpy as np

from ...core.carries import CLASSES, GENERATE, KILL, check_multiplier_digit, check_positive, classify
from ...core.problems import ProblemError
from .addition import _as_output

__all__ = ["multiplication_levels_distribution", "brute_force_multiplication_levels_distribution"]


def _advance(table: np.ndarray, cls: int) -> np.ndarray:
    """Move the (current cascade length r, maximum so far m) distribution, held on the last two axes,
    through one position of class ``cls``. States keep ``r <= m``; the last row (r = size-1) stays empty."""
    out = np.zeros_like(table)
    if cls == KILL:
        out[..., 0, :] = table.sum(axis=-2)
    elif cls == GENERATE:  # a new cascade of length 1 starts
        by_max = table.sum(axis=-2)
        out[..., 1, 1:] = by_max[..., 1:]
        out[..., 1, 1] += by_max[..., 0]
    else:  # PROPAGATE: a running cascade grows by one; outside a cascade nothing happens
        size = table.shape[-1]
        out[..., 0, :] = table[..., 0, :]
        out[..., 2:, :] = np.triu(table[..., 1:-1, :], k=2)  # rows r = 1..size-2 with r < m keep m
        r = np.arange(1, size - 1)
        out[..., r + 1, r + 1] += table[..., r, r]  # the running cascade is the longest: m grows too
    return out



def _cascade_dp(weights: Sequence[np.ndarray], length: int, exact: bool) -> np.ndarray:
    """Forward DP over ``length`` positions of a Markov chain with hidden state ``c``.

    ``weights[cls][c_prev, c_new]`` is the weight of moving from hidden state ``c_prev`` to ``c_new``
    while the position gets class ``cls``; hidden state 0 is the start and any move into ``c_new > 0``
    sets a flag ``f``. Returns the total weight as an array indexed by ``[f, m]``, ``m`` the maximum cascade length.
    """
    n_hidden = weights[0].shape[0]
    size = length + 2  # r and m range over 0..length; one spare row keeps the shifts in bounds
    dtype = object if exact else np.float64
    state = np.zeros((n_hidden, 2, size, size), dtype=dtype)
    state[0, 0, 0, 0] = 1
    for _ in range(length):
        new = np.zeros_like(state)
        for cls in CLASSES:
            w = np.asarray(weights[cls], dtype=dtype)
            if not w.any():
                continue
            new += np.tensordot(w.T, _advance(state, cls), axes=1)
        new[1:, 1] += new[1:, 0]
        new[1:, 0] = 0
        state = new
    return state.sum(axis=(0, 2))


def _multiplication_weights(d: int, exact: bool) -> list[np.ndarray]:
    """Per-position weights for :func:`_cascade_dp`: hidden state = the level-0 carry ``floor(d x / 10)``
    of the previous digit (0..8); the class is that of ``u = d x mod 10 + previous carry``."""
    weights = [np.zeros((9, 9), dtype=object if exact else np.float64) for _ in CLASSES]
    for c_prev in range(9):
        for x in range(10):
            cls = classify(d * x % 10 + c_prev)
            weights[cls][c_prev, d * x // 10] += 1 if exact else 0.1
    return weights


def multiplication_levels_distribution(length: int, multiplier_digits: Iterable[int] = range(1, 10),
                                       exact: bool = False) -> np.ndarray:
    """Exact distribution of :func:`multiplication_levels` (entry ``k`` = P(levels = k), ``k = 0..length``).

    The multiplicand is uniform below ``10**length`` (digits i.i.d.) and the multiplier uniform over
    ``multiplier_digits`` (default 1..9, as in Appendix C.4). Exact dynamic program, not sampling: by the
    structure stated in :func:`multiplication_levels`, the levels are 0 without any level-0 carry and
    1 + the longest cascade of the first-level columns ``u_i`` otherwise. ``u_i`` depends only on
    ``x_i`` and the previous level-0 carry, so a forward DP over positions with state (previous carry
    0..8, any carry yet, current cascade, longest cascade) is exact. (The top column receives at most
    ``floor(81 / 10) = 8`` and never continues a cascade.) ``exact=True`` returns ``Fraction`` objects.
    """
    length = check_positive(length, "length")
    digits = [check_multiplier_digit(d) for d in multiplier_digits]
    if not digits:
        raise ProblemError("multiplier_digits is empty")
    dtype = object if exact else np.float64
    levels = np.zeros(length + 2, dtype=dtype)
    for d in digits:
        by_flag_max = _cascade_dp(_multiplication_weights(d, exact), length, exact)
        levels[0] += by_flag_max[0].sum()  # no level-0 carry: nothing to propagate
        levels[1:] += by_flag_max[1][: length + 1]  # otherwise 1 + longest cascade of the first level
    if any(levels[length + 1:]):
        raise AssertionError("levels exceed the multiplicand length")  # impossible: u_0 <= 9 never generates
    if exact:
        return _as_output(levels[: length + 1], len(digits) * 10**length, exact=True)
    return levels[: length + 1] / len(digits)


def brute_force_multiplication_levels_distribution(length: int, multiplier_digits: Iterable[int] = range(1, 10),
                                                   exact: bool = False) -> np.ndarray:
    """Distribution of :func:`multiplication_levels` by running the parallel algorithm on every multiplicand
    below ``10**length`` and every multiplier digit (vectorised; for tests, ``length <= 5``)."""
    length = check_positive(length, "length")
    if length > 5:
        raise ProblemError(f"brute force enumerates 10**length multiplicands; length={length} is too large (max 5)")
    digits = [check_multiplier_digit(d) for d in multiplier_digits]
    if not digits:
        raise ProblemError("multiplier_digits is empty")
    numbers = np.arange(10**length, dtype=np.int64)
    columns = np.stack([(numbers // 10**i) % 10 for i in range(length)] + [np.zeros_like(numbers)], axis=1)
    counts = np.zeros(length + 1, dtype=np.int64)
    for d in digits:
        values = d * columns
        levels = np.zeros(len(numbers), dtype=np.int64)
        while (values >= 10).any():
            levels += (values >= 10).any(axis=1)
            carries = values // 10
            values = values % 10
            values[:, 1:] += carries[:, :-1]
        counts += np.bincount(levels, minlength=length + 1)[: length + 1]
    return _as_output(counts, len(digits) * 10**length, exact)

"""Solutions of notebook 07's coding exercises (try them first)."""
from __future__ import annotations

from collections import Counter
from fractions import Fraction

import numpy as np


def position_loss(A: np.ndarray, v: np.ndarray, theta: np.ndarray, alpha: float, beta: float) -> np.ndarray:
    n = len(A)
    # the target on the ring (eq. 5.1): y = B s with alpha on the diagonal and beta at i - 1 and i + 1, mod n
    B = alpha * np.eye(n)
    for i in range(n):
        B[i, (i - 1) % n] += beta
        B[i, (i + 1) % n] += beta
    # y_hat_i - y_i = sum_r (A_ir v - B_ir theta)^T x_r with independent x_r ~ N(0, I): the variance is the sum of
    # |A_ir v - B_ir theta|^2 = A_ir^2 |v|^2 - 2 A_ir B_ir <v, theta> + B_ir^2 over r
    return (A**2 * (v @ v) - 2 * A * B * (v @ theta) + B**2).sum(axis=1)


def nope_best_em(m: int) -> Fraction:
    lo = 10 ** (m - 1) if m > 1 else 0           # operands with exactly m digits (for m = 1: the digits 0-9)
    by_multiset: dict[str, Counter] = {}
    for a in range(lo, 10**m):
        for b in range(lo, 10**m):               # ordered pairs: $12+34= and $34+12= are two queries
            digits = "".join(sorted(f"{a}{b}"))  # all a NoPE decoder sees of the query
            by_multiset.setdefault(digits, Counter())[a + b] += 1
    # one answer per multiset: at best the largest group sharing one sum is right
    right = sum(max(sums.values()) for sums in by_multiset.values())
    return Fraction(right, (10**m - lo) ** 2)


def position_bits_for(digits: int) -> int:
    # the construction adds operands of up to 2**n - 3 digits with n position bits: the smallest n that reaches
    n = 1
    while 2**n - 3 < digits:
        n += 1
    return n


def same_multiset_pairs(digits: tuple[int, int, int, int], total: int) -> tuple[int, int]:
    # every ordering of the four digits as two 2-digit operands: (how many pairs, how many of them sum to total)
    from itertools import permutations

    pairs = {(10 * p[0] + p[1], 10 * p[2] + p[3]) for p in permutations(digits)}
    return len(pairs), sum(a + b == total for a, b in pairs)

"""Notebook 07's coding exercises: the exact test loss per position of Sabbaghi et al.'s linear attention on a
ring (Proposition 5.1: with its row of A at 0, APE's loss is Var(y) = α² + 2β²), and the best exact match of a
1-layer NoPE decoder by brute force (Cho et al. Proposition 5.2).

Each checker compares the learner's function with the library (``theory.pairwise_sq_error`` on
``theory.target_matrix``, and ``theory.nope_max_exact_match_bound``) on edge and random inputs, and names the
mistake.
"""
from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction
from typing import Callable

import numpy as np
import torch

from ...analysis.theory import nope_max_exact_match_bound, pairwise_sq_error, target_matrix
from ..common.exercises import attempt, exercise, expect, expect_answer, is_array, is_number


def library_position_loss(A: np.ndarray, v: np.ndarray, theta: np.ndarray, B: np.ndarray) -> np.ndarray:
    """The library's test loss at each position, ``sum_r q_ir``, for the target matrix ``B``."""
    t = lambda x: torch.as_tensor(np.asarray(x, dtype=np.float64))       # noqa: E731
    return pairwise_sq_error(t(A), t(v), t(theta), t(B)).sum(1).numpy()


def _loss_cases() -> list[tuple[np.ndarray, np.ndarray, np.ndarray, float, float]]:
    """(A, v, theta, alpha, beta): APE at unseen positions (A = 0), a perfect model, a block of zero rows, random."""
    rng = np.random.default_rng(7)
    unit = lambda d: (lambda x: x / np.linalg.norm(x))(rng.normal(size=d))       # noqa: E731
    theta = unit(4)
    cases = [(np.zeros((5, 5)), unit(4), unit(4), 1.0, 0.4),                # every row 0: the loss is α² + 2β²
             (target_matrix(5, 0.9, 0.3), theta, theta, 0.9, 0.3)]          # A = B and v = θ: the loss is 0
    block = rng.normal(size=(8, 8))
    block[3:] = 0.0                                                    # APE: the rows of unseen positions decay to 0
    cases.append((block, unit(3), unit(3), 1.0, 0.4))
    for _ in range(12):
        n, d = int(rng.integers(3, 12)), int(rng.integers(1, 7))
        cases.append((rng.normal(size=(n, n)), rng.normal(size=d), unit(d), float(rng.uniform(0.2, 1.5)),
                      float(rng.uniform(0.1, 0.7))))
    return cases


def _ring(n: int, alpha: float, beta: float, *, wrap: bool = True, sides: int = 2) -> np.ndarray:
    """The target matrix, or one of its classic mistakes (no wrap-around, one neighbour only); for diagnosis."""
    if wrap and sides == 2:
        return target_matrix(n, alpha, beta)
    eye = np.eye(n)
    right = np.roll(eye, 1, axis=1) if wrap else np.eye(n, k=1)
    left = np.roll(eye, -1, axis=1) if wrap else np.eye(n, k=-1)
    return alpha * eye + beta * (right + (left if sides == 2 else 0))


@exercise("The exact test loss per position (Prop. 5.1)")
def check_position_loss(fn: Callable[..., np.ndarray]) -> int:
    """``fn(A, v, theta, alpha, beta)``: the test loss E[(ŷ_i − y_i)²] at each position i when every x_r is
    N(0, I_d), with ŷ_i = Σ_r A_ir ⟨v, x_r⟩ and y_i = α⟨θ, x_i⟩ + β⟨θ, x_(i−1)⟩ + β⟨θ, x_(i+1)⟩ (indices mod n)."""
    cases = _loss_cases()
    for A, v, theta, alpha, beta in cases:
        n = len(A)
        B = target_matrix(n, alpha, beta)
        want = library_position_loss(A, v, theta, B)
        valid = lambda x: is_array(x, 1) and len(x) == n                    # noqa: E731
        got = expect_answer(attempt(fn, A.copy(), v.copy(), theta.copy(), alpha, beta), valid, f"one loss per "
                            f"position, an array of shape ({n},)", f"for n = {n}, d = {len(v)}")
        got = np.asarray(got, dtype=np.float64)
        if np.allclose(got, want, rtol=1e-6, atol=1e-9):
            continue
        i = int(np.argmax(np.abs(got - want)))
        shown = (f"For n = {n}, d = {len(v)}, α = {alpha:.3g}, β = {beta:.3g}, position {i} has loss "
                 f"{want[i]:.6g}; you gave {got[i]:.6g}")
        like = lambda variant: np.allclose(got, variant, rtol=1e-6, atol=1e-9)       # noqa: E731
        vv, vt = float(v @ v), float(v @ theta)
        expect(not like(want / n), f"The loss is a sum over r of the independent terms, not their mean. {shown}")
        expect(not like(library_position_loss(A, v, theta, _ring(n, alpha, beta, sides=1))),
               f"The target y_i reads both ring neighbours, x_(i−1) and x_(i+1): β appears twice in row i of the target, so "
               f"with A = 0 the loss is α² + 2β². {shown}")
        expect(not like(library_position_loss(A, v, theta, _ring(n, alpha, beta, wrap=False))),
               f"The ring wraps around: position 0's neighbours are 1 and n − 1 (eq. 5.1 takes indices mod n). "
               f"{shown}")
        expect(not like(library_position_loss(A.T, v, theta, B)),
               f"The prediction ŷ_i = Σ_r A_ir ⟨v, x_r⟩ reads row i of A; you used column i. {shown}")
        expect(not like((A**2 * vv + B**2).sum(1)), f"The cross term −2 A_ir B_ir ⟨v, θ⟩ is missing: ŷ_i and y_i "
               f"share the inputs x_r, so the error is |A_ir v − B_ir θ|² summed over r, not |A_ir v|² + "
               f"|B_ir θ|². {shown}")
        expect(not like((A**2 * vv + 2 * A * B * vt + B**2).sum(1)), f"The cross term has a minus sign: "
               f"|A_ir v − B_ir θ|² = A_ir² |v|² − 2 A_ir B_ir ⟨v, θ⟩ + B_ir². {shown}")
        expect(not like((A**2 * math.sqrt(vv) - 2 * A * B * vt + B**2).sum(1)),
               f"Square the norm of v: |A_ir v|² = A_ir² |v|². {shown}")
        expect(False, f"{shown}. Hint: ŷ_i − y_i = Σ_r (A_ir v − B_ir θ)ᵀ x_r, a sum of independent centred "
                      "Gaussians; its variance is Σ_r |A_ir v − B_ir θ|².")
    return len(cases)


def _best(m: int, *, key: str = "query", ordered: bool = True, per_class: bool = False) -> Fraction:
    """The NoPE bound counted with one choice changed (the grouping key, unordered pairs, an average over
    classes); for diagnosis only: the truth is the library's ``nope_max_exact_match_bound``."""
    lo = 10 ** (m - 1) if m > 1 else 0
    groups: dict = {}
    for a in range(lo, 10**m):
        for b in range(lo if ordered else a, 10**m):
            sa, sb = f"{a:0{m}d}", f"{b:0{m}d}"
            k = "".join(sorted(sa + sb)) if key == "query" else ("".join(sorted(sa)), "".join(sorted(sb)))
            groups.setdefault(k, Counter())[a + b] += 1
    if per_class:
        return sum(Fraction(max(c.values()), sum(c.values())) for c in groups.values()) / len(groups)
    return Fraction(sum(max(c.values()) for c in groups.values()), sum(sum(c.values()) for c in groups.values()))


@exercise("The NoPE bound by brute force (Prop. 5.2)")
def check_nope_bound(fn: Callable[[int], Fraction]) -> int:
    """``fn(m)``: the best exact match any 1-layer NoPE decoder can reach on m-digit addition (operands with
    exactly m digits, all ordered pairs equally likely), as a fraction."""
    ms = (2, 1, 3)          # m = 1: a + b = b + a, so NoPE can be perfect; m = 3: 810,000 queries, a second or two
    for m in ms:
        bound = nope_max_exact_match_bound(m)
        want = bound.exact
        got = expect_answer(attempt(fn, m), is_number, "the exact match as a number, e.g. Fraction(667, 2025)",
                            f"for m = {m}")
        if got == want or (not isinstance(got, Fraction) and math.isclose(float(got), float(want), rel_tol=1e-12)):
            continue
        shown = f"For m = {m} the best exact match is {want} = {float(want):.4%}; you gave {got} = {float(got):.4%}"
        like = lambda variant: math.isclose(float(got), float(variant), rel_tol=1e-12)      # noqa: E731
        expect(not (got == bound.n_best and got > 1), f"Return a fraction of the queries: divide the {bound.n_best:,} "
               f"queries a NoPE model can get right by the {bound.n_queries:,} queries. {shown}")
        expect(not like(1), "A 1-layer NoPE decoder answers all queries with the same digit multiset alike: in each "
               f"class only the largest group that shares one sum can be right, not the whole class. {shown}")
        expect(not like(nope_max_exact_match_bound(m, "padded").exact), f"The operands have exactly m digits (leading "
               f"digit 1-9; for m = 1 the digits 0-9), not every number below 10^m zero-padded. {shown}")
        small = m <= 2                  # these mistakes already show at m = 2, where counting them again is cheap
        expect(not (small and like(_best(m, key="operands"))), "The model sees one multiset of all the query's "
               f"digits, a's and b's mixed: $12+34= and $21+43= are one class. {shown}")
        expect(not (small and like(_best(m, ordered=False))), "Count ordered pairs: $12+34= and $34+12= are two "
               f"queries. {shown}")
        expect(not (small and like(_best(m, per_class=True))), "Average over queries, not over classes: add up each "
               f"class's largest same-sum group and divide by the number of queries. {shown}")
        expect(False, f"{shown}. Group the queries by their sorted digits; in each group count the queries per sum "
                      "and keep the largest count.")
    return len(ms)


__all__ = ["library_position_loss", "check_position_loss", "check_nope_bound"]

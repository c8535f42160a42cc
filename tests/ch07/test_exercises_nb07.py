"""Notebook 07's coding exercises, checked three ways: the solution passes, the stub is not attempted, and
planted mistakes fail with the message that names them."""
from __future__ import annotations

from collections import Counter
from fractions import Fraction

import numpy as np

from lengen_utils.analysis import theory
from lengen_utils.course.ch07_theory import exercises as nb07, solutions
from lengen_utils.course.common.exercises import NOT_ATTEMPTED, PASSED, failure, stub


def loss_variant(*, wrap=True, sides=2, cross=-2.0, square_v=True, reduce="sum", transpose=False):
    """The solution with one planted mistake."""
    def fn(A, v, theta, alpha, beta):
        n = len(A)
        B = alpha * np.eye(n)
        for i in range(n):
            for j in ((i - 1, i + 1) if sides == 2 else (i + 1,)):
                if wrap or 0 <= j < n:
                    B[i, j % n] += beta
        A = A.T if transpose else A
        vv = v @ v if square_v else np.sqrt(v @ v)
        q = A**2 * vv + cross * A * B * (v @ theta) + B**2
        return q.sum(1) if reduce == "sum" else q.mean(1)
    return fn


def test_position_loss():
    check = nb07.check_position_loss
    assert check(solutions.position_loss, quiet=True).status == PASSED
    assert check(loss_variant(), quiet=True).status == PASSED
    assert check(stub, quiet=True).status == NOT_ATTEMPTED
    assert "The ring wraps around" in failure(check, loss_variant(wrap=False))
    assert "The target y_i reads both ring neighbours" in failure(check, loss_variant(sides=1))
    assert "The cross term −2 A_ir B_ir ⟨v, θ⟩ is missing" in failure(check, loss_variant(cross=0.0))
    assert "The cross term has a minus sign" in failure(check, loss_variant(cross=2.0))
    assert "Square the norm of v" in failure(check, loss_variant(square_v=False))
    assert "not their mean" in failure(check, loss_variant(reduce="mean"))
    assert "reads row i of A; you used column i" in failure(check, loss_variant(transpose=True))
    assert "an array of shape (5,)" in failure(check, lambda A, v, t, a, b: 1.32)
    assert "Hint: ŷ_i − y_i" in failure(check, lambda A, v, t, a, b: solutions.position_loss(A, v, t, a, b) + 0.1)


def test_the_unseen_rows_give_the_variance_of_the_target():
    A = np.zeros((5, 5))
    v = theta = np.array([1.0, 0.0])
    assert np.allclose(solutions.position_loss(A, v, theta, 1.0, 0.4), theory.expected_unseen_loss_ape(1.0, 0.4))


def bound_variant(m, *, lo=None, key="query", ordered=True, per_class=False, best=True):
    lo = (10 ** (m - 1) if m > 1 else 0) if lo is None else lo
    groups = {}
    for a in range(lo, 10**m):
        for b in range(lo if ordered else a, 10**m):
            sa, sb = f"{a:0{m}d}", f"{b:0{m}d}"          # zero-padded as in the query
            k = "".join(sorted(sa + sb)) if key == "query" else (tuple(sorted(sa)), tuple(sorted(sb)))
            groups.setdefault(k, Counter())[a + b] += 1
    sizes = [(max(c.values()) if best else sum(c.values()), sum(c.values())) for c in groups.values()]
    if per_class:
        return sum(Fraction(x, n) for x, n in sizes) / len(sizes)
    return Fraction(sum(x for x, _ in sizes), sum(n for _, n in sizes))


def test_nope_bound():
    check = nb07.check_nope_bound
    assert check(solutions.nope_best_em, quiet=True).status == PASSED
    assert check(lambda m: float(solutions.nope_best_em(m)), quiet=True).status == PASSED
    assert check(stub, quiet=True).status == NOT_ATTEMPTED
    assert "not every number below 10^m zero-padded" in failure(check, lambda m: bound_variant(m, lo=0))
    assert "only the largest group that shares one sum" in failure(check, lambda m: bound_variant(m, best=False))
    assert "a's and b's mixed" in failure(check, lambda m: bound_variant(m, key="operands"))
    assert "Count ordered pairs" in failure(check, lambda m: bound_variant(m, ordered=False))
    assert "Average over queries, not over classes" in failure(check, lambda m: bound_variant(m, per_class=True))
    wrong_at_3 = lambda m: solutions.nope_best_em(m) if m < 3 else Fraction(1, 16)
    assert failure(check, wrong_at_3).startswith("For m = 3 the best exact match is")
    assert "divide the 2,668 queries" in failure(check, lambda m: theory.nope_max_exact_match_bound(m).n_best)
    assert "Return the exact match as a number" in failure(check, lambda m: "32.9%")
    assert "For m = 2 the best exact match is 667/2025" in failure(check, lambda m: Fraction(1, 3))

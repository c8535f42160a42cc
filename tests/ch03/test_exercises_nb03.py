"""Notebook 03's coding exercises, checked three ways: the solution passes, the stub is not attempted, and
planted mistakes fail with the message that names them."""
from __future__ import annotations

import statistics

import numpy as np

from lengen_utils.course.ch03_rpe import exercises as nb03, solutions
from lengen_utils.course.common.exercises import NOT_ATTEMPTED, PASSED, failure


def stub(*args, **kwargs):
    raise NotImplementedError


def test_the_library_reference_is_key_minus_query_clipped():
    assert nb03.library_distances([2], [0, 1, 2, 3, 9], 2).tolist() == [[-2, -1, 0, 1, 2]]


def raw(q, k):
    return np.array(k)[None, :] - np.array(q)[:, None]


def test_clipped_distances():
    check = nb03.check_clipped_distances
    assert check(solutions.clipped_distances, quiet=True).status == PASSED
    assert check(stub, quiet=True).status == NOT_ATTEMPTED
    assert "not clipped" in failure(check, lambda q, k, K: raw(q, k))
    assert "sign is reversed" in failure(check, lambda q, k, K: np.clip(-raw(q, k), -K, K))
    assert "clipped off by one" in failure(check, lambda q, k, K: np.clip(raw(q, k), -K + 1, K - 1))
    assert "clipped off by one" in failure(check, lambda q, k, K: np.clip(raw(q, k), -K - 1, K + 1))
    assert "transposed" in failure(check, lambda q, k, K: np.clip(raw(q, k), -K, K).T)
    assert "Clip both ends" in failure(check, lambda q, k, K: np.minimum(raw(q, k), K))
    assert "a matrix of numbers" in failure(check, lambda q, k, K: "matrix")


def median_of(curves, n):
    return statistics.median(c[n] for c in curves.values())


def make(rule):
    """A generalizable length that walks the sorted common lengths with a planted per-length test."""
    def fn(curves, threshold=0.95):
        best = 0
        for n in sorted(next(iter(curves.values()))):
            if not rule(curves, n, threshold):
                break
            best = n
        return best
    return fn


def test_generalizable_length():
    check = nb03.check_generalizable_length
    assert check(solutions.generalizable_length, quiet=True).status == PASSED
    assert check(stub, quiet=True).status == NOT_ATTEMPTED
    mean = make(lambda c, n, t: np.mean([x[n] for x in c.values()]) > t)
    assert "not the mean" in failure(check, mean)
    worst = make(lambda c, n, t: min(x[n] for x in c.values()) > t)
    assert "not the worst seed" in failure(check, worst)
    at_least = make(lambda c, n, t: median_of(c, n) >= t)
    assert "exactly 95% fails" in failure(check, at_least)
    low = make(lambda c, n, t: statistics.median_low(x[n] for x in c.values()) > t)
    assert "the mean of the middle two" in failure(check, low)
    fixed = make(lambda c, n, t: median_of(c, n) > 0.95)
    assert "Use the threshold you are given" in failure(check, fixed)

    def no_stop(curves, threshold=0.95):
        return max([n for n in sorted(next(iter(curves.values()))) if median_of(curves, n) > threshold], default=0)
    assert "Stop at the first length that fails" in failure(check, no_stop)

    def first_failure(curves, threshold=0.95):
        lengths = sorted(next(iter(curves.values())))
        return next((n for n in lengths if median_of(curves, n) <= threshold), lengths[-1])
    assert "not the first that failed" in failure(check, first_failure)

    def unsorted(curves, threshold=0.95):
        best = 0
        for n in next(iter(curves.values())):
            if median_of(curves, n) <= threshold:
                break
            best = n
        return best
    assert "increasing order" in failure(check, unsorted)
    assert "an int" in failure(check, lambda c, t=0.95: "10")

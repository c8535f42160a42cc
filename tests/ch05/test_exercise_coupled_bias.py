"""Notebook 05's mechanism exercise: the coupled relative bias, from coupled IDs to the bias added to the scores.
The checker agrees with the library's RelativeScalarBias, passes the solution, reports the stub as not attempted and
names each mistake."""
from __future__ import annotations

import numpy as np
import pytest

from lengen_utils.course.ch05_coupling import exercises, solutions
from lengen_utils.course.common.exercises import FAILED, NOT_ATTEMPTED, PASSED, stub


def test_the_solution_passes_and_the_stub_is_not_attempted():
    assert exercises.check_coupled_bias(solutions.coupled_bias).status == PASSED
    assert exercises.check_coupled_bias(stub).status == NOT_ATTEMPTED


def test_the_library_bias_is_the_clipped_lookup():
    ids, row = [0, 3, 2, 1, 3, 2, 1, 4, 1, 2, 3, 0], [0.1, 0.2, 0.3, 0.4, 0.5]
    want = [[row[max(-2, min(2, j - i)) + 2] for j in ids] for i in ids]
    assert np.allclose(exercises.library_bias(ids, row), want)


def lookup(ids, row, *, sign=1, positions=False, shift=True, clip=True):
    K = (len(row) - 1) // 2
    keys = list(range(len(ids))) if positions else ids
    out = []
    for i, qi in enumerate(keys):
        line = []
        for kj in keys:
            d = sign * (kj - qi)
            d = max(-K, min(K, d)) if clip else d
            line.append(row[d + K] if shift else row[max(0, min(2 * K, d))])
        out.append(line)
    return out


@pytest.mark.parametrize("mistake, words", [
    (dict(positions=True), "positions, not their coupled IDs"),
    (dict(sign=-1), "reversed"),
    (dict(shift=False), "plus K"),
    (dict(clip=False), "clip"),
])
def test_each_mistake_is_named(mistake, words):
    result = exercises.check_coupled_bias(lambda ids, row: lookup(ids, row, **mistake))
    assert result.status == FAILED and words in str(result), str(result)

"""Notebook 03's mechanism exercise: Shaw's relative term inside an attention score. The checker agrees with the
library's RelativeKeys, passes the solution, reports an untouched stub as not attempted, and names each mistake."""
from __future__ import annotations

import numpy as np
import pytest

from lengen_utils.course.ch03_rpe import exercises, solutions
from lengen_utils.course.common.exercises import FAILED, NOT_ATTEMPTED, PASSED, stub


def offsets(table, query_ids, key_ids, sign=1, clip=True):
    K = (len(table) - 1) // 2
    raw = sign * (np.array(key_ids)[None, :] - np.array(query_ids)[:, None])
    return (np.clip(raw, -K, K) if clip else np.minimum(raw, K)) + K


def scores(q, k, table, qi, ki, *, sign=1, clip=True, rel_scale=None, side="q", content=True, scale=None):
    p = np.asarray(table)[offsets(table, qi, ki, sign, clip)]
    d = q.shape[-1]
    rel = np.einsum("id,ijd->ij", q, p) if side == "q" else np.einsum("jd,ijd->ij", k, p)
    c = q @ k.T if content else 0
    return c / (scale or np.sqrt(d)) + rel / (rel_scale or scale or np.sqrt(d))


def test_the_solution_passes_and_the_stub_is_not_attempted():
    assert exercises.check_shaw_scores(solutions.shaw_scores).status == PASSED
    assert exercises.check_shaw_scores(stub).status == NOT_ATTEMPTED


def test_the_library_reference_is_shaws_formula():
    for q, k, table, qi, ki in exercises._score_cases():
        assert np.allclose(exercises.library_scores(q, k, table, qi, ki), scores(q, k, table, qi, ki))


@pytest.mark.parametrize("mistake, words", [
    (dict(sign=-1), "offset is reversed"),
    (dict(content=False), "content term"),
    (dict(rel_scale=1.0), "relative term too"),
    (dict(scale="d"), "not by d"),
    (dict(side="k"), "meets the query"),
    (dict(clip=False), "lip"),
])
def test_each_mistake_is_named(mistake, words):
    def wrong(q, k, table, qi, ki):
        kw = dict(mistake)
        if kw.get("scale") == "d":
            kw["scale"] = q.shape[-1]
        return scores(q, k, table, qi, ki, **kw)
    result = exercises.check_shaw_scores(wrong)
    assert result.status == FAILED and words in str(result), str(result)

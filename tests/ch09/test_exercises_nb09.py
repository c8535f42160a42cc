"""Notebook 09's exercise checker: the solution passes, a stub is "not attempted", each mistake is named."""
from __future__ import annotations

from lengen_utils.course.ch09_nxm import exercises, solutions
from lengen_utils.course.common.exercises import FAILED, NOT_ATTEMPTED, PASSED


def test_the_solution_passes():
    assert exercises.check_fused_rows(solutions.fused_rows).status == PASSED


def test_an_untouched_stub_is_not_attempted():
    def stub(a, b):
        raise NotImplementedError
    assert exercises.check_fused_rows(stub).status == NOT_ATTEMPTED


def _wrong(rows_of):
    result = exercises.check_fused_rows(rows_of)
    assert result.status == FAILED
    return result.message


def test_each_mistake_is_named():
    def msd_first(a, b):
        rows = [0]
        for d in str(b):
            rows.append(rows[-1] // 10 + a * int(d))
        return rows

    def no_row_zero(a, b):
        return solutions.fused_rows(a, b)[1:]

    def full_products(a, b):
        rows = [0]
        for k, d in enumerate(reversed(str(b))):
            rows.append(rows[-1] + a * int(d) * 10 ** k)
        return rows

    def partial_products(a, b):
        return [0] + [a * int(d) for d in reversed(str(b))]

    assert "most significant first" in _wrong(msd_first)
    assert "row 0 is missing" in _wrong(no_row_zero)
    assert "full running products" in _wrong(full_products)
    assert "A * b_k alone" in _wrong(partial_products)
    assert "a list of ints" in _wrong(lambda a, b: str(a * b))
    assert "raised" in _wrong(lambda a, b: 1 / 0)

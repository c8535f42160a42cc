"""Notebook 05's mechanism exercise: the scalable softmax's weight, checked against notebook 05's table."""
from __future__ import annotations

import math

import pytest

from lengen_utils.course.ch05_coupling import exercises, solutions
from lengen_utils.course.ch05_coupling.reach import dilution_rows
from lengen_utils.course.common.exercises import FAILED, NOT_ATTEMPTED, PASSED, stub


def test_the_solution_passes_and_reproduces_the_notebooks_table():
    assert exercises.check_scalable_weight(solutions.scalable_weight).status == PASSED
    assert exercises.check_scalable_weight(stub).status == NOT_ATTEMPTED
    rows = dilution_rows(exercises.TABLE_MARGIN, exercises.TABLE_CONTEXTS, exercises.TABLE_SCALE)
    m = exercises.TABLE_MARGIN / (exercises.TABLE_SCALE * math.log(exercises.TABLE_CONTEXTS[0]))
    for n in exercises.TABLE_CONTEXTS:
        assert math.isclose(solutions.scalable_weight(m, n, exercises.TABLE_SCALE), rows[f"{n:,} keys"]["scalable softmax"])


@pytest.mark.parametrize("wrong, words", [
    (lambda m, n, s: 1 / (1 + n * math.exp(-s * m * math.log(n))), "n - 1 others"),
    (lambda m, n, s: 1 / (1 + (n - 1) * math.exp(-s * m)), "log n"),
    (lambda m, n, s: 1 / (1 + (n - 1) * math.exp(-m * math.log(n))), "Multiply by s"),
    (lambda m, n, s: 1 / (1 + (n - 1) * math.exp(-s * m * math.log10(n))), "natural logarithm"),
    (lambda m, n, s: 1 / (1 + (n - 1) * math.exp(-m)), "plain softmax"),
    (lambda m, n, s: 0.5, "The weight is"),
])
def test_each_mistake_is_named(wrong, words):
    result = exercises.check_scalable_weight(wrong)
    assert result.status == FAILED and words in str(result), str(result)

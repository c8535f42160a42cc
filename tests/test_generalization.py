"""Median and range over seeds, and Cho et al.'s generalizable length (median EM above 95%)."""
from __future__ import annotations

import pytest

from lengen_utils.analysis.generalization import THRESHOLD, generalizable_length, median_and_range

SEEDS = {
    0: {5: 1.0, 10: 1.0, 15: 0.97, 20: 0.40},
    1: {5: 1.0, 10: 0.99, 15: 0.80, 20: 0.10},
    2: {5: 1.0, 10: 1.0, 15: 0.99, 20: 0.96},
}


def test_median_and_range_per_length():
    out = median_and_range(SEEDS)
    assert list(out) == [5, 10, 15, 20]
    assert out[10] == (1.0, 0.99, 1.0)
    assert out[15] == (0.97, 0.80, 0.99)
    assert out[20] == (0.40, 0.10, 0.96)


def test_generalizable_length_is_the_last_length_whose_median_exceeds_the_threshold():
    assert THRESHOLD == 0.95
    assert generalizable_length(SEEDS) == 15            # median 97% at 15, 40% at 20
    assert generalizable_length(SEEDS, threshold=0.98) == 10
    # the run stops at the first failing length, even if a longer one recovers
    assert generalizable_length([{5: 1.0, 10: 0.5, 15: 1.0}]) == 5
    # "exceeds": a median of exactly 95% does not count
    assert generalizable_length([{5: 0.95}]) == 0
    assert generalizable_length([{5: 0.2, 10: 0.1}]) == 0


def test_even_number_of_seeds_uses_the_mean_of_the_middle_two():
    assert median_and_range([{5: 0.9}, {5: 1.0}])[5] == (pytest.approx(0.95), 0.9, 1.0)


def test_manifest_style_string_lengths_and_common_lengths_only():
    out = median_and_range({"a": {"5": 1.0, "10": 0.5, "40": 0.0}, "b": {"10": 0.7, "5": 0.9}})
    assert list(out) == [5, 10]                         # 40 was not tested for every seed
    assert generalizable_length({"a": {"5": 1.0, "10": 1.0}, "b": {"5": 0.96, "10": 0.9}}) == 5


@pytest.mark.parametrize("bad, match", [
    ({}, "empty"),
    ([], "empty"),
    ("abc", "must be"),
    ({0: {}}, "non-empty"),
    ({0: {5: 1.2}}, r"in \[0, 1\]"),
    ({0: {5: float("nan")}}, r"in \[0, 1\]"),
    ({0: {"five": 1.0}}, "not an integer"),
    ({0: {0: 1.0}}, ">= 1"),
    ({0: {5: 1.0}, 1: {10: 1.0}}, "share no tested length"),
])
def test_bad_curves_are_refused(bad, match):
    with pytest.raises(ValueError, match=match):
        median_and_range(bad)


@pytest.mark.parametrize("threshold", [1.0, -0.1, 95, True])
def test_bad_threshold_is_refused(threshold):
    with pytest.raises(ValueError, match="threshold"):
        generalizable_length(SEEDS, threshold)

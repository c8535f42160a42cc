"""Notebook 03's cached RPE encoder trained on <= 5 digits (nb03-rpe-l5 seed 0, frame l = 22), measured with
lengen_utils.analysis.rpe_decline: what the trained model actually does (the measures themselves, on hand-checkable
cases, are tested in tests/test_rpe_diagnostics.py)."""
from __future__ import annotations

import pytest

from lengen_utils.analysis.rpe_decline import (digit_accuracy_by_significance, exact_match_by_cascade,
                                               pad_only_attention_mass, pad_only_positions)


@pytest.fixture(scope="module")
def nb03_rpe():
    from lengen_utils.lab import zoo
    return zoo.load("nb03-rpe-l5-s0")          # committed in assets/: a missing file fails, it is not skipped


def test_nb03_pad_only_positions(nb03_rpe):
    _, task = nb03_rpe
    l, k = task.config.frame_width, task.config.max_digits
    assert pad_only_positions(task) == set(range(l - k)) | set(range(l + 1, 2 * l + 1 - k))


def test_nb03_units_digit_is_the_worst_low_digit_at_20(nb03_rpe):
    model, task = nb03_rpe
    per = digit_accuracy_by_significance(model, task, [5, 20], n=500)
    print({s: round(a, 3) for s, a in per[20].items()})
    assert min(per[5].values()) > 0.99
    assert per[20][0] < min(per[20][s] for s in range(1, 11)) - 0.05     # measured 0.862 against >= 0.93


def test_nb03_sums_without_cascades_fail_as_often_as_the_rest(nb03_rpe):
    """Measured at 20 digits (n = 2000): EM 0.268 on cascade <= 1 (803 sums), 0.256 on the rest (1197)."""
    model, task = nb03_rpe
    split = exact_match_by_cascade(model, task, 20, n=2000, max_cascade=1)
    print(split)
    assert split.exact_match_easy < 0.5                                 # the easy subset is far below 100%
    assert abs(split.exact_match_easy - split.exact_match_hard) < 0.05   # and no better than the rest


def test_nb03_attention_on_pad_only_positions_grows_with_length(nb03_rpe):
    """Measured (n = 100): every supervised query 0.678 at 5 digits, 0.721 at 20; the answer-digit queries 0.368 at
    5 and 0.725 at 20. In distribution the mass is not ~0: the model attends to the pad slots (they hold pad)."""
    model, task = nb03_rpe
    every = pad_only_attention_mass(model, task, [20], n=100)
    digits = pad_only_attention_mass(model, task, [10, 20], n=100, digit_queries_only=True)
    print(every, digits)
    assert every[20] > every[5]
    assert digits[5] > 0.2                                   # not ~0 in distribution
    assert digits[20] > digits[10] > digits[5] + 0.1         # and it grows with the length
    assert digits[20] > digits[5] + 0.25

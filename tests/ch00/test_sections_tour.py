"""Notebook 00's claim checks (lengen_utils.course.ch00_tour.tour) on planted numbers."""
from __future__ import annotations

import pytest

from lengen_utils.course.common.claims import ClaimFailed
from lengen_utils.course.ch00_tour import tour

def test_check_sum_names_the_lowest_wrong_digit():
    tour.check_sum(1234 + 99, 1333)
    with pytest.raises(ClaimFailed, match=r"4-digit sum should be exactly right.*got 2 wrong digit\(s\), the lowest "
                                          r"at significance 1"):
        tour.check_sum(1483, 1333)                                # wrong tens and hundreds digits
    with pytest.raises(ClaimFailed, match=r"got 1 wrong digit\(s\), the lowest at significance 4"):
        tour.check_sum(11333, 1333)                               # an extra final carry
    with pytest.raises(ClaimFailed, match="got no number"):
        tour.check_sum(None, 1333)


def test_check_live_passes_and_names_the_failing_claim():
    good = {("coupled", 10): 1.0, ("coupled", 70): 0.99, ("ape", 10): 0.998, ("ape", 15): 0.0}
    tour.check_live(good, 10, 70, 15)
    with pytest.raises(ClaimFailed, match=r"the ape model should master the trained length, 10 digits.*got 80\.0%"):
        tour.check_live({**good, ("ape", 10): 0.8}, 10, 70, 15)
    with pytest.raises(ClaimFailed, match=r"position coupling should add 70-digit numbers.*got 90\.0%"):
        tour.check_live({**good, ("coupled", 70): 0.9}, 10, 70, 15)
    with pytest.raises(ClaimFailed, match=r"absolute positions should fail at 15 digits.*got 30\.0%"):
        tour.check_live({**good, ("ape", 15): 0.3}, 10, 70, 15)


def test_check_curves():
    coupled = {10: 1.0, 15: 1.0, 70: 0.97, 100: 0.96}
    ape = {10: 0.998, 15: 0.012, 40: 0.0}
    tour.check_curves(coupled, ape, 10)
    with pytest.raises(ClaimFailed, match=r"the recorded ape model should master 10 digits; got 90\.0%"):
        tour.check_curves(coupled, {**ape, 10: 0.9}, 10)
    with pytest.raises(ClaimFailed, match=r"coupled model should keep at least 95% at 100 digits; got 80\.0%"):
        tour.check_curves({**coupled, 100: 0.8}, ape, 10)
    with pytest.raises(ClaimFailed, match=r"APE model should fall to at most 5% at 15 digits; got 20\.0%"):
        tour.check_curves(coupled, {**ape, 15: 0.2}, 10)

"""Notebook 00's prose and claim checks (lengen_utils.course.ch00_tour.tour) on planted numbers."""
from __future__ import annotations

import pytest

from lengen_utils.lab import zoo
from lengen_utils.course.common.claims import ClaimFailed
from lengen_utils.course.ch00_tour import tour

ENTRIES = {"coupled": zoo.entry("flagship-coupled"), "ape": zoo.entry("flagship-ape")}


def test_models_text_reads_entries_and_records():
    records = {"coupled": {"n_parameters": 12345, "train_seconds": 90.0},
               "ape": {"n_parameters": 678, "train_seconds": 600.0}}
    text = tour.models_text(ENTRIES, records)
    e = ENTRIES["ape"]
    assert text.count("\n") == 1 and text.startswith("* **coupled**: 12,345 parameters")
    assert "1.5 CPU minutes" in text and "10.0 CPU minutes" in text and "678 parameters" in text
    assert f"{e.model.n_layers} layer(s)" in text and f"rebuild: `{e.command}`" in text
    assert f"{e.train.steps:,} steps of {e.train.batch_size * e.task.pack} problems" in text


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


def test_curves_text_uses_its_numbers():
    coupled = {5: 1.0, 10: 0.999, 15: 1.0, 70: 0.97, 100: 0.8}
    ape = {5: 1.0, 10: 0.998, 15: 0.012, 40: 0.0}
    text = tour.curves_text(coupled, ape, ENTRIES["coupled"], ENTRIES["ape"], 10)
    assert "(99.9% and 99.8% at 10 digits)" in text and "keeps 97.0% at 7× and 80.0% at 10×" in text
    assert "falls to 1.2% at 15 digits" in text and "operands of up to\n40 digits" in text
    assert f"got {ENTRIES['ape'].model.n_layers} layers and {ENTRIES['ape'].train.steps:,}" in text

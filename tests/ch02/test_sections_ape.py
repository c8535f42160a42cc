"""Notebook 02's prose and claim checks (lengen_utils.course.ch02_ape.ape) on planted numbers."""
from __future__ import annotations

import pytest

from lengen_utils.lab import zoo
from lengen_utils.course.common.claims import ClaimFailed
from lengen_utils.course.ch02_ape import ape

ENTRY = zoo.entry("nb02-ape-l5")
RECORD = {"train_seconds": 150.0, "threads": 2, "metrics": {"eval_n": 500}}


def test_setup_text_reads_entry_and_record():
    text = ape.setup_text(ENTRY, RECORD, 4321)
    assert text.startswith("4,321 parameters") and "trained in 2.5 minutes on 2 CPU thread(s)" in text
    assert "500 problems per length" in text and f"{ENTRY.train.steps:,} steps" in text and ENTRY.command in text


def test_tables_put_ours_next_to_the_paper():
    em = {k: k / 100 for k in range(1, 21)}
    rows = ape.figure2a_rows(em)
    assert rows["ours (2-layer, CPU)"] == {"≤5 digits (k=5)": 0.05, "k=6": 0.06, "k=8": 0.08, "k=10": 0.1, "k=20": 0.2}
    assert rows["Sabbaghi Fig. 2a (6-layer BERT)"]["k=6"] == "drops drastically"
    per10 = {s: 0.9 + s / 100 for s in range(21)}
    t1 = ape.table1_rows(0.99, 0.6, per10)
    assert t1["uniform 10-digit sums"] == {"ours": 0.6, "Sabbaghi Table 1 (%)": "81 ± 1"}
    assert t1["digit 1"]["ours"] == 0.9 and t1["digits 6-11 (mean)"]["ours"] == pytest.approx(0.975)


def test_check_cliff():
    live = {5: 0.992, 6: 0.024, 8: 0.0, 12: 0.0, 20: 0.0}
    ape.check_cliff(live, live, full_test=True)
    ape.check_cliff(live, {**live, 5: 0.9}, full_test=False)        # a smaller test need not match the manifest
    with pytest.raises(ClaimFailed, match=r"near-perfect at the trained length, 5 digits.*got 90\.0%"):
        ape.check_cliff({**live, 5: 0.9}, live, full_test=False)
    with pytest.raises(ClaimFailed, match=r"cliff at 6 digits.*got 50\.0%"):
        ape.check_cliff({**live, 6: 0.5}, live, full_test=False)
    with pytest.raises(ClaimFailed, match=r"nothing beyond.*got 0\.0% at 8, 10\.0% at 12, 0\.0% at 20"):
        ape.check_cliff({**live, 12: 0.1}, live, full_test=False)
    with pytest.raises(ClaimFailed, match=r"reproduce the manifest's.*5 digits: 99\.2% live, 99\.0% in the manifest"):
        ape.check_cliff(live, {**live, 5: 0.99}, full_test=True)


def test_check_shift():
    per20 = {0: 0.4, **{s: 0.6 for s in range(1, 21)}}
    ape.check_shift(0.99, {5: 0.94, 10: 0.64, 20: 0.1}, per20)
    with pytest.raises(ClaimFailed, match=r"near-perfect on shifted problems.*got 80\.0%"):
        ape.check_shift(0.8, {5: 0.94, 10: 0.64, 20: 0.1}, per20)
    with pytest.raises(ClaimFailed, match=r"not give uniform 10-digit sums.*got 90\.0%"):
        ape.check_shift(0.99, {5: 0.94, 10: 0.9, 20: 0.1}, per20)
    with pytest.raises(ClaimFailed, match=r"at least 50 points below its 5-digit accuracy \(94\.0%\).*got 60\.0%"):
        ape.check_shift(0.99, {5: 0.94, 10: 0.64, 20: 0.6}, per20)
    with pytest.raises(ClaimFailed, match=r"units digit should be the weakest.*got 58\.0%"):
        ape.check_shift(0.99, {5: 0.94, 10: 0.64, 20: 0.1}, {**per20, 0: 0.58})


def test_shift_text_uses_its_numbers():
    em = {5: 0.943, 10: 0.644, 20: 0.1}
    per10 = {s: 0.95 + s / 1000 for s in range(21)}
    per20 = {0: 0.3, **{s: 0.5 + s / 100 for s in range(1, 21)}}
    text = ape.shift_text(0.997, em, per10, per20, ENTRY)
    assert "(99.7%: it learned" in text and "down to 10.0% at 20 digits" in text and "is 64.4% (paper" in text
    assert "(94.3%)" in text and "(95.0% to 96.0% each)" in text
    assert "right in 30.0% of the sums, the other digits in 51.0% to 70.0%" in text
    assert f"A {ENTRY.model.n_layers}-layer,\n{ENTRY.model.d_model}-wide" in text


def test_check_cliffs():
    good = {2: {2: 1.0, 4: 0.0, 7: 0.0}, 5: {5: 0.95, 7: 0.05, 10: 0.0}}
    ape.check_cliffs(good)
    with pytest.raises(ClaimFailed, match=r"trained on ≤ 5 digits should master 5 digits.*got 80\.0%"):
        ape.check_cliffs({**good, 5: {5: 0.8, 7: 0.0, 10: 0.0}})
    with pytest.raises(ClaimFailed, match=r"trained on ≤ 2 digits should fail 2 and 5 digits further.*got 40\.0%"):
        ape.check_cliffs({**good, 2: {2: 1.0, 4: 0.4, 7: 0.0}})


def test_summary_uses_its_numbers():
    em = {5: 0.992, 6: 0.024, 7: 0.003, 8: 0.0, 20: 0.0}
    text = ape.summary(em, ENTRY, RECORD, [300, 1000])
    assert "**99.2% at 5 digits, 2.4% at 6, 0.3% at best for 7-20 digits**" in text
    assert "(2.5 minutes\non 2 CPU thread(s))" in text and "500 test problems per length" in text
    assert "300 / 1,000 for the other slider models" in text

"""Notebook 02's tables and claim checks (lengen_utils.course.ch02_ape.ape) on planted numbers."""
from __future__ import annotations

import pytest

from lengen_utils.course.common.claims import ClaimFailed
from lengen_utils.course.ch02_ape import ape

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
    per10 = {0: 0.97, **{s: 0.95 for s in range(1, 21)}}
    per20 = {0: 0.4, **{s: 0.6 for s in range(1, 21)}}
    live = {5: 0.94, 10: 0.64, 20: 0.1}
    ape.check_shift(0.99, live, per10, per20)
    with pytest.raises(ClaimFailed, match=r"near-perfect on shifted problems.*got 80\.0%"):
        ape.check_shift(0.8, {**live, 5: 0.7}, per10, per20)
    with pytest.raises(ClaimFailed, match=r"weaker on unshifted 5-digit sums than on shifted ones.*got 98\.0%"):
        ape.check_shift(0.99, {**live, 5: 0.98}, per10, per20)
    with pytest.raises(ClaimFailed, match=r"not give uniform 10-digit sums \(below the paper's 81%\); got 90\.0%"):
        ape.check_shift(0.99, {**live, 10: 0.9}, per10, per20)
    with pytest.raises(ClaimFailed, match=r"at 10 digits the errors should not concentrate on the units digit.*got 90\.0%"):
        ape.check_shift(0.99, live, {**per10, 0: 0.9}, per20)
    with pytest.raises(ClaimFailed, match=r"at least 50 points below its 5-digit accuracy \(94\.0%\).*got 60\.0%"):
        ape.check_shift(0.99, {**live, 20: 0.6}, per10, per20)
    with pytest.raises(ClaimFailed, match=r"units digit should be the weakest.*got 58\.0%"):
        ape.check_shift(0.99, live, per10, {**per20, 0: 0.58})


def test_check_cliffs():
    good = {2: {2: 1.0, 4: 0.0, 7: 0.0}, 5: {5: 0.95, 7: 0.05, 10: 0.0}}
    ape.check_cliffs(good)
    with pytest.raises(ClaimFailed, match=r"trained on ≤ 5 digits should master 5 digits.*got 80\.0%"):
        ape.check_cliffs({**good, 5: {5: 0.8, 7: 0.0, 10: 0.0}})
    with pytest.raises(ClaimFailed, match=r"trained on ≤ 2 digits should fail 2 and 5 digits further.*got 40\.0%"):
        ape.check_cliffs({**good, 2: {2: 1.0, 4: 0.4, 7: 0.0}})

"""Notebook 03's prose and claim checks (lengen_utils.course.ch03_rpe.rpe) on planted numbers."""
from __future__ import annotations

import pytest

from lengen_utils.lab import zoo
from lengen_utils.course.common.claims import ClaimFailed
from lengen_utils.course.ch03_rpe import rpe

L = 22
ENTRY = zoo.entry("nb03-rpe-l5")


def curve(**points) -> dict[int, float]:
    """A curve over 1..L with planted values (``k10=0.9``), 1.0 elsewhere."""
    return {k: points.get(f"k{k}", 1.0) for k in range(1, L + 1)}


def test_setup_text_reads_entry_and_record():
    record = {"train_seconds": 75.0, "metrics": {"eval_n": 300}}
    text = rpe.setup_text(ENTRY, record, 9876)
    assert text.startswith("9,876 parameters") and f"`encoding='rpe'` (K = {ENTRY.model.rpe_max_distance})" in text
    assert "trained in 75 s, tested on 300 problems per length" in text and ENTRY.command in text


def good_live():
    return {"rpe": curve(k10=0.93, k20=0.5, k22=0.2), "rpe8": curve(k20=0.99, k21=0.97, k22=0.6),
            "rpe_shift": curve(k20=0.98, k21=0.96, k22=0.3), "ape": {5: 1.0, 10: 0.0}}


def test_check_curves_passes_and_names_each_claim():
    live = good_live()
    rpe.check_curves(live, L)
    with pytest.raises(ClaimFailed, match=r"plain RPE trained on ≤ 5 digits.*got 100\.0% and 80\.0%"):
        rpe.check_curves({**live, "rpe": curve(k10=0.8)}, L)
    with pytest.raises(ClaimFailed, match=r"APE, same task and budget.*got 20\.0%"):
        rpe.check_curves({**live, "ape": {5: 1.0, 10: 0.2}}, L)
    with pytest.raises(ClaimFailed, match=r"RPE \+ shift augmentation should hold 95% at 20 digits.*got 90\.0%"):
        rpe.check_curves({**live, "rpe_shift": curve(k20=0.9, k22=0.3)}, L)
    with pytest.raises(ClaimFailed, match=r"trained on ≤ 8 digits should hold 95% at 20 digits.*got 94\.0%"):
        rpe.check_curves({**live, "rpe8": curve(k20=0.94, k22=0.6)}, L)
    with pytest.raises(ClaimFailed, match=r"full frame width \(22 digits\) RPE should drop.*got 96\.0% to 90\.0%"):
        rpe.check_curves({**live, "rpe_shift": curve(k21=0.96, k22=0.9)}, L)


def test_figure2b_rows_put_ours_next_to_the_paper():
    rows = rpe.figure2b_rows({"ours": curve(k10=0.9, k22=0.1)}, L)
    assert rows["ours"] == {"k=5": 1.0, "k=10 (2x)": 0.9, "k=15 (3x)": 1.0, "k=20 (4x)": 1.0, "k=21": 1.0,
                            "k=22 (full frame)": 0.1}
    assert rows["Sabbaghi Fig. 2b (≤ 5, l = 50)"]["k=22 (full frame)"] == "(abrupt fall at k=50)"


def test_curves_text_uses_its_numbers():
    text = rpe.curves_text(curve(k10=0.93, k15=0.8, k20=0.5, k22=0.2), curve(k20=0.98, k21=0.96, k22=0.3),
                           curve(k20=0.99, k22=0.6), L)
    assert "93.0% at 10\n  digits (2x), 80.0% at 15 (3x), but only **50.0% at 20 (4x)**" in text
    assert "target of 95% at 4x" in text and "$l - 1 = 21$ digits: **98.0% at 20 digits (4x)**, 96.0% at 21" in text
    assert "99.0% at 20 digits (2.5x)" in text
    assert "22 digits: plain RPE from 5 digits 20.0%, RPE + shift\n30.0%, plain RPE from 8 digits 60.0%." in text


def test_check_units():
    rpe.check_units({20: 0.99, L: 0.4}, L)
    with pytest.raises(ClaimFailed, match=r"right at 20 digits.*got 90\.0%"):
        rpe.check_units({20: 0.9, L: 0.4}, L)
    with pytest.raises(ClaimFailed, match=r"the units digit should break \(10 points below its 99\.0% at 20\).*got 95\.0%"):
        rpe.check_units({20: 0.99, L: 0.95}, L)


def test_frame_text_uses_its_numbers():
    per8 = {k: {s: 0.99 for s in range(k + 1)} for k in (20, L - 2, L - 1, L)}
    per8[L - 1][3] = 0.97
    per8[L] = {0: 0.3, 1: 0.9, **{s: 0.98 for s in range(2, L + 1)}}
    per = {20: {0: 0.95}, L: {0: 0.2}}
    text = rpe.frame_text(per, per8, curve(k21=0.96, k22=0.25), L)
    assert "least 97.0% of the 20- and 21-digit sums" in text and "at 22 digits" in text
    assert "(30.0%; the tens digit 90.0%, every other digit at least 98.0%)" in text
    assert "96.0% at 21 digits to 25.0%" in text and "(20.0% at\n22 digits, against 95.0% at 20)" in text


def test_check_vectors():
    rpe.check_vectors([[-23, 0, 5], [1, -1, 2]], L)
    rpe.check_vectors([[0, -23], [-1, 1]], L)
    with pytest.raises(ClaimFailed, match=r"layer 1's two largest vectors should be at offsets -\(l\+1\) = -23.*got \[-22, 0\]"):
        rpe.check_vectors([[-22, 0], [1, -1]], L)
    with pytest.raises(ClaimFailed, match=r"layer 2's two largest vectors.*got \[1, 2\]"):
        rpe.check_vectors([[-23, 0], [1, 2]], L)


def test_check_comparison():
    live = {"APE": {5: 1.0, 10: 0.0}, "NoPE": {5: 0.0, 10: 0.0}, "RoPE": {5: 1.0, 10: 0.2},
            "ALiBi": {5: 0.02, 10: 0.0}, "RPE": {5: 1.0, 10: 0.93}}
    rpe.check_comparison(live)
    with pytest.raises(ClaimFailed, match=r"lead every other encoding by 50 points \(the best other is RoPE at 60\.0%\).*got 93\.0%"):
        rpe.check_comparison({**live, "RoPE": {5: 1.0, 10: 0.6}})
    with pytest.raises(ClaimFailed, match=r"ALiBi should not fit even 5-digit sums.*got 50\.0%"):
        rpe.check_comparison({**live, "ALiBi": {5: 0.5, 10: 0.0}})


def test_comparison_shift_and_summary_texts():
    text = rpe.comparison_text({"APE": {5: 1.0, 6: 0.01}, "RoPE": {6: 0.4, 10: 0.05}})
    assert "(100.0% at 5, 1.0% at 6)" in text and "(40.0% at 6 digits, 5.0% at 10)" in text
    assert rpe.shift_text({15: 0.8, 20: 0.5}, {15: 0.99, 20: 0.98}) == \
        "With augmentation, RPE goes from 80.0% to 99.0% at 15 digits and from 50.0% to 98.0% at 20."
    text = rpe.summary(curve(k10=0.93, k15=0.8, k20=0.5), curve(k20=0.98), curve(k20=0.99), 0.31, L, [300, 1000, 300])
    assert "adds 93.0% of 10-digit and 80.0% of 15-digit sums" in text and "reach 95% at 4x: 50.0% at 20" in text
    assert "**98.0% at 20 digits** (4x)" in text and "at 99.0% on 20-digit sums" in text and "breaks (31.0%)" in text
    assert "$\\sigma^{\\mathrm{rel}}_{\\mathrm{training}}$" in text and "300 or 1,000 test problems" in text

"""Notebook 07's measures and claim checks (lengen_utils.course.ch07_theory: cho_theory, sabbaghi_theory; and
common.paper_claims), on planted numbers: each check passes when the claim holds and raises ClaimFailed with its
teaching message when it does not, and returns the claims table's rows."""
from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from lengen_utils.analysis import theory
from lengen_utils.course.common.claims import ClaimFailed
from lengen_utils.course.ch07_theory import cho_theory, sabbaghi_theory
from lengen_utils.course.common.paper_claims import ClaimRow, claims_table
from lengen_utils.analysis.theory import NopeBound

# -- Cho Proposition 5.2: the NoPE bound --------------------------------------------------------------------------

BOUNDS = {m: theory.nope_max_exact_match_bound(m) for m in range(1, 6)}        # m = 5 from the cache


def planted(m: int, n_best: int) -> dict[int, NopeBound]:
    b = BOUNDS[m]
    return {**BOUNDS, m: NopeBound(m, b.operands, b.n_queries, b.n_classes, n_best)}


def test_check_nope_bound_passes_on_the_exact_counts_and_returns_the_rows():
    rows = cho_theory.check_nope_bound(BOUNDS, BOUNDS[2].exact)
    assert [r.paper for r in rows] == ["6.2%", "1%", "0.13%"]
    assert rows[0].ours == "6.19%" and rows[1].ours == "0.945%" and rows[2].ours == "0.124%"


def test_check_nope_bound_names_each_failure():
    with pytest.raises(ClaimFailed, match=r"the fast count should equal brute force over all 8,100 queries at m = 2; "
                                          rf"got {BOUNDS[2].exact} against 1/2"):
        cho_theory.check_nope_bound(BOUNDS, Fraction(1, 2))
    with pytest.raises(ClaimFailed, match=r"at m = 3 should round to the paper's 6\.2%; got 7\.000%"):
        cho_theory.check_nope_bound(planted(3, 56_700), BOUNDS[2].exact)        # 56,700 / 810,000
    with pytest.raises(ClaimFailed, match=r"at m = 4 should round to the paper's 1%; got 2\.000%"):
        cho_theory.check_nope_bound(planted(4, 1_620_000), BOUNDS[2].exact)
    with pytest.raises(ClaimFailed, match=r"at m = 5 should be within 0\.01 points of the paper's 0\.13%; got 0\.100%"):
        cho_theory.check_nope_bound(planted(5, 8_100_000), BOUNDS[2].exact)


def test_check_accounting():
    cho_theory.check_accounting(BOUNDS, padded3=0.0532)
    with pytest.raises(ClaimFailed, match=r"at m = 5 should round to 0\.12%, one unit below the paper's 0\.13%; got 0\.130%"):
        cho_theory.check_accounting(planted(5, 10_530_000), padded3=0.0532)       # 10,530,000 / 8.1e9 = 0.13%
    with pytest.raises(ClaimFailed, match=r"should not give the paper's 6\.2% at m = 3; got 6\.180%"):
        cho_theory.check_accounting(BOUNDS, padded3=0.0618)


# -- Cho Theorem 5.1: the hand-built adder, and Figure 7 -------------------------------------------------------------


def test_check_adder():
    rows = cho_theory.check_adder(1.0, [True] * 30, True, 1000, 32)
    assert rows == [ClaimRow("Thm 5.1: a 1-layer 2-head coupled decoder adds long numbers", "existence (construction)",
                             "EM 1.000 on 1,000 random 100-digit sums (d = 32)",
                             "hand-built weights, teacher-forced; greedy = teacher-forced on 30")]
    with pytest.raises(ClaimFailed, match=r"add all 1,000 random 100-digit sums \(teacher-forced\); got exact match "
                                          r"0\.998\. A wrong weight"):
        cho_theory.check_adder(0.998, [True] * 30, True, 1000, 32)
    with pytest.raises(ClaimFailed, match=r"agree with teacher forcing example by example; got 29 of 30 right, "
                                          r"agreement True"):
        cho_theory.check_adder(1.0, [True] * 29 + [False], True, 1000, 32)
    with pytest.raises(ClaimFailed, match="agreement False"):
        cho_theory.check_adder(1.0, [True] * 30, False, 1000, 32)


def test_check_limit():
    rows = cho_theory.check_limit(125, 1.0, True, 2 ** 7.5 - 2, 32, expected=125)
    assert rows[0].paper == "2^((d-17)/2) - 2 = 179 at d = 32" and rows[0].ours.startswith("125 = 2^((d-18)/2) - 3 (EM 1.00); 126 refused")
    with pytest.raises(ClaimFailed, match=r"the longest operands should have 125 digits; got 124"):
        cho_theory.check_limit(124, 1.0, True, 179.0, 32, expected=125)
    with pytest.raises(ClaimFailed, match=r"the adder should add 125-digit operands exactly; got exact match 0\.950"):
        cho_theory.check_limit(125, 0.95, True, 179.0, 32, expected=125)
    with pytest.raises(ClaimFailed, match=r"a 126-digit operand should be refused with PositionRangeError; got no error"):
        cho_theory.check_limit(125, 1.0, False, 179.0, 32, expected=125)


def test_check_two_heads():
    rows = cho_theory.check_two_heads([0.91, 0.05], [0.2, 0.73])
    assert rows[0].ours == "head 0: 0.91 of attention on ID p-1; head 1: 0.73 on ID p"
    with pytest.raises(ClaimFailed, match=r"digit-sum head and carry head should be different heads; got head 0 for both"):
        cho_theory.check_two_heads([0.91, 0.05], [0.8, 0.73])
    with pytest.raises(ClaimFailed, match=r"more than 80% of its attention on ID p − 1; got 0\.700"):
        cho_theory.check_two_heads([0.7, 0.05], [0.2, 0.73])
    with pytest.raises(ClaimFailed, match=r"the carry head should put more than 60% of its attention on ID p; got 0\.500"):
        cho_theory.check_two_heads([0.91, 0.05], [0.2, 0.5])


# -- Sabbaghi Proposition 5.1 and Appendix E -----------------------------------------------------------------------

ALPHA, BETA = 1.0, 0.4
TARGET = theory.expected_unseen_loss_ape(ALPHA, BETA)            # 1.32
UNSEEN = np.arange(12, 50)


def losses(ape_unseen=TARGET, rpe=1e-4, shift=0.15) -> dict[str, np.ndarray]:
    ape = np.full(51, 3e-4)
    ape[UNSEEN] = ape_unseen
    return {"ape": ape, "rpe": np.full(51, rpe), "ape_shift": np.full(51, shift)}


def test_check_proposition():
    rows = sabbaghi_theory.check_proposition(losses(), UNSEEN, TARGET, 51 / 200, ALPHA, BETA)
    assert rows[0].paper == "1.32 (α=1, β=0.4)" and rows[0].ours == "1.3200"
    assert rows[1].ours == "max 1.0e-04" and rows[2].paper == "Ω(n/d), n/d = 0.26" and rows[2].ours == "mean 0.150"
    with pytest.raises(ClaimFailed, match=r"APE's test loss at unseen positions should be α² \+ 2β² = 1\.3200 "
                                          r"\(Appendix D\.1\); got 1\.2000\. Then the unseen"):
        sabbaghi_theory.check_proposition(losses(ape_unseen=1.2), UNSEEN, TARGET, 0.26, ALPHA, BETA)
    with pytest.raises(ClaimFailed, match=r"RPE's test loss should vanish at every position \(< 1e-2\); got a largest "
                                          r"loss of 5\.0e-02"):
        sabbaghi_theory.check_proposition(losses(rpe=0.05), UNSEEN, TARGET, 0.26, ALPHA, BETA)
    with pytest.raises(ClaimFailed, match=r"APE \+ shift augmentation should stay far above RPE .*got 0\.040 against "
                                          r"RPE's 1\.0e-04\. Then augmentation rescues APE"):
        sabbaghi_theory.check_proposition(losses(shift=0.04), UNSEEN, TARGET, 0.26, ALPHA, BETA)


def test_monte_carlo_gap_and_check():
    exact = np.array([1.0, 1.0, 2.0])
    assert sabbaghi_theory.relative_gap(np.array([1.1, 0.9, 2.0]), exact) == pytest.approx(0.05)   # 0.2/3 / (4/3)
    sabbaghi_theory.check_monte_carlo(np.array([1.1, 0.9, 2.0]), exact)
    with pytest.raises(ClaimFailed, match=r"within 10% of the exact one; got a mean relative gap of 25\.0%"):
        sabbaghi_theory.check_monte_carlo(np.array([2.0, 1.0, 2.0]), exact)


def test_check_rpe_coefficients():
    sabbaghi_theory.check_rpe_coefficients({0: 0.995, 1: 0.404, -1: 0.398, 2: 0.0}, ALPHA, BETA)
    with pytest.raises(ClaimFailed, match=r"RPE's coefficient at offset -1 should be 0\.4; got 0\.3000"):
        sabbaghi_theory.check_rpe_coefficients({0: 1.0, 1: 0.4, -1: 0.3}, ALPHA, BETA)
    with pytest.raises(ClaimFailed, match=r"RPE's coefficient at offset 0 should be 1; got 0\.9500"):
        sabbaghi_theory.check_rpe_coefficients({0: 0.95, 1: 0.4, -1: 0.4}, ALPHA, BETA)


def test_profile_gap_and_check_fixed_map():
    seen = np.array([[0.5, 0.5, 0.0], [1.0, 0.0, 0.0]])
    unseen = np.array([[0.5, 0.3, 0.2], [0.0, 0.0, 1.0]])
    assert list(sabbaghi_theory.profile_gap(seen, unseen)) == pytest.approx([0.2, 1.0])
    rows = sabbaghi_theory.check_fixed_map(np.array([0.1, 0.2, 0.9]), [0.7, 0.85])
    assert "median TV distance between offset profiles at digits 0-4 and 10-19: 0.20; best head 0.85" in rows[0].ours
    with pytest.raises(ClaimFailed, match=r"\(median total-variation distance < 0\.25\); got 0\.300\. Then the model"):
        sabbaghi_theory.check_fixed_map(np.array([0.1, 0.3, 0.9]), [0.85])
    with pytest.raises(ClaimFailed, match=r"some head should put more than 80% of its attention inside σ_rel\(l, 5\); "
                                          r"got at most 0\.750"):
        sabbaghi_theory.check_fixed_map(np.array([0.1, 0.2]), [0.7, 0.75])


# -- the claims table ---------------------------------------------------------------------------------------------


def test_claims_table_escapes_pipes_and_refuses_an_empty_table():
    text = claims_table([ClaimRow("a | b", "0.998", "0.99793", "exact DP")])
    assert text.splitlines() == ["| claim | paper | ours | how computed |", "|---|---|---|---|",
                                 "| a \\| b | 0.998 | 0.99793 | exact DP |"]
    with pytest.raises(ValueError, match="no claim was checked"):
        claims_table([])

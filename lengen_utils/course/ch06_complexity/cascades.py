"""Notebook 06, sections 1, 2 and 5: the cascade length of a sum, its exact distribution, Appendix C.4."""
from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from ..common.claims import claim
from ...analysis.complexity import carry_propagation_levels, cascade_length, digit_sums
from ..common.paper_claims import ClaimRow

#: Sabbaghi et al. Appendix C.4 (paper): P(cascade <= 4) at 50 digits, P(cascade = 4) at 5 digits; for one-digit
#: multiplication P(levels <= 4) at 20 digits and P(levels = 4) at 5 digits.
PAPER_C4 = {"le4_50": 0.998, "p4_5": 8.3e-4, "mul_le4_20": 0.998, "mul_p4_5": 1.9e-3}


def check_levels(pairs: Sequence[tuple[int, int]]) -> None:
    """The cascade length of each sum is the number of levels of the parallel algorithm of Figure 1."""
    for a, b in pairs:
        c, lv = cascade_length(a, b), carry_propagation_levels(digit_sums(a, b))
        claim(c == lv, f"the cascade length of {a} + {b} should equal the levels of the parallel addition",
              f"cascade {c}, levels {lv}", "Then the convention (counting the trigger) is not Figure 1's.")


def monte_carlo_z(exact: np.ndarray, sampled: np.ndarray, n: int, floor: float = 1e-6) -> np.ndarray:
    """|sampled - exact| in binomial standard errors, per level whose exact probability exceeds ``floor``."""
    exact, sampled = np.asarray(exact, dtype=float), np.asarray(sampled, dtype=float)
    keep = exact > floor
    return np.abs(sampled - exact)[keep] / np.sqrt(exact * (1 - exact) / n)[keep]


def check_distribution(exact: Mapping[int, tuple[Sequence, Sequence]], z: Mapping[int, np.ndarray],
                       limit: float = 4.5) -> None:
    """The DP equals brute force (``exact[l] = (dp, brute)``) and Monte Carlo agrees within ``limit`` SEs."""
    for l, (dp, brute) in exact.items():
        claim(list(dp) == list(brute), f"the DP should equal brute force over all pairs of {l}-digit operands",
              f"DP {[str(x) for x in dp]}, brute force {[str(x) for x in brute]}")
    for l, zl in z.items():
        claim(float(zl.max()) < limit, f"Monte Carlo at {l} digits should agree with the DP within {limit} standard "
              "errors at every level", f"max |z| = {float(zl.max()):.2f}")


def check_appendix_c4(dist50: np.ndarray, dist5: Sequence) -> list[ClaimRow]:
    """Appendix C.4 (Figure 13): P(cascade <= 4) at 50 digits and P(cascade = 4) at 5; the table's rows."""
    le4, p4 = float(np.sum(dist50[:5])), float(dist5[4])
    claim(abs(le4 - PAPER_C4["le4_50"]) < 0.002, "cascades of at most 4 should cover about 0.998 of 50-digit sums "
          "(paper)", f"{le4:.5f}")
    claim(abs(p4 - PAPER_C4["p4_5"]) < 0.5e-4, "P(cascade = 4) at 5 digits should be about 8.3e-4 (paper)", f"{p4:.3e}")
    return [ClaimRow("50-digit sums: cascades <= 4 cover", "0.998", f"{le4:.5f}",
                     "exact DP, `cascade_length_distribution(50)`"),
            ClaimRow("5-digit sums: P(cascade = 4)", "≈ 8.3e-4", f"{p4:.3e} (= {dist5[4]})",
                     "exact DP (fractions), checked by brute force at l ≤ 3 and Monte Carlo")]


def standard_error(p: float, n: int) -> float:
    """The binomial standard error of an estimate of ``p`` from ``n`` draws."""
    return float(np.sqrt(p * (1 - p) / n))


def check_sampling_noise(dist5: Sequence, n: int = 100_000) -> None:
    """The paper's 8.3e-4 is within one SE of our exact P(4), and more than five from P(5)."""
    p4, p5 = float(dist5[4]), float(dist5[5])
    se = standard_error(p4, n)
    claim(abs(p4 - PAPER_C4["p4_5"]) < se, f"the paper's 8.3e-4 should be within one standard error ({se:.1e}) of the "
          "exact P(4) at 5 digits", f"{abs(p4 - PAPER_C4['p4_5']) / se:.2f} standard errors away",
          "Then sampling noise does not explain the gap.")
    claim(abs(p5 - PAPER_C4["p4_5"]) > 5 * se, "the other reading of the definition (our P(5)) should be more than five "
          "standard errors from the paper's 8.3e-4", f"{abs(p5 - PAPER_C4['p4_5']) / se:.2f}",
          "Then the convention, not sampling noise, could explain the gap.")


def check_rarity(dist5: Sequence, dist20: Sequence, dist40: Sequence) -> None:
    """5-digit sums rarely show cascades of 4 or 5; 20- and 40-digit sums show them five times as often."""
    p4, p5 = float(dist5[4]), float(dist5[5])
    claim(p4 < 1e-3 and p5 < 1e-4, "5-digit training sums should show a cascade of 4 less than once in 1,000 and one "
          "of 5 less than once in 10,000", f"P(4) = {p4:.2e}, P(5) = {p5:.2e}")
    at_least4 = {l: float(np.sum(np.asarray(d, dtype=float)[4:])) for l, d in ((5, dist5), (20, dist20), (40, dist40))}
    for l in (20, 40):
        claim(at_least4[l] > 5 * at_least4[5], f"{l}-digit test sums should contain a cascade of at least 4 more than "
              "five times as often as 5-digit training sums", f"{at_least4[l]:.2e} against {at_least4[5]:.2e}",
              "Then long test sums show no distribution shift in complexity.")


def check_multiplication(m5: Sequence, brute5: Sequence, m20: np.ndarray) -> list[ClaimRow]:
    """Figure 14: the levels DP equals brute force, and matches the paper's two values; the rows."""
    claim(list(m5) == list(brute5), "the levels DP should equal running the algorithm on all 9 × 10^5 products",
          f"DP {[str(x) for x in m5]}, brute force {[str(x) for x in brute5]}")
    le4, p4 = float(np.sum(m20[:5])), float(m5[4])
    claim(abs(le4 - PAPER_C4["mul_le4_20"]) < 0.001, "levels <= 4 should cover 99.8% of 20-digit multiplicands "
          "(paper)", f"{100 * le4:.2f}%")
    claim(abs(p4 - PAPER_C4["mul_p4_5"]) < 1e-5, "P(levels = 4) at 5 digits should be 1.9e-3 (paper)", f"{p4:.2e}",
          "Check the convention: the product step is not counted as a level.")
    return [ClaimRow("20-digit multiplicand: levels <= 4 cover", "99.8%", f"{100 * le4:.2f}%",
                     "exact DP, `multiplication_levels_distribution(20)`"),
            ClaimRow("5-digit multiplicand: P(levels = 4)", "1.9e-3", f"{p4:.2e}",
                     "exact DP, equal to brute force over all 9×10^5 products")]


def check_convention(m5: Sequence) -> None:
    """Counting the product step as a level would miss the paper's 1.9e-3 more than tenfold."""
    claim(float(m5[3]) > 10 * PAPER_C4["mul_p4_5"], "counting the product step, P(4) at 5 digits (our P(3)) should "
          "miss the paper's 1.9e-3 by more than ten times", f"{float(m5[3]):.2e}",
          "Then the two conventions cannot be told apart by the paper's numbers.")

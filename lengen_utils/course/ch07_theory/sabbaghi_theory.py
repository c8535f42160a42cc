"""Notebook 07, sections 1 and 4: Sabbaghi et al.'s Proposition 5.1 on a ring, and Appendix E's σ_rel."""
from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from ..common.claims import claim
from ..common.paper_claims import ClaimRow


def check_proposition(loss: Mapping[str, np.ndarray], unseen, target: float, n_over_d: float,
                      alpha: float, beta: float) -> list[ClaimRow]:
    """Proposition 5.1: APE's unseen loss is α² + 2β², RPE's vanishes, augmentation stays far above."""
    ape_unseen, rpe_max = float(loss["ape"][unseen].mean()), float(loss["rpe"].max())
    shift, rpe_mean = float(loss["ape_shift"].mean()), float(loss["rpe"].mean())
    claim(abs(ape_unseen - target) < 0.01, f"APE's test loss at unseen positions should be α² + 2β² = {target:.4f} "
          "(Appendix D.1)", f"{ape_unseen:.4f}", "Then the unseen positions' vectors did not decay to 0.")
    claim(rpe_max < 1e-2, "RPE's test loss should vanish at every position (< 1e-2)", f"a largest loss of {rpe_max:.1e}")
    claim(shift > 0.05 and shift > 100 * rpe_mean, "APE + shift augmentation should stay far above RPE (mean loss > "
          "0.05 and > 100 × RPE's)", f"{shift:.3f} against RPE's {rpe_mean:.1e}",
          "Then augmentation rescues APE, against the proposition.")
    how = "exact population loss, GD + weight decay, n=51, n1=10, d=200"
    return [ClaimRow("Prop 5.1: APE test loss at unseen positions → α²+2β²", f"{target:.2f} (α={alpha:g}, β={beta:g})",
                     f"{ape_unseen:.4f}", how),
            ClaimRow("Prop 5.1: RPE test loss → 0 at every position", "0", f"max {rpe_max:.1e}", "same, RPE model"),
            ClaimRow("Prop 5.1: APE + augmentation stays Ω(n/d)", f"Ω(n/d), n/d = {n_over_d:.2f}", f"mean {shift:.3f}",
                     "same, trained on all n shifts of the block")]


def relative_gap(sampled: np.ndarray, exact: np.ndarray) -> float:
    """The mean |sampled - exact| relative to the mean exact value."""
    return float(np.abs(sampled - exact).mean() / exact.mean())


def check_monte_carlo(sampled: np.ndarray, exact: np.ndarray, limit: float = 0.1) -> None:
    """The Monte Carlo test loss (the paper's Figure 9b) lands on the exact one: mean relative gap < ``limit``."""
    gap = relative_gap(sampled, exact)
    claim(gap < limit, f"the Monte Carlo loss at unseen positions should be within {limit:.0%} of the exact one",
          f"a mean relative gap of {gap:.1%}")


def check_rpe_coefficients(coef: Mapping[int, float], alpha: float, beta: float, tol: float = 0.01) -> None:
    """RPE learns α at offset 0 and β at ±1 (⟨v,θ⟩·a_k, within ``tol``), the same at every position."""
    for k, want in ((0, alpha), (1, beta), (-1, beta)):
        claim(abs(coef[k] - want) < tol, f"RPE's coefficient at offset {k} should be {want:g}", f"{coef[k]:.4f}")


def profile_gap(seen: np.ndarray, unseen: np.ndarray) -> np.ndarray:
    """Per head, the total-variation distance between two attention profiles over offsets."""
    return 0.5 * np.abs(np.asarray(seen) - np.asarray(unseen)).sum(-1)


def check_fixed_map(gap: np.ndarray, in_sigma: list[float]) -> list[ClaimRow]:
    """Appendix E: offset profiles at digits 0-4 and 10-19 agree, and a head attends inside σ_rel(l, 5)."""
    med, best = float(np.median(gap)), float(max(in_sigma))
    claim(med < 0.25, "the offset profiles at trained digits (0-4) and far beyond (10-19) should nearly agree "
          "(median total-variation distance < 0.25)", f"{med:.3f}", "Then the model does not reuse one relative map.")
    claim(best > 0.8, "some head should put more than 80% of its attention inside σ_rel(l, 5)", f"at most {best:.3f}")
    return [ClaimRow("App. E: an RPE model reuses one relative map σ_rel at every position", "argument (no number)",
                     f"median TV distance between offset profiles at digits 0-4 and 10-19: {med:.2f}; best head "
                     f"{best:.2f} inside σ_rel(l, 5)",
                     "`attention_by_offset`, zoo model nb06-rpe-uniform-s0, 20-digit sums")]

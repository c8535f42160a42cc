"""Notebook 04, section 5: M3, can the zero-shift augmentation replace UPE? (Sabbaghi Figure 5c/5d), and UPE with
the shift (our departure from the paper). Checked on live medians over seeds."""
from __future__ import annotations

from collections.abc import Mapping

from ..common.claims import claim
from ..notebook import pct

APE, RPE, UPE0, UPE = "APE + shift", "RPE + shift", "UPE, no augmentation", "UPE + shift (ours)"


def check_m3(med: Mapping[str, Mapping[int, float]], in_distribution: Mapping[str, float], trained: int = 5) -> None:
    """Live: every augmented model masters the trained lengths; M3 holds for RPE (below un-augmented UPE at 10
    digits), not for APE at our scale (above UPE at 10 and 15, paying a little at ``trained`` digits), and UPE +
    shift leads at 15 digits."""
    worst = min(in_distribution.values())
    claim(worst >= 0.95, "every augmented model should master 1 to 5 digits (mean EM >= 95%)", pct(worst),
          "A model that fails in distribution says nothing about length.")
    ape, rpe, upe0, ours = med[APE], med[RPE], med[UPE0], med[UPE]
    claim(rpe[10] <= upe0[10] - 0.15, "M3 for RPE: augmented RPE should stay 15 points below un-augmented UPE at 10 "
          "digits", f"{pct(rpe[10])} vs {pct(upe0[10])}", "If not, the augmentation replaces UPE for RPE: update "
          "the text.")
    claim(ape[10] >= upe0[10] + 0.1 and ape[15] >= upe0[15] + 0.2, "at our scale augmented APE should beat "
          "un-augmented UPE (10 points at 10 digits, 20 at 15)", f"{pct(ape[10])} vs {pct(upe0[10])} at 10, "
          f"{pct(ape[15])} vs {pct(upe0[15])} at 15", "If not, M3 now holds for APE too, as in the paper: update "
          "the text.")
    others = min(v[trained] for k, v in med.items() if k != APE)
    claim(ape[trained] < others, f"augmented APE should pay a little in distribution (below the others at {trained} "
          "digits)", f"{pct(ape[trained])} vs at least {pct(others)}")
    claim(ours[15] >= max(ape[15], rpe[15]) + 0.2 and ours[10] >= 0.9, "UPE + shift should lead: >= 90% at 10 "
          "digits and 20 points above both augmented baselines at 15", f"{pct(ours[10])} at 10, {pct(ours[15])} at "
          f"15 (APE {pct(ape[15])}, RPE {pct(rpe[15])})")

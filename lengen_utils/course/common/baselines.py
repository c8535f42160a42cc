"""The labels of notebook 05's baselines leaderboard (tag ``nb05-baselines``, recipes ``ch05_coupling.recipes``),
shared by notebook 05 (``ch05_coupling.baselines``), notebook 08's agenda and the coupling explorer widget."""
from __future__ import annotations

#: ``{recipe: label}`` of the baselines
BASELINE_LABELS = {"nb05-base-ape": "APE", "nb05-base-rsape": "random-start APE", "nb05-base-nope": "NoPE",
                   "nb05-base-rope": "RoPE", "nb05-base-alibi": "ALiBi", "nb05-base-hints": "index hints",
                   "nb05-base-abacus": "Abacus", "nb05-base-fire": "FIRE", "nb05-base-fire-hints": "FIRE + index hints"}
#: the leaderboard's rows: plain coupling, our variant and the baselines
LABELS = {"nb05-plain": "plain coupling (Cho et al.)", "nb05-both": "both (our variant)", **BASELINE_LABELS}

__all__ = ["BASELINE_LABELS", "LABELS"]

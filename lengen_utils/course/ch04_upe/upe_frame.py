"""Notebook 04, section 4: the drop at the full frame width (every training input had a ``pad`` right after ``×``;
the 3-digit multiplier itself is :mod:`.upe_m3`).

Measured numbers come from the zoo manifest or from live evaluations the notebook passes in; the paper's claims
are quoted as the paper's.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping

import numpy as np

from ..common.claims import claim
from ...analysis.complexity import exact_match_per_problem
from ..notebook import pct, render_md
from ...lab.zoo import load
from .upe_m1 import LIVE_SEED



def spill_table(name: str, lengths: Iterable[int], n: int) -> dict[str, dict[str, float | None]]:
    """EM per multiplicand length, split by whether the product fits in the frame (l digits) or reaches the
    positions of ``×`` and the multiplier, which training only ever filled with ``pad``."""
    model, task = load(name)
    l = task.config.frame_width
    rows = {}
    for length in lengths:
        probs = task.eval_problems(length, n, seed=LIVE_SEED)
        ok = exact_match_per_problem(model, task, probs)
        past = np.array([len(str(p.answer)) > l for p in probs])
        rows[f"{name}, {length} digits"] = {
            "all": float(ok.mean()), "share of products past the frame": float(past.mean()),
            "EM, product inside the frame": float(ok[~past].mean()) if (~past).any() else None,
            "EM, product past the frame": float(ok[past].mean()) if past.any() else None}
    return rows


def check_full_frame(below: Mapping[str, float], full: Mapping[str, float],
                     per: Mapping[int, Mapping[int, float]], frame: int) -> None:
    """The drop at the full width: the model holds at l - 1 digits, fails at l, also where the product still fits,
    and at every digit, not only the top."""
    claim(below["all"] >= 0.8, f"the zero-shift UPE model should hold at {frame - 1} digits (>= 80%)",
          pct(below["all"]), "Then there is no drop to show: pick a model that is accurate below the full width.")
    claim(full["all"] <= 0.1, f"at the full frame ({frame} digits) it should fail (<= 10%)", pct(full["all"]),
          "If not, the model no longer relies on the pad after `×`: update the text.")
    claim(full["EM, product inside the frame"] <= 0.1, "it should fail also where the product still fits in the frame",
          pct(full["EM, product inside the frame"]), "Then only the spill is the problem: update the text.")
    top, low = max(per[frame].values()), min(per[frame - 1].values())
    claim(top <= 0.5 <= low, f"every output digit should be right in at least half the problems at {frame - 1} "
          f"digits and in at most half at {frame}", f"worst {pct(low)} at {frame - 1}, best {pct(top)} at {frame}",
          "Then one digit breaks, not the whole answer: update the text.")


def full_frame_text(below: Mapping[str, float], full: Mapping[str, float],
                    per: Mapping[int, Mapping[int, float]], frame: int) -> str:
    return render_md(
        "At {b} digits the model gets {em_b:pct} of the problems right; at {L} digits, the full frame, {em_L:pct}.\n"
        "It is not only the products that reach past the frame: those that still fit ({fit:pct} of the test set) "
        "fail\nas well ({em_fit:pct}). And it is not one digit: at {b} digits every output digit is right in at "
        "least\n{lo_b:pct} of the problems, at {L} digits none in more than {hi_L:pct}. So the full frame itself "
        "breaks the\nmodel, as the paper says of its own Figure 5: every training input had a `pad` right after `×`, "
        "and the model\nrelies on it. We have not traced the mechanism; that the whole answer collapses, not one "
        "digit as for\naddition in notebook 03, suggests the model uses the pad to find where the multiplicand "
        "starts. As in\nnotebook 03, the drop moves with the frame, not with the trained length.",
        b=frame - 1, L=frame, em_b=below["all"], em_L=full["all"], fit=1 - full["share of products past the frame"],
        em_fit=full["EM, product inside the frame"], lo_b=min(per[frame - 1].values()), hi_L=max(per[frame].values()))


__all__ = ["check_full_frame", "full_frame_text", "spill_table"]

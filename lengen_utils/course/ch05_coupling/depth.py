"""Notebook 05, section 6: depth (Cho et al. Figure 4): plain coupling with 1, 2 and 3 layers at the same budget.

Curves and training times come from the zoo manifest (tags ``nb05`` and ``nb05-depth``); the live check takes
exact matches the notebook measures on loaded checkpoints.
"""
from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from ..common.claims import claim
from ...analysis.generalization import generalizable_length, median_and_range
from ..notebook import pct, render_md
from ...lab.zoo import manifest_record
from ..common.seeds import Curves, built_entries, seed_curves

#: layers -> method; the 1-layer runs are section 2's plain coupling
METHODS = {1: "nb05-plain", 2: "nb05-plain-2l", 3: "nb05-plain-3l"}


def layers(n: int) -> str:
    return f"{n} layer{'s' * (n > 1)}"


def curves() -> dict[int, Curves]:
    """``{layers: {seed: {length: EM}}}`` of the built seeds (a depth with none is left out)."""
    return {L: c for L, c in ((L, seed_curves(m)) for L, m in METHODS.items()) if c}


def entries(depth: Mapping[int, Curves]) -> dict[int, list[str]]:
    """``{layers: [entry names of the built seeds]}``."""
    return {L: [built_entries(METHODS[L])[s] for s in depth[L]] for L in depth}


def train_seconds(depth: Mapping[int, Curves]) -> dict[int, list[float]]:
    return {L: [manifest_record(n)["train_seconds"] for n in names] for L, names in entries(depth).items()}


def rows(depth: Mapping[int, Curves], seconds: Mapping[int, list[float]]) -> dict[str, dict[str, str]]:
    """The depth table: "median [min–max]" per tested length, generalizable length, seeds, training times."""
    out = {}
    for L, c in depth.items():
        band = median_and_range(c)
        out[layers(L)] = {**{f"{n} dig": f"{100 * m:.1f} [{100 * lo:.1f}–{100 * hi:.1f}]" for n, (m, lo, hi) in band.items()},
                          "gen. length": str(generalizable_length(c)), "seeds": str(len(c)),
                          "train time": ", ".join(f"{t:.0f} s" for t in seconds[L])}
    return out


def text(depth: Mapping[int, Curves], seconds: Mapping[int, list[float]], trained: int = 10) -> str:
    """Every depth masters the trained lengths; the generalizable lengths, the medians just beyond, the cost."""
    band = {L: median_and_range(c) for L, c in depth.items()}
    gen = {L: generalizable_length(c) for L, c in depth.items()}
    seeds = {L: len(c) for L, c in depth.items()}
    at = lambda n: ", ".join(pct(band[L][n][0]) for L in depth)  # noqa: E731
    return render_md(
        "At the same budget every depth masters the trained lengths (worst seed at {k} digits: {lo10}). The "
        "generalizable length is {gens}. Beyond it the median at 15 digits is {m15} and at 20 digits {m20} "
        "({which}); at 30 digits no depth is above {m30:pct}. Seeds: {seeds}{few}. A step of the {deep}-layer "
        "model costs about {cost:.1f} times a 1-layer step (median training times).",
        k=trained, lo10=", ".join(pct(band[L][trained][1]) for L in depth),
        gens=", ".join(f"**{gen[L]}** with {layers(L)}" for L in depth), m15=at(15), m20=at(20),
        which=", ".join(str(L) for L in depth) + " layers", m30=max(band[L][30][0] for L in depth),
        seeds=", ".join(f"{seeds[L]} for {layers(L)}" for L in depth),
        few=" (fewer than 3: read those medians as indications)" if min(seeds.values()) < 3 else "",
        deep=max(depth), cost=np.median(seconds[max(depth)]) / np.median(seconds[1]))


def check_live(live: Mapping[int, Mapping[int, float]], trained: int = 10, far: int = 30) -> None:
    """Live, seed 0 of each depth: it masters the trained length, and none reaches three times it."""
    for L, em in live.items():
        claim(em[trained] >= 0.95, f"plain coupling with {layers(L)} should master {trained} digits (>= 95%)",
              pct(em[trained]), "A model that fails in distribution says nothing about depth and length.")
        claim(em[far] <= 0.1, f"plain coupling with {layers(L)} should not reach {far} digits (<= 10%) at this "
              "budget", pct(em[far]), "If depth now carries it there, the text's verdict on depth must change.")


def summary(depth: Mapping[int, Curves]) -> str:
    """The summary's bullet on depth."""
    return render_md(
        "* **Depth** (Cho Figure 4), plain coupling at equal budget: generalizable length {gens}; depth is not what "
        "makes\n  coupling generalize at this scale.",
        gens=", ".join(f"{generalizable_length(c)} with {layers(L)}" for L, c in depth.items()))


__all__ = ["METHODS", "layers", "curves", "entries", "train_seconds", "rows", "text", "check_live", "summary"]

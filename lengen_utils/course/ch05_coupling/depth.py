"""Notebook 05b, section 4: depth (Cho et al. Figure 4), plain coupling with 1, 2 and 3 layers at the same budget."""
from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from ..common.claims import claim
from ..common.seeds import Curves, recorded_entries, seed_curves
from ..notebook import pct
from ...analysis.generalization import generalizable_length, median_and_range
from .recipes import DEPTH

#: layers -> method; 1 layer is the depth table's base, section 2's plain coupling
METHODS = {DEPTH.base.model.n_layers: DEPTH.base.id, **DEPTH.along("layers")}


def layers(n: int) -> str:
    """"1 layer", "2 layers", ..."""
    return f"{n} layer{'s' * (n > 1)}"


def curves() -> tuple[dict[int, Curves], dict[int, list[str]]]:
    """``({layers: {seed: {length: EM}}}, {layers: entry names})`` of the built seeds (manifest); none: left out."""
    depth = {L: c for L, c in ((L, seed_curves(m)) for L, m in METHODS.items()) if c}
    return depth, {L: [recorded_entries(METHODS[L])[s] for s in c] for L, c in depth.items()}


def rows(depth: Mapping[int, Curves], seconds: Mapping[int, list[float]]) -> dict[str, dict[str, object]]:
    """The depth table: (median, min, max) per tested length, generalizable length, seeds, training times."""
    return {layers(L): {**{f"{n} dig": v for n, v in median_and_range(c).items()},
                        "gen. length": generalizable_length(c), "seeds": len(c),
                        "train time": ", ".join(f"{t:.0f} s" for t in seconds[L])} for L, c in depth.items()}


def check_curves(depth: Mapping[int, Curves], seconds: Mapping[int, list[float]], trained: int = 10) -> None:
    """Manifest: every depth masters 1–10 and no more, the deepest keeps most at 15, none 30; deeper costs more."""
    band = {L: median_and_range(c) for L, c in depth.items()}
    for L, c in depth.items():
        claim(band[L][trained][1] >= 0.95, f"every seed with {layers(L)} should master {trained} digits (>= 95%)",
              pct(band[L][trained][1]), "A model that fails in distribution says nothing about depth and length.")
        claim(generalizable_length(c) == trained, f"with {layers(L)} the generalizable length should stay at "
              f"{trained}", str(generalizable_length(c)), "If depth now buys length, the verdict on depth must change.")
        claim(band[L][30][0] <= 0.05, f"with {layers(L)} the median at 30 digits should be near zero (<= 5%)",
              pct(band[L][30][0]))
    deep = max(depth)
    claim(band[deep][15][0] > band[1][15][0], f"{layers(deep)} should keep more than 1 layer at 15 digits (median)",
          f"{pct(band[deep][15][0])} against {pct(band[1][15][0])}")
    sec = {L: np.median(seconds[L]) for L in (1, deep)}
    claim(sec[deep] > sec[1], f"a {deep}-layer step should cost more than a 1-layer step (median training seconds)",
          f"{sec[deep]:.0f} s against {sec[1]:.0f} s")


def check_live(live: Mapping[int, Mapping[int, float]], trained: int = 10, far: int = 30) -> None:
    """Live, seed 0 of each depth: it masters the trained length, and none reaches three times it."""
    for L, em in live.items():
        claim(em[trained] >= 0.95, f"plain coupling with {layers(L)} should master {trained} digits (>= 95%)",
              pct(em[trained]), "A model that fails in distribution says nothing about depth and length.")
        claim(em[far] <= 0.1, f"plain coupling with {layers(L)} should not reach {far} digits (<= 10%) at this "
              "budget", pct(em[far]), "If depth now carries it there, the text's verdict on depth must change.")

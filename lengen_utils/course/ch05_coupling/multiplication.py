"""Notebook 05, section 7: N x 2 multiplication (Cho et al. Section 6.1), the paper's recipe at our scale and ours
(manifest leaderboards ``nb05-mul-cho``, ``nb05-mul-long``, ``nb05-mul``; live evaluations)."""
from __future__ import annotations

import numpy as np

from ..common.claims import claim
from ...lab.leaderboard import leaderboard
from ..notebook import pct
from ..common.seeds import of_recipe

CHO_TAGS = ("nb05-mul-cho", "nb05-mul-long")
OURS_TAG = "nb05-mul"
OURS = {1: "nb05-mulu-1l", 2: "nb05-mulu-2l"}
LABELS = {"nb05-mul-1l": "plain coupling, 1 layer", "nb05-mul-2l": "plain coupling, 2 layers",
          "nb05-mul-1l-long": "plain coupling, 1 layer, 3x steps", "nb05-mul-2l-long": "plain coupling, 2 layers, 3x steps",
          OURS[1]: "our recipe, 1 layer", OURS[2]: "our recipe, 2 layers"}


def cho_boards() -> dict:
    """The paper's recipe at our scale, both budgets, as one leaderboard (methods from both tags)."""
    boards = [leaderboard(tag) for tag in CHO_TAGS]
    return {"methods": {m: v for b in boards for m, v in b["methods"].items()},
            "missing": [n for b in boards for n in b["missing"]]}


def ours_board() -> dict:
    return leaderboard(OURS_TAG)


def check_cho_recipe(live: dict[str, dict[str, float]]) -> None:
    """Live, seed 0 of each plain-coupling run: none masters 5 or 10 digits, the middle product digits stay near
    chance, the units digit is learned."""
    for label, r in live.items():
        claim(r["EM 5"] <= 0.05 and r["EM 10"] <= 0.05, f"{label} should not master the trained lengths at our scale",
              f"{pct(r['EM 5'])} at 5 digits, {pct(r['EM 10'])} at 10",
              "If it does now, plain coupling works at this budget: update the text.")
        claim(r["digits 1–9 (mean)"] <= 0.3, f"{label}: the middle product digits should stay near chance (1 in 10)",
              pct(r["digits 1–9 (mean)"]))
    best_units = max(r["units digit"] for r in live.values())
    claim(best_units >= 0.95, "the units digit a0·b0 mod 10 (coupled with both its inputs) should be learned",
          pct(best_units))


def _median(live: dict[str, dict[int, float]], method: str, length: int) -> float:
    return float(np.median([em[length] for em in of_recipe(live, method)]))


def check_ours(live: dict[str, dict[int, float]], trained: int) -> None:
    """Live, every seed: our 2-layer recipe masters the trained lengths and keeps a median >= 95% at 2x and >= 80%
    at 3x the longest trained multiplicand; the 1-layer model at the same budget fails in distribution."""
    two = {n: _median(live, OURS[2], n) for n in (trained, 2 * trained, 3 * trained)}
    claim(two[trained] >= 0.95, f"our 2-layer recipe should master {trained}-digit multiplicands (median >= 95%)",
          pct(two[trained]), "A model that fails in distribution says nothing about length.")
    claim(two[2 * trained] >= 0.95, f"2 layers should keep a median >= 95% at {2 * trained} digits (2x the trained "
          f"length)", pct(two[2 * trained]))
    claim(two[3 * trained] >= 0.8, f"2 layers should keep a median >= 80% at {3 * trained} digits (3x)",
          pct(two[3 * trained]))
    one = _median(live, OURS[1], trained)
    claim(one < 0.95, f"1 layer at the same budget should fail in distribution (median < 95% at {trained} digits), as "
          f"Cho et al. report", pct(one), "If one layer masters N x 2 here, the paper's depth claim does not hold at "
          "our scale: say so.")


def check_ids(example, ids) -> None:
    """Coupled IDs of N x 2: the units digits of the multiplicand, the (padded) multiplier and the product share
    one ID, and so do the tens digits."""
    units = [ids[i] for i in range(len(example.tokens)) if example.significance[i] == 0]
    tens = [ids[i] for i in range(len(example.tokens)) if example.significance[i] == 1]
    claim(len(set(units)) == 1 and len(units) == 3, "the three units digits (multiplicand, multiplier, product) "
          "should share one ID", f"IDs {units}")
    claim(len(set(tens)) == 1 and len(tens) == 3, "the three tens digits should share one ID", f"IDs {tens}")

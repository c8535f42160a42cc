"""Notebook 05b, section 5: N x 2 multiplication (Cho et al. 6.1), the paper's recipe at our scale and ours."""
from __future__ import annotations

from ..common.claims import claim
from ..common.seeds import median_at
from ..notebook import pct
from ...lab.leaderboard import leaderboard
from .coupling import MASTERY
from .recipes import CHO_MUL, MUL

OURS = MUL.along("layers")                  # layers -> our recipe
#: ``{recipe: title}`` of the paper's recipe at our scale (plain coupling) and ours
LABELS = {r.id: r.title for r in CHO_MUL.recipes() + MUL.recipes()}


def cho_boards() -> dict:
    """The paper's recipe at our scale, both budgets (tags ``nb05-mul-cho``, ``nb05-mul-long``), as one leaderboard."""
    boards = [leaderboard(tag) for tag in ("nb05-mul-cho", "nb05-mul-long")]
    return {"methods": {m: v for b in boards for m, v in b["methods"].items()},
            "missing": [n for b in boards for n in b["missing"]]}


def check_ids(example, ids) -> None:
    """Coupled IDs of N x 2: the units digits of multiplicand, multiplier and product share one ID, so do the tens."""
    for s, which in ((0, "units"), (1, "tens")):
        got = [ids[i] for i in range(len(example.tokens)) if example.significance[i] == s]
        claim(len(set(got)) == 1 and len(got) == 3, f"the three {which} digits (multiplicand, multiplier, product) "
              "should share one ID", f"IDs {got}")


def check_cho_recipe(live: dict[str, dict[str, float]]) -> None:
    """Live, seed 0 of each plain-coupling run: no mastery, middle product digits near chance, units digit learned."""
    for label, r in live.items():
        claim(r["EM 5"] <= 0.05 and r["EM 10"] <= 0.05, f"{label} should not master the trained lengths at our scale",
              f"{pct(r['EM 5'])} at 5 digits, {pct(r['EM 10'])} at 10",
              "If it does now, plain coupling works at this budget: update the text.")
        claim(r["digits 1–9 (mean)"] <= 0.3, f"{label}: the middle product digits should stay near chance (1 in 10)",
              pct(r["digits 1–9 (mean)"]))
    best_units = max(r["units digit"] for r in live.values())
    claim(best_units >= 0.95, "the units digit a0·b0 mod 10 (coupled with both its inputs) should be learned",
          pct(best_units))


def check_ours(live: dict[str, dict[int, float]], trained: int) -> None:
    """Live, every seed: 2 layers master 1–10 and keep 95% at 2x, 80% at 3x (medians); 1 layer fails in training."""
    med = {n: median_at(live, OURS[2], n) for n in (trained, 2 * trained, 3 * trained)}
    claim(med[trained] >= 0.95, f"our 2-layer recipe should master {trained}-digit multiplicands (median >= 95%)",
          pct(med[trained]), MASTERY)
    for x, bar in ((2, 0.95), (3, 0.8)):
        claim(med[x * trained] >= bar, f"2 layers should keep a median >= {bar:.0%} at {x * trained} digits ({x}x the "
              "trained length)", pct(med[x * trained]))
    one = median_at(live, OURS[1], trained)
    claim(one < 0.95, f"1 layer at the same budget should fail in distribution (median < 95% at {trained} digits), as "
          "Cho et al. report", pct(one), "If one layer masters N x 2 here, the paper's depth claim fails at our scale.")

"""Notebook 05b, section 3: Cho et al.'s and the survey's baselines, trained to master 1–10 digits."""
from __future__ import annotations

import statistics
from collections.abc import Mapping, Sequence

from ..common.baselines import LABELS
from ..common.claims import claim
from ..notebook import pct
from ...core.constants import EVAL_SEED
from ...lab.zoo import load
from .coupling import BOTH
from .recipes import BASELINES

#: the baselines that tie no digit to its significance: consecutive IDs, no index hints
NO_SIGNIFICANCE = [r.id for r in BASELINES.select(positions="consecutive", format="cho")]
#: FIRE without and with index hints (Zhou et al. 2024), index hints with random-start APE, Abacus IDs (McLeish et al.)
FIRE, FIRE_HINTS = (BASELINES.one(encoding="fire", format=f).id for f in ("cho", "cho_hints"))
HINTS, ABACUS = BASELINES.one(encoding="learned", format="cho_hints").id, BASELINES.one(positions="abacus").id


def built(board: dict) -> dict[str, str]:
    """``{method: label}`` of the methods that are built."""
    return {m: label for m, label in LABELS.items() if m in board["methods"]}


def mastered(board: dict) -> list[str]:
    """The built methods whose median exceeds the threshold at every trained length."""
    return [m for m in built(board) if board["methods"][m]["mastered"]]


def band_groups(board: dict) -> dict[str, dict[str, str]]:
    """The mastered methods in two figures (a palette holds 10 series): without and with digits tied to significance."""
    return {f"{title}: median and range over seeds": {m: LABELS[m] for m in mastered(board)
                                                      if (m in NO_SIGNIFICANCE) == agnostic}
            for title, agnostic in (("No digit tied to its significance", True),
                                    ("Digits tied to their significance (IDs or hints)", False))}


def check(board: dict, live: Mapping[str, Mapping[int, float]],
          unmastered: Mapping[str, Sequence[float]] | None = None) -> None:
    """Cho et al. 4.1, live: mastery as in the manifest; baselines blind to significance fall by 15, ours holds."""
    for m in built(board):
        if board["methods"][m]["mastered"]:
            claim(live[m][10] >= 0.9, f"{LABELS[m]} masters 1–10 digits in the manifest, so it should live too "
                  "(>= 90% at 10 digits)", pct(live[m][10]), "Then the manifest and the checkpoint disagree.")
        elif (seeds := (unmastered or {}).get(m)) is None:
            raise ValueError(f"{m} is not mastered in the manifest: pass the live exact match of each of its seeds at "
                             "10 digits as unmastered[method]")
        else:
            claim(statistics.median(seeds) <= 0.95, f"{LABELS[m]} is not mastered in the manifest, so its live "
                  "median at 10 digits should stay at or below 95%", ", ".join(pct(x) for x in seeds))
    fall = [m for m in NO_SIGNIFICANCE if m in mastered(board)]
    claim(len(fall) >= 3, "at least three baselines that tie no digit to its significance should master 1–10 "
          "digits, to make the comparison", ", ".join(fall) or "none")
    for m in fall:
        claim(live[m][15] <= 0.1, f"{LABELS[m]} ties no digit to its significance, so it should fall to 10% or less "
              "at 15 digits", pct(live[m][15]), "Cho et al.: mastering the trained lengths buys nothing beyond them.")
    claim(live[BOTH.id][15] >= 0.95, "our variant should hold 15 digits (>= 95%)", pct(live[BOTH.id][15]))
    abacus = board["methods"][ABACUS]
    if abacus["mastered"] and abacus["lengths"][15]["median"] < 0.5:
        claim(live[ABACUS][15] < 0.5, "Abacus should stay below 50% at 15 digits live, as in the manifest",
              pct(live[ABACUS][15]))


def fire_facts(board: dict) -> tuple[list[float], int]:
    """The learned thresholds L of FIRE's first seed, and the longest test sequence of the leaderboard (positions)."""
    model, task = load(board["methods"][FIRE]["entries"][0])
    tokens = task.batch(task.eval_problems(max(board["methods"][FIRE]["lengths"]), 1, EVAL_SEED)).tokens.shape[1]
    return [float(p.detach()) for n, p in model.named_parameters() if n.endswith(".threshold")], int(tokens)


def check_fire(board: dict) -> tuple[list[float], int]:
    """FIRE (with hints) masters 1-10 digits, L exceeds every test sequence, hints help short of 95%; the facts."""
    thresholds, longest_tokens = fire_facts(board)
    fire, with_hints, hints = (board["methods"][m] for m in (FIRE, FIRE_HINTS, HINTS))
    for label, m in (("FIRE", fire), ("FIRE with index hints", with_hints)):
        claim(m["mastered"], f"{label} should master 1-10 digits with its budget", pct(m["lengths"][10]["median"]),
              "A baseline that fails in distribution says nothing about length.")
    at15, apes = with_hints["lengths"][15]["median"], hints["lengths"][15]["median"]
    claim(at15 > apes, "FIRE with index hints should keep more at 15 digits than index hints with random-start APE "
          "(median)", f"{pct(at15)} against {pct(apes)}", "Then FIRE adds nothing to the hints here: update the text.")
    claim(at15 < 0.95, "FIRE with index hints should not generalize to 15 digits at our scale (median < 95%)",
          pct(at15), "If it does, Zhou et al.'s recipe works at our scale: say so in the text.")
    claim(min(thresholds) > longest_tokens, f"every learned FIRE threshold should stay above the longest test "
          f"sequence ({longest_tokens} positions)", ", ".join(f"{t:.0f}" for t in thresholds),
          "Then the interpolation does engage at our lengths: update the text.")
    return thresholds, longest_tokens

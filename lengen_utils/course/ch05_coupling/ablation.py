"""Notebook 05, section 3: from plain coupling to our variant, one change at a time at the same budget (plain,
+ relative bias, + packing, both), over three seeds.

The curves come from the zoo manifest (leaderboard tag ``nb05``); the live checks take exact matches the
notebook measures on loaded checkpoints.
"""
from __future__ import annotations

from collections.abc import Mapping

from ..common.claims import claim
from ..notebook import pct, render_md
from ...lab.zoo.catalog_nb05 import ABLATION_RECIPES
from .coupling import Band, errors_per_problem
from ..common.seeds import Curves, seed_curves, seed_per_digit

METHODS = {"plain": "plain coupling (Cho et al.)", "bias": "+ relative bias", "pack": "+ packing",
           "both": "both (our variant)"}
TAG = "nb05"
#: ``{method: {seed: {length: {significance: accuracy}}}}`` (manifest)
PerDigit = Mapping[str, Mapping[int, Mapping[int, Mapping[int, float]]]]


def curves() -> dict[str, Curves]:
    """``{method: {seed: {length: EM}}}`` of the four methods (``plain``, ``bias``, ``pack``, ``both``)."""
    return {m: seed_curves(ABLATION_RECIPES[m]) for m in METHODS}


def per_digit() -> dict[str, dict[int, dict[int, dict[int, float]]]]:
    """Per-digit accuracy of every built seed of the three changed recipes (manifest)."""
    return {m: seed_per_digit(ABLATION_RECIPES[m]) for m in ("bias", "pack", "both")}


def check_board(board: dict, gen: Mapping[str, int]) -> None:
    """The leaderboard is complete and agrees with the generalizable lengths computed in the notebook."""
    claim(not board["missing"], "every entry of the ablation should be built", f"missing {board['missing']}",
          "Build them with `python -m lengen_utils.lab.zoo train --tag nb05`.")
    for m, g in gen.items():
        got = board["methods"][ABLATION_RECIPES[m]]["generalizable_length"]
        claim(got == g, f"the leaderboard should give {METHODS[m]} the generalizable length computed above ({g})",
              str(got))


def check_live(live: Mapping[str, Mapping[int, float]], trained: int = 10, far: int = 30) -> None:
    """Live, seed 0: plain coupling masters the trained length and fails at 3x it; both changes hold at 3x."""
    plain, both = live["plain"], live["both"]
    claim(plain[trained] >= 0.95, f"plain coupling should master {trained}-digit sums (>= 95%)", pct(plain[trained]),
          "A model that fails in distribution says nothing about length.")
    claim(plain[far] <= 0.5, f"plain coupling should fail at {far} digits (<= 50%), 3x its trained length",
          pct(plain[far]), "If it holds now, plain coupling generalizes at this budget: say so in the text.")
    claim(both[far] >= 0.9, f"both changes should hold at {far} digits (>= 90%)", pct(both[far]))


def live_text(live: Mapping[str, Mapping[int, float]], n: int) -> str:
    return render_md(
        "Live, on {n} new problems per length: plain coupling {p10:pct} at 10 digits and {p30:pct} at 30; both "
        "changes {b10:pct} and {b30:pct}.", n=n, p10=live["plain"][10], p30=live["plain"][30],
        b10=live["both"][10], b30=live["both"][30])


def _end_only(em: Mapping[str, Curves], per: PerDigit, length: int = 30) -> tuple[float, float]:
    """``(errors, share)`` of the bias recipe, seed 0, at ``length``: the per-digit errors per problem, and the
    share of problems that get every digit right yet fail exact match (a lower bound: the closing ``$``)."""
    errors = errors_per_problem(per["bias"][0][length])
    return errors, 1 - errors - em["bias"][0][length]


def check_changes(gen: Mapping[str, int], em: Mapping[str, Curves], per: PerDigit, longest: int) -> None:
    """Each change lifts the generalizable length (plain < bias < pack <= both = the longest test), and the bias
    alone fails at 30 digits mostly on the closing ``$``, not on its digits."""
    claim(gen["plain"] < gen["bias"], "the relative bias should lift the generalizable length above plain coupling",
          f"{gen['bias']} against {gen['plain']}")
    claim(gen["bias"] < gen["pack"], "packing should lift the generalizable length above the relative bias",
          f"{gen['pack']} against {gen['bias']}")
    claim(gen["pack"] <= gen["both"] == longest, f"both changes should hold up to the longest test ({longest} "
          "digits), at least as far as packing alone", f"{gen['both']} (packing: {gen['pack']})")
    _, share = _end_only(em, per)
    claim(share > 0.5, "with the bias alone (seed 0, 30 digits), most problems should fail only on the closing `$`, "
          "their digits all right", f"at least {pct(share)}", "Then the digits, not the end, are what fails.")


def changes_text(em: Mapping[str, Curves], band: Mapping[str, Band], gen: Mapping[str, int], per: PerDigit) -> str:
    """What each change does, in the learner's terms, with the numbers of the three seeds."""
    err_b, end_b = _end_only(em, per)
    err_p = errors_per_problem(per["pack"][0][30])
    err_pm = max(errors_per_problem(p[k]) for p in per["pack"].values() for k in (30, 40))
    both1 = per["both"][1][40]
    b40 = [em["bias"][s][40] for s in sorted(em["bias"])]
    return render_md(r'''
* **+ relative bias: from {gp} to {gb} digits.** "Same ID" and "ID − 1" now get the same bonus in the
  attention score at *any* length, because the bias depends only on the difference of the IDs, not on the
  IDs themselves. The median stays at {b20:pct} or more up to 20 digits. Beyond that the seeds disagree
  (40 digits: {b40}), and much of what fails is the *end* of the answer, not its
  digits: at 30 digits seed 0 gets every digit right in at least {ok_b:pct} of the problems (its per-digit
  errors sum to {err_b:.3f} per problem) but only {em_b:pct} exact match, so at least {end_b:pct0} of the
  problems fail on the closing `$` alone.
* **+ packing: from {gp} to at least {gk} digits.** Four problems per training sequence, each with its own
  range of IDs, show the model long sequences full of far-away IDs during training: distractors, as long
  inputs are at test time. The digits become right at every tested length in every seed (per-digit errors
  at most {err_pm:.3f} per problem at 30 and 40 digits); what is left is again the closing `$` (seed 0 at 30
  digits: per-digit errors sum to {err_p:.3f} per problem, yet exact match is {em_p:pct}).
* **Both (our variant): at least {gboth} digits, and the failures move to the last digit.** Median
  {m30:pct} at 30 and {m40:pct} at 40. What remains is the final carry, the answer digit that has no operand
  digit of its own ID: seed 1 gets it right in {c40:pct} of the 40-digit problems, nearly all of its loss
  (exact match {em_c:pct}).
* **Packing alone vs both.** With three seeds they are not separated: `pack` has the median {pk40:pct} at
  40 against {bo40:pct}, `both` the better worst seed at 30 ({bo30lo:pct} against {pk30lo:pct}). Each fix alone
  has its own weak spot. A step without the bias is cheaper (see the train times in the table).
''', gp=gen["plain"], gb=gen["bias"], gk=gen["pack"], gboth=gen["both"],
        b20=min(band["bias"][n][0] for n in (5, 10, 15, 20)), b40=", ".join(pct(x) for x in b40), ok_b=1 - err_b,
        err_b=err_b, em_b=em["bias"][0][30], end_b=end_b, err_pm=err_pm, err_p=err_p, em_p=em["pack"][0][30],
        m30=band["both"][30][0], m40=band["both"][40][0], c40=both1[max(both1)], em_c=em["both"][1][40],
        pk40=band["pack"][40][0], bo40=band["both"][40][0], bo30lo=band["both"][30][1], pk30lo=band["pack"][30][1])


def summary(gen: Mapping[str, int], band: Mapping[str, Band]) -> str:
    """The summary's bullet on the ablation."""
    return render_md(
        "* **Our two changes**, at the same budget: a relative bias over coupled-ID differences raises it to "
        "**{gb}**,\n  packing to **at least {gk}**, both to **at least {gboth}** (median {m40:pct} at 40 digits), "
        "the longest\n  length tested. The remaining errors move from many digits (plain) to the closing `$` (one "
        "change) to the\n  final carry (both).", gb=gen["bias"], gk=gen["pack"], gboth=gen["both"],
        m40=band["both"][40][0])


__all__ = ["METHODS", "TAG", "curves", "per_digit", "check_board", "check_live", "live_text", "check_changes",
           "changes_text", "summary"]

"""Notebook 05, section 3: from plain coupling to our variant, one change at a time at the same budget (plain,
+ relative bias, + packing, both), three seeds each: curves from the manifest (tag ``nb05``), live exact matches."""
from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from ..common.claims import claim
from ..notebook import pct
from .recipes import ABLATION
from .coupling import Band, errors_per_problem
from ..common.seeds import Curves, seed_curves, seed_per_digit

METHODS = {"plain": "plain coupling (Cho et al.)", "bias": "+ relative bias", "pack": "+ packing",
           "both": "both (our variant)"}
TAG = "nb05"
#: ``{method: {seed: {length: {significance: accuracy}}}}`` (manifest)
PerDigit = Mapping[str, Mapping[int, Mapping[int, Mapping[int, float]]]]


def curves() -> dict[str, Curves]:
    """``{method: {seed: {length: EM}}}`` of the four methods."""
    return {m: seed_curves(ABLATION.id(m)) for m in METHODS}


def per_digit() -> dict[str, dict[int, dict[int, dict[int, float]]]]:
    """Per-digit accuracy of every built seed of the three changed recipes (manifest)."""
    return {m: seed_per_digit(ABLATION.id(m)) for m in ("bias", "pack", "both")}


def check_board(board: dict, gen: Mapping[str, int]) -> None:
    """The leaderboard is complete and agrees with the generalizable lengths computed in the notebook."""
    claim(not board["missing"], "every entry of the ablation should be built", f"missing {board['missing']}",
          "Build them with `python -m lengen_utils.lab.zoo train --tag nb05`.")
    for m, g in gen.items():
        got = board["methods"][ABLATION.id(m)]["generalizable_length"]
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


def end_rows(em: Mapping[str, Curves], per: PerDigit, lengths=(30, 40)) -> dict[str, dict[str, object]]:
    """Per seed of the three changed recipes: exact match, wrong answer digits per problem below the final carry,
    and the final carry's accuracy, at each of ``lengths`` (manifest)."""
    return {f"{METHODS[m]}, seed {s}": {k: v for n in lengths for k, v in (
        (f"EM {n}", em[m][s][n]), (f"wrong digits {n}", f"{errors_per_problem(d[n], below=n):.3f}"),
        (f"final carry {n}", d[n][n]))} for m in per for s, d in per[m].items()}


def check_changes(gen: Mapping[str, int], em: Mapping[str, Curves], per: PerDigit, band: Mapping[str, Band],
                  longest: int) -> None:
    """Each change lifts the generalizable length (plain < bias < pack <= both = the longest test); with the bias
    alone most 30-digit problems of seed 0 fail only on the closing ``$``; with packing the digits are right in
    every seed, the end is what fails; with both the final carry is; packing alone and both are not separated
    (each is ahead somewhere), and a step without the bias is cheaper."""
    claim(gen["plain"] < gen["bias"] < gen["pack"], "each change should lift the generalizable length (plain < bias "
          "< pack)", f"{gen['plain']}, {gen['bias']}, {gen['pack']}")
    claim(gen["pack"] <= gen["both"] == longest, f"both changes should hold up to the longest test ({longest} "
          "digits), at least as far as packing alone", f"{gen['both']} (packing: {gen['pack']})")
    bias0 = per["bias"][0][30]
    share = 1 - errors_per_problem(bias0) - em["bias"][0][30]     # digits all right, yet not an exact match
    claim(share > 0.5, "with the bias alone (seed 0, 30 digits), most problems should fail only on the closing `$`, "
          "their digits all right", f"at least {pct(share)}", "Then the digits, not the end, are what fails.")
    for m in ("pack", "both"):
        worst = max(errors_per_problem(d[n], below=n) for d in per[m].values() for n in (30, 40))
        claim(worst <= 0.01, f"with {METHODS[m]} the digits below the final carry should be right in every seed at "
              "30 and 40 digits (<= 0.01 wrong per problem)", f"{worst:.3f}")
    pack0 = per["pack"][0][30]
    claim(em["pack"][0][30] < 0.95 <= pack0[30], "packing, seed 0 at 30 digits: the final carry right, yet exact "
          "match lost (the closing `$`)", f"final carry {pct(pack0[30])}, exact match {pct(em['pack'][0][30])}")
    carry = {s: d[40][40] - em["both"][s][40] for s, d in per["both"].items()}
    claim(max(carry.values()) <= 0.02, "with both, the final carry should account for nearly all of the loss at 40 "
          "digits (within 2 points of exact match)", ", ".join(f"seed {s}: {pct(v)}" for s, v in carry.items()))
    ahead = {m: any(band[m][n][i] > band[o][n][i] for n in (30, 40) for i in (0, 1))
             for m, o in (("pack", "both"), ("both", "pack"))}
    claim(all(ahead.values()), "packing alone and both should not be separated by three seeds (each ahead in a "
          "median or a worst seed at 30 or 40 digits)", f"ahead somewhere: {ahead}")


def check_cost(board: dict) -> None:
    """A step without the bias is cheaper: packing alone trains faster than both (median seconds, manifest)."""
    sec = {m: float(np.median(board["methods"][ABLATION.id(m)]["train_seconds"])) for m in ("pack", "both")}
    claim(sec["pack"] < sec["both"], "packing alone should train faster than both changes (median seconds)",
          f"{sec['pack']:.0f} s against {sec['both']:.0f} s")

"""Notebook 05, sections 1-2, and 05b, section 1: coupled IDs, plain coupling at our budget, the ablation."""
from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from ..common.claims import claim
from ..common.seeds import Curves, seed_curves, seed_per_digit
from ..notebook import pct
from ...core.formats import encode
from ...core.problems import Problem
from ...core.tasks import Task, TaskConfig
from .recipes import ABLATION

#: ``{length: (median, min, max)}`` over seeds (:func:`~lengen_utils.analysis.generalization.median_and_range`)
Band = Mapping[int, tuple[float, float, float]]
#: ``{method: {seed: {length: {significance: accuracy}}}}`` (manifest)
PerDigit = Mapping[str, Mapping[int, Mapping[int, Mapping[int, float]]]]
#: ``{row: title}`` of the ablation (its rows: plain, bias, pack, both), each labelled where it is declared
METHODS = {label: ABLATION.recipe(label).title for label in ABLATION.variants}
#: plain coupling as published (Cho et al.), and our variant: the ablation's two ends, found by its axes
PLAIN, BOTH = ABLATION.one(relative_bias=False, pack=1), ABLATION.one(relative_bias=True, pack=4)
MASTERY = "A model that fails in distribution says nothing about length."


def check_ids(ids: Sequence[int], example) -> None:
    """At the evaluation start ``$`` has ID 0, and ``+`` / ``=`` sit one past the top digit ID (the answer's width)."""
    top = example.answer_width
    claim(ids[0] == 0, "`$` should always get the ID 0 (it is part of no number)", f"ID {ids[0]}")
    claim(max(ids) == top + 1, f"`+` and `=` should get the ID one past the top digit ID ({top} here), i.e. {top + 1}",
          f"a largest ID of {max(ids)}", "Then an operator is coupled with a digit it has nothing to do with.")


def placement(config: TaskConfig) -> dict[str, object]:
    """What ``max_pos`` bounds: the starts a widest training problem may draw, and the longest test operand."""
    task, k = Task(config), config.max_digits
    span = task.scheme.span(encode(Problem(10 ** k - 1, 10 ** k - 1, config.op), config.format))
    return {"max_position": task.scheme.max_position, f"starts of a {k}-digit training problem":
            f"{task.scheme.default_start}–{task.scheme.max_position - span}",
            "longest test operand (digits)": task.longest_operand()}


def check_balanced(share: Mapping[str, Mapping[str, float]], longest: int) -> None:
    """Uniform draws nearly all have the longest length; balanced ones give every length the same share."""
    uniform, balanced = (share[s][f"{longest} dig"] for s in ("uniform", "balanced"))
    claim(uniform > 0.85, f"operands drawn uniformly below 10^{longest} should nearly all have {longest} digits "
          "(more than 85%)", pct(uniform))
    claim(abs(balanced - 1 / longest) < 0.02, f"balanced sampling should give {longest}-digit operands a share of "
          f"1/{longest} (within 2 points)", pct(balanced), "Then some lengths are rarer than others in training.")


def setup(entry, records: Sequence[dict]) -> dict[str, object]:
    """A recipe's model and budget (its zoo entry) and its seeds' training seconds (their manifest records)."""
    m, t, sec = entry.model, entry.train, [r["train_seconds"] for r in records]
    return {"layers": m.n_layers, "heads": m.n_heads, "d_model": m.d_model, "d_ff": m.d_ff, "steps": t.steps,
            "problems per step": t.batch_size, "parameters": records[0]["n_parameters"],
            "train s (one CPU core)": f"{min(sec):.0f}–{max(sec):.0f}",
            "test problems per length": records[0]["metrics"]["eval_n"]}


def errors_per_problem(digits: Mapping[int, float], below: int | None = None) -> float:
    """Expected wrong answer digits per problem (summed per-digit error rates), only significances < ``below``."""
    return sum(1 - a for s, a in digits.items() if below is None or s < below)


def check_plain(band: Band, gen: int, trained: int, spread_at: int = 15) -> None:
    """Plain coupling masters the trained length in every seed, generalizes no further, and its seeds part past it."""
    claim(band[trained][1] >= 0.95, f"every seed of plain coupling should master {trained} digits (>= 95%)",
          pct(band[trained][1]), MASTERY)
    claim(gen == trained, f"plain coupling's generalizable length should be its trained length ({trained})", str(gen),
          "If it generalizes further at this budget, say so in the text.")
    lo, hi = band[spread_at][1:]
    claim(hi - lo >= 0.3, f"the seeds should be far apart at {spread_at} digits (range >= 30 points)",
          f"{pct(lo)} to {pct(hi)}")


def check_spread(per_digit_at: Mapping[int, float], trained: int) -> None:
    """Past the trained length over one answer digit per problem is wrong, a fifth of them among the trained digits."""
    total, low = errors_per_problem(per_digit_at), errors_per_problem(per_digit_at, below=trained)
    claim(total >= 1, "plain coupling should get more than one answer digit per problem wrong here", f"{total:.2f}")
    claim(low >= 0.2 * total, f"at least a fifth of the wrong digits should be among the {trained} lowest",
          f"{low:.2f} of {total:.2f}", "Then the errors sit only in the new digits, not over the whole answer.")


def curves() -> tuple[dict[str, Curves], PerDigit]:
    """The ablation (manifest): ``{method: {seed: {length: EM}}}`` and the changed recipes' per-digit accuracy."""
    return ({m: seed_curves(ABLATION.id(m)) for m in METHODS},
            {m: seed_per_digit(ABLATION.id(m)) for m in ("bias", "pack", "both")})


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
          MASTERY)
    claim(plain[far] <= 0.5, f"plain coupling should fail at {far} digits (<= 50%), 3x its trained length",
          pct(plain[far]), "If it holds now, plain coupling generalizes at this budget: say so in the text.")
    claim(both[far] >= 0.9, f"both changes should hold at {far} digits (>= 90%)", pct(both[far]))


def end_rows(em: Mapping[str, Curves], per: PerDigit, lengths=(30, 40)) -> dict[str, dict[str, object]]:
    """Per seed of the changed recipes: EM, wrong digits below the final carry, and the final carry, at ``lengths``."""
    return {f"{METHODS[m]}, seed {s}": {k: v for n in lengths for k, v in (
        (f"EM {n}", em[m][s][n]), (f"wrong digits {n}", f"{errors_per_problem(d[n], below=n):.3f}"),
        (f"final carry {n}", d[n][n]))} for m in per for s, d in per[m].items()}


def check_changes(gen: Mapping[str, int], em: Mapping[str, Curves], per: PerDigit, band: Mapping[str, Band],
                  longest: int, board: dict) -> None:
    """Each change lifts the generalizable length; what fails moves from the digits to the `$` to the final carry;
    packing alone and both are not separated, and a step without the bias is cheaper (``board``: the leaderboard)."""
    claim(gen["plain"] < gen["bias"] < gen["pack"], "each change should lift the generalizable length (plain < bias "
          "< pack)", f"{gen['plain']}, {gen['bias']}, {gen['pack']}")
    claim(gen["pack"] <= gen["both"] == longest, f"both changes should hold up to the longest test ({longest} "
          "digits), at least as far as packing alone", f"{gen['both']} (packing: {gen['pack']})")
    share = 1 - errors_per_problem(per["bias"][0][30]) - em["bias"][0][30]    # digits all right, yet not exact
    claim(share > 0.5, "with the bias alone (seed 0, 30 digits), most problems should fail only on the closing `$`, "
          "their digits all right", f"at least {pct(share)}", "Then the digits, not the end, are what fails.")
    for m in ("pack", "both"):
        worst = max(errors_per_problem(d[n], below=n) for d in per[m].values() for n in (30, 40))
        claim(worst <= 0.01, f"with {METHODS[m]} the digits below the final carry should be right in every seed at "
              "30 and 40 digits (<= 0.01 wrong per problem)", f"{worst:.3f}")
    carry30, em30 = per["pack"][0][30][30], em["pack"][0][30]
    claim(em30 < 0.95 <= carry30, "packing, seed 0 at 30 digits: the final carry right, yet exact match lost (the "
          "closing `$`)", f"final carry {pct(carry30)}, exact match {pct(em30)}")
    carry = {s: d[40][40] - em["both"][s][40] for s, d in per["both"].items()}
    claim(max(carry.values()) <= 0.02, "with both, the final carry should account for nearly all of the loss at 40 "
          "digits (within 2 points of exact match)", ", ".join(f"seed {s}: {pct(v)}" for s, v in carry.items()))
    ahead = {m: any(band[m][n][i] > band[o][n][i] for n in (30, 40) for i in (0, 1))
             for m, o in (("pack", "both"), ("both", "pack"))}
    claim(all(ahead.values()), "packing alone and both should not be separated by three seeds (each ahead in a "
          "median or a worst seed at 30 or 40 digits)", f"ahead somewhere: {ahead}")
    sec = {m: float(np.median(board["methods"][ABLATION.id(m)]["train_seconds"])) for m in ("pack", "both")}
    claim(sec["pack"] < sec["both"], "packing alone should train faster than both changes (median seconds)",
          f"{sec['pack']:.0f} s against {sec['both']:.0f} s")

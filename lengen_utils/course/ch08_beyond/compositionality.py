"""Notebook 08, section 1: the compositionality gap (thesis Chapter 4).

The thesis splits addition into three sub-tasks: digit-wise alignment, modular digit-wise addition and carries,
and defines the compositionality gap as "the difference between performance on subtasks and the full task".
Here the same decoder learns each sub-task alone (formats ``cho_align``, ``cho_modsum``, ``cho_carries``) and the
full sum, with APE and with coupled IDs (which hand the model the alignment through its position IDs). The gap
at a length is the weakest sub-task's median exact match minus the full task's; a linear probe of the full-task
model's residual stream (:mod:`lengen_utils.analysis.probes`) asks whether the sub-tasks are still computed where the sum
fails.
"""
from __future__ import annotations

from collections.abc import Mapping

from ..common.claims import claim
from ..notebook import pct, render_md
from ...analysis.probes import ProbeReport
from ..common.paper_claims import ClaimRow
from ...lab.zoo.catalog_nb08 import NB08_RECIPES, TRAINED_DIGITS
from . import agenda

SUBTASKS = {"alignment": "align", "digit sum": "modsum", "carries": "carries"}
#: per position scheme, the catalog's method (:data:`~lengen_utils.lab.zoo.catalog_nb08.METHODS`) of the full task and
#: of each sub-task
SCHEMES = {"APE": {"full sum": "direct", **SUBTASKS},
           "coupled IDs": {"full sum": "coupled", "alignment": "coupled-align", "digit sum": "coupled-modsum",
                           "carries": "coupled-carries"}}
#: per position scheme, the full task's recipe and each sub-task's (``"nb08-direct"``, ``"nb08-align"``, ...)
GROUPS = {group: {s: NB08_RECIPES[m] for s, m in methods.items()} for group, methods in SCHEMES.items()}
BROKEN = 0.95            # a curve is broken at the first tested length where its median is not above 95%


def lengths(board: dict) -> list[int]:
    """The tested operand lengths."""
    return sorted(next(iter(board["methods"].values()))["lengths"])


def first_break(board: dict, method: str) -> int | None:
    """The first tested length at which the method's median is not above 95% (``None``: it never breaks)."""
    return next((n for n in lengths(board) if agenda.median(board, method, n) <= BROKEN), None)


def gaps(board: dict, group: str) -> dict[int, dict[str, float | str]]:
    """Per length: the full task's median, the weakest sub-task (name and median) and the gap between them."""
    out = {}
    for n in lengths(board):
        subs = {s: agenda.median(board, m, n) for s, m in GROUPS[group].items() if s != "full sum"}
        weakest = min(subs, key=subs.get)
        full = agenda.median(board, GROUPS[group]["full sum"], n)
        out[n] = {"full sum": full, "weakest": weakest, "weakest sub-task": subs[weakest], "gap": subs[weakest] - full}
    return out


def gap_table(board: dict) -> dict[str, dict[str, str]]:
    """Rows ``{"APE: gap": {"5 dig": "+0.0", ...}, ...}`` in percentage points, for the notebook's table."""
    rows = {}
    for group in GROUPS:
        g = gaps(board, group)
        rows[f"{group}: full sum"] = {f"{n} dig": f"{100 * v['full sum']:.1f}" for n, v in g.items()}
        rows[f"{group}: weakest sub-task"] = {f"{n} dig": f"{100 * v['weakest sub-task']:.1f} ({v['weakest']})"
                                              for n, v in g.items()}
        rows[f"{group}: gap"] = {f"{n} dig": f"{100 * v['gap']:+.1f}" for n, v in g.items()}
    return rows


def check(board: dict, live: agenda.Live) -> list[ClaimRow]:
    """Every model masters 1-5 digits, and with APE the alignment sub-task fails one digit past the trained range
    as the full sum does (live, seed 0: at most 10% each): there the full task breaks where alignment breaks.
    Returns the claims table's row, with the gap per scheme (median over seeds, in points)."""
    agenda.check_mastered(board, live, [m for methods in GROUPS.values() for m in methods.values()])
    ape, n = GROUPS["APE"], TRAINED_DIGITS + 1
    for task in ("full sum", "alignment"):
        got = agenda.em(live, ape[task], n)
        claim(got <= 0.1, f"with APE, the {task} should fail one digit past the trained range (<= 10% at {n} "
              "digits)", pct(got), "The answer's positions there were never trained with this layout.")
    spans = {group: [100 * g["gap"] for g in gaps(board, group).values()] for group in GROUPS}
    ours = "; ".join(f"{group}: gap from {min(v):+.1f} to {max(v):+.1f} points" for group, v in spans.items())
    return [ClaimRow("Compositionality gap: sub-tasks against the full task", "a gap exists (no number; thesis "
                     "Ch. 4, after Press et al.)", ours, "weakest sub-task minus full sum, median over 3 seeds, "
                     "3–15 digits")]


def gap_text(board: dict) -> str:
    """Where each scheme's curves break, which sub-task breaks first, and the largest gap in both directions."""
    parts = []
    for group, methods in GROUPS.items():
        breaks = {task: first_break(board, m) for task, m in methods.items()}
        said = ", ".join(f"{task} at {n if n is not None else 'none of the tested lengths'}" for task, n in breaks.items())
        g = gaps(board, group)
        hi, lo = max(g, key=lambda n: g[n]["gap"]), min(g, key=lambda n: g[n]["gap"])
        span = (render_md("is {gap:+.1f} points at every tested length", gap=100 * g[hi]["gap"])
                if g[hi]["gap"] == g[lo]["gap"] else
                render_md("runs from {lo:+.1f} points at {nlo} digits (full sum {flo:pct}, {wlo} {slo:pct}) to "
                          "{hi:+.1f} at {nhi}", lo=100 * g[lo]["gap"], nlo=lo, flo=g[lo]["full sum"],
                          wlo=g[lo]["weakest"], slo=g[lo]["weakest sub-task"], hi=100 * g[hi]["gap"], nhi=hi))
        parts.append(f"With **{group}**, the median first drops to 95% or below for the {said}. The gap (weakest "
                     f"sub-task minus full sum) {span}.")
    return " ".join(parts)


def probe_peak(report: ProbeReport, target: str, length: int) -> tuple[int, float]:
    """The layer where ``target`` is best decoded at ``length``, and that accuracy."""
    scores = {layer: report.accuracy[(target, layer, length)] for layer in report.layers
              if (target, layer, length) in report.accuracy}
    best = max(scores, key=scores.get)
    return best, scores[best]


PROBE_TARGETS = ("carry", "modsum", "a", "b", "pair")
PROBE_WORDS = {"carry": "carry", "modsum": "digit sum", "pair": "aligned pair"}


def probe_text(reports: Mapping[str, ProbeReport]) -> str:
    """Per model: the carry, the digit sum and the aligned pair, best layer, at the trained length and past it."""
    parts = []
    for label, r in reports.items():
        cells = []
        for target, word in PROBE_WORDS.items():
            at = [probe_peak(r, target, n)[1] for n in r.lengths]
            cells.append(f"the {word} " + ", ".join(f"{pct(a)} at {n}" for a, n in zip(at, r.lengths)))
        parts.append(f"**{label}** (best layer, by operand length): " + "; ".join(cells) + ".")
    return " ".join(parts)


def check_probes(reports: Mapping[str, ProbeReport]) -> list[ClaimRow]:
    """Inside the trained range both full-task models compute the carry and the digit sum where they write each digit
    (best layer >= 95%); one digit past it, the APE model has lost the digit sum (at most twice chance: it no longer
    fetches the aligned digits) while the coupled model keeps it (>= 90%)."""
    for label, r in reports.items():
        for target in ("carry", "modsum"):
            layer, acc = probe_peak(r, target, TRAINED_DIGITS)
            claim(acc >= 0.95, f"in the {label} model, the {PROBE_WORDS[target]} should be linearly decodable at the "
                  f"trained length ({TRAINED_DIGITS} digits, best layer >= 95%)", f"{pct(acc)} (layer {layer})")
    n = TRAINED_DIGITS + 1
    ape, coupled = reports["APE"], reports["coupled IDs"]
    _, lost = probe_peak(ape, "modsum", n)
    chance = ape.chance[("modsum", n)]
    claim(lost <= 2 * chance, f"in the APE model the digit sum should be lost at {n} digits (best layer at most "
          "twice chance)", f"{pct(lost)} (chance {pct(chance)})",
          "Past the trained range the APE model no longer fetches the aligned digits: alignment breaks first.")
    _, kept = probe_peak(coupled, "modsum", n)
    claim(kept >= 0.9, f"in the coupled model the digit sum should survive at {n} digits (>= 90%)", pct(kept),
          "Coupled IDs fetch the aligned digits at any length.")
    _, carry = probe_peak(coupled, "carry", n)
    return [ClaimRow("Probing for sub-task circuits (RQ1): where the full task breaks first",
                     "planned, no result (\"Probing tasks for sub-task neural networks\", TODO)",
                     f"APE: the digit sum {pct(lost)} at {n} digits (chance {pct(chance)}): alignment breaks first; "
                     f"coupled IDs: digit sum {pct(kept)}, carry {pct(carry)}",
                     "linear probes on the residual stream of seed 0, fit on 1–5 digit sums")]


__all__ = ["SUBTASKS", "SCHEMES", "GROUPS", "lengths", "first_break", "gaps", "gap_table", "check", "gap_text",
           "probe_peak", "PROBE_TARGETS", "probe_text", "check_probes"]

"""Notebook 08, section 4: curricula (thesis Chapter 4, "Simple to complex tasks (curriculum)").

Two curricula of :mod:`lengen_utils.core.curriculum` against uniform (balanced) sampling, at an equal number of
problems: **short to long** (lengths capped 1, 2, ..., 5 over the first half of training) and **easy to hard**
by the cascade of carries (caps 0, 1, ..., 5; notebook 06). What might change: the speed of learning (problems
until 5-digit sums are mastered, from the manifest's learning curves) or the reach (exact match past 5 digits).
"""
from __future__ import annotations

from ..common.claims import claim
from ..notebook import pct, render_md
from ...lab.zoo import entry_for
from ...lab.zoo.catalog_nb08 import TRAINED_DIGITS
from . import agenda
from ..common.paper_claims import ClaimRow

METHODS = {"nb08-direct": "uniform (balanced) sampling", "nb08-length-curriculum": "short to long",
           "nb08-length-curriculum-long": "short to long, 2× steps",
           "nb08-cascade-curriculum": "easy to hard (carry cascades)"}


def ramp_problems(method: str) -> int:
    """Problems a curriculum spends on its ramp (0 for uniform sampling)."""
    e = entry_for(method, 0)
    if e.task.curriculum == "none":
        return 0
    return int(e.task.curriculum_fraction * e.train.steps) * e.train.batch_size * e.task.pack


def curriculum_text(board: dict) -> str:
    """Problems until 5-digit sums are mastered, and the reach, per curriculum."""
    cells = []
    for m, label in METHODS.items():
        if m not in board["methods"]:
            continue
        cells.append(render_md("**{label}**: above 95% at {n} digits {when} (the ramp takes {ramp:,}); {n1} digits "
                               "{b1:pct}", label=label, n=TRAINED_DIGITS, when=agenda.mastered_after(m), ramp=ramp_problems(m),
                               n1=TRAINED_DIGITS + 1, b1=agenda.beyond(board, m)))
    return "Median over seeds. " + "; ".join(cells) + "."


def check(board: dict, live: agenda.Live) -> list[ClaimRow]:
    """Uniform sampling masters 1-5 digits; every curriculum that masters them too (the others are not compared on
    length) stays at or below 10% live (seed 0) one digit past the trained range, as uniform sampling does: a
    curriculum orders the problems; it does not give the longer positions any training."""
    compared = [m for m in METHODS if agenda.mastered(board, m)]
    agenda.check_mastered(board, live, ["nb08-direct"])
    n = TRAINED_DIGITS + 1
    for m in compared:
        got = agenda.em(live, m, n)
        claim(got <= 0.1, f"{METHODS[m]} should still fail one digit past the trained range (<= 10%)", pct(got),
              "The curriculum changes the order of the problems, not the positions APE has seen.")
    def seen(m):
        x = agenda.median_problems(m)
        return "never" if x is None else f"{x:,.0f}"
    return [ClaimRow("A curriculum (simple to complex) helps compositional learning", "proposed, no result (thesis "
                     "Ch. 4)", "problems until 95% at 5 digits: " + ", ".join(f"{METHODS[m]} {seen(m)}"
                                                                              for m in METHODS)
                     + f"; {n} digits: all at most 10% (live)", "median over 3 seeds, equal number of problems")]


__all__ = ["METHODS", "ramp_problems", "curriculum_text", "check"]

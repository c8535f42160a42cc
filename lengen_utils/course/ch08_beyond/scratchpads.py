"""Notebook 08, section 3: the scratchpad (thesis Chapter 4: "Scratchpad can improve it to 18 and 20, not 21+";
Lee et al. 2023), with APE and with coupled IDs.

A scratchpad writes, before each answer digit, the step that produces it: the aligned digit pair and the carry
in (format ``cho_scratchpad``). The comparison is at an equal budget in tokens: a scratchpad problem is about
twice as long, so its run sees half the problems per step (``SCRATCH_BATCH``). Sample efficiency is read off
the manifest's learning curves (exact match at 5 digits every 250 steps), against problems and tokens seen.
"""
from __future__ import annotations

from collections.abc import Mapping
from functools import cache

import numpy as np

from ..common.claims import claim
from ..notebook import pct, render_md
from ...core.tasks import Task
from ...lab.zoo import entry_for
from ...lab.zoo.catalog_nb08 import TRAINED_DIGITS
from . import agenda
from ..common.paper_claims import ClaimRow

#: per position scheme: (direct answer, scratchpad) compared on length: each masters 1-5 digits (the coupled
#: scratchpad with 2x steps, the budget it needs)
PAIRS = {"APE": ("nb08-direct", "nb08-scratch"), "coupled IDs": ("nb08-coupled", "nb08-coupled-scratch-long")}
#: the runs at an equal budget in tokens per step and steps (sample efficiency)
EQUAL_TOKENS = ("nb08-direct", "nb08-scratch", "nb08-coupled", "nb08-coupled-scratch")
THESIS = "trained on 1–17 or 1–19 digits, a scratchpad extends the reach to 18 and 20 digits, not 21+"


@cache
def tokens_per_problem(method: str, n: int = 2000, seed: int = 0) -> float:
    """The mean tokens of one training problem of ``method`` (its format, balanced 1-5 digit operands)."""
    task = Task(entry_for(method, 0).task)
    rng = np.random.default_rng(seed)
    return float(np.mean([len(task.example(p)) for p in task.sample_train_problems(rng, n)]))


def budgets(methods) -> dict[str, dict[str, float]]:
    """Per method: problems per step, tokens per problem and tokens per step (the budget in tokens)."""
    out = {}
    for m in methods:
        e = entry_for(m, 0)
        per_step = e.train.batch_size * e.task.pack
        tpp = tokens_per_problem(m)
        out[m] = {"problems per step": per_step, "tokens per problem": tpp, "tokens per step": per_step * tpp,
                  "steps": e.train.steps}
    return out


def curve_bands(methods: Mapping[str, str], per: str = "problems") -> dict[str, dict[float, tuple[float, float, float]]]:
    """``{label: {x: (median, min, max)}}`` of the learning curves over seeds, x in problems or tokens seen."""
    out = {}
    for m, label in methods.items():
        curves = agenda.learning_curves(m)
        scale = tokens_per_problem(m) if per == "tokens" else 1.0
        xs = sorted(next(iter(curves.values())))
        out[label] = {int(round(x * scale)): (float(np.median([c[x] for c in curves.values()])),
                                  min(c[x] for c in curves.values()), max(c[x] for c in curves.values())) for x in xs}
    return out


def scratch_text(board: dict) -> str:
    """What the scratchpad buys with each scheme: problems to master 5 digits, and the reach past them."""
    parts = []
    for group, (direct, scratch) in PAIRS.items():
        if direct not in board["methods"] or scratch not in board["methods"]:
            continue
        parts.append(render_md(
            "With **{group}** the direct answer first exceeds 95% at {n} digits (median over seeds) {pd}, the "
            "scratchpad {ps}. Past the trained range, at {n1} digits: direct {d1:pct}, scratchpad {s1:pct}; at {n2}: "
            "{d2:pct} and {s2:pct}.", group=group, n=TRAINED_DIGITS, pd=agenda.mastered_after(direct), ps=agenda.mastered_after(scratch), n1=TRAINED_DIGITS + 1,
            n2=TRAINED_DIGITS + 2, d1=agenda.beyond(board, direct), s1=agenda.beyond(board, scratch),
            d2=agenda.median(board, direct, TRAINED_DIGITS + 2), s2=agenda.median(board, scratch, TRAINED_DIGITS + 2)))
    eq = "nb08-coupled-scratch"
    if eq in board["methods"]:
        parts.append(render_md("At an equal budget in tokens the coupled scratchpad reaches {a:pct} at {n} digits "
                               "(median): not mastered, so its length is compared with twice the steps.",
                               a=agenda.median(board, eq, TRAINED_DIGITS), n=TRAINED_DIGITS))
    return " ".join(parts)


def check(board: dict, live: agenda.Live) -> list[ClaimRow]:
    """Every model masters 1-5 digits; with APE, a scratchpad does not carry the sum past the trained range (live,
    seed 0: at most 10% one digit past it): writing the steps does not give the steps' tokens trained positions."""
    agenda.check_mastered(board, live, [m for pair in PAIRS.values() for m in pair])
    direct, scratch = PAIRS["APE"]
    n = TRAINED_DIGITS + 1
    for m in (direct, scratch):
        got = agenda.em(live, m, n)
        claim(got <= 0.1, f"{agenda.LABELS[m]} with APE should fail one digit past the trained range (<= 10%)",
              pct(got), "A scratchpad makes the text longer; its new tokens sit at positions APE never trained.")
    cd, cs = PAIRS["coupled IDs"]
    return [ClaimRow("A scratchpad extends the reach (trained 1–17 / 1–19: to 18 and 20, not 21+)",
                     "+1 digit (thesis Ch. 4)",
                     f"{n} digits: APE {pct(agenda.beyond(board, direct))} → scratchpad "
                     f"{pct(agenda.beyond(board, scratch))}; coupled {pct(agenda.beyond(board, cd))} → "
                     f"{pct(agenda.beyond(board, cs))}",
                     "median over 3 seeds, equal tokens per step, trained on 1–5 digits")]


__all__ = ["PAIRS", "EQUAL_TOKENS", "THESIS", "tokens_per_problem", "budgets", "curve_bands", "scratch_text", "check"]

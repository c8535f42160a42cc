"""Notebook 08, section 3: the scratchpad (Lee et al. 2023), APE and coupled IDs, at an equal budget in tokens."""
from __future__ import annotations

from collections.abc import Mapping
from functools import cache

import numpy as np

from ...analysis.generalization import median_and_range
from ...core.tasks import Task
from ...lab.leaderboard import budget
from ...lab.zoo import entry_for
from ..common.claims import claim
from . import agenda
from .recipes import SCRATCH as TAG

SCRATCHPAD = "cho_scratchpad"                   # the format that writes each answer digit after its step
#: per position scheme: (direct answer, scratchpad) compared on length, each mastering 1-5 digits (the coupled
#: scratchpad with 2x steps, the budget it needs)
PAIRS = {"APE": (agenda.DIRECT, agenda.method(positions="consecutive", format=SCRATCHPAD)),
         "coupled IDs": (agenda.method(positions="coupled", format="cho"),
                         agenda.method(positions="coupled", format=SCRATCHPAD, steps=2 * agenda.STEPS))}
EQUAL_TOKENS = tuple(agenda.section(TAG, steps=agenda.STEPS))       # equal tokens and steps (the base's)
#: the coupled scratchpad at an equal budget in tokens (which does not master 1-5 digits)
COUPLED_EQUAL = agenda.method(positions="coupled", format=SCRATCHPAD, steps=agenda.STEPS)


@cache
def tokens_per_problem(method: str, n: int = 2000, seed: int = 0) -> float:
    """The mean tokens of one training problem of ``method`` (its format, balanced 1-5 digit operands)."""
    task = Task(entry_for(method, 0).task)
    return float(np.mean([len(task.example(p)) for p in task.sample_train_problems(np.random.default_rng(seed), n)]))


def budgets(methods) -> dict[str, dict[str, float]]:
    """Per method: problems per step, tokens per problem and tokens per step (the budget in tokens), steps."""
    spent = {m: budget(entry_for(m, 0)) for m in methods}
    return {m: {"problems per step": b["problems_per_step"], "tokens per problem": tokens_per_problem(m),
                "tokens per step": b["problems_per_step"] * tokens_per_problem(m), "steps": b["steps"]}
            for m, b in spent.items()}


def curve_bands(methods: Mapping[str, str], per: str = "problems") -> dict[str, dict[int, tuple[float, float, float]]]:
    """``{label: {x: (median, min, max)}}`` of the learning curves over seeds, x in problems or tokens seen."""
    scale = {m: tokens_per_problem(m) if per == "tokens" else 1.0 for m in methods}
    return {label: {int(round(x * scale[m])): band for x, band in median_and_range(agenda.learning_curves(m)).items()}
            for m, label in methods.items()}


def check(board: dict, live: agenda.Live) -> None:
    """The scratchpad learns slower and reaches no further; at equal tokens the coupled one does not master."""
    agenda.check_mastered(board, live, [m for pair in PAIRS.values() for m in pair])
    for direct, scratch in PAIRS.values():
        slow, fast = agenda.problems_to_master(scratch), agenda.problems_to_master(direct)
        claim(slow is None or (fast is not None and slow > fast), f"{agenda.LABELS[scratch]} should need more "
              f"problems than {agenda.LABELS[direct]} to master 5 digits (median over seeds)",
              f"{agenda.problems(slow)} against {agenda.problems(fast)}", "Then the scratchpad learns faster.")
        reach = {m: board["methods"][m]["generalizable_length"] for m in (direct, scratch)}
        claim(reach[scratch] <= reach[direct], f"{agenda.LABELS[scratch]} should reach no further than "
              f"{agenda.LABELS[direct]} (generalizable length)", f"{reach[scratch]} against {reach[direct]}",
              "Then a scratchpad extends the reach, as the thesis reports.")
    agenda.check_fails(live, {m: f"{agenda.LABELS[m]} with APE" for m in PAIRS["APE"]},
                       "A scratchpad makes the text longer; its new tokens sit at positions APE never trained.")
    claim(not agenda.mastered(board, COUPLED_EQUAL), "at an equal budget in tokens, the coupled scratchpad "
          "should not master 1–5 digits", f"{agenda.median(board, COUPLED_EQUAL, 5):.1%} at 5 digits",
          "Then compare its length at the equal budget, not with twice the steps.")

"""Notebook 08, section 2: random spaces (Shen et al. 2023) beside randomized positions (Ruoss et al. 2023)."""
from __future__ import annotations

import statistics
from collections.abc import Mapping

from ...core.problems import Problem
from ...core.spaces import most_blanks
from ...core.tasks import Task
from ...lab.zoo import entry_for, per_digit
from ..common.claims import claim
from ..notebook import pct
from . import agenda
from .agenda import N1, NB08_SEEDS, TRAINED_DIGITS
from .recipes import SPACES as TAG

#: plain APE, then its rows with blanks in training (``task.spaces``) and with IDs from a random start
METHODS = {m: "APE" if m == agenda.DIRECT else r.title for m, r in agenda.section(TAG).items()}
SPACED = next(m for m, r in agenda.section(TAG).items() if r.task.spaces)    # the model trained with blanks
LOW = 3                  # "near the trained length": the three lowest answer digits (units, tens, hundreds)


def highest_trained_id(method: str) -> int:
    """The largest position ID a training sequence of ``method`` can use (its longest spaced or shifted problem)."""
    task = Task(entry_for(method, 0).task)
    if task.config.random_start:
        return task.config.max_position
    widest = Problem(10**TRAINED_DIGITS - 1, 10**TRAINED_DIGITS - 1, "+")
    return len(task.example(widest)) - 1 + (most_blanks(TRAINED_DIGITS, TRAINED_DIGITS) if task.config.spaces else 0)


def low_digits(per_digit: Mapping[int, float], k: int = LOW) -> float:
    """The mean accuracy of the ``k`` lowest answer digits (significance 0..k-1)."""
    return sum(per_digit[s] for s in range(k)) / k


def median_low_digits(method: str, length: int = N1) -> float:
    """The median over seeds of :func:`low_digits` at ``length`` digits, from the manifest."""
    return statistics.median(low_digits(per_digit(entry_for(method, s).name)[length]) for s in NB08_SEEDS)


def spaces_table(board: dict) -> dict[str, dict]:
    """Per method: its highest trained ID, and one digit past the range its median EM and lowest digits' accuracy."""
    return {label: {"IDs trained up to": highest_trained_id(m), f"{N1} dig": agenda.median(board, m),
                    f"{LOW} lowest digits, {N1} dig": median_low_digits(m)}
            for m, label in METHODS.items() if m in board["methods"]}


def check(board: dict, live: agenda.Live) -> None:
    """All master 1-5 digits and fail one digit past; random spaces lift the lowest answer digits by 20 points."""
    agenda.check_mastered(board, live, list(METHODS))
    agenda.check_fails(live, {m: f"{label}, in exact match," for m, label in METHODS.items()},
                       "Its table rows past the longest training sequence, or the layout of a longer sum, are new.")
    plain, spaced = (low_digits(live[m][N1].per_digit) for m in (agenda.DIRECT, SPACED))
    claim(spaced >= plain + 0.2, f"random spaces should lift the {LOW} lowest answer digits at {N1} digits by at least "
          "20 points over plain APE", f"{pct(spaced)} against {pct(plain)}",
          "The blanks trained the model to find a column's digits at shifted positions.")

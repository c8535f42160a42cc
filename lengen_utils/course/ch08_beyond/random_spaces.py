"""Notebook 08, section 2: random spaces (thesis Section 3.4; Shen et al. 2023) beside randomized positions
(Ruoss et al. 2023; the course's random-start APE).

The thesis: "even without architectural changes, simply adding empty spaces to the input sequence can boost
out-of-distribution accuracy for task lengths near to those encountered during training". Here the base APE
decoder gets a blank in each gap between two operand digits with probability 0.2 in training (never at test):
every later token moves to a later absolute position, so the table's rows past the plain text's end get trained.
Random-start APE does the same on the position side: the IDs start at a random offset.
"""
from __future__ import annotations

import statistics
from collections.abc import Mapping

from ..common.claims import claim
from ..notebook import pct, render_md
from ...core.problems import Problem
from ...core.spaces import most_blanks
from ...core.tasks import Task
from ...lab.zoo import entry_for, per_digit
from ...lab.zoo.catalog_nb08 import NB08_SEEDS, TRAINED_DIGITS
from . import agenda
from ..common.paper_claims import ClaimRow

METHODS = {"nb08-direct": "APE", "nb08-spaces": "APE + random spaces", "nb08-rsape": "random-start APE"}
THESIS = ("random spaces boost out-of-distribution accuracy near the trained lengths (Section 3.4; no number is "
          "given)")


def highest_trained_id(method: str) -> int:
    """The largest position ID a training sequence of ``method`` can use (its longest spaced or shifted problem)."""
    task = Task(entry_for(method, 0).task)
    c = task.config
    if c.random_start:
        return c.max_position
    widest = Problem(10**TRAINED_DIGITS - 1, 10**TRAINED_DIGITS - 1, "+")
    blanks = most_blanks(TRAINED_DIGITS, TRAINED_DIGITS) if c.spaces else 0
    return len(task.example(widest)) - 1 + blanks


LOW = 3                  # "near the trained length": the three lowest answer digits (units, tens, hundreds)


def low_digits(per_digit: Mapping[int, float], k: int = LOW) -> float:
    """The mean accuracy of the ``k`` lowest answer digits (significance 0..k-1)."""
    return sum(per_digit[s] for s in range(k)) / k


def median_low_digits(method: str, length: int = TRAINED_DIGITS + 1) -> float:
    """The median over seeds of :func:`low_digits` at ``length`` digits, from the manifest."""
    return statistics.median(low_digits(per_digit(entry_for(method, s).name)[length]) for s in NB08_SEEDS)


def spaces_text(board: dict) -> str:
    """The medians near the trained length, in exact match and in the lowest answer digits, with the IDs each
    method trains."""
    n1 = TRAINED_DIGITS + 1
    cells = []
    for m, label in METHODS.items():
        if m not in board["methods"]:
            continue
        cells.append(render_md("**{label}** (IDs up to {top} trained): exact match {b1:pct} at {n1} digits, its {k} "
                               "lowest answer digits right {low:pct} of the time", label=label,
                               top=highest_trained_id(m), n1=n1, b1=agenda.beyond(board, m), k=LOW,
                               low=median_low_digits(m)))
    return "Median over seeds. " + "; ".join(cells) + "."


def check(board: dict, live: agenda.Live) -> list[ClaimRow]:
    """Every model masters 1-5 digits; one digit past the trained range plain APE, random spaces and random-start
    APE all fail in exact match (live, seed 0: <= 10%), but random spaces lift the lowest answer digits well above plain APE's
    (by at least 20 points, live): the boost "near the trained lengths" is there, per digit, not per sum."""
    agenda.check_mastered(board, live, list(METHODS))
    n = TRAINED_DIGITS + 1
    for m in ("nb08-direct", "nb08-spaces", "nb08-rsape"):
        got = agenda.em(live, m, n)
        claim(got <= 0.1, f"{METHODS[m]} should fail in exact match one digit past the trained range (<= 10%)",
              pct(got), "Its table rows past the longest training sequence, or the layout of a longer sum, are new.")
    plain, spaced = (low_digits(live[m][n].per_digit) for m in ("nb08-direct", "nb08-spaces"))
    claim(spaced >= plain + 0.2, f"random spaces should lift the {LOW} lowest answer digits at {n} digits by at least "
          "20 points over plain APE", f"{pct(spaced)} against {pct(plain)}",
          "The blanks trained the model to find a column's digits at shifted positions.")
    return [ClaimRow("Random spaces boost out-of-distribution accuracy near the trained lengths",
                     "qualitative (thesis Section 3.4; Shen et al. 2023)",
                     f"{n} digits: exact match {pct(agenda.beyond(board, 'nb08-spaces'))} (APE "
                     f"{pct(agenda.beyond(board, 'nb08-direct'))}); {LOW} lowest digits "
                     f"{pct(median_low_digits('nb08-spaces'))} (APE {pct(median_low_digits('nb08-direct'))})",
                     "median over 3 seeds; blanks w.p. 0.2 per gap in training, none at test")]


__all__ = ["METHODS", "THESIS", "LOW", "highest_trained_id", "low_digits", "median_low_digits", "spaces_text",
           "check"]

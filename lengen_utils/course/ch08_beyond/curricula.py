"""Notebook 08, section 4: curricula (short to long, easy to hard by carries) against uniform sampling."""
from __future__ import annotations

from ...lab.zoo import entry_for
from ..common.claims import claim
from . import agenda
from .recipes import CURRICULUM as TAG

#: the order each row draws its problems in (``task.curriculum``)
ORDERS = {"none": "uniform (balanced) sampling", "length": "short to long", "cascade": "easy to hard (carry cascades)"}
#: uniform sampling (the base), then each curriculum, at the base's steps and at twice them
METHODS = {m: ORDERS[r.task.curriculum] + (", 2× steps" if r.train.steps == 2 * agenda.STEPS else "")
           for m, r in agenda.section(TAG).items()}


def ramp_problems(method: str) -> int:
    """Problems a curriculum spends on its ramp (0 for uniform sampling)."""
    e = entry_for(method, 0)
    ramp = 0 if e.task.curriculum == "none" else int(e.task.curriculum_fraction * e.train.steps)
    return ramp * e.train.batch_size * e.task.pack


def curriculum_table(board: dict) -> dict[str, dict]:
    """:func:`agenda.speed_rows` of each method, with the problems its ramp takes."""
    rows = agenda.speed_rows(board, METHODS)
    return {label: {**rows[label], "ramp (problems)": f"{ramp_problems(m):,}"} for m, label in METHODS.items()
            if label in rows}


def check(board: dict, live: agenda.Live) -> None:
    """No curriculum masters 5 digits sooner than uniform sampling; each that masters fails one digit past."""
    agenda.check_mastered(board, live, [agenda.DIRECT])
    uniform = agenda.problems_to_master(agenda.DIRECT)
    for m in (m for m in METHODS if m != agenda.DIRECT):
        seen = agenda.problems_to_master(m)
        claim(seen is None or seen > uniform, f"{METHODS[m]} should master 5 digits later than uniform sampling "
              "(median problems over seeds)", f"{agenda.problems(seen)} against {agenda.problems(uniform)}",
              "Then a curriculum speeds learning up.")
    agenda.check_fails(live, {m: label for m, label in METHODS.items() if agenda.mastered(board, m)},
                       "The curriculum changes the order of the problems, not the positions APE has seen.")

"""Notebook 08, shared by its sections: the methods (the rows of :data:`.recipes.METHODS`, found by tag and by the
table's axes), live measurements, learning curves and sections 0 and 6."""
from __future__ import annotations

import math
import statistics
from collections.abc import Mapping, Sequence

from ...core.evaluate import LengthResult, evaluate_lengths
from ...lab.experiment.recipe import Recipe
from ...lab.leaderboard import budget, budget_text, leaderboard
from ...lab.zoo import entry_for, entry_record, load, metrics, recipe_entries
from ..common.baselines import LABELS as NB05_LABELS
from ..common.claims import claim
from ..notebook import pct
from .recipes import CURRICULUM, GAP, LOOP, SCRATCH, SPACES
from .recipes import METHODS as TABLE

NB05_TAG = "nb05-baselines"
NB08_SEEDS = (0, 1, 2)                       # the seeds of every method
TRAINED_DIGITS = 5                           # balanced 1..5-digit operands in training
#: ``{recipe: row}``: the methods trained on 1-5 digits, in the table's order (each row's title is its label)
ROWS: dict[str, Recipe] = {r.id: r for r in TABLE.select(trained_length=TRAINED_DIGITS)}
LABELS = {m: r.title for m, r in ROWS.items()}
DIRECT = TABLE.one(trained_length=TRAINED_DIGITS, title="direct answer").id   # the base: every section's reference
STEPS = TABLE.base.train.steps               # the base's training steps
#: the position schemes (``task.positions``), as the sections name them
SCHEMES = {"consecutive": "APE", "coupled": "coupled IDs", "abacus": "Abacus",
           "abacus_eq": "Abacus with = one below the units"}
N1 = TRAINED_DIGITS + 1  # one digit past the trained range
MASTERED = 0.95          # a model masters its trained range when its median EM at 5 digits is above this
FAILED = 0.1             # a model fails one digit past the trained range at or below 10% exact match
Live = Mapping[str, Mapping[int, LengthResult]]


def widget_choices() -> dict[tuple[int, str], list[str]]:
    """``{(trained length, method label): [zoo entries, one per seed]}`` for notebook 08's explorer: every row of the
    table, so a method offers each trained length it has a row for (``METHODS.along("trained_length", title=...)``)."""
    return {(r.task.max_digits, r.title): list(recipe_entries(r.id).values()) for r in TABLE.recipes()}


def method(**where: object) -> str:
    """The id of the one method whose values on the table's axes are ``where`` (``positions="abacus", looped=True``)."""
    return TABLE.one(trained_length=TRAINED_DIGITS, **where).id


def section(tag: str, **where: object) -> dict[str, Recipe]:
    """``{recipe: row}`` of the methods that section ``tag`` compares with the axis values ``where``, as the sections
    show them: in the table's order, the models whose IDs start at a random offset last."""
    rows = sorted(TABLE.select(trained_length=TRAINED_DIGITS, **where), key=lambda r: r.task.random_start)
    return {r.id: r for r in rows if tag in r.tags}


def labels(board: dict) -> dict[str, str]:
    """``{method: label}`` of the board's built methods, in the catalog's order."""
    return {m: label for m, label in LABELS.items() if m in board["methods"]}


def median(board: dict, method: str, length: int = N1) -> float:
    """The median exact match over the method's seeds at ``length`` digits (from the manifest)."""
    return board["methods"][method]["lengths"][length]["median"]


def mastered(board: dict, method: str) -> bool:
    """Whether the method's median is above 95% at every trained length tested (from the manifest)."""
    return board["methods"][method]["mastered"]


def live(methods: Sequence[str], lengths: Sequence[int] = (TRAINED_DIGITS, N1, N1 + 1), n: int = 200) -> dict:
    """``{method: {length: LengthResult}}``: seed 0 of each method measured now on ``n`` fresh problems per length."""
    return {m: evaluate_lengths(*load(entry_for(m, NB08_SEEDS[0]).name), lengths, n=n, seed=2024) for m in methods}


def agreement(p: float, n: int) -> float:
    """How far a live exact match on ``n`` problems may fall from a recorded ``p``: 10 points or 4 binomial errors."""
    return max(0.1, 4 * math.sqrt(p * (1 - p) / n))


def check_mastered(board: dict, live_results: Live, required: Sequence[str] = ()) -> None:
    """The fair comparison: each ``required`` method masters 1-5 digits, and seed 0 live agrees with the manifest."""
    for m in required:
        claim(mastered(board, m), f"{LABELS[m]} should master 1–{TRAINED_DIGITS} digits (median over seeds above "
              f"{pct(MASTERED, 0)}) before any length claim", pct(median(board, m, TRAINED_DIGITS)),
              "A model that fails in distribution tells nothing about length.")
    for m in (m for m in labels(board) if m in live_results):
        r, recorded = live_results[m][TRAINED_DIGITS], metrics(entry_for(m, NB08_SEEDS[0]).name)[TRAINED_DIGITS]
        claim(abs(r.exact_match - recorded) <= agreement(recorded, r.n), f"{LABELS[m]}, seed 0, should score live "
              f"at {TRAINED_DIGITS} digits what the manifest recorded (within {100 * agreement(recorded, r.n):.0f} "
              f"points on {r.n} fresh problems)", f"{pct(r.exact_match)} live, {pct(recorded)} recorded",
              "Then the checkpoint and the manifest disagree.")


def check_fails(live_results: Live, methods: Mapping[str, str], meaning: str) -> None:
    """Each method (``{method: label}``), seed 0 live, fails one digit past the trained range (at most 10%)."""
    for m, label in methods.items():
        got = live_results[m][N1].exact_match
        claim(got <= FAILED, f"{label} should fail one digit past the trained range (<= {pct(FAILED, 0)} at {N1} "
              "digits)", pct(got), meaning)


def learning_curves(method: str) -> dict[int, dict[int, float]]:
    """``{seed: {problems seen: EM at the longest trained length}}`` from the manifest's learning curves."""
    out = {}
    for seed in NB08_SEEDS:
        e = entry_for(method, seed)
        curve = entry_record(e.name).get("learning_curve")
        if curve is None:
            raise ValueError(f"{e.name} has no learning curve in the manifest; rebuild it with "
                             f"`python -m lengen_utils.lab.zoo train {e.name}`")
        out[seed] = {step * e.train.batch_size * e.task.pack: em for step, em in zip(curve["steps"], curve["em"])}
    return out


def problems_to_master(method: str, level: float = MASTERED) -> float | None:
    """Median over seeds of the problems seen until the curve exceeds ``level`` (``None`` when most seeds never do)."""
    found = [next((n for n, em in sorted(c.items()) if em > level), math.inf) for c in learning_curves(method).values()]
    return None if found.count(math.inf) * 2 > len(found) else statistics.median(found)


def problems(x: float | None) -> str:
    """A count of problems as the tables show it: ``"64,000"``, or ``"never"`` for ``None``."""
    return "never" if x is None else f"{x:,.0f}"


def speed_rows(board: dict, methods: Mapping[str, str]) -> dict[str, dict]:
    """Per method: the median problems to master 5 digits, the median one digit past, the generalizable length."""
    return {label: {f"problems to {pct(MASTERED, 0)} at {TRAINED_DIGITS} dig": problems(problems_to_master(m)),
                    f"{N1} dig": median(board, m),
                    "gen. length": board["methods"][m]["generalizable_length"] if mastered(board, m) else None}
            for m, label in methods.items() if m in board["methods"]}


SECTIONS = {GAP: "1. gap", SPACES: "2. spaces", SCRATCH: "3. scratchpad", CURRICULUM: "4. curriculum",
            LOOP: "5. looping"}


def methods_table(board: dict) -> dict[str, dict[str, str]]:
    """One row per method: what it changes, its budget, its built seeds' median training time, its sections."""
    seconds = {m: [x for x in board["methods"].get(m, {}).get("train_seconds", []) if x is not None] for m in ROWS}
    return {r.title: {"what": r.summary, "budget": budget_text(budget(entry_for(m, 0))),
                      "train s (median)": f"{statistics.median(seconds[m]):.0f}" if seconds[m] else "not built",
                      "sections": ", ".join(SECTIONS[t] for t in r.tags if t in SECTIONS)}
            for m, r in ROWS.items()}


def reach_table(board: dict, reference: dict | None = None) -> dict[str, dict]:
    """Each method's generalizable length as a multiple of its trained length, beside notebook 05's leaderboard."""
    ref = (reference if reference is not None else leaderboard(NB05_TAG))["methods"]
    rows = {label: board["methods"][m] for m, label in labels(board).items()}
    rows |= {f"notebook 05: {label}": ref[m] for m, label in NB05_LABELS.items() if m in ref}
    return {label: {"trained on": f"1–{r['trained_digits']}", "mastered": "yes" if r["mastered"] else "no",
                    "generalizable length": r["generalizable_length"] if r["mastered"] else None,
                    "× trained": f"{r['generalizable_length'] / r['trained_digits']:.1f}" if r["mastered"] else None}
            for label, r in rows.items()}


#: the summary's groups, by the rows' roles: strategies with absolute positions, and positions tied to significance
SUMMARY = {"summary:absolute": "absolute", "summary:significance": "tied to significance"}


def summary_groups() -> dict[str, str]:
    """``{method: group}`` of the rows with a summary role, group by group, each in the order the sections show them."""
    shown = [r for tag in SECTIONS for r in section(tag).values()]
    return {r.id: group for role, group in SUMMARY.items() for r in shown if role in r.roles}


def summary_rows(board: dict) -> dict[str, dict]:
    """The mastered methods of both groups, with their median one digit past the trained range."""
    return {LABELS[m]: {"positions": g, f"{N1} dig": median(board, m)} for m, g in summary_groups().items()
            if m in board["methods"] and mastered(board, m)}


def check_summary(board: dict) -> None:
    """No mastered APE method moves the reach; those tied to significance keep most sums, unless they write a
    scratchpad (section 3: its longer text loses the reach even with coupled IDs)."""
    groups = summary_groups()
    for m in (m for m, g in groups.items() if g == "absolute" and mastered(board, m)):
        claim(median(board, m) <= FAILED, f"with absolute positions, {LABELS[m]} should not move the reach (median "
              f"<= {pct(FAILED, 0)} at {N1} digits)", pct(median(board, m)))
    for m in (m for m, g in groups.items() if g != "absolute"):
        keeps = ROWS[m].task.format != "cho_scratchpad"
        claim((median(board, m) > 0.5) == keeps, f"{LABELS[m]} should {'' if keeps else 'not '}keep most sums one "
              f"digit past the trained range (median {'above' if keeps else 'at most'} 50% at {N1} digits)",
              pct(median(board, m)))

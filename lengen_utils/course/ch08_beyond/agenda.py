"""Notebook 08, shared by its sections: the methods' labels, their leaderboards, the live measurements the checks
use, and the learning curves the manifest records (sample efficiency, sections 3 and 4).

Every method is a recipe of :mod:`lengen_utils.lab.zoo.catalog_nb08` with 3 seeds; a section's leaderboard is the
entries of its tag (``nb08-gap``, ``nb08-spaces``, ``nb08-scratch``, ``nb08-curriculum``, ``nb08-loop``), and
section 6 shows them all (tag ``nb08``).
"""
from __future__ import annotations

import math
import statistics
from collections.abc import Mapping, Sequence

from ..common.claims import claim
from ...core.evaluate import LengthResult, evaluate_lengths
from ...lab.leaderboard import budget, budget_text, leaderboard
from ..notebook import pct
from ...lab.zoo import ZooError, entry_for, load, manifest_record, metrics
from ...lab.zoo.catalog_nb05_baselines import TAG as NB05_TAG
from ...lab.zoo.catalog_nb08 import METHODS, NB08_RECIPES, NB08_SEEDS, TAG, TRAINED_DIGITS
from ..common.baselines import LABELS as NB05_LABELS

LABELS = {NB08_RECIPES[m]: spec.label for m, spec in METHODS.items()}
#: the lengths a live check measures: the longest trained, and just beyond it
LIVE_LENGTHS = (TRAINED_DIGITS, TRAINED_DIGITS + 1, TRAINED_DIGITS + 2)
LIVE_SEED = 2024
MASTERED = 0.95          # a model masters its trained range when its median EM at 5 digits is above this


def board(tag: str = TAG) -> dict:
    """The leaderboard of one section (the same as ``python -m lengen_utils.lab.bench leaderboard --tag TAG``)."""
    return leaderboard(tag)


def labels(board: dict) -> dict[str, str]:
    """``{method: label}`` of the board's built methods, in the catalog's order."""
    return {m: label for m, label in LABELS.items() if m in board["methods"]}


def median(board: dict, method: str, length: int) -> float:
    """The median exact match over the method's seeds at ``length`` digits (from the manifest)."""
    return board["methods"][method]["lengths"][length]["median"]


def beyond(board: dict, method: str, length: int = TRAINED_DIGITS + 1) -> float:
    """The median at ``length`` (default: one digit past the trained range)."""
    return median(board, method, length)


Live = Mapping[str, Mapping[int, LengthResult]]


def live(methods: Sequence[str], lengths: Sequence[int] = LIVE_LENGTHS, n: int = 200) -> dict[str, dict[int, LengthResult]]:
    """Seed 0 of each method measured now on ``n`` fresh problems per length (exact match and per-digit accuracy):
    the checks' input."""
    out = {}
    for method in methods:
        model, task = load(entry_for(method, NB08_SEEDS[0]).name)
        out[method] = evaluate_lengths(model, task, lengths, n=n, seed=LIVE_SEED)
    return out


def em(live_results: Live, method: str, length: int) -> float:
    """The live exact match of ``method`` (seed 0) at ``length`` digits."""
    return live_results[method][length].exact_match


def mastered(board: dict, method: str) -> bool:
    """Whether the method's median is above 95% at every trained length tested (from the manifest)."""
    return board["methods"][method]["mastered"]


def check_mastered(board: dict, live_results: Live, required: Sequence[str] = ()) -> None:
    """The fair-comparison rule. Each ``required`` method (those whose reach a section compares) masters 1-5 digits
    in the manifest; each method's seed 0, measured live on fresh problems, agrees with the manifest:
    seed 0's recorded exact match at 5 digits within :func:`agreement` (a method that does not master is shown with
    its budget, never compared on length)."""
    for m in required:
        claim(mastered(board, m), f"{LABELS[m]} should master 1–{TRAINED_DIGITS} digits (median over seeds above "
              f"{pct(MASTERED, 0)}) before any length claim", pct(median(board, m, TRAINED_DIGITS)),
              "A model that fails in distribution tells nothing about length.")
    for m in labels(board):
        if m not in live_results:
            continue
        got = em(live_results, m, TRAINED_DIGITS)
        recorded = metrics(entry_for(m, NB08_SEEDS[0]).name)[TRAINED_DIGITS]
        tolerance = agreement(recorded, live_results[m][TRAINED_DIGITS].n)
        claim(abs(got - recorded) <= tolerance, f"{LABELS[m]}, seed 0, should score live at {TRAINED_DIGITS} digits "
              f"what the manifest recorded (within {100 * tolerance:.0f} points on {live_results[m][TRAINED_DIGITS].n} "
              "fresh problems)", f"{pct(got)} live, {pct(recorded)} recorded",
              "Then the checkpoint and the manifest disagree.")


def agreement(p: float, n: int) -> float:
    """How far a live exact match on ``n`` fresh problems may fall from a recorded ``p``: 10 points, or four binomial
    standard errors where a small sample of a half-learned model is noisier."""
    return max(0.1, 4 * math.sqrt(p * (1 - p) / n))


def learning_curves(method: str) -> dict[int, dict[int, float]]:
    """``{seed: {problems seen: EM at the longest trained length}}`` from the manifest's learning curves."""
    out = {}
    for seed in NB08_SEEDS:
        e = entry_for(method, seed)
        name = e.name
        curve = manifest_record(name).get("learning_curve")
        if curve is None:
            raise ValueError(f"{name} has no learning curve in the manifest; rebuild it with "
                             f"`python -m lengen_utils.lab.zoo train {name}`")
        per_step = e.train.batch_size * e.task.pack
        out[seed] = {step * per_step: em for step, em in zip(curve["steps"], curve["em"])}
    return out


def problems_to_master(method: str, level: float = MASTERED) -> list[int | None]:
    """Per seed, the problems seen when the learning curve first exceeds ``level`` (``None``: never)."""
    return [next((n for n, em in sorted(c.items()) if em > level), None) for c in learning_curves(method).values()]


def median_problems(method: str, level: float = MASTERED) -> float | None:
    """The median over seeds of :func:`problems_to_master` (``None`` when most seeds never get there)."""
    found = problems_to_master(method, level)
    if sum(x is None for x in found) * 2 > len(found):
        return None
    return statistics.median(x if x is not None else float("inf") for x in found)


def mastered_after(method: str) -> str:
    """:func:`median_problems` in words: ``"after 64,000 problems"`` or ``"never within its budget"``."""
    seen = median_problems(method)
    return "never within its budget" if seen is None else f"after {seen:,.0f} problems"


SECTIONS = {"nb08-gap": "1. gap", "nb08-spaces": "2. spaces", "nb08-scratch": "3. scratchpad",
            "nb08-curriculum": "4. curriculum", "nb08-loop": "5. looping"}


def built_seconds(name: str) -> float | None:
    """The recorded training seconds of a built entry (``None`` when it is not built)."""
    try:
        return manifest_record(name).get("train_seconds")
    except ZooError:
        return None


def methods_table() -> dict[str, dict[str, str]]:
    """One row per method: what it changes, its budget (layers x steps x problems per step), the median training
    time of its built seeds (one CPU thread), its sections."""
    rows = {}
    for method, spec in METHODS.items():
        e = entry_for(NB08_RECIPES[method], NB08_SEEDS[0])
        b = budget(e)
        seconds = [built_seconds(entry_for(NB08_RECIPES[method], s).name) for s in NB08_SEEDS]
        seconds = [x for x in seconds if x is not None]
        rows[spec.label] = {"what": spec.what, "budget": budget_text(b),
                            "train s (median)": f"{statistics.median(seconds):.0f}" if seconds else "not built",
                            "sections": ", ".join(SECTIONS[t] for t in spec.tags if t in SECTIONS)}
    return rows


def reach_table(board: dict, reference: dict | None = None) -> dict[str, dict[str, str]]:
    """Each mastered method's generalizable length as a multiple of its trained length, beside notebook 05's
    leaderboard (``reference``, default tag ``nb05-baselines``: trained on 1-10 digits)."""
    reference = reference if reference is not None else leaderboard(NB05_TAG)
    rows = {}
    nb05 = {m: f"notebook 05: {label}" for m, label in NB05_LABELS.items()}
    for b, names in ((board, labels(board)), (reference, nb05)):
        for m, label in names.items():
            if m not in b["methods"]:
                continue
            row = b["methods"][m]
            k, gen = row["trained_digits"], row["generalizable_length"]
            rows[label] = {"trained on": f"1–{k}", "mastered": "yes" if row["mastered"] else "no",
                           "generalizable length": str(gen) if row["mastered"] else "–",
                           "× trained": f"{gen / k:.1f}" if row["mastered"] else "–"}
    return rows


FAILED = 0.1            # "fails" one digit past the trained range: a median at or below 10%
APE_METHODS = ("nb08-direct", "nb08-align", "nb08-modsum", "nb08-carries", "nb08-spaces", "nb08-rsape",
               "nb08-scratch", "nb08-length-curriculum-long", "nb08-cascade-curriculum", "nb08-looped")
SIGNIFICANCE_METHODS = ("nb08-coupled", "nb08-coupled-scratch-long", "nb08-abacus", "nb08-abacus-looped", "nb08-abacus-eq",
                        "nb08-abacus-eq-looped")


def summary(boards: Sequence[dict]) -> str:
    """The notebook's summary: which mastered methods move the reach one digit past the trained range (medians over
    seeds from the sections' leaderboards), with absolute positions and with positions tied to significance."""
    n = TRAINED_DIGITS + 1
    found = {m: b["methods"][m] for b in boards for m in b["methods"]}

    def listed(methods) -> dict[str, float]:
        return {m: found[m]["lengths"][n]["median"] for m in methods if m in found and found[m]["mastered"]}
    ape, sig = listed(APE_METHODS), listed(SIGNIFICANCE_METHODS)
    moved = [LABELS[m] for m, v in ape.items() if v > FAILED]
    ape_line = ", ".join(f"{LABELS[m]} {pct(v)}" for m, v in ape.items())
    head = ("With absolute positions none of the thesis's strategies moves the reach" if not moved else
            f"With absolute positions, only {', '.join(moved)} moves the reach")
    held = [LABELS[m] for m, v in sig.items() if v > 0.5]
    return (f"* **{head}.** One digit past the trained range ({n} digits, median exact match over seeds, mastered "
            f"methods): {ape_line}.\n"
            f"* **Positions tied to significance:** {', '.join(f'{LABELS[m]} {pct(v)}' for m, v in sig.items())}"
            f"{' (above 50%: ' + ', '.join(held) + ')' if held else ''}.\n"
            "* Sections 1 and 3–4 show what the strategies change instead: which sub-task breaks first, and how fast "
            "the trained range is learned.")


__all__ = ["LABELS", "LIVE_LENGTHS", "MASTERED", "SECTIONS", "Live", "board", "labels", "median", "beyond", "live",
           "em", "mastered", "check_mastered", "agreement", "learning_curves", "problems_to_master", "median_problems",
           "mastered_after", "methods_table", "reach_table", "summary"]

"""The claims ledger's records: each claim of the course about a paper, typed, and its verdict computed from data.

A :class:`Claim` holds what is *typed* (and labelled): the paper and where the claim stands, the paper's statement,
the paper's number (:class:`PaperNumber`, with the direction of the test), the course's own target and why it
differs, and what to measure (:class:`Measure`). The recipe that tests a claim is not typed here: the row of its
``recipes.py`` says so, with the role ``claim:<claim id>`` (:attr:`Claim.recipe`), and the row a gain is over with the
role the measure names (:attr:`Claim.versus`). Everything else is *computed*:

* our result (:func:`result`): the median over the recipe's built seeds with its range, the seeds and the problems
  per length, read from the manifest (``assets/manifest.json``) and the record-only GPU runs (``records.json``);
* the departures (:func:`departures_of`): the compared rows of :mod:`lengen_utils.lab.papers` that differ from the
  paper's setup, plus every config field no row compares that the recipe switches on (the course's additions); a
  claim with no setup in ``papers`` lists its departures by hand (:attr:`Claim.labelled`);
* the verdict (:func:`verdict`), in the four classes of :data:`CLASSES`, by three rules: "reproduced" needs the
  paper's threshold, not the course's; one seed says "one seed"; a claim the data contradict says "not reproduced"
  and gives the measured reason.

The claims themselves are data in :mod:`.claims`; the package (:mod:`lengen_utils.lab.ledger`) computes and
renders them.
"""
from __future__ import annotations

import statistics
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Callable, Sequence

from ...analysis.generalization import generalizable_length
from ..papers import COMPARED, COMPARED_PATHS, NOT_SETUP_FIELDS, PAPER_SETUPS, departures, reference_additions
from ..zoo import catalog, get_recipe, with_one_role
from ..zoo.records import read_measured

SABBAGHI, CHO, THESIS = "Sabbaghi et al. 2024", "Cho et al. 2024", "the thesis's survey"
#: the N x M paper of notebook 09 (arXiv 2410.15787), beyond the course's three documents
CHO_NXM = "Cho, Cha, Bhojanapalli and Yun 2024"
#: the four verdict classes (issue 47)
PAPER_RECIPE = "reproduced with the paper's recipe"
DEPARTURES = "reproduced only with labelled departures"
NOT_REPRODUCED = "not reproduced"
NOT_ATTEMPTED = "not attempted"
CLASSES = (PAPER_RECIPE, DEPARTURES, NOT_REPRODUCED, NOT_ATTEMPTED)
#: the measures a claim can name: exact match at a length, its share of the trained-length accuracy, the gain over
#: another recipe at a length, and Cho et al.'s generalizable length (median > 95% at every tested length up to it)
STATISTICS = ("em", "retention", "gain", "generalizable length")
OPS: dict[str, Callable[[float, float], bool]] = {">=": lambda a, b: a >= b, "<=": lambda a, b: a <= b}


# == the typed fields ===============================================================================================
@dataclass(frozen=True)
class PaperNumber:
    """The paper's threshold for the claim: ``value`` compared with ``op`` (``">="`` a success claim, ``"<="`` a
    failure claim). ``stated``: the paper writes the number; otherwise ``value`` is the course's reading of the
    paper's words (``reading`` says how), and the verdict says so. ``unit``: what ``value`` counts where the claim has
    no measure to say it (a claim the course does not attempt): ``"fraction"`` (exact match) or ``"digits"`` (a
    length)."""
    op: str
    value: float
    words: str
    stated: bool = True
    reading: str = ""
    unit: str = "fraction"

    def __post_init__(self) -> None:
        if self.op not in OPS:
            raise ValueError(f"a paper's threshold compares with one of {tuple(OPS)}, got {self.op!r}")
        if self.unit not in ("fraction", "digits"):
            raise ValueError(f"a paper's number is a 'fraction' or 'digits', got unit={self.unit!r}")
        if not self.stated and not self.reading:
            raise ValueError(f"an unstated paper number needs the course's reading of {self.words!r}")


@dataclass(frozen=True)
class Target:
    """The course's own target, when it differs from the paper's: its value, who set it and why it differs."""
    value: float
    why: str
    set_by: str = "the course"


@dataclass(frozen=True)
class Measure:
    """What to read from the records of the claim's recipe: ``statistic`` (:data:`STATISTICS`) at operand ``length``
    (``of``: the trained length of a retention; ``versus``: the role of the recipe a gain is over, the other claim's
    ``"claim:<id>"`` or a control's ``"control:<name>"``), on the recorded checkpoint (``"recorded"``: the selected
    one when the run selects, as the papers do) or the ``"final"`` one."""
    statistic: str = "em"
    length: int = 0
    of: int = 0
    versus: str = ""
    checkpoint: str = "recorded"

    def __post_init__(self) -> None:
        if self.statistic not in STATISTICS:
            raise ValueError(f"a measure's statistic is one of {STATISTICS}, got {self.statistic!r}")
        if self.checkpoint not in ("recorded", "final"):
            raise ValueError(f"a measure reads the 'recorded' or the 'final' checkpoint, got {self.checkpoint!r}")
        if (self.statistic == "gain") != bool(self.versus):
            raise ValueError("a gain (and only a gain) names the role of the recipe it is over (versus=...)")


@dataclass(frozen=True)
class Claim:
    """One claim of the course about a paper. ``measure`` None: the course has not attempted it (``why_not`` says
    why). ``setup``: the claim of :data:`~lengen_utils.lab.papers.PAPER_SETUPS` whose departures table applies
    (``versus_setup``: the one for the recipe a gain is over, default ``setup``); ``labelled``: departures named by
    hand that no setup compares field by field."""
    id: str
    paper: str
    where: str
    statement: str
    number: PaperNumber
    notebook: str
    measure: Measure | None = None
    target: Target | None = None
    setup: str = ""
    labelled: tuple[str, ...] = ()
    why_not: str = ""
    versus_setup: str = ""

    def __post_init__(self) -> None:
        if self.measure is None and not self.why_not:
            raise ValueError(f"{self.id}: a claim the course does not attempt says why (why_not=...)")
        for name in (self.setup, self.versus_setup):
            if name and name not in PAPER_SETUPS:
                raise ValueError(f"{self.id}: no paper setup {name!r}; known: {', '.join(sorted(PAPER_SETUPS))}")
        if self.measure is not None and not self.setup and not self.labelled:
            raise ValueError(f"{self.id}: a claim with no paper setup to compare lists its departures (labelled=...)")
        if paper_unit(self) == "fraction" and abs(self.number.value) > 1:
            raise ValueError(f"{self.id}: the paper's number {self.number.value:g} is read as a fraction (an exact "
                             f"match); a length says unit='digits' (or measures a generalizable length)")

    @property
    def recipe(self) -> str:
        """The id of the recipe that tests the claim: the one row whose ``roles`` hold ``claim:<id>``, declared where
        the row is defined (a chapter's ``recipes.py``); none or several raise
        :class:`~lengen_utils.lab.zoo.ZooError`."""
        return with_one_role(f"claim:{self.id}").id

    @property
    def versus(self) -> str:
        """The id of the recipe a gain is over: the one row with the role ``measure.versus`` ("" for other measures)."""
        return with_one_role(self.measure.versus).id if self.measure is not None and self.measure.versus else ""


@dataclass(frozen=True)
class Result:
    """Our measured value: the median over seeds and its range, each seed's value, the seeds, the problems per
    length and the checkpoint read. ``unit``: ``"fraction"`` or ``"digits"``."""
    median: float
    low: float
    high: float
    per_seed: tuple[float, ...]
    seeds: tuple[int, ...]
    n_per_length: int
    checkpoint: str
    unit: str = "fraction"

    def show(self, value: float | None = None) -> str:
        v = self.median if value is None else value
        if self.unit == "digits":
            return f"{v:g} digits"
        return f"{100 * v:+.1f} points" if self.unit == "points" else f"{100 * v:.1f}%"

    def __str__(self) -> str:
        spread = "" if len(self.seeds) == 1 else f" [{self.show(self.low)}, {self.show(self.high)}]"
        return f"{self.show()}{spread}"


@dataclass(frozen=True)
class Verdict:
    """The computed verdict: its class (:data:`CLASSES`), its words, and the measured reason when not reproduced."""
    cls: str
    text: str
    reason: str = ""


# == reading the records ============================================================================================
@lru_cache(maxsize=1)
def _records() -> dict[str, dict]:
    return read_measured()


def runs(recipe_id: str, checkpoint: str = "recorded") -> dict[int, tuple[dict[int, float], int]]:
    """``{seed: ({length: exact match}, problems per length)}`` of the built seeds of ``recipe_id`` (manifest and
    record-only runs); ``checkpoint="final"`` reads the last step of a run that selected its checkpoint."""
    records = _records()
    out = {}
    for name, e in catalog().items():
        if e.recipe != recipe_id or name not in records:
            continue
        rec = records[name]
        metrics = rec["selection"]["final_metrics"] if checkpoint == "final" and "selection" in rec \
            else rec["metrics"]
        out[e.seed] = ({int(k): float(v) for k, v in metrics["em"].items()}, int(rec["metrics"]["eval_n"]))
    return dict(sorted(out.items()))


def _checkpoint(recipe_id: str, checkpoint: str) -> str:
    records = _records()
    names = [n for n, e in catalog().items() if e.recipe == recipe_id and n in records]
    selects = bool(names) and all("selection" in records[n] for n in names)
    return "checkpoint selected on longer lengths" if selects and checkpoint == "recorded" else "final checkpoint"


def _at(curve: dict[int, float], length: int, recipe_id: str) -> float:
    if length not in curve:
        raise KeyError(f"{recipe_id} was not tested at {length} digits; tested: {sorted(curve)}")
    return curve[length]


def result(claim: Claim) -> Result | None:
    """Our result for the claim's measure from the records of its recipe, or None when the recipe has no built
    seed."""
    measure, recipe_id = claim.measure, claim.recipe
    seeds = runs(recipe_id, measure.checkpoint)
    if not seeds:
        return None
    n = min(k for _, k in seeds.values())
    where = _checkpoint(recipe_id, measure.checkpoint)
    if measure.statistic == "generalizable length":
        curves = [c for c, _ in seeds.values()]
        per_seed = tuple(float(generalizable_length([c])) for c in curves)
        return Result(float(generalizable_length(curves)), min(per_seed), max(per_seed), per_seed,
                      tuple(seeds), n, where, unit="digits")
    values = []
    for curve, _ in seeds.values():
        v = _at(curve, measure.length, recipe_id)
        values.append(v / _at(curve, measure.of, recipe_id) if measure.statistic == "retention" else v)
    if measure.statistic == "gain":
        versus = claim.versus
        other = runs(versus, measure.checkpoint)
        if not other:
            return None
        theirs = [_at(c, measure.length, versus) for c, _ in other.values()]
        gain = statistics.median(values) - statistics.median(theirs)
        per_seed = tuple(v - statistics.median(theirs) for v in values)
        return Result(gain, min(values) - max(theirs), max(values) - min(theirs), per_seed, tuple(seeds),
                      min(n, min(k for _, k in other.values())), where, unit="points")
    return Result(statistics.median(values), min(values), max(values), tuple(values), tuple(seeds), n, where)


def departures_of(claim: Claim) -> tuple[str, ...]:
    """The departures of the claim's recipe: the compared rows that differ from the paper's setup, then the config
    fields no row compares that the recipe switches on (the course's additions), then the hand-labelled ones."""
    if claim.measure is None:
        return ()
    found: list[str] = []
    recipes = [claim.recipe] + ([claim.versus] if claim.measure.versus else [])
    for recipe_id in recipes:
        recipe = get_recipe(recipe_id)
        ours = recipe_id == claim.recipe
        prefix, setup = ("", claim.setup) if ours else (f"{recipe_id}: ", claim.versus_setup or claim.setup)
        if setup:
            found += [f"{prefix}{d.field}" for d in departures(recipe, PAPER_SETUPS[setup])[:len(COMPARED)]
                      if d.differs]
        found += [f"{prefix}{path}" for path in reference_additions(recipe)
                  if path not in COMPARED_PATHS and path not in NOT_SETUP_FIELDS]
    return tuple(dict.fromkeys(found + list(claim.labelled)))


def _fraction(x: float) -> str:
    return f"{100 * x:.3g}%"


def paper_unit(claim: Claim) -> str:
    """What the paper's number counts: ``"digits"`` for a generalizable length (measured, or stated as
    ``unit="digits"`` on a claim not attempted), else ``"fraction"`` (``gain`` too: a difference of fractions)."""
    if claim.measure is None:
        return claim.number.unit
    return "digits" if claim.measure.statistic == "generalizable length" else "fraction"


def paper_text(claim: Claim) -> str:
    """The paper's number as the paper's, e.g. ``">= 95% (more than 95% ... up to 200-digit additions)"``, or as the
    course's reading of the paper's words where the paper gives no number."""
    number, statistic = claim.number, "em" if claim.measure is None else claim.measure.statistic
    if paper_unit(claim) == "digits":
        value = f"{number.value:g} digits"
    elif statistic == "gain":
        value = f"{100 * number.value:+.3g} points"
    else:
        value = _fraction(number.value)
    if number.stated:
        return f"{number.op} {value} ({number.words})"
    return f"{number.op} {value}: the course's reading of \"{number.words}\" ({number.reading})"


def _what(claim: Claim) -> str:
    measure = claim.measure
    if measure.statistic == "generalizable length":
        return "generalizable length (median > 95%)"
    if measure.statistic == "retention":
        return f"EM at {measure.length} / EM at {measure.of}"
    if measure.statistic == "gain":
        return f"EM at {measure.length} minus {claim.versus}'s"
    return f"EM at {measure.length}"


def verdict(claim: Claim, measured: Result | None, departed: Sequence[str]) -> Verdict:
    """The verdict of ``claim`` from its fields (:data:`CLASSES`): reproduced only at the paper's threshold, with
    the paper's recipe only when nothing departs; otherwise not reproduced, with the measured reason; "one seed"
    where one seed carries it."""
    if claim.measure is None or measured is None:
        why = claim.why_not or f"{claim.recipe} is not built"
        return Verdict(NOT_ATTEMPTED, f"{NOT_ATTEMPTED}: {why}", why)
    number, one = claim.number, len(measured.seeds) == 1
    seeds = "one seed" if one else f"median of {len(measured.seeds)} seeds"
    if OPS[number.op](measured.median, number.value):
        cls = PAPER_RECIPE if not departed else DEPARTURES
        text = PAPER_RECIPE if not departed else f"reproduced with {len(departed)} labelled departures"
        if not number.stated:
            text += ", on the course's reading of the paper's words"
        return Verdict(cls, f"{text} ({seeds})")
    reaching = sum(OPS[number.op](v, number.value) for v in measured.per_seed)
    whose = "the paper's" if number.stated else "the course's reading of the paper's words,"
    reason = (f"{_what(claim)} is {measured.show()} ({seeds}) against {whose} {number.op} "
              f"{measured.show(number.value)}")
    if not one:
        reason += f"; {reaching} of {len(measured.seeds)} seeds reach it"
    if claim.target is not None and OPS[number.op](measured.median, claim.target.value):
        reason += f"; the course's lower target {measured.show(claim.target.value)} is met"
    return Verdict(NOT_REPRODUCED, f"{NOT_REPRODUCED}: {reason}", reason)


@dataclass(frozen=True)
class Entry:
    """A claim with everything computed: our result, the departures and the verdict."""
    claim: Claim
    result: Result | None
    departures: tuple[str, ...] = field(default=())
    verdict: Verdict = field(default=Verdict(NOT_ATTEMPTED, NOT_ATTEMPTED))


def evaluate(claim: Claim) -> Entry:
    """Compute one claim's result, departures and verdict."""
    measured = None if claim.measure is None else result(claim)
    departed = departures_of(claim)
    return Entry(claim, measured, departed, verdict(claim, measured, departed))


__all__ = [
    "CHO", "CLASSES", "Claim", "DEPARTURES", "Entry", "Measure", "NOT_ATTEMPTED", "NOT_REPRODUCED", "PAPER_RECIPE",
    "PaperNumber", "Result", "SABBAGHI", "STATISTICS", "THESIS", "Target", "Verdict", "departures_of", "evaluate",
    "paper_text", "result", "runs", "verdict",
]

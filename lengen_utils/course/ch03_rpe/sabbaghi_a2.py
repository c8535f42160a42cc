"""Notebook 03, "Sabbaghi A2 with the paper's own recipe": its GPU records, the ladder of its choices, and a fix."""
from __future__ import annotations

from dataclasses import dataclass
from statistics import median_high

from ...analysis.rpe_decline import (CascadeSplit, digit_accuracy_by_significance, exact_match_by_cascade,
                                     pad_only_offset_mass)
from ..common.claims import claim
from ...core.constants import EVAL_SEED
from ...lab.leaderboard import leaderboard_rows
from ...lab.zoo import entry, entry_for, entry_record, load, recipe_entries
from .recipes import A2_LADDER, PAPER_SCALE as GPU_RECIPES
from ...lab.zoo.records import read_records
from ..notebook import n_eval, pct
from ..common.paper_scale import checkpoint_rows
from ..common.seeds import built_entries, seed_curves
from .rpe import PAPER_SCALE

PAPER_RECIPE = GPU_RECIPES.one(d_model=768).id   # Sabbaghi et al.'s recipe at their size (records only)
OUR_GPU_RECIPE = PAPER_SCALE.recipe              # our earlier recipe at the paper's depth (d 256), stored
PAPER_LENGTHS = (5, 6, 10, 15, 20, 30, 40, 50)
DIAGNOSED = entry_for(OUR_GPU_RECIPE, 0).name    # the paper-depth RPE encoder whose decline section 6 measures
DECLINE_LENGTHS = (10, 20, 30, 40)
CASCADE_AT = 30                                  # where the cascade split is measured
LIVE_SEED = EVAL_SEED + 3                         # live test sets apart from the recorded ones
A2_TAG = "sabbaghi-a2"
#: ``{rung: "N. what it changes"}`` in the ladder's order: the rows of :data:`.recipes.A2_LADDER` and their titles
RUNG_LABELS = {rung.id: f"{i}. {rung.title}" for i, rung in enumerate(A2_LADDER.recipes(), start=1)}
WINDOW_REACH = 2                                  # the aligned window's half-width, in IDs
WINDOW = A2_LADDER.one(window=WINDOW_REACH).id    # the rung with the aligned window (ours)


def paper_records() -> dict[str, dict]:
    """``{entry: record}`` of the paper's recipe's recorded seeds (``assets/records.json``)."""
    records = read_records()
    found = {name: records[name] for name in recipe_entries(PAPER_RECIPE).values() if name in records}
    if not found:
        raise FileNotFoundError(f"no record of {PAPER_RECIPE} in assets/records.json; it is trained on a GPU with "
                                f"scripts/gpu_checks.sh (docs/scale.md)")
    return found


def paper_rows(lengths: tuple[int, ...] = PAPER_LENGTHS) -> dict[str, dict[str, str]]:
    """The paper's recipe (selected and final checkpoints) beside our earlier GPU recipe: EM per length, as rows."""
    rows = {}
    for rec in paper_records().values():
        rows |= checkpoint_rows(rec, f"paper's recipe, seed {rec['seed']}", lengths)
    for seed, name in built_entries(OUR_GPU_RECIPE).items():
        rows |= checkpoint_rows(entry_record(name), f"our GPU recipe (d 256), seed {seed}, final", lengths)
    return rows


def paper_budget() -> dict[str, dict[str, str]]:
    """Size, steps, time and device of each recorded seed of the paper's recipe."""
    return {f"seed {rec['seed']}": {
        "parameters": f"{rec['n_parameters']:,}",
        "steps": f"{rec.get('stopped', {}).get('step', entry(name).train.steps):,}",
        "batch": str(entry(name).train.batch_size), "train s": f"{rec['train_seconds']:.0f}", "device": rec["gpu"],
        "stored": "no (records.json)"} for name, rec in paper_records().items()}


def check_paper_recipe() -> None:
    """The paper's records: the validation curve fluctuates, seeds disagree, none reaches 40, the best beats ours."""
    records = paper_records()
    drop = max(a - b for r in records.values() for ems in r["selection"]["em"].values() for a, b in zip(ems, ems[1:]))
    claim(drop >= 0.2, "the validation curve should fluctuate (a drop of >= 20 points between validations)",
          pct(drop), "Then the paper's 'highly fluctuating' curve is not what we recorded: update the prose.")
    at20 = {name: rec["metrics"]["em"]["20"] for name, rec in records.items()}
    if len(at20) > 1:
        claim(max(at20.values()) - min(at20.values()) >= 0.3, "the seeds should disagree at 20 digits (>= 30 points)",
              ", ".join(f"{n}: {pct(v)}" for n, v in at20.items()))
    for name, rec in records.items():
        claim(rec["metrics"]["em"]["40"] < 0.5, f"{name} should not reach 40 digits (the text says so)",
              pct(rec["metrics"]["em"]["40"]), "If it does, the text under-reports the paper's recipe.")
    ours = max(em[20] for em in seed_curves(OUR_GPU_RECIPE).values())
    claim(max(at20.values()) > ours, "the paper's recipe should beat our earlier GPU recipe at 20 digits "
          f"({pct(ours)}) with its best seed", pct(max(at20.values())))


@dataclass(frozen=True)
class Decline:
    """Where an RPE encoder's errors sit (:mod:`lengen_utils.analysis.rpe_decline`), measured live."""
    name: str
    trained: int
    per_digit: dict[int, dict[int, float]]      # {length: {significance: accuracy}}, 0 = units digit
    cascade: CascadeSplit                        # exact match of sums with cascade <= 1 and of the rest
    pad_only_mass: dict[int, float]              # {length: attention of digit queries on pad-only offsets}


def measure_decline(name: str = DIAGNOSED) -> Decline:
    """Live on ``name``: per-digit accuracy, the cascade split, and the attention on pad-only offsets."""
    model, task = load(name)
    return Decline(
        name, task.config.max_digits,
        digit_accuracy_by_significance(model, task, DECLINE_LENGTHS, n=n_eval(200, 60), seed=LIVE_SEED),
        exact_match_by_cascade(model, task, CASCADE_AT, n=n_eval(400, 150), max_cascade=1, seed=LIVE_SEED),
        pad_only_offset_mass(model, task, DECLINE_LENGTHS, n=n_eval(40, 15), seed=LIVE_SEED))


def decline_rows(d: Decline) -> dict[str, dict[str, float]]:
    """Per length: the units digit, the worst and the median middle digit, the top digit, and the pad-only mass."""
    middle = {k: [per[s] for s in range(1, k)] for k, per in d.per_digit.items()}
    rows = {f"{k} digits": {"units digit": per[0], "worst middle digit": min(middle[k]),
                            "median middle digit": median_high(middle[k]), "top digit": per[k],
                            "attention on pad-only offsets": d.pad_only_mass[k]} for k, per in d.per_digit.items()}
    return rows | {f"{d.trained} digits (trained)": {"attention on pad-only offsets": d.pad_only_mass[d.trained]}}


def check_decline(d: Decline) -> None:
    """The units digit is the weak spot, short cascades fail too, and answer digits park attention on pad offsets."""
    at = d.per_digit[CASCADE_AT]
    middle = min(at[s] for s in range(1, CASCADE_AT))
    claim(at[0] < middle, f"in {d.name} (one seed of one model), at {CASCADE_AT} digits "
          "the units digit should be worse than every middle digit",
          f"units {pct(at[0])}, worst middle digit {pct(middle)}",
          "Then the units digit is not the weak spot, and the text's reading must change.")
    c = d.cascade
    claim(c.exact_match_easy < 0.5, f"in {d.name}, sums with a longest cascade <= {c.max_cascade} should fail too "
          f"at {c.length} digits (< 50%)", f"{pct(c.exact_match_easy)} on {c.n_easy} sums",
          "If they succeed, long cascades explain the decline after all, as the paper says.")
    for length, mass in d.pad_only_mass.items():
        claim(mass >= 0.2, f"answer digits should park >= 20% of their attention on offsets that training only filled "
              f"with pad, at {length} digits", pct(mass), "Then the sink this section describes is not there.")


def ladder_rows(board: dict) -> dict[str, dict[str, str]]:
    """The ladder as table rows, in its order; a rung with checkpoint selection also shows its final checkpoints."""
    labels = {}
    for recipe, label in ((r, label) for r, label in RUNG_LABELS.items() if r in board["methods"]):
        final = f"{recipe} (final)" in board["methods"]
        labels |= {recipe: f"{label}: selected", f"{recipe} (final)": f"{label}: final"} if final else {recipe: label}
    return leaderboard_rows(board, labels)


#: the rungs the text reads and a figure draws (role ``ladder-figure``), in the ladder's order: the course's recipe,
#: the paper's sampler alone, the paper's whole recipe, the fix
BAND_RUNGS = tuple(rung.id for rung in A2_LADDER.with_role("ladder-figure"))


def band_labels(board: dict) -> dict[str, str]:
    """``{method: label}`` of :data:`BAND_RUNGS` that are built, for ``leaderboard.median_bands``."""
    return {r: RUNG_LABELS[r] for r in BAND_RUNGS if r in board["methods"]}


#: seed 0 of the course's recipe, the paper's whole recipe and the fix: the models whose attention is compared (role
#: ``attention-sink``)
SINK_MODELS = {RUNG_LABELS[rung.id]: entry_for(rung.id, 0).name for rung in A2_LADDER.with_role("attention-sink")}
WINDOWED = RUNG_LABELS[WINDOW]


def check_ladder(board: dict) -> None:
    """Medians over seeds: ours fails at 30, the sampler hurts, the paper's recipe stops at 5, the window reaches 40."""
    ours, uniform, paper, window = BAND_RUNGS
    m = board["methods"]
    missing = [r for r in BAND_RUNGS if r not in m]
    claim(not missing, "every rung the text reads should be built", f"missing {missing}",
          "Build them with `python -m lengen_utils.lab.zoo train --tag sabbaghi-a2`.")
    med = {r: {k: c["median"] for k, c in m[r]["lengths"].items()} for r in BAND_RUNGS}
    claim(m[ours]["mastered"], f"{ours} should master 1-5 digits", "not mastered")
    claim(med[ours][30] < 0.5, f"{ours} should fail at 30 digits (median < 50%)", pct(med[ours][30]))
    claim(med[uniform][10] < med[ours][10], f"the paper's sampler alone ({uniform}) should decline earlier than the "
          "course's recipe", f"{pct(med[uniform][10])} against {pct(med[ours][10])} at 10 digits")
    claim(med[paper][6] < 0.5, f"the paper's whole recipe at this size ({paper}, selected) should stop at its trained "
          "length (median < 50% at 6 digits; the text says so)", pct(med[paper][6]),
          "If it carries further, the text under-reports the paper's recipe at this size.")
    worst1 = m[paper]["lengths"][1]["min"]
    claim(worst1 < 0.95, f"a seed of {paper} should miss 1-digit sums (< 95%; the text says one does not master the "
          f"short operands)", pct(worst1))
    claim(m[window]["mastered"], f"{window} should master 1-5 digits", "not mastered", "A fix that fails in "
          "distribution says nothing about length.")
    for length, bar in ((20, 0.9), (40, 0.7)):
        claim(med[window][length] >= bar, f"{window} should keep a median >= {pct(bar, 0)} at {length} digits (the "
              "targets)", pct(med[window][length]))


def sink_mass(names: dict[str, str], lengths: tuple[int, ...] = (5, 40)) -> dict[str, dict[str, float]]:
    """Live: the attention that answer-digit queries put on pad-only offsets, for each ``{label: entry}``."""
    masses = {label: pad_only_offset_mass(*load(name), lengths, n=n_eval(40, 15), seed=LIVE_SEED)
              for label, name in names.items()}
    return {label: {f"{k} digits": mass[k] for k in lengths} for label, mass in masses.items()}


def check_sink(rows: dict[str, dict[str, float]], windowed: str) -> None:
    """Unwindowed models park >= 20% of the answer digits' attention on pad-only offsets; the window leaves < 1%."""
    for column, mass in rows[windowed].items():
        claim(mass < 0.01, f"the windowed model should leave no attention on pad-only offsets at {column}", pct(mass),
              "The window should hide every offset that training only filled with pad.")
    for label, cells in ((label, cells) for label, cells in rows.items() if label != windowed):
        for column, mass in cells.items():
            claim(mass >= 0.2, f"{label} should park >= 20% of its attention on pad-only offsets at {column}",
                  pct(mass))


def window_cost(lengths: tuple[int, ...] = (20, 40)) -> dict[str, dict[str, float]]:
    """Live, each seed of the windowed rung: exact match on the test sums whose longest carry cascade fits the window
    (at most :data:`WINDOW_REACH`) and on those whose cascade is longer, which must cross it."""
    rows = {}
    for seed, name in recipe_entries(WINDOW, built_only=True).items():
        model, task = load(name)
        for length in lengths:
            c = exact_match_by_cascade(model, task, length, n=n_eval(400, 100), max_cascade=WINDOW_REACH,
                                       seed=LIVE_SEED)
            rows[f"seed {seed}, {length} digits ({c.n_hard} of {c.n_easy + c.n_hard} sums longer)"] = {
                f"cascade <= {WINDOW_REACH}": c.exact_match_easy, f"cascade > {WINDOW_REACH}": c.exact_match_hard}
    return rows


def check_window_cost(rows: dict[str, dict[str, float]]) -> None:
    """The window costs the long cascades: on every seed and length, the sums whose cascade is longer than the window
    are right at least 30 points less often than the others."""
    for label, r in rows.items():
        short, long = r[f"cascade <= {WINDOW_REACH}"], r[f"cascade > {WINDOW_REACH}"]
        claim(long <= short - 0.3, f"{label}: the windowed model should get the sums whose longest cascade is longer "
              f"than its window (> {WINDOW_REACH}) right at least 30 points less often than the others",
              f"{pct(long)} against {pct(short)}", "Then the window costs the long cascades nothing: update the text.")

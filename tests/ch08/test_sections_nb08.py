"""Notebook 08's sections (lengen_utils.course.ch08_beyond: agenda, compositionality, random_spaces, scratchpads,
curricula, looping) on planted boards and live results: each table holds the planted numbers, and each check passes
when its claims hold and raises ClaimFailed with its teaching message when one does not. The manifest readers
(metrics, per-digit accuracy, records) are replaced by planted ones, so no zoo entry needs to be built; budgets,
passes and ramps come from the real catalog (lengen_utils/course/ch08_beyond/recipes.py)."""
from __future__ import annotations

import re

import pytest

from lengen_utils.analysis.probes import ProbeReport
from lengen_utils.core.evaluate import LengthResult
from lengen_utils.course.ch08_beyond import agenda, compositionality as comp, curricula, looping, random_spaces as rs
from lengen_utils.course.ch08_beyond import scratchpads
from lengen_utils.course.common.baselines import LABELS as NB05_LABELS
from lengen_utils.course.common.claims import ClaimFailed
from lengen_utils.lab.leaderboard import budget, budget_text
from lengen_utils.lab.zoo import entry_for, ZooError, entry
from lengen_utils.course.ch08_beyond.agenda import NB08_SEEDS, ROWS

LENGTHS = (3, 5, 6, 7)
N, N1 = 5, 6                   # the longest trained length, one digit past it


def row(curve=(1.0, 0.99, 0.02, 0.0), mastered=True, gen=5, steps=3000) -> dict:
    """One method of a planted leaderboard: medians at LENGTHS."""
    return {"mastered": mastered, "generalizable_length": gen, "trained_digits": 5, "seeds": list(NB08_SEEDS),
            "budget": {"layers": 2, "heads": 4, "d_model": 64, "steps": steps, "problems_per_step": 128},
            "lengths": {n: {"median": v, "min": max(0.0, v - 0.01), "max": min(1.0, v + 0.01)}
                        for n, v in zip(LENGTHS, curve)}}


def planted_board(methods, **changes) -> dict:
    """``{"methods": ...}`` with a default row per method; ``changes`` maps short names ("coupled-align") to
    :func:`row`'s keyword arguments."""
    out = {m: row() for m in methods}
    for name, kwargs in changes.items():
        out[f"nb08-{name}"] = row(**kwargs)
    return {"methods": out}


def result(n: int, em: float, low: float = 0.5) -> LengthResult:
    return LengthResult(length=n, n=200, exact_match=em, per_digit={s: low for s in range(n + 1)})


def planted_live(methods, **beyond) -> dict[str, dict[int, LengthResult]]:
    """Seed 0 of each method: 99% at 5 digits and 2% at 6, unless ``beyond`` (short name -> EM at 6) says."""
    return {m: {N: result(N, 0.99), N1: result(N1, beyond.get(m.removeprefix("nb08-"), 0.02))} for m in methods}


RECORDED: dict[str, float] = {}           # seed 0's recorded EM at 5 digits (default 99%)
RECORDS: dict[str, dict] = {}             # planted manifest records (name -> record)


@pytest.fixture(autouse=True)
def planted_manifest(monkeypatch):
    RECORDED.clear()
    RECORDS.clear()

    def record(name):
        if name not in RECORDS:
            raise ZooError(f"{name!r} is not built")
        return RECORDS[name]
    monkeypatch.setattr(agenda, "metrics", lambda name: {N: RECORDED.get(name, 0.99)})
    monkeypatch.setattr(agenda, "entry_record", record)
    monkeypatch.setattr(looping, "entry_record", record)


def plant_curves(method: str, ems_per_seed, steps=(250, 500, 750)) -> None:
    for seed, ems in zip(NB08_SEEDS, ems_per_seed):
        RECORDS[f"{method}-s{seed}"] = {"learning_curve": {"steps": list(steps), "em": list(ems)}}


def per_step(method: str) -> int:
    e = entry(f"{method}-s0")
    return e.train.batch_size * e.task.pack


# -- agenda: the shared readers, tables and checks --------------------------------------------------------------

def test_board_readers():
    board = planted_board(["nb08-coupled", "nb08-direct"], direct={"curve": (1.0, 0.97, 0.25, 0.0)},
                          coupled={"mastered": False})
    assert list(agenda.labels(board)) == ["nb08-direct", "nb08-coupled"]          # the catalog's order
    assert agenda.labels(board)["nb08-direct"] == ROWS["nb08-direct"].title == "direct answer"
    assert agenda.median(board, "nb08-direct", 5) == 0.97
    assert agenda.median(board, "nb08-direct") == 0.25 and agenda.median(board, "nb08-direct", 7) == 0.0
    assert agenda.mastered(board, "nb08-direct") and not agenda.mastered(board, "nb08-coupled")


def test_check_mastered_needs_the_required_methods_and_agreement_with_the_manifest():
    methods = ["nb08-direct", "nb08-coupled"]
    agenda.check_mastered(planted_board(methods), planted_live(methods), methods)
    with pytest.raises(ClaimFailed, match=r"coupled IDs should master 1–5 digits \(median over seeds above 95%\) "
                                          r"before any length claim; got 80\.0%\. A model that fails"):
        agenda.check_mastered(planted_board(methods, coupled={"mastered": False, "curve": (1.0, 0.8, 0.0, 0.0)}),
                              planted_live(methods), methods)
    unmastered = planted_board(methods, coupled={"mastered": False})
    agenda.check_mastered(unmastered, planted_live(methods), ["nb08-direct"])      # not required: shown only
    RECORDED["nb08-direct-s0"] = 0.85
    with pytest.raises(ClaimFailed, match=r"direct answer, seed 0, should score live at 5 digits what the manifest "
                                          r"recorded \(within 10 points on 200 fresh problems\); got 99\.0% live, 85\.0% recorded\. Then"):
        agenda.check_mastered(planted_board(methods), planted_live(methods))
    agenda.check_mastered(planted_board(methods), planted_live(["nb08-coupled"]))  # seed 0 not measured: skipped


def test_check_fails_at_most_ten_percent_one_digit_past():
    agenda.check_fails(planted_live(["nb08-direct"], direct=0.1), {"nb08-direct": "APE"}, "Why.")
    with pytest.raises(ClaimFailed, match=r"^APE should fail one digit past the trained range \(<= 10% at 6 "
                                          r"digits\); got 11\.0%\. Why\.$"):
        agenda.check_fails(planted_live(["nb08-direct"], direct=0.11), {"nb08-direct": "APE"}, "Why.")


def test_agreement_widens_for_small_noisy_samples():
    assert agenda.agreement(1.0, 60) == 0.1 and agenda.agreement(0.99, 200) == 0.1
    assert agenda.agreement(0.18, 60) == pytest.approx(4 * (0.18 * 0.82 / 60) ** 0.5)


def test_learning_curves_problems_to_master_and_speed_rows():
    plant_curves("nb08-direct", [(0.5, 0.97, 1.0), (0.2, 0.95, 0.96), (0.1, 0.3, 0.5)])
    p = per_step("nb08-direct")
    assert agenda.learning_curves("nb08-direct")[0] == {250 * p: 0.5, 500 * p: 0.97, 750 * p: 1.0}
    # strictly above 95%: seed 1's 95.0% at 500 steps does not count (750); seed 2 never gets there, which
    # counts as the longest: the median of (500, 750, never) steps
    assert agenda.problems_to_master("nb08-direct") == 750 * p
    assert agenda.problems_to_master("nb08-direct", level=0.4) == 500 * p       # 250, 500, 750
    plant_curves("nb08-scratch", [(0.5, 0.9, 0.99), (0.1, 0.2, 0.3), (0.1, 0.2, 0.3)])
    q = per_step("nb08-scratch")
    assert q < p                                                                  # half the problems per step
    assert agenda.problems_to_master("nb08-scratch") is None                      # most seeds never master
    assert agenda.problems_to_master("nb08-scratch", level=0.25) == 750 * q
    assert agenda.problems(None) == "never" and agenda.problems(64000.0) == "64,000"
    board = planted_board(["nb08-direct", "nb08-scratch"], scratch={"mastered": False, "curve": (1, 0.9, 0.03, 0)})
    rows = agenda.speed_rows(board, {"nb08-direct": "D", "nb08-scratch": "S", "nb08-coupled": "not on the board"})
    assert rows == {"D": {"problems to 95% at 5 dig": f"{750 * p:,}", "6 dig": 0.02, "gen. length": 5},
                    "S": {"problems to 95% at 5 dig": "never", "6 dig": 0.03, "gen. length": None}}
    RECORDS["nb08-looped-s0"] = {}
    with pytest.raises(ValueError, match=r"nb08-looped-s0 has no learning curve in the manifest; rebuild it with "
                                         r"`python -m lengen_utils.lab.zoo train nb08-looped-s0`"):
        agenda.learning_curves("nb08-looped")


def test_methods_table_lists_every_method_with_its_budget():
    board = planted_board(["nb08-direct", "nb08-scratch", "nb08-abacus"])
    for m, seconds in (("nb08-direct", [100.0, 140.0, 120.0]), ("nb08-scratch", [None, 90.0, None]),
                       ("nb08-abacus", [None, None, None])):
        board["methods"][m]["train_seconds"] = seconds
    rows = agenda.methods_table(board)
    assert list(rows) == [r.title for r in ROWS.values()]
    for recipe, r in ROWS.items():
        assert rows[r.title]["budget"] == budget_text(budget(entry_for(recipe, 0)))
        assert rows[r.title]["what"] == r.summary
    assert rows["direct answer"]["budget"] == "2L x 3000 x 128"
    assert rows["scratchpad"]["budget"] == "2L x 3000 x 64"
    assert rows["coupled IDs + scratchpad, 2× steps"]["budget"] == "2L x 6000 x 64"
    assert rows["direct answer"]["train s (median)"] == "120"
    assert rows["scratchpad"]["train s (median)"] == "90"
    assert rows["Abacus"]["train s (median)"] == "not built"                    # built without a recorded time
    assert rows["looped"]["train s (median)"] == "not built"                    # not on the board
    assert rows["direct answer"]["sections"] == "1. gap, 2. spaces, 3. scratchpad, 4. curriculum, 5. looping"
    assert rows["Abacus"]["sections"] == "5. looping"


def test_reach_table_puts_notebook_05_beside_notebook_08():
    board = planted_board(["nb08-direct", "nb08-abacus-looped", "nb08-looped"],
                          **{"abacus-looped": {"gen": 12}, "looped": {"mastered": False}})
    reference = {"methods": {"nb05-both": {**row(gen=40), "trained_digits": 10},
                             "nb05-base-ape": {**row(gen=10, mastered=False), "trained_digits": 10},
                             "nb05-other": {**row(gen=99), "trained_digits": 10}}}
    rows = agenda.reach_table(board, reference)
    assert list(rows) == ["direct answer", "looped", "Abacus + looped", f"notebook 05: {NB05_LABELS['nb05-both']}",
                          f"notebook 05: {NB05_LABELS['nb05-base-ape']}"]
    assert rows["Abacus + looped"] == {"trained on": "1–5", "mastered": "yes", "generalizable length": 12,
                                       "× trained": "2.4"}
    assert rows["direct answer"]["× trained"] == "1.0"
    assert rows["looped"] == {"trained on": "1–5", "mastered": "no", "generalizable length": None,
                              "× trained": None}                                  # table shows None as "–"
    assert rows["notebook 05: both (our variant)"] == {"trained on": "1–10", "mastered": "yes",
                                                       "generalizable length": 40, "× trained": "4.0"}


def test_sections_find_their_methods_by_tag_and_axis():
    """Each section's methods come from the table (tag, axes, titles), in the order its tables and checks show."""
    assert list(agenda.section(rs.TAG)) == ["nb08-direct", "nb08-spaces", "nb08-rsape"]    # random starts last
    assert rs.METHODS == {"nb08-direct": "APE", "nb08-spaces": "APE + random spaces", "nb08-rsape": "random-start APE"}
    assert rs.SPACED == "nb08-spaces" and agenda.DIRECT == "nb08-direct"
    assert agenda.method(positions="abacus", looped=True) == "nb08-abacus-looped"
    with pytest.raises(ValueError, match=r"rows have .*name another axis"):
        agenda.method(positions="consecutive")                                   # many methods: not one
    assert (looping.APE, looping.ABACUS, looping.FIXED) == (("nb08-direct", "nb08-looped"),
                                                            ("nb08-abacus", "nb08-abacus-looped"),
                                                            ("nb08-abacus-eq", "nb08-abacus-eq-looped"))
    assert (looping.EQ_LOOPED, looping.EQ_FLAT) == ("nb08-abacus-eq-looped", "nb08-abacus-eq")
    assert looping.METHODS["nb08-abacus-eq"] == "Abacus with = one below the units, 2 layers"
    assert scratchpads.PAIRS == {"APE": ("nb08-direct", "nb08-scratch"),
                                 "coupled IDs": ("nb08-coupled", "nb08-coupled-scratch-6k")}
    assert scratchpads.EQUAL_TOKENS == ("nb08-direct", "nb08-scratch", "nb08-coupled", "nb08-coupled-scratch")
    assert scratchpads.COUPLED_EQUAL == "nb08-coupled-scratch"
    assert curricula.METHODS == {"nb08-direct": "uniform (balanced) sampling",
                                 "nb08-length-curriculum": "short to long",
                                 "nb08-length-cur-6k": "short to long, 2× steps",
                                 "nb08-cascade-curriculum": "easy to hard (carry cascades)"}


def test_summary_groups_are_the_rows_roles_in_the_sections_order():
    groups = agenda.summary_groups()
    assert list(groups) == ["nb08-direct", "nb08-align", "nb08-modsum", "nb08-carries", "nb08-spaces", "nb08-rsape",
                            "nb08-scratch", "nb08-length-cur-6k", "nb08-cascade-curriculum", "nb08-looped",
                            "nb08-coupled", "nb08-coupled-scratch-6k", "nb08-abacus-eq", "nb08-abacus-eq-looped"]
    assert {m for m, g in groups.items() if g == "absolute"} == {m for m in groups
                                                               if ROWS[m].task.positions == "consecutive"}


def summary_board(**changes) -> dict:
    tied = {"coupled": {"curve": (1, 1, 0.976, 0.5)}, "coupled-scratch-6k": {"curve": (1, 1, 0.006, 0)},
            "abacus-eq": {"curve": (1, 1, 0.688, 0.1)}, "abacus-eq-looped": {"curve": (1, 1, 0.83, 0.4)}}
    methods = list(agenda.summary_groups())
    return planted_board(methods, **{"length-cur-6k": {"curve": (1, 1, 0.5, 0), "mastered": False},
                                     **tied, **changes})


def test_summary_rows_and_check():
    board = summary_board()
    rows = agenda.summary_rows(board)
    assert "curriculum: short to long, 2× steps" not in rows                      # not mastered: not listed
    assert rows["direct answer"] == {"positions": "absolute", "6 dig": 0.02}
    assert rows["coupled IDs"] == {"positions": "tied to significance", "6 dig": 0.976}
    agenda.check_summary(board)
    with pytest.raises(ClaimFailed, match=r"with absolute positions, APE \+ random spaces should not move the reach "
                                          r"\(median <= 10% at 6 digits\); got 35\.0%"):
        agenda.check_summary(summary_board(spaces={"curve": (1, 1, 0.35, 0)}))
    with pytest.raises(ClaimFailed, match=r"coupled IDs should keep most sums one digit past the trained range "
                                          r"\(median above 50% at 6 digits\); got 40\.0%"):
        agenda.check_summary(summary_board(coupled={"curve": (1, 1, 0.4, 0)}))
    with pytest.raises(ClaimFailed, match=r"2× steps should not keep most sums .* \(median at most 50%"):
        agenda.check_summary(summary_board(**{"coupled-scratch-6k": {"curve": (1, 1, 0.6, 0)}}))


# -- section 1: the compositionality gap ------------------------------------------------------------------------

GAP_METHODS = [m for group in comp.GROUPS.values() for m in group.values()]


def gap_board(**changes) -> dict:
    defaults = {"direct": {"curve": (1.0, 0.99, 0.02, 0.0)}, "align": {"curve": (1.0, 0.98, 0.05, 0.0)},
                "modsum": {"curve": (1.0, 1.0, 0.9, 0.6)}, "carries": {"curve": (1.0, 1.0, 0.9, 0.5)},
                "coupled": {"curve": (1.0, 1.0, 0.99, 0.9)}, "coupled-align": {"curve": (1.0, 1.0, 0.8, 0.3)},
                "coupled-modsum": {"curve": (1.0, 1.0, 0.98, 0.9)},
                "coupled-carries": {"curve": (1.0, 1.0, 1.0, 1.0)}}
    return planted_board(GAP_METHODS, **{**defaults, **changes})


def test_groups_name_the_full_task_and_each_sub_task():
    assert comp.GROUPS["APE"] == {"full sum": "nb08-direct", "alignment": "nb08-align", "digit sum": "nb08-modsum",
                                  "carries": "nb08-carries"}
    assert set(comp.GROUPS["coupled IDs"].values()) <= set(agenda.LABELS)


def test_breaks_gaps_and_table():
    board = gap_board(carries={"curve": (1.0, 1.0, 0.97, 0.5)}, coupled={"curve": (1.0, 1.0, 0.95, 0.5)})
    breaks = comp.breaks(board)
    assert breaks["APE"] == {"full sum": 6, "alignment": 6, "digit sum": 6, "carries": 7}
    assert breaks["coupled IDs"] == {"full sum": 6, "alignment": 6, "digit sum": 7, "carries": None}  # 95% breaks
    g = comp.gaps(board, "APE")
    assert g[6] == {"full sum": 0.02, "weakest": "alignment", "weakest sub-task": 0.05, "gap": pytest.approx(0.03)}
    assert g[7]["weakest"] == "alignment" and g[7]["gap"] == 0.0
    assert comp.gaps(board, "coupled IDs")[7] == {"full sum": 0.5, "weakest": "alignment", "weakest sub-task": 0.3,
                                                  "gap": pytest.approx(-0.2)}
    rows = comp.gap_table(board)
    assert list(rows) == [f"{g}: {r}" for g in comp.GROUPS for r in ("full sum", "weakest sub-task", "gap")]
    assert rows["APE: full sum"] == {"3 dig": "100.0", "5 dig": "99.0", "6 dig": "2.0", "7 dig": "0.0"}
    assert rows["APE: weakest sub-task"]["6 dig"] == "5.0 (alignment)"
    assert rows["APE: gap"] == {"3 dig": "+0.0", "5 dig": "-1.0", "6 dig": "+3.0", "7 dig": "+0.0"}
    assert rows["coupled IDs: gap"]["7 dig"] == "-20.0"


def test_gap_check_passes_and_names_each_failure():
    comp.check(gap_board(), planted_live(GAP_METHODS))
    with pytest.raises(ClaimFailed, match=r"with APE, the full sum and every sub-task should break at the same "
                                          r"length; got full sum at 6, alignment at 6, digit sum at 6, carries at 7\."):
        comp.check(gap_board(carries={"curve": (1.0, 1.0, 0.97, 0.5)}), planted_live(GAP_METHODS))
    with pytest.raises(ClaimFailed, match=r"with APE, the full sum should fail one digit past the trained range "
                                          r"\(<= 10% at 6 digits\); got 30\.0%\. The answer's positions"):
        comp.check(gap_board(), planted_live(GAP_METHODS, direct=0.3))
    with pytest.raises(ClaimFailed, match=r"with APE, the alignment should fail .*; got 12\.5%"):
        comp.check(gap_board(), planted_live(GAP_METHODS, align=0.125))
    with pytest.raises(ClaimFailed, match=r"with coupled IDs, past the trained range the full sum should never be "
                                          r"below its weakest sub-task \(gap <= 0\); got \+30\.0 points at 6 digits"):
        comp.check(gap_board(coupled={"curve": (1.0, 1.0, 0.5, 0.2)}), planted_live(GAP_METHODS))
    with pytest.raises(ClaimFailed, match=r"coupled IDs, sub-task: carries should master 1–5 digits"):
        comp.check(gap_board(**{"coupled-carries": {"mastered": False}}), planted_live(GAP_METHODS))


LAYERS = (0, 1, 2)


def probe_report(carry=(0.99, 0.9), modsum=(0.98, 0.2), pair=(0.97, 0.15), chance=0.12) -> ProbeReport:
    """Accuracy at 5 and 6 digits, reached at the last layer (the earlier layers 10 and 20 points lower)."""
    accuracy = {}
    for target, at in (("carry", carry), ("modsum", modsum), ("pair", pair)):
        for n, a in zip((N, N1), at):
            accuracy.update({(target, layer, n): a - 0.1 * (len(LAYERS) - 1 - layer) for layer in LAYERS})
    return ProbeReport(accuracy=accuracy, chance={(t, n): chance for t in ("carry", "modsum", "pair") for n in (N, N1)},
                       count={(t, n): 100 for t in ("carry", "modsum", "pair") for n in (N, N1)})


def probe_reports(**changes) -> dict[str, ProbeReport]:
    return {"APE": probe_report(**changes.get("APE", {})),
            "coupled IDs": probe_report(**{"modsum": (1.0, 0.96), "carry": (1.0, 0.93), **changes.get("coupled", {})})}


def test_probe_peak_and_table():
    report = probe_report()
    assert comp.probe_peak(report, "carry", N) == (2, 0.99)
    assert comp.probe_peak(report, "modsum", N1) == (2, 0.2)
    rows = comp.probe_table(probe_reports())
    assert list(rows) == [f"{m}: {w}" for m in ("APE", "coupled IDs") for w in ("carry", "digit sum", "aligned pair")]
    assert rows["APE: digit sum"] == {"5 dig": 0.98, "6 dig": 0.2, "chance, 6 dig": 0.12}
    assert rows["coupled IDs: carry"] == {"5 dig": 1.0, "6 dig": 0.93, "chance, 6 dig": 0.12}


def test_check_probes_passes_and_names_each_failure():
    comp.check_probes(probe_reports())
    with pytest.raises(ClaimFailed, match=r"in the APE model, the carry should be linearly decodable at the trained "
                                          r"length \(5 digits, best layer >= 95%\); got 90\.0% \(layer 2\)"):
        comp.check_probes(probe_reports(APE={"carry": (0.9, 0.9)}))
    with pytest.raises(ClaimFailed, match=r"in the coupled IDs model, the digit sum should be linearly decodable"):
        comp.check_probes(probe_reports(coupled={"modsum": (0.94, 0.96)}))
    with pytest.raises(ClaimFailed, match=r"in the APE model the digit sum should be lost at 6 digits \(best layer at "
                                          r"most twice chance\); got 50\.0% \(chance 12\.0%\)\. Past the trained"):
        comp.check_probes(probe_reports(APE={"modsum": (0.98, 0.5)}))
    with pytest.raises(ClaimFailed, match=r"in the coupled model the digit sum should survive at 6 digits \(>= 90%\); "
                                          r"got 80\.0%\. Coupled IDs fetch"):
        comp.check_probes(probe_reports(coupled={"modsum": (1.0, 0.8)}))


# -- section 2: random spaces -----------------------------------------------------------------------------------

SPACE_METHODS = list(rs.METHODS)
LOW = {"nb08-direct": (0.30, 0.40, 0.35), "nb08-spaces": (0.70, 0.80, 0.75), "nb08-rsape": (0.50, 0.60, 0.55)}


@pytest.fixture
def planted_per_digit(monkeypatch):
    """Seed s's per-digit accuracy at 6 digits: every digit at LOW[method][s] except the top ones at 0."""
    def per_digit(name):
        e = entry(name)
        a = LOW[e.recipe][e.seed]
        return {N1: {s: a if s < rs.LOW else 0.0 for s in range(N1 + 1)}}
    monkeypatch.setattr(rs, "per_digit", per_digit)


def test_highest_trained_id_low_digits_and_table(planted_per_digit):
    direct, spaced = rs.highest_trained_id("nb08-direct"), rs.highest_trained_id("nb08-spaces")
    assert spaced == direct + 2 * (N - 1)                    # a blank in each of the 2 x 4 gaps
    assert rs.highest_trained_id("nb08-rsape") == entry("nb08-rsape-s0").task.max_position
    assert rs.low_digits({0: 0.9, 1: 0.6, 2: 0.3, 3: 0.0}) == pytest.approx(0.6)
    assert rs.low_digits({0: 0.9, 1: 0.6}, k=1) == 0.9
    assert rs.median_low_digits("nb08-spaces") == pytest.approx(0.75)
    rows = rs.spaces_table(planted_board(SPACE_METHODS[:2], spaces={"curve": (1.0, 0.99, 0.081, 0.0)}))
    assert rows == {"APE": {"IDs trained up to": direct, "6 dig": 0.02, "3 lowest digits, 6 dig": pytest.approx(0.35)},
                    "APE + random spaces": {"IDs trained up to": spaced, "6 dig": 0.081,
                                            "3 lowest digits, 6 dig": pytest.approx(0.75)}}


def spaces_live(direct_low=0.35, spaces_low=0.75, **beyond):
    live = planted_live(SPACE_METHODS, **beyond)
    for m, low in (("nb08-direct", direct_low), ("nb08-spaces", spaces_low)):
        live[m][N1] = result(N1, live[m][N1].exact_match, low)
    return live


def test_spaces_check_passes_and_names_each_failure():
    board = planted_board(SPACE_METHODS)
    rs.check(board, spaces_live())
    with pytest.raises(ClaimFailed, match=r"APE \+ random spaces, in exact match, should fail one digit past the "
                                          r"trained range \(<= 10% at 6 digits\); got 40\.0%"):
        rs.check(board, spaces_live(spaces=0.4))
    with pytest.raises(ClaimFailed, match=r"random spaces should lift the 3 lowest answer digits at 6 digits by at "
                                          r"least 20 points over plain APE; got 50\.0% against 40\.0%\. The blanks"):
        rs.check(board, spaces_live(direct_low=0.4, spaces_low=0.5))
    with pytest.raises(ClaimFailed, match=r"random-start APE should master 1–5 digits"):
        rs.check(planted_board(SPACE_METHODS, rsape={"mastered": False}), spaces_live())


# -- section 3: the scratchpad ----------------------------------------------------------------------------------

SCRATCH_METHODS = ["nb08-direct", "nb08-scratch", "nb08-coupled", "nb08-coupled-scratch", "nb08-coupled-scratch-6k"]


def scratch_board(**changes):
    defaults = {"scratch": {"curve": (1.0, 0.99, 0.03, 0.0)}, "coupled": {"curve": (1.0, 1.0, 0.9, 0.2), "gen": 6},
                "coupled-scratch": {"curve": (1.0, 0.9, 0.03, 0.0), "mastered": False, "gen": 0},
                "coupled-scratch-6k": {"curve": (1.0, 1.0, 0.1, 0.0), "steps": 6000}}
    return planted_board(SCRATCH_METHODS, **{**defaults, **changes})


def plant_scratch_curves(scratch=(0.5, 0.9, 0.99)):
    plant_curves("nb08-direct", [(0.5, 0.97, 1.0)] * 3)
    plant_curves("nb08-scratch", [scratch] * 3, steps=(500, 1000, 1500))
    plant_curves("nb08-coupled", [(0.5, 0.97, 1.0)] * 3)
    plant_curves("nb08-coupled-scratch-6k", [(0.1, 0.2, 0.3)] * 3)


def test_scratch_budgets_and_curve_bands():
    b = scratchpads.budgets(scratchpads.EQUAL_TOKENS)
    assert b["nb08-scratch"]["problems per step"] * 2 == b["nb08-direct"]["problems per step"]
    assert 0.8 < b["nb08-scratch"]["tokens per step"] / b["nb08-direct"]["tokens per step"] < 1.2   # equal tokens
    plant_curves("nb08-direct", [(0.5, 0.97, 1.0), (0.1, 0.9, 0.9), (0.3, 0.95, 0.95)])
    p = per_step("nb08-direct")
    bands = scratchpads.curve_bands({"nb08-direct": "D"})["D"]
    assert bands[500 * p] == (0.95, 0.9, 0.97)
    tokens = scratchpads.curve_bands({"nb08-direct": "D"}, per="tokens")["D"]
    assert list(tokens)[0] == round(250 * p * scratchpads.tokens_per_problem("nb08-direct"))


def test_scratch_check_passes_and_names_each_failure():
    plant_scratch_curves()
    live = planted_live(SCRATCH_METHODS)
    scratchpads.check(scratch_board(), live)
    p, q = per_step("nb08-direct"), per_step("nb08-scratch")
    plant_scratch_curves(scratch=(0.99, 1.0, 1.0))
    with pytest.raises(ClaimFailed, match=rf"^scratchpad should need more problems than direct answer to master 5 "
                                          rf"digits \(median over seeds\); got {500 * q:,} against {500 * p:,}\."):
        scratchpads.check(scratch_board(), live)
    plant_scratch_curves()
    with pytest.raises(ClaimFailed, match=r"coupled IDs \+ scratchpad, 2× steps should reach no further than coupled "
                                          r"IDs \(generalizable length\); got 7 against 6\. Then a scratchpad"):
        scratchpads.check(scratch_board(**{"coupled-scratch-6k": {"gen": 7, "steps": 6000}}), live)
    with pytest.raises(ClaimFailed, match=r"scratchpad with APE should fail one digit past the trained range "
                                          r"\(<= 10% at 6 digits\); got 30\.0%\. A scratchpad makes the text longer"):
        scratchpads.check(scratch_board(), planted_live(SCRATCH_METHODS, scratch=0.3))
    with pytest.raises(ClaimFailed, match=r"at an equal budget in tokens, the coupled scratchpad should not master "
                                          r"1–5 digits; got 96\.0% at 5 digits"):
        scratchpads.check(scratch_board(**{"coupled-scratch": {"curve": (1.0, 0.96, 0.0, 0.0)}}), live)
    with pytest.raises(ClaimFailed, match=r"coupled IDs \+ scratchpad, 2× steps should master 1–5 digits"):
        scratchpads.check(scratch_board(**{"coupled-scratch-6k": {"mastered": False}}), live)


# -- section 4: curricula ---------------------------------------------------------------------------------------

CURRICULA = list(curricula.METHODS)


def test_ramp_problems_from_the_catalog():
    assert curricula.ramp_problems("nb08-direct") == 0
    for m in CURRICULA[1:]:
        e = entry(f"{m}-s0")
        assert curricula.ramp_problems(m) == int(e.task.curriculum_fraction * e.train.steps) * e.train.batch_size > 0
    ramp = curricula.ramp_problems
    assert ramp("nb08-length-cur-6k") == 2 * ramp("nb08-length-curriculum")      # 2x steps, same fraction


def plant_curricula(cascade=(0.5, 0.96, 1.0)):
    plant_curves("nb08-direct", [(0.96, 1.0, 1.0)] * 3)
    plant_curves("nb08-length-curriculum", [(0.1, 0.2, 0.9)] * 3)
    plant_curves("nb08-length-cur-6k", [(0.1, 0.2, 0.96), (0.1, 0.99, 1.0), (0.1, 0.2, 0.3)])
    plant_curves("nb08-cascade-curriculum", [cascade] * 3)


def curricula_board(**changes):
    return planted_board(CURRICULA, **{"length-curriculum": {"mastered": False, "curve": (1.0, 0.9, 0.0, 0.0)},
                                       "cascade-curriculum": {"curve": (1.0, 1.0, 0.045, 0.0)}, **changes})


def test_curriculum_table():
    plant_curricula()
    p = per_step("nb08-direct")
    rows = curricula.curriculum_table(curricula_board())
    assert rows["uniform (balanced) sampling"] == {"problems to 95% at 5 dig": f"{250 * p:,}", "6 dig": 0.02,
                                                   "gen. length": 5, "ramp (problems)": "0"}
    assert rows["short to long"]["problems to 95% at 5 dig"] == "never" and rows["short to long"]["gen. length"] is None
    assert rows["easy to hard (carry cascades)"]["ramp (problems)"] == \
        f"{curricula.ramp_problems('nb08-cascade-curriculum'):,}"


def test_curriculum_check_compares_only_the_mastered_curricula():
    plant_curricula()
    p = per_step("nb08-direct")
    curricula.check(curricula_board(), planted_live(CURRICULA, **{"length-curriculum": 0.5}))
    with pytest.raises(ClaimFailed, match=r"easy to hard \(carry cascades\) should fail one digit past the trained "
                                          r"range \(<= 10% at 6 digits\); got 30\.0%\. The curriculum changes the order"):
        curricula.check(curricula_board(), planted_live(CURRICULA, **{"cascade-curriculum": 0.3}))
    plant_curricula(cascade=(0.99, 1.0, 1.0))
    with pytest.raises(ClaimFailed, match=rf"easy to hard \(carry cascades\) should master 5 digits later than uniform "
                                          rf"sampling \(median problems over seeds\); got {250 * p:,} against "
                                          rf"{250 * p:,}\. Then a curriculum speeds learning up\."):
        curricula.check(curricula_board(), planted_live(CURRICULA))
    with pytest.raises(ClaimFailed, match=r"direct answer should master 1–5 digits"):
        curricula.check(curricula_board(direct={"mastered": False}), planted_live(CURRICULA))


# -- section 5: looping -----------------------------------------------------------------------------------------

LOOP_METHODS = list(looping.METHODS)


def loop_board(**changes):
    defaults = {"abacus": {"curve": (1.0, 0.42, 0.4, 0.1), "mastered": False},
                "abacus-looped": {"curve": (1.0, 0.25, 0.2, 0.1), "mastered": False},
                "abacus-eq-looped": {"curve": (1.0, 1.0, 0.83, 0.8)}, "abacus-eq": {"curve": (1.0, 1.0, 0.98, 0.0)}}
    board = planted_board(LOOP_METHODS, **{**defaults, **changes})
    for m in board["methods"].values():
        m["lengths"][looping.PER_DIGIT_LENGTH] = {"median": 0.42, "min": 0.4, "max": 0.45}
        m["lengths"][8] = {"median": 0.2, "min": 0.1, "max": 0.3}
    board["methods"]["nb08-abacus-eq"]["lengths"][8] = {"median": 0.38, "min": 0.3, "max": 0.5}   # 2 layers lead at 8
    return board


def test_passes_and_loop_table():
    for m in LOOP_METHODS:
        model = entry(f"{m}-s0").model
        if not model.looped:
            assert looping.passes(m, 5) == looping.passes(m, 15) == model.n_layers
    layers = entry("nb08-looped-s0").model.n_layers
    assert looping.passes("nb08-looped", 15) > looping.passes("nb08-looped", 5) >= 2 * layers   # at least twice
    RECORDS.update({"nb08-direct-s0": {"n_parameters": 12_345}, "nb08-looped-s0": {"n_parameters": 12_345}})
    rows = looping.loop_table(planted_board(["nb08-direct", "nb08-looped"]))
    assert rows["APE, looped"] == {"parameters": "12,345", "passes, 5 dig": looping.passes("nb08-looped", 5),
                                   "passes, 15 dig": looping.passes("nb08-looped", 15)}
    assert list(rows) == ["APE, 2 layers", "APE, looped"]


def _loop_live(**changes) -> dict:
    """Seed 0 live: the planted defaults, plus 10-digit per-digit results for the looped Abacus model (units wrong,
    the rest right) and the units digit at 5 digits of the looped abacus_eq model."""
    live = planted_live(LOOP_METHODS, **{k: changes[k] for k in ("looped", "direct") if k in changes})
    far = looping.PER_DIGIT_LENGTH
    units, rest = changes.get("units", 0.1), changes.get("rest", 0.98)
    live["nb08-abacus-looped"][far] = LengthResult(length=far, n=200, exact_match=0.1,
                                                   per_digit={0: units, **{s: rest for s in range(1, far + 1)}})
    live["nb08-abacus-eq-looped"][5] = LengthResult(length=5, n=200, exact_match=0.99,
                                                     per_digit={0: changes.get("fixed", 0.99), 1: 1.0})
    return live


def test_looping_check_passes_and_names_each_failure():
    board = loop_board()
    looping.check(board, _loop_live())
    with pytest.raises(ClaimFailed, match=re.escape(looping.METHODS["nb08-looped"]) + r" should fail one digit past "
                       r"the trained range \(<= 10% at 6 digits\); got 30\.0%\. More passes cannot fetch"):
        looping.check(board, _loop_live(looped=0.3))
    with pytest.raises(ClaimFailed, match=r"APE, 2 layers should fail one digit past .*got 11\.0%"):
        looping.check(board, _loop_live(direct=0.11))
    with pytest.raises(ClaimFailed, match=r"^Abacus \(= one below the units\) should master 1–5 digits"):
        looping.check(loop_board(**{"abacus-eq": {"mastered": False}}), _loop_live())
    with pytest.raises(ClaimFailed, match=r"^Abacus, looped should not master 1–5 digits; got 100\.0% at 5 digits\. "
                                          r"Then McLeish's IDs"):
        looping.check(loop_board(**{"abacus-looped": {"curve": (1.0, 1.0, 0.9, 0.5)}}), _loop_live())
    with pytest.raises(ClaimFailed, match=r"every digit but the units at 10 digits .*got units 50\.0%, others 98\.0%"):
        looping.check(board, _loop_live(units=0.5))
    with pytest.raises(ClaimFailed, match=r"every digit but the units .*got units 10\.0%, others 60\.0%"):
        looping.check(board, _loop_live(rest=0.6))
    with pytest.raises(ClaimFailed, match=r"should write the units digit at 5 digits \(>= 95%\); got 40\.0%"):
        looping.check(board, _loop_live(fixed=0.4))
    ahead8 = loop_board()
    ahead8["methods"]["nb08-abacus-eq-looped"]["lengths"][8] = {"median": 0.6, "min": 0.5, "max": 0.7}
    with pytest.raises(ClaimFailed, match=r"at 8 digits the 2-layer model should lead .*got 2 layers 38\.0% against "
                                          r"looped 60\.0%"):
        looping.check(ahead8, _loop_live())
    apart10 = loop_board()
    apart10["methods"]["nb08-abacus-eq-looped"]["lengths"][looping.PER_DIGIT_LENGTH] = {"median": 0.9, "min": 0.8,
                                                                                        "max": 0.95}
    with pytest.raises(ClaimFailed, match=r"ranges of the looped and the 2-layer models should overlap"):
        looping.check(apart10, _loop_live())
    close = loop_board(**{"abacus-eq": {"curve": (1.0, 1.0, 0.98, 0.7)}})
    with pytest.raises(ClaimFailed, match=r"beat the 2-layer one with the same IDs by at least 20 points.*got 80\.0% "
                                          r"against 70\.0%"):
        looping.check(close, _loop_live())


def plant_digits(monkeypatch, units5=None, top7=None):
    """Seed s's per-digit accuracy: at 5 digits the units digit at ``units5[method]`` (default: 0.1 (s + 1) for
    McLeish's IDs, 1.0 with = one below), the others at 1.0; at 7 digits the top digit at ``top7`` (default 0.4),
    the others at 0.9; at 10 digits the units digit at 0.2 and the others at 0.9, 1.0 alternately."""
    units5, top7 = units5 or {}, top7 or {}

    def per_digit(name):
        e = entry(name)
        u = units5.get(e.recipe, 0.1 * (e.seed + 1) if e.recipe in looping.ABACUS else 1.0)
        return {5: {0: u, **{s: 1.0 for s in range(1, 6)}},
                7: {**{s: 0.9 for s in range(7)}, 7: top7.get(e.recipe, 0.4)},
                10: {0: 0.2, **{s: 0.9 + 0.1 * (s % 2) for s in range(1, 11)}}}
    monkeypatch.setattr(looping, "per_digit", per_digit)


def test_digit_medians_and_table(monkeypatch):
    plant_digits(monkeypatch)
    assert looping.digit_medians("nb08-abacus", 5) == {0: pytest.approx(0.2), **{s: 1.0 for s in range(1, 6)}}
    assert looping.units_and_rest(looping.digit_medians("nb08-abacus", 10)) == (0.2, pytest.approx(0.95))
    rows = looping.digits_table(loop_board())
    assert list(rows) == [looping.METHODS[m] for m in looping.ABACUS + looping.FIXED]
    assert rows["Abacus, 2 layers"] == {"units, 5 dig": pytest.approx(0.2), "others, 5 dig": 1.0, "units, 10 dig": 0.2,
                                        "others, 10 dig": pytest.approx(0.95), "top digit, 7 dig": 0.4}


def test_check_digits_passes_and_names_each_failure(monkeypatch):
    plant_digits(monkeypatch)
    looping.check_digits(loop_board())
    plant_digits(monkeypatch, units5={"nb08-abacus-looped": 0.6})
    with pytest.raises(ClaimFailed, match=r"^Abacus, looped should miss the units digit at 5 digits \(<= 50%, "
                                          r"others >= 95%\); got 60\.0%, others 100\.0%"):
        looping.check_digits(loop_board())
    plant_digits(monkeypatch, units5={"nb08-abacus-eq": 0.9})
    with pytest.raises(ClaimFailed, match=r"= one below the units, 2 layers should write the units digit at 5 digits "
                                          r"\(>= 95%\); got 90\.0%"):
        looping.check_digits(loop_board())
    plant_digits(monkeypatch, top7={"nb08-abacus-eq-looped": 0.95})
    with pytest.raises(ClaimFailed, match=r"looped: the top digit \(the final carry\) should be the weakest at 7 "
                                          r"digits; got 95\.0%, the weakest digit 0 at 90\.0%\. Then the next weak"):
        looping.check_digits(loop_board())

"""Notebook 05 sections 1-4's measures and claim checks (lengen_utils.course.ch05_coupling: coupling,
trained_length; and common.seeds), on planted numbers; the manifest readers on the repository's zoo."""
from __future__ import annotations

import matplotlib
import pytest

from lengen_utils.lab import zoo
from lengen_utils.course.common.claims import ClaimFailed
from lengen_utils.core.formats import encode
from lengen_utils.core.positions import PositionScheme
from lengen_utils.core.problems import Problem
from lengen_utils.course.ch05_coupling import coupling, trained_length
from lengen_utils.course.common import seeds
from lengen_utils.core.tasks import TaskConfig

matplotlib.use("Agg")
LENGTHS = (5, 10, 15, 20, 25, 30, 40)


def curve(values) -> dict[int, float]:
    return dict(zip(LENGTHS, values))


def band(values) -> dict[int, tuple[float, float, float]]:
    return {n: (v, v - 0.05 if v > 0.05 else v, min(v + 0.01, 1.0)) for n, v in zip(LENGTHS, values)}


# -- seeds and section 1 -----------------------------------------------------------------------------

def test_recorded_entries_read_recipe_seeds_and_skip_other_methods():
    entries = seeds.recorded_entries("nb05-plain")
    assert entries == {0: "nb05-plain-s0", 1: "nb05-plain-s1", 2: "nb05-plain-s2"}   # not nb05-plain-2l-s*
    assert set(seeds.seed_curves("nb05-plain")) == {0, 1, 2}
    built = seeds.built_entries("nb05-plain")              # the seeds whose weights are stored (the others: retired)
    assert built and set(built.items()) <= set(entries.items())
    assert seeds.built_entries("no-such-method") == {} == seeds.recorded_entries("no-such-method")


def test_check_ids_passes_on_coupled_ids_and_names_the_operator_slot():
    ex = encode(Problem(653, 49), "cho")
    ids = PositionScheme("coupled").assign(ex)
    coupling.check_ids(ids, ex)
    with pytest.raises(ClaimFailed, match=r"`\+` and `=` should get the ID one past the top digit ID .*got a largest ID of 9"):
        coupling.check_ids([0] + [i for i in ids[1:-1]] + [9], ex)
    with pytest.raises(ClaimFailed, match="`\\$` should always get the ID 0.*got ID 3"):
        coupling.check_ids([3] + list(ids[1:]), ex)


def test_placement_reads_the_task_limits():
    got = coupling.placement(TaskConfig(format="cho", positions="coupled", max_position=64, max_digits=10))
    assert got == {"max_position": 64, "starts of a 10-digit training problem": "1–53",
                   "longest test operand (digits)": 62}          # Task.longest_operand(): 64 IDs, 2 of them not digits


def test_check_balanced():
    good = {"uniform": {"10 dig": 0.9}, "balanced": {"10 dig": 0.105}}
    coupling.check_balanced(good, 10)
    with pytest.raises(ClaimFailed, match=r"balanced sampling should give 10-digit operands a share of 1/10.*got 30\.0%"):
        coupling.check_balanced({**good, "balanced": {"10 dig": 0.3}}, 10)
    with pytest.raises(ClaimFailed, match=r"nearly all have 10 digits.*got 50\.0%"):
        coupling.check_balanced({**good, "uniform": {"10 dig": 0.5}}, 10)


def test_check_plain_passes_and_names_each_failure():
    b = band((1.0, 0.99, 0.55, 0.3, 0.1, 0.0, 0.0))            # worst seed at 10: 94%
    good = {**b, 10: (1.0, 0.99, 1.0), 15: (0.5, 0.2, 0.9)}
    coupling.check_plain(good, 10, 10)
    with pytest.raises(ClaimFailed, match=r"every seed of plain coupling should master 10 digits.*got 94\.0%"):
        coupling.check_plain({**good, 10: b[10]}, 10, 10)
    with pytest.raises(ClaimFailed, match=r"generalizable length should be its trained length \(10\); got 15"):
        coupling.check_plain(good, 15, 10)
    with pytest.raises(ClaimFailed, match=r"far apart at 15 digits.*got 50\.0% to 60\.0%"):
        coupling.check_plain({**good, 15: (0.55, 0.5, 0.6)}, 10, 10)


def test_errors_per_problem_and_check_spread():
    per = {s: 0.8 for s in range(26)}
    assert coupling.errors_per_problem(per) == pytest.approx(5.2)
    assert coupling.errors_per_problem(per, below=10) == pytest.approx(2.0)
    coupling.check_spread(per, 10)
    with pytest.raises(ClaimFailed, match=r"more than one answer digit per problem wrong here; got 0\.26"):
        coupling.check_spread({s: 0.99 for s in range(26)}, 10)
    only_new = {**{s: 1.0 for s in range(10)}, **{s: 0.7 for s in range(10, 26)}}
    with pytest.raises(ClaimFailed, match=r"among the 10 lowest; got 0\.00 of 4\.80\. Then the errors sit only"):
        coupling.check_spread(only_new, 10)


def test_setup_reads_the_entry_and_records():
    records = [{"train_seconds": 100.0, "n_parameters": 1234, "metrics": {"eval_n": 500}},
               {"train_seconds": 330.0, "n_parameters": 1234, "metrics": {"eval_n": 500}}]
    got = coupling.setup(zoo.entry("nb05-plain-s0"), records)
    assert got["parameters"] == 1234 and got["train s (one CPU core)"] == "100–330"
    assert got["test problems per length"] == 500 and got["layers"] == 1 and got["steps"] == 2000


# -- section 3: the ablation --------------------------------------------------------------------------

COST = {"methods": {"nb05-pack": {"train_seconds": [170.0, 166.0, 174.0]},
                    "nb05-both": {"train_seconds": [252.0, 292.0, 260.0]}}}


def ablation_data():
    em = {"plain": {s: curve((1, 0.99, 0.5, 0.2, 0.05, 0.0, 0.0)) for s in range(3)},
          "bias": {s: curve((1, 1, 0.99, 0.97, 0.8, 0.3, 0.2 + 0.1 * s)) for s in range(3)},
          "pack": {s: curve((1, 1, 1, 1, 0.99, 0.9, 0.96)) for s in range(3)},
          "both": {s: curve((1, 1, 1, 1, 1, 0.99, 0.97)) for s in range(3)}}
    per = {"bias": {s: {30: {k: 0.995 for k in range(31)}, 40: {k: 0.99 for k in range(41)}} for s in range(3)},
           "pack": {s: {30: {k: 0.9999 for k in range(31)}, 40: {k: 0.9999 for k in range(41)}} for s in range(3)},
           "both": {s: {n: {**{k: 1.0 for k in range(n)}, n: 0.97 if n == 40 else 0.99} for n in (30, 40)}
                    for s in range(3)}}
    gen = {"plain": 10, "bias": 20, "pack": 40, "both": 40}
    bands = {"pack": {30: (0.99, 0.89, 1.0), 40: (0.987, 0.9, 1.0)}, "both": {30: (0.993, 0.98, 1.0), 40: (0.96, 0.8, 1.0)}}
    return em, per, gen, bands


def test_check_changes_passes_and_names_the_failing_step():
    em, per, gen, bands = ablation_data()          # bias at 30: 31 x 0.005 wrong digits, 30% EM: 54.5% fail on `$`
    coupling.check_changes(gen, em, per, bands, longest=40, board=COST)
    with pytest.raises(ClaimFailed, match=r"each change should lift the generalizable length.*got 10, 10, 40"):
        coupling.check_changes({**gen, "bias": 10}, em, per, bands, longest=40, board=COST)
    with pytest.raises(ClaimFailed, match="both changes should hold up to the longest test"):
        coupling.check_changes({**gen, "both": 30, "pack": 30}, em, per, bands, longest=40, board=COST)
    bad = {**per, "bias": {s: {30: {k: 0.9 for k in range(31)}} for s in range(3)}}
    with pytest.raises(ClaimFailed, match="fail only on the closing `\\$`"):
        coupling.check_changes(gen, em, bad, bands, longest=40, board=COST)
    bad = {**per, "pack": {**per["pack"], 2: {30: {k: 0.99 for k in range(31)}, 40: per["pack"][0][40]}}}
    with pytest.raises(ClaimFailed, match=r"with \+ packing the digits below the final carry should be right.*got 0\.300"):
        coupling.check_changes(gen, em, bad, bands, longest=40, board=COST)
    with pytest.raises(ClaimFailed, match="the final carry right, yet exact match lost"):
        coupling.check_changes(gen, {**em, "pack": {s: curve((1,) * 7) for s in range(3)}}, per, bands, longest=40,
                               board=COST)
    with pytest.raises(ClaimFailed, match=r"final carry should account for nearly all of the loss.*seed 0: 7\.0%"):
        coupling.check_changes(gen, {**em, "both": {s: curve((1, 1, 1, 1, 1, 0.99, 0.9)) for s in range(3)}}, per,
                               bands, longest=40, board=COST)
    with pytest.raises(ClaimFailed, match="not be separated by three seeds"):
        coupling.check_changes(gen, em, per, {**bands, "pack": {n: (1.0, 1.0, 1.0) for n in (30, 40)}}, longest=40,
                               board=COST)


def test_end_rows_and_the_cost_of_a_step():
    em, per, gen, bands = ablation_data()
    rows = coupling.end_rows(em, per)
    assert rows["+ packing, seed 0"] == {"EM 30": 0.9, "wrong digits 30": "0.003", "final carry 30": 0.9999,
                                         "EM 40": 0.96, "wrong digits 40": "0.004", "final carry 40": 0.9999}
    slow = {"methods": {**COST["methods"], "nb05-pack": {"train_seconds": [300.0]}}}
    with pytest.raises(ClaimFailed, match=r"packing alone should train faster.*got 300 s against 260 s"):
        coupling.check_changes(gen, em, per, bands, longest=40, board=slow)


def test_check_live():
    good = {"plain": {10: 1.0, 30: 0.0}, "both": {10: 1.0, 30: 0.98}}
    coupling.check_live(good)
    with pytest.raises(ClaimFailed, match=r"plain coupling should fail at 30 digits.*got 80\.0%"):
        coupling.check_live({**good, "plain": {10: 1.0, 30: 0.8}})
    with pytest.raises(ClaimFailed, match=r"both changes should hold at 30 digits.*got 50\.0%"):
        coupling.check_live({**good, "both": {10: 1.0, 30: 0.5}})


def test_curves_read_the_ablation_from_the_manifest():
    em, per = coupling.curves()
    assert set(em) == set(coupling.METHODS) and set(per) == {"bias", "pack", "both"}
    assert set(em["plain"]) == {0, 1, 2} and set(per["both"][0]) == set(em["both"][0])


def test_check_board_compares_the_generalizable_lengths():
    board = {"missing": [], "methods": {f"nb05-{m}": {"generalizable_length": g} for m, g in
                                        {"plain": 10, "bias": 20}.items()}}
    coupling.check_board(board, {"plain": 10, "bias": 20})
    with pytest.raises(ClaimFailed, match=r"\+ relative bias the generalizable length computed above \(25\); got 20"):
        coupling.check_board(board, {"plain": 10, "bias": 25})
    with pytest.raises(ClaimFailed, match="every entry of the ablation should be built"):
        coupling.check_board({**board, "missing": ["nb05-bias-s2"]}, {"plain": 10})


# -- section 4: trained length, the sink ---------------------------------------------------------------

def test_digits_length_stops_at_the_first_weak_digit_below_the_final_carry():
    per = {10: {**{s: 1.0 for s in range(10)}, 10: 0.2},          # the final carry (significance 10) is ignored
           20: {**{s: 0.99 for s in range(20)}, 20: 0.0},
           30: {**{s: 0.99 for s in range(29)}, 29: 0.9, 30: 1.0},
           40: {s: 1.0 for s in range(41)}}
    assert trained_length.digits_length(per) == 20
    assert trained_length.worst_digit(per[30], 30) == 0.9


def test_trained_length_check_live_messages():
    live = {5: {5: 1.0, 20: 0.9, 120: 0.0}}
    trained_length.check_live(live, {5: 20}, {5: 120}, {5: 0.95}, 120)
    with pytest.raises(ClaimFailed, match=r"hold its generalizable length 20 .*got 50\.0%"):
        trained_length.check_live({5: {5: 1.0, 20: 0.5, 120: 0.0}}, {5: 20}, {5: 120}, {5: 0.95}, 120)
    with pytest.raises(ClaimFailed, match=r"every digit below the final carry should be right at 120 digits.*got 80\.0%"):
        trained_length.check_live(live, {5: 20}, {5: 120}, {5: 0.8}, 120)
    trained_length.check_live(live, {5: 20}, {5: 60}, {5: 0.8}, 120)     # digits not claimed right at 120


def test_check_figure3_and_failures():
    trained_length.check_figure3({5: 5, 10: 40}, {5: 120, 10: 120}, 120)
    with pytest.raises(ClaimFailed, match=r"trained on 1–10, the generalizable length should be at least 10; got 5"):
        trained_length.check_figure3({5: 5, 10: 5}, {5: 120, 10: 120}, 120)
    with pytest.raises(ClaimFailed, match=r"stay right to our longest test \(120 digits\) in every seed; got up to 60"):
        trained_length.check_figure3({5: 5}, {5: 60}, 120)
    fail = {5: {"length": "10", "digits below the final carry (worst)": 1.0, "final carry": 0.55, "exact match": 0.14},
            10: {"length": "50", "digits below the final carry (worst)": 0.99, "final carry": 1.0, "exact match": 1.0}}
    trained_length.check_failures(fail)
    with pytest.raises(ClaimFailed, match=r"trained on 1–10, past the generalizable length the digits.*got 80\.0%"):
        trained_length.check_failures({**fail, 10: {**fail[10], "digits below the final carry (worst)": 0.8}})
    with pytest.raises(ClaimFailed, match=r"trained on 1–5, the final carry should fail.*got 95\.0%"):
        trained_length.check_failures({**fail, 5: {**fail[5], "final carry": 0.95}})


def test_curves_refuse_when_nothing_is_built_and_the_figure_meets_the_standard():
    with pytest.raises(ClaimFailed, match="Figure 3 runs should be built.*The catalog has no recipe 'nope'"):
        trained_length.curves({5: "nope"})
    fig = trained_length.plot_figure3({"ours": {5: 30, 10: 40}}, 120, "Figure 3")
    assert fig.axes[0].get_title() == "Figure 3"


def test_sink_checks_and_texts():
    trained_length.check_start({1: 0.95, 2: 0.1, 5: 0.0})
    with pytest.raises(ClaimFailed, match=r"at any other start it should fail.*got 60\.0% from 2"):
        trained_length.check_start({1: 0.95, 2: 0.6, 5: 0.0})
    trained_length.check_sink_live({"nb05-len10-s2": {40: 0.5, 70: 0.1}, "nb05-sink-s2": {40: 1.0, 70: 0.97}})
    with pytest.raises(ClaimFailed, match=r"with the sink, seed 2 should hold 70 digits.*got 70\.0%"):
        trained_length.check_sink_live({"nb05-len10-s2": {40: 0.5, 70: 0.1}, "nb05-sink-s2": {40: 1.0, 70: 0.7}})
    trained_length.check_live({5: {5: 1.0, 30: 0.9}}, {5: 30}, label="with the sink, ")
    with pytest.raises(ClaimFailed, match="with the sink, trained on 1–5, it should hold its generalizable length 30"):
        trained_length.check_live({5: {5: 1.0, 30: 0.5}}, {5: 30}, label="with the sink, ")
    trained_length.check_sink_figure3({5: 5, 10: 40}, {5: 30, 10: 120}, 120)
    with pytest.raises(ClaimFailed, match=r"trained on 1–5, the sink should lift the generalizable length; got 5 against 5"):
        trained_length.check_sink_figure3({5: 5}, {5: 5}, 120)
    with pytest.raises(ClaimFailed, match=r"trained on 1–10 with the sink.*longest test \(120\); got 100"):
        trained_length.check_sink_figure3({10: 40}, {10: 100}, 120)


def sink_boards(median70=0.99, worst40=0.95, without40=0.6, gen=120):
    lengths = {n: {"median": 1.0, "min": 1.0, "max": 1.0} for n in (40, 60, 70, 120)}
    return ({"methods": {"nb05-sink": {"generalizable_length": gen, "lengths": {
                **lengths, 70: {"median": median70, "min": 0.9, "max": 1.0}, 40: {"median": 1.0, "min": worst40}}}}},
            {"methods": {"nb05-len10": {"lengths": {60: {"median": 0.7}, 40: {"median": 0.96, "min": without40}}}}})


def test_sink_check_targets():
    trained_length.check_targets(*sink_boards())
    with pytest.raises(ClaimFailed, match=r"median at 70 digits should reach 95% and the worst seed at 40 90%; got "
                                          r"median at 70 90\.0%, worst at 40 95\.0%"):
        trained_length.check_targets(*sink_boards(median70=0.9))
    with pytest.raises(ClaimFailed, match="without the sink the same recipe should miss both targets"):
        trained_length.check_targets(*sink_boards(without40=0.95))
    with pytest.raises(ClaimFailed, match=r"reach our longest test \(120 digits\); got 70"):
        trained_length.check_targets(*sink_boards(gen=70))

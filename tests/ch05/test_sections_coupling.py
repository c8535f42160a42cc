"""Notebook 05 sections 1-4's prose and claim checks (lengen_utils.course.ch05_coupling: coupling, ablation,
trained_length, sink; and common.seeds), on planted numbers; the manifest readers on the repository's zoo."""
from __future__ import annotations

import matplotlib
import pytest

from lengen_utils.lab import zoo
from lengen_utils.course.common.claims import ClaimFailed
from lengen_utils.core.formats import encode
from lengen_utils.core.positions import PositionScheme
from lengen_utils.core.problems import Problem
from lengen_utils.course.ch05_coupling import ablation, coupling, sink, trained_length
from lengen_utils.course.common import seeds
from lengen_utils.core.tasks import TaskConfig

matplotlib.use("Agg")
LENGTHS = (5, 10, 15, 20, 25, 30, 40)


def curve(values) -> dict[int, float]:
    return dict(zip(LENGTHS, values))


def band(values) -> dict[int, tuple[float, float, float]]:
    return {n: (v, v - 0.05 if v > 0.05 else v, min(v + 0.01, 1.0)) for n, v in zip(LENGTHS, values)}


# -- seeds and section 1 -----------------------------------------------------------------------------

def test_built_entries_read_recipe_seeds_and_skip_other_methods():
    entries = seeds.built_entries("nb05-plain")
    assert entries == {0: "nb05-plain-s0", 1: "nb05-plain-s1", 2: "nb05-plain-s2"}   # not nb05-plain-2l-s*
    assert set(seeds.seed_curves("nb05-plain")) == {0, 1, 2}
    assert seeds.built_entries("no-such-method") == {}


def test_check_ids_passes_on_coupled_ids_and_names_the_operator_slot():
    ex = encode(Problem(653, 49), "cho")
    ids = PositionScheme("coupled").assign(ex)
    coupling.check_ids(ids, ex)
    with pytest.raises(ClaimFailed, match=r"`\+` and `=` should get the ID one past the top digit ID .*got a largest ID of 9"):
        coupling.check_ids([0] + [i for i in ids[1:-1]] + [9], ex)
    with pytest.raises(ClaimFailed, match="`\\$` should always get the ID 0.*got ID 3"):
        coupling.check_ids([3] + list(ids[1:]), ex)


def test_placement_text_uses_the_task_limits():
    text = coupling.placement_text(TaskConfig(format="cho", positions="coupled", max_position=64, max_digits=10))
    assert "`max_position` = 64" in text and "10-digit training problem" in text
    assert "up to **62 digits**" in text          # Task.longest_operand(): 64 IDs, 2 of them not digits


def test_check_balanced():
    good = {"uniform": {"10 dig": 0.9}, "balanced": {"10 dig": 0.105}}
    coupling.check_balanced(good, 10)
    with pytest.raises(ClaimFailed, match=r"balanced sampling should give 10-digit operands a share of 1/10.*got 30\.0%"):
        coupling.check_balanced({**good, "balanced": {"10 dig": 0.3}}, 10)
    with pytest.raises(ClaimFailed, match=r"nearly all have 10 digits.*got 50\.0%"):
        coupling.check_balanced({**good, "uniform": {"10 dig": 0.5}}, 10)


def test_plain_and_errors_text_use_their_numbers():
    b = band((1.0, 0.99, 0.55, 0.3, 0.1, 0.0, 0.0))
    text = coupling.plain_text(b, 10)
    assert "worst seed 94.0% at 10 digits" in text and "**10** (between 10 and 14 digits)" in text
    assert "55.0% at 15 digits and 30.0% at 20" in text and "from 50.0% to 56.0%" in text
    per = {25: {s: 0.8 for s in range(26)}}
    assert "**5.2** answer digits" in coupling.errors_text(per, 25, seed=2) and "the 26 answer digits" in \
        coupling.errors_text(per, 25, seed=2)


def test_setup_text_reads_the_entry_and_records():
    records = [{"train_seconds": 100.0, "n_parameters": 1234, "metrics": {"eval_n": 500}},
               {"train_seconds": 330.0, "n_parameters": 1234, "metrics": {"eval_n": 500}}]
    text = coupling.setup_text(zoo.entry("nb05-plain-s0"), records)
    assert "1,234 parameters" in text and "100 s to 5.5 minutes" in text and "500 problems per length" in text


# -- section 3: the ablation --------------------------------------------------------------------------

def ablation_data(both40=0.97, bias_closing=True, bias_digit=0.99):
    em = {"plain": {s: curve((1, 0.99, 0.5, 0.2, 0.05, 0.0, 0.0)) for s in range(3)},
          "bias": {s: curve((1, 1, 0.99, 0.97, 0.8, 0.3, 0.2 + 0.1 * s)) for s in range(3)},
          "pack": {s: curve((1, 1, 1, 1, 0.99, 0.97, 0.96)) for s in range(3)},
          "both": {s: curve((1, 1, 1, 1, 1, 0.99, both40)) for s in range(3)}}
    digit = bias_digit if bias_closing else 0.9
    per = {"bias": {s: {30: {k: digit for k in range(31)}} for s in range(3)},
           "pack": {s: {30: {k: 0.999 for k in range(31)}, 40: {k: 0.9995 for k in range(41)}} for s in range(3)},
           "both": {s: {40: {**{k: 1.0 for k in range(40)}, 40: 0.97}} for s in range(3)}}
    gen = {"plain": 10, "bias": 20, "pack": 40, "both": 40}
    bands = {m: {n: (v, v - 0.02, v) for n, v in c[0].items()} for m, c in em.items()}
    return em, per, gen, bands


def test_check_changes_passes_and_names_the_failing_step():
    em, per, gen, bands = ablation_data(bias_digit=0.995)     # 31 x 0.005 errors: 54.5% fail on the `$` alone
    ablation.check_changes(gen, em, per, longest=40)
    with pytest.raises(ClaimFailed, match=r"relative bias should lift the generalizable length above plain coupling; "
                                          r"got 10 against 10"):
        ablation.check_changes({**gen, "bias": 10}, em, per, longest=40)
    with pytest.raises(ClaimFailed, match="both changes should hold up to the longest test"):
        ablation.check_changes({**gen, "both": 30, "pack": 30}, em, per, longest=40)
    em_bad, per_bad, _, _ = ablation_data(bias_closing=False)
    with pytest.raises(ClaimFailed, match="fail only on the closing `\\$`"):
        ablation.check_changes(gen, em_bad, per_bad, longest=40)


def test_changes_text_renders_the_seeds_numbers():
    em, per, gen, bands = ablation_data()
    text = ablation.changes_text(em, bands, gen, per)
    assert "from 10 to 20 digits" in text and "(40 digits: 20.0%, 30.0%, 40.0%)" in text
    assert "errors sum to 0.310 per problem" in text and "at least 39% of the" in text   # 1 - 0.31 - 0.3
    assert "seed 1 gets it right in 97.0% of the 40-digit problems" in text


def test_check_live_and_live_text():
    good = {"plain": {10: 1.0, 30: 0.0}, "both": {10: 1.0, 30: 0.98}}
    ablation.check_live(good)
    with pytest.raises(ClaimFailed, match=r"plain coupling should fail at 30 digits.*got 80\.0%"):
        ablation.check_live({**good, "plain": {10: 1.0, 30: 0.8}})
    with pytest.raises(ClaimFailed, match=r"both changes should hold at 30 digits.*got 50\.0%"):
        ablation.check_live({**good, "both": {10: 1.0, 30: 0.5}})
    assert "300 new problems" in ablation.live_text(good, 300) and "and 98.0%" in ablation.live_text(good, 300)


def test_check_board_compares_the_generalizable_lengths():
    board = {"missing": [], "methods": {f"nb05-{m}": {"generalizable_length": g} for m, g in
                                        {"plain": 10, "bias": 20}.items()}}
    ablation.check_board(board, {"plain": 10, "bias": 20})
    with pytest.raises(ClaimFailed, match=r"\+ relative bias the generalizable length computed above \(25\); got 20"):
        ablation.check_board(board, {"plain": 10, "bias": 25})
    with pytest.raises(ClaimFailed, match="every entry of the ablation should be built"):
        ablation.check_board({**board, "missing": ["nb05-bias-s2"]}, {"plain": 10})


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


def test_gen_and_failures_text():
    fig3 = {5: {0: {5: 1.0}, 1: {5: 1.0}}, 10: {0: {10: 1.0}}}
    text = trained_length.gen_text(fig3, {5: 30, 10: 40}, {5: 120, 10: 120}, 120)
    assert "**30** when trained on 1–5 (6.0× the trained length)" in text and "**120**, **120** digits (1–5, 1–10)" in text
    assert "Seeds per trained length: 2, 1." in text
    fail = {5: {"length": "40", "digits below the final carry (worst)": 0.99, "final carry": 0.3, "exact match": 0.25},
            10: {"length": "60", "digits below the final carry (worst)": 0.98, "final carry": 0.5, "exact match": 0.4}}
    text = trained_length.failures_text(fail)
    assert "trained on 1–5, at 40 digits" in text and "only 30.0%" in text and "exact match 25.0%" in text
    assert "Trained on 1–10, at 60 digits: digits 98.0%, final carry 50.0%, exact match 40.0%." in text


def test_curves_refuse_when_nothing_is_built_and_the_figure_meets_the_standard():
    with pytest.raises(ClaimFailed, match="Figure 3 runs should be built.*The catalog has no recipe 'nope'"):
        trained_length.curves({5: "nope"})
    fig = trained_length.plot_figure3({"ours": {5: 30, 10: 40}}, 120, "Figure 3")
    assert fig.axes[0].get_title() == "Figure 3"


def test_sink_checks_and_texts():
    sink.check_start({1: 0.95, 2: 0.1, 5: 0.0})
    with pytest.raises(ClaimFailed, match=r"at any other start it should fail.*got 60\.0% from 2"):
        sink.check_start({1: 0.95, 2: 0.6, 5: 0.0})
    sink.check_live({"nb05-len10-s2": {40: 0.5, 70: 0.1}, "nb05-sink-s2": {40: 1.0, 70: 0.97}})
    with pytest.raises(ClaimFailed, match=r"with the sink, seed 2 should hold 70 digits.*got 70\.0%"):
        sink.check_live({"nb05-len10-s2": {40: 0.5, 70: 0.1}, "nb05-sink-s2": {40: 1.0, 70: 0.7}})
    sink.check_live3({5: {5: 1.0, 30: 0.9}}, {5: 30})
    with pytest.raises(ClaimFailed, match="generalizable length 30"):
        sink.check_live3({5: {5: 1.0, 30: 0.5}}, {5: 30})
    text = sink.figure3_text({5: 30, 10: 120}, {5: 20}, 120)
    assert "**30** for 1–5 (without: 20)" in text and "**120** for 1–10 (five seeds)" in text
    lengths = {n: {"median": 0.9, "min": 0.8, "max": 1.0} for n in (40, 60, 70, 80, 120)}
    boards = ({"methods": {"nb05-sink": {"seeds": [0, 1, 2, 3, 4], "lengths": lengths, "train_seconds": [300.0, 400.0],
                                         "generalizable_length": 120}}},
              {"methods": {"nb05-len10": {"lengths": {**lengths, 40: {"median": 0.7, "min": 0.33, "max": 1.0}}}}})
    text = sink.sink_text(*boards)
    assert "Over 5 seeds" in text and "without the sink 33.0%" in text and "300–400 s" in text and "**120**" in text

"""Notebook 05's "Do we need the table at all?": dilution arithmetic, claim checks and prose, on planted numbers."""
from __future__ import annotations

import math

import pytest

from lengen_utils.course.common.claims import ClaimFailed
from lengen_utils.course.ch05_coupling import reach
from lengen_utils.lab.leaderboard import leaderboard
from lengen_utils.lab.zoo import entry


def test_right_key_weight_is_the_softmax_of_one_margin():
    assert reach.right_key_weight(0.0, 4) == pytest.approx(0.25)
    assert reach.right_key_weight(math.log(99), 100) == pytest.approx(0.5)
    # scalable softmax: the margin is multiplied by s log n
    assert reach.right_key_weight(1.0, 100, length_scale=2.0) == pytest.approx(1 / (1 + 99 * 100 ** -2.0))
    with pytest.raises(ValueError, match="n .* must be >= 1"):
        reach.right_key_weight(1.0, 0)


def test_dilution_rows_agree_at_training_and_diverge_at_long_contexts():
    rows = reach.dilution_rows(6.0, (140, 3000), length_scale=0.3)
    train, test = rows["140 keys"], rows["3,000 keys"]
    assert train["softmax"] == pytest.approx(train["scalable softmax"])
    assert test["softmax"] < 0.5 * train["softmax"]                     # diluted
    assert test["scalable softmax"] > train["scalable softmax"]          # the scaled margin grows with log n


def live(ours_long: float, plain_long: float, ours_short: float = 1.0) -> dict:
    return {reach.OURS: {10: ours_short, 1000: ours_long}, "plain": {10: 1.0, 1000: plain_long}}


def test_check_reach_passes_and_names_each_failure():
    reach.check_reach(live(0.99, 0.0), 10, 1000)
    with pytest.raises(ClaimFailed, match=r"should add 1000-digit numbers.*got 80\.0%"):
        reach.check_reach(live(0.8, 0.0), 10, 1000)
    with pytest.raises(ClaimFailed, match=r"without the scalable softmax .* fail at 1000 digits.*got 90\.0%"):
        reach.check_reach(live(0.99, 0.9), 10, 1000)
    with pytest.raises(ClaimFailed, match=r"master 10-digit sums.*got 90\.0%"):
        reach.check_reach(live(0.99, 0.0, ours_short=0.9), 10, 1000)


def board(method: str, entries: list[str], lengths: dict[int, tuple[float, float]], seconds: list[float]) -> dict:
    return {"methods": {method: {"entries": entries, "seeds": list(range(len(entries))), "train_seconds": seconds,
                                 "lengths": {n: {"median": m, "min": lo, "max": m} for n, (m, lo) in lengths.items()}}}}


def reach_boards(worst100=0.996, at500=(0.0, 0.0, 0.665), at1000=(0.0, 0.0, 0.035), median1000=0.99):
    seeds = board(reach.OURS, [f"flagship-reach-s{s}" for s in range(5)],
                  {10: (1.0, 1.0), 100: (1.0, worst100), 500: (1.0, 0.97), 1000: (median1000, 0.93)}, [150.0, 170.0])
    knobs = {"methods": {}}
    for (p, m), a, b in zip(sorted(reach.PACKS.items()), at500, at1000):
        knobs["methods"].update(board(m, [f"{m}-s0"], {100: (1.0, 1.0), 500: (a, a), 1000: (b, b)}, [210.0])["methods"])
    return seeds, knobs


def test_check_boards_passes_and_names_each_failure():
    reach.check_boards(*reach_boards())
    with pytest.raises(ClaimFailed, match=r"should add 1000-digit numbers \(median >= 95%\); got 80\.0%"):
        reach.check_boards(*reach_boards(median1000=0.8))
    with pytest.raises(ClaimFailed, match=r"up to 100 digits; got 90\.0%"):
        reach.check_boards(*reach_boards(worst100=0.9))
    with pytest.raises(ClaimFailed, match=r"push the reach out \(median at 500 digits never lower\); got 0\.0%, 50\.0%, 10\.0%"):
        reach.check_boards(*reach_boards(at500=(0.0, 0.5, 0.1)))
    with pytest.raises(ClaimFailed, match=r"no packing should reach 1000 digits.*got 0\.0%, 0\.0%, 60\.0%"):
        reach.check_boards(*reach_boards(at1000=(0.0, 0.0, 0.6)))


def test_reach_curves_label_the_rows():
    seeds, knobs = reach_boards()
    knobs = {"methods": {reach.PACKS[8]: knobs["methods"][reach.PACKS[8]]}}
    assert reach.knob_labels(knobs) == {reach.PACKS[8]: "no table, 8 problems per sequence"}
    curves = reach.reach_curves(seeds, knobs)
    assert set(curves) == {"no table, 8 problems per sequence",
                           f"no table, {entry('flagship-reach-s0').task.pack} per sequence + scalable softmax (median of 5 seeds)"}


def test_the_ablation_partner_has_our_packing():
    assert reach.same_without(8) == "nb05-reach-pack8-s0"
    with pytest.raises(ValueError, match=r"packs 5 problems per sequence; built: \[4, 8, 16\]"):
        reach.same_without(5)
    assert reach.same_without() == f"nb05-reach-pack{entry('flagship-reach-s0').task.pack}-s0"


def _board(method: str, seconds: list[float], lengths: dict[int, tuple[float, float]]) -> dict:
    """A leaderboard of one method, with ``{length: (median, min)}``."""
    return {"methods": {method: {"seeds": list(range(len(seconds))), "train_seconds": seconds,
                                 "lengths": {n: {"median": m, "min": lo, "max": 1.0} for n, (m, lo) in lengths.items()}}}}


GOOD = {5: (1.0, 0.996), 100: (1.0, 1.0), 500: (1.0, 0.93), 1000: (0.97, 0.5)}


def test_check_minute_passes_on_the_targets_and_names_each_failure():
    slow = _board(reach.OURS, [160.0, 170.0], GOOD)
    reach.check_minute(_board(reach.MINUTE, [70.0] * 5, GOOD), slow)
    with pytest.raises(ClaimFailed, match=r"1000-digit numbers .*got 90\.0%"):
        reach.check_minute(_board(reach.MINUTE, [70.0] * 5, {**GOOD, 1000: (0.9, 0.5)}), slow)
    with pytest.raises(ClaimFailed, match=r"90% at 500 digits.*got 80\.0%"):
        reach.check_minute(_board(reach.MINUTE, [70.0] * 5, {**GOOD, 500: (1.0, 0.8)}), slow)
    with pytest.raises(ClaimFailed, match=r"every length up to 100 digits.*got 99\.0%"):
        reach.check_minute(_board(reach.MINUTE, [70.0] * 5, {**GOOD, 5: (1.0, 0.99)}), slow)
    with pytest.raises(ClaimFailed, match=r"fewer seconds.*got 165 s against 160 s"):
        reach.check_minute(_board(reach.MINUTE, [70.0] * 4 + [165.0], GOOD), slow)
    with pytest.raises(ClaimFailed, match=r"at least 5 seeds.*got 3"):
        reach.check_minute(_board(reach.MINUTE, [70.0] * 3, GOOD), slow)


def test_check_minute_holds_on_the_recorded_seeds():
    reach.check_minute(leaderboard("flagship-minute"), leaderboard("flagship-seeds"))


def test_median_and_worst_rows_name_the_worst_seed_beside_the_median():
    board = {"methods": {"m": {"entries": ["m-s0", "m-s1", "m-s2"], "seeds": [0, 1, 2],
                               "lengths": {10: {"median": 1.0}, 1000: {"median": 0.99}}}}}
    manifest = {"m-s0": {"metrics": {"em": {"10": 1.0, "1000": 1.0}}},
                "m-s1": {"metrics": {"em": {"10": 1.0, "1000": 0.99}}},
                "m-s2": {"metrics": {"em": {"10": 0.998, "1000": 0.582}}}}
    rows = reach.median_and_worst_rows(board, "m", "recipe", manifest)
    assert list(rows) == ["recipe: median of 3 seeds", "recipe: worst seed (seed 2)"]
    assert rows["recipe: worst seed (seed 2)"] == {"10 dig": "99.8%", "1000 dig": "58.2%"}
    assert rows["recipe: median of 3 seeds"]["1000 dig"] == "99.0%"

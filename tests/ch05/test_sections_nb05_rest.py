"""Notebook 05 sections 5, 6 and 9's measures and claim checks (lengen_utils.course.ch05_coupling: baselines,
depth, coupling_attention), on planted numbers: each check passes when the claim holds
and raises ClaimFailed with its teaching message when it does not."""
from __future__ import annotations

import matplotlib
import numpy as np
import pytest
import torch

from lengen_utils.course.common.claims import ClaimFailed
from lengen_utils.core.model import ModelConfig
from lengen_utils.core.model.encodings import RelativeScalarBias
from lengen_utils.core.problems import Problem
from lengen_utils.course.ch05_coupling import baselines, coupling_attention as ca, depth
from lengen_utils.course.notebook import table
from lengen_utils.lab.leaderboard import leaderboard
from lengen_utils.core.tasks import Task, TaskConfig

matplotlib.use("Agg")

# -- section 5: the baselines ----------------------------------------------------------------------------------

FALLING = ("ape", "rsape", "nope", "rope", "alibi")


def method(mastered=True, at10=1.0, at15=0.02, at40=0.0, layers=1, steps=5000, seeds=(0, 1, 2)):
    return {"mastered": mastered, "budget": {"layers": layers, "steps": steps}, "seeds": list(seeds),
            "lengths": {10: {"median": at10}, 15: {"median": at15}, 40: {"median": at40}}}


def planted_board(**changes) -> dict:
    methods = {"nb05-plain": method(at15=0.61, steps=8000), "nb05-both": method(at15=0.995, at40=0.973),
               **{f"nb05-base-{m}": method(at15=0.01 * i, layers=2 + i % 2, steps=10_000 + i)
                  for i, m in enumerate(FALLING)},
               "nb05-base-hints": method(at15=0.42, layers=3, seeds=(0, 1)),
               "nb05-base-abacus": method(at15=0.31, layers=2, steps=20_000)}
    for name, fields in changes.items():
        methods[f"nb05-{name}"] = {**methods[f"nb05-{name}"], **fields}
    return {"methods": methods}


def planted_live(**changes) -> dict[str, dict[int, float]]:
    live = {m: {10: 0.99, 12: 0.5, 15: 0.03} for m in planted_board()["methods"]}
    live["nb05-both"] = {10: 1.0, 15: 0.99}
    live["nb05-base-hints"] = {10: 0.98, 12: 0.874, 15: 0.4}
    live["nb05-base-abacus"] = {10: 0.97, 15: 0.256}
    for name, values in changes.items():
        live[f"nb05-{name}"] = {**live[f"nb05-{name}"], **values}
    return live


def test_board_readers():
    board = planted_board(**{"base-nope": {"mastered": False}})
    assert set(baselines.built(board)) == set(board["methods"])
    assert "nb05-base-nope" not in baselines.mastered(board) and "nb05-base-ape" in baselines.mastered(board)


def test_check_passes_and_names_each_failure():
    board, live = planted_board(), planted_live()
    baselines.check(board, live)
    with pytest.raises(ClaimFailed, match=r"APE masters 1–10 digits in the manifest, so it should live too.*got 80\.0%"):
        baselines.check(board, planted_live(**{"base-ape": {10: 0.8}}))
    with pytest.raises(ClaimFailed, match=r"NoPE ties no digit to its significance, so it should fall to 10% or less "
                                          r"at 15 digits; got 30\.0%\. Cho et al\."):
        baselines.check(board, planted_live(**{"base-nope": {15: 0.3}}))
    with pytest.raises(ClaimFailed, match=r"our variant should hold 15 digits \(>= 95%\); got 90\.0%"):
        baselines.check(board, planted_live(both={15: 0.9}))
    with pytest.raises(ClaimFailed, match=r"Abacus should stay below 50% at 15 digits live.*got 60\.0%"):
        baselines.check(board, planted_live(**{"base-abacus": {15: 0.6}}))
    baselines.check(planted_board(**{"base-abacus": {"mastered": False}}), planted_live(**{"base-abacus": {15: 0.6}}),
                    unmastered={"nb05-base-abacus": [0.9]})       # not mastered: no claim at 15 digits


def test_check_needs_and_checks_the_unmastered_seeds():
    board = planted_board(**{"base-rope": {"mastered": False}})
    with pytest.raises(ValueError, match="nb05-base-rope is not mastered in the manifest: pass"):
        baselines.check(board, planted_live())
    baselines.check(board, planted_live(), unmastered={"nb05-base-rope": [0.9, 0.95, 0.99]})
    with pytest.raises(ClaimFailed, match=r"RoPE is not mastered in the manifest, so its live median.*"
                                          r"got 96\.0%, 97\.0%, 99\.0%"):
        baselines.check(board, planted_live(), unmastered={"nb05-base-rope": [0.96, 0.97, 0.99]})
    few = planted_board(**{f"base-{m}": {"mastered": False} for m in ("ape", "rsape", "nope")})
    with pytest.raises(ClaimFailed, match=r"at least three baselines .* got nb05-base-rope, nb05-base-alibi"):
        baselines.check(few, planted_live(), unmastered={f"nb05-base-{m}": [0.5] for m in ("ape", "rsape", "nope")})


# -- section 6: depth --------------------------------------------------------------------------------------------

DEPTH_LENGTHS = (5, 10, 15, 20, 30)


def depth_curves(at15, at20, at30=0.0, seeds=3, worst10=0.97):
    return {s: dict(zip(DEPTH_LENGTHS, (1.0, 1.0 if s else worst10, at15 + 0.01 * s, at20, at30)))
            for s in range(seeds)}


def test_depth_rows_and_check_curves():
    planted = {1: depth_curves(0.6, 0.2), 2: depth_curves(0.97, 0.4, 0.05), 3: depth_curves(0.8, 0.3, seeds=2)}
    seconds = {1: [100.0, 120.0, 110.0], 2: [200.0, 220.0, 210.0], 3: [300.0, 360.0]}
    rows = depth.rows(planted, seconds)
    assert rows["1 layer"]["15 dig"] == pytest.approx((0.61, 0.60, 0.62)) and rows["2 layers"]["gen. length"] == 15
    assert rows["3 layers"]["train time"] == "300 s, 360 s" and rows["3 layers"]["seeds"] == 2
    assert "| 1 layer | 100.0 [100.0–100.0] | 100.0 [97.0–100.0] | 61.0 [60.0–62.0] |" in str(table(rows).data)
    assert depth.layers(1) == "1 layer" and depth.layers(3) == "3 layers"
    fine = {1: planted[1], 3: planted[3]}
    depth.check_curves(fine, seconds)
    with pytest.raises(ClaimFailed, match=r"with 2 layers the generalizable length should stay at 10; got 15"):
        depth.check_curves(planted, seconds)
    with pytest.raises(ClaimFailed, match=r"every seed with 1 layer should master 10 digits.*got 90\.0%"):
        depth.check_curves({**fine, 1: depth_curves(0.6, 0.2, worst10=0.9)}, seconds)
    with pytest.raises(ClaimFailed, match=r"with 3 layers the median at 30 digits should be near zero.*got 20\.0%"):
        depth.check_curves({**fine, 3: depth_curves(0.8, 0.3, at30=0.2)}, seconds)
    with pytest.raises(ClaimFailed, match=r"3 layers should keep more than 1 layer at 15 digits.*got 50\.5% against 61\.0%"):
        depth.check_curves({**fine, 3: depth_curves(0.5, 0.3, seeds=2)}, seconds)
    with pytest.raises(ClaimFailed, match=r"a 3-layer step should cost more.*got 50 s against 110 s"):
        depth.check_curves(fine, {**seconds, 3: [50.0]})


def test_depth_check_live():
    depth.check_live({1: {10: 0.99, 30: 0.0}, 3: {10: 0.96, 30: 0.1}})
    with pytest.raises(ClaimFailed, match=r"with 2 layers should master 10 digits \(>= 95%\); got 90\.0%"):
        depth.check_live({1: {10: 0.99, 30: 0.0}, 2: {10: 0.9, 30: 0.0}})
    with pytest.raises(ClaimFailed, match=r"with 3 layers should not reach 30 digits \(<= 10%\).*got 40\.0%\. If depth"):
        depth.check_live({3: {10: 1.0, 30: 0.4}})


# -- section 9: where the coupled relative bias puts its weight ----------------------------------------------------

D = np.arange(-3, 4)
BIAS = np.array([[0.0, 0.5, 1.0, 4.0, 1.0, 0.5, 0.0],        # head 0 peaks at d = 0
                 [-1.0, 0.0, 5.0, 1.0, 0.0, 0.0, 1.0]])      # head 1 peaks at d = -1


def test_bias_table_reads_the_relative_bias_and_refuses_a_model_without_one():
    module = RelativeScalarBias(ModelConfig(relative_bias=True, relative_bias_max_distance=3, n_heads=2))
    with torch.no_grad():
        module.bias.copy_(torch.tensor(BIAS, dtype=torch.float32))
    d, bias = ca.bias_table(torch.nn.Sequential(module))
    assert list(d) == list(D) and np.allclose(bias, BIAS * module.scale)
    with pytest.raises(ValueError, match="this model has no relative bias"):
        ca.bias_table(torch.nn.Linear(2, 2))


def test_peaks_heights_rows_and_check():
    assert ca.peaks(D, BIAS) == {0: 0, 1: -1}
    assert list(ca.heights(BIAS)) == pytest.approx([4.0, 5.0])      # the peak above the mean of the two border entries
    assert ca.peak_rows(D, BIAS) == {"head 0": {"peak at d": 0, "above the far bucket": 4.0, "weight factor": 55},
                                     "head 1": {"peak at d": -1, "above the far bucket": 5.0, "weight factor": 148}}
    ca.check_peaks(D, BIAS)
    with pytest.raises(ClaimFailed, match=r"one at d = 0 \(the carry head\); got peaks at -1\. Without them"):
        ca.check_peaks(D, BIAS[[1, 1]])
    with pytest.raises(ClaimFailed, match=r"every head's peak should stand >= 3.0 above the far bucket; got 1\.0, 5\.0"):
        ca.check_peaks(D, np.vstack([BIAS[0] / 4, BIAS[1]]))
    fig = ca.plot_bias(D, BIAS, "the learned bias")
    assert fig.axes[0].get_title() == "the learned bias"


def mass(both: tuple[float, float], plain: tuple[float, float]) -> dict[str, dict[int, np.ndarray]]:
    """Per method, the attention mass of two heads at d = -1 and d = 0, the best head's as given."""
    return {m: {-1: np.array([0.1, best[0]]), 0: np.array([best[1], 0.05])} for m, best in (("both", both), ("plain", plain))}


MASS = mass((0.93, 0.85), (0.42, 0.37))


def test_check_mass_reads_the_best_heads():
    ca.check_mass(MASS)
    with pytest.raises(ClaimFailed, match=r"at least 80% of their attention on ID j − 1 and on ID j; got 93\.0% and 70\.0%"):
        ca.check_mass(mass((0.93, 0.7), (0.42, 0.37)))
    with pytest.raises(ClaimFailed, match=r"plain coupling's best heads should put less there than ours; got 90\.0% "
                                          r"against 85\.0%\. Then a leak"):
        ca.check_mass(mass((0.93, 0.85), (0.9, 0.3)))


def test_heaviest_key_offsets_and_check():
    weights = np.zeros((2, 4, 4))
    weights[0, 2, 1] = weights[0, 3, 0] = 1.0        # head 0: query 2 reads key 1, query 3 reads key 0
    assert ca.heaviest_key_offsets(weights, [0, 1, 2, 3], [2, 3], head=0) == [-1, -3]
    ca.check_heaviest([-1, -1, -1, 0], [0, 0, 2, 1])                  # n - 1 and n - 2 hits are enough
    with pytest.raises(ClaimFailed, match=r"ID\(query\) − 1 for at least 3 of the 4 answer queries; got 2: "
                                          r"\[-1, -1, 0, 0\]"):
        ca.check_heaviest([-1, -1, 0, 0], [0, 0, 0, 0])
    with pytest.raises(ClaimFailed, match=r"the query's own ID for at least 2 of the 4 answer queries; got 1"):
        ca.check_heaviest([-1, -1, -1, -1], [0, 1, 1, 1])


def test_answer_queries_are_the_positions_before_each_answer_digit():
    task = Task(TaskConfig(format="cho", positions="coupled", random_start=False, max_position=16, max_digits=4))
    ex = task.example(Problem(12, 34))
    queries = ca.answer_queries(ex)
    assert queries and all(ex.roles[q + 1] == "answer" for q in queries)
    assert len(queries) == sum(role == "answer" for role in ex.roles[1:])


def _fire_board(fire_hints15: float = 0.3, hints15: float = 0.01, mastered: bool = True) -> dict:
    def m(at15, ok=True):
        return {"mastered": ok, "budget": {"layers": 3, "steps": 4000}, "seeds": [0, 1, 2],
                "lengths": {10: {"median": 1.0}, 15: {"median": at15, "min": at15, "max": at15},
                            20: {"median": 0.0}}}
    return {"methods": {baselines.FIRE: m(0.0, mastered), baselines.FIRE_HINTS: m(fire_hints15),
                        baselines.HINTS: m(hints15)}}


@pytest.mark.parametrize("board, facts, match", [
    (_fire_board(mastered=False), ([512.0], 130), "FIRE should master 1-10"),
    (_fire_board(), ([100.0, 512.0], 130), "threshold should stay above the longest test sequence"),
    (_fire_board(fire_hints15=0.005), ([512.0], 130), "keep more at 15 digits than index hints"),
    (_fire_board(fire_hints15=0.97), ([512.0], 130), "should not generalize to 15 digits"),
])
def test_check_fire_names_each_failure(board, facts, match, monkeypatch):
    monkeypatch.setattr(baselines, "fire_facts", lambda b: facts)
    with pytest.raises(ClaimFailed, match=match):
        baselines.check_fire(board)


def test_check_fire_passes_on_a_consistent_board_and_returns_its_facts(monkeypatch):
    monkeypatch.setattr(baselines, "fire_facts", lambda b: ([511.0, 512.0], 130))
    assert baselines.check_fire(_fire_board()) == ([511.0, 512.0], 130)


def test_fire_facts_reads_the_learned_thresholds_of_the_built_model():
    board = leaderboard("nb05-baselines")
    if baselines.FIRE not in board["methods"]:
        pytest.skip("FIRE is not built")
    thresholds, tokens = baselines.fire_facts(board)
    assert len(thresholds) == 3 and all(t > 0 for t in thresholds) and tokens > 100


def test_band_groups_split_the_mastered_methods_into_figures_the_palette_can_draw():
    from lengen_utils.course.plots.style import PALETTE
    board = leaderboard("nb05-baselines")
    groups = list(baselines.band_groups(board).values())
    assert all(0 < len(g) <= len(PALETTE) for g in groups)
    assert sorted(m for g in groups for m in g) == sorted(baselines.mastered(board))
    assert set(groups[0]) <= set(baselines.NO_SIGNIFICANCE) and not set(groups[1]) & set(baselines.NO_SIGNIFICANCE)

"""Notebook 04's prose and claim checks (lengen_utils.course.ch04_upe: upe, upe_m1, upe_frame, upe_augmentation,
upe_maps, text_heads, upe_summary) on planted numbers; the manifest readers on the repository's zoo."""
from __future__ import annotations

import numpy as np
import pytest

from lengen_utils.lab import zoo
from lengen_utils.course.common.claims import ClaimFailed
from lengen_utils.analysis.interpret import PositionalMaps, VectorTable, vector_table
from lengen_utils.core.problems import Problem
from lengen_utils.course.ch04_upe import text_heads, upe, upe_augmentation as aug, upe_frame, upe_m1, upe_maps, upe_summary
from lengen_utils.course.ch04_upe import upe_window
from lengen_utils.core.tasks import Task


# -- sections 1 and 2 -----------------------------------------------------------------------------------

def test_parallel_check_and_text():
    levels = [[49, 63, 14, 28, 0], [9, 7, 10, 9, 2], [9, 7, 0, 10, 2], [9, 7, 0, 0, 3]]
    upe.check_parallel(levels, 7, 4297)
    assert "**3 carry levels**" in upe.parallel_text(levels, 7, 4297) and "30,079" in upe.parallel_text(levels, 7, 4297)
    with pytest.raises(ClaimFailed, match=r"rounds of carries should be the 3 carry levels.*got 1\."):
        upe.check_parallel([levels[0], levels[3]], 7, 4297)
    with pytest.raises(ClaimFailed, match=r"should read 7 × 4297 = 30,079.*got 30,078"):
        upe.check_parallel(levels[:3] + [[8, 7, 0, 0, 3]], 7, 4297)


def test_levels_text_uses_the_exact_distributions():
    text = upe.levels_text(5, 15)
    assert "5 digits needs 3 or more levels in 3.64%" in text and "15 digits in 14.02%" in text


def test_offsets_check_and_text():
    offset = {s: s - 17 for s in range(16)}
    upe.check_offsets(offset, 16)
    with pytest.raises(ClaimFailed, match="offset s - l - 1"):
        upe.check_offsets({s: s - 16 for s in range(16)}, 16)
    text = upe.offsets_text(offset, 16, 5)
    assert "offset -17 from the units digit and at -13 from digit 4" in text and "also needs -12 to -3" in text


def test_vector_table_check_and_text():
    task = Task(zoo.entry("nb04-upe-m1-s0").task.with_(frame_width=5, multiplier_digits=2, max_digits=4, max_position=9))
    pairs = vector_table(task, Problem(4297, 56, "*"))
    upe.check_vector_table(pairs)
    assert "15 distinct vectors" in upe.vector_text(pairs)
    bad = VectorTable(pairs.tokens, [row[:] for row in pairs.labels], pairs.slots)
    bad.labels[0][0] = "c_{2}"
    with pytest.raises(ClaimFailed, match=r"query 0 should add \$p_\{0\}\$ to key 0.*got \$c_\{2\}\$"):
        upe.check_vector_table(bad)


# -- section 3 ----------------------------------------------------------------------------------------------

def live1(ape10=0.01, rpe8=0.2, upe8=0.8, worst=0.99) -> dict:
    rows = {"APE": {5: 0.99, 8: 0.04, 10: ape10, 15: 0.0}, "RPE": {5: 1.0, 8: rpe8, 10: 0.03, 15: 0.0},
            "UPE": {5: 0.99, 8: upe8, 10: 0.5, 15: 0.0}}
    return {label: {f"{label}-s{s}": {**row, 5: worst if s == 2 else row[5]} for s in range(3)}
            for label, row in rows.items()}


def test_seeds_bands_and_medians():
    assert upe_m1.seeds("upe", 1) == ["nb04-upe-m1-s0", "nb04-upe-m1-s1", "nb04-upe-m1-s2"]
    band = upe_m1.bands({"UPE": upe_m1.seeds("upe", 1), "none": []})
    assert set(band) == {"UPE"} and band["UPE"][5][1] <= band["UPE"][5][0] <= band["UPE"][5][2]
    assert upe_m1.band_table({"x": {5: (0.5, 0.25, 1.0)}}, (5,)) == {"x": {"5 dig": "50.0 [25.0–100.0]"}}
    assert upe_m1.medians({"A": {"a": {5: 0.1}, "b": {5: 0.3}, "c": {5: 0.2}}}) == {"A": {5: 0.2}}


def test_check_m1m2_names_each_finding():
    upe_m1.check_m1m2(live1(), 5)
    with pytest.raises(ClaimFailed, match=r"every model should master 5-digit.*got 90\.0%"):
        upe_m1.check_m1m2(live1(worst=0.9), 5)
    with pytest.raises(ClaimFailed, match=r"M1: APE should fail at 10 digits.*got 20\.0%"):
        upe_m1.check_m1m2(live1(ape10=0.2), 5)
    with pytest.raises(ClaimFailed, match=r"M1: RPE should decline.*got 60\.0% at 8"):
        upe_m1.check_m1m2(live1(rpe8=0.6), 5)
    with pytest.raises(ClaimFailed, match=r"M2: UPE should stay far above RPE.*UPE 50\.0%"):
        upe_m1.check_m1m2(live1(upe8=0.5), 5)


def test_m1_and_setup_text():
    band = {label: {n: (v, v, v) for n, v in zip((6, 8, 10, 12, 15), vals)}
            for label, vals in {"APE": (0.2, 0.04, 0.006, 0.0, 0.0), "RPE": (0.75, 0.2, 0.03, 0.0, 0.0),
                                "UPE": (0.96, 0.78, 0.57, 0.37, 0.006)}.items()}
    text = upe_m1.m1_text(band, live1(), 5)
    for part in ("worst seed at 5 digits: 99.0%", "median 20.0% at 6 digits, 0.6% at 10", "75.0% at 6, 20.0% at 8",
                 "96.0% at 6, 78.0% at 8, 57.0% at 10", "median 37.0% at 12 digits and 0.6% at 15", "(90% at 3x)"):
        assert part in text, part
    m1 = {label: upe_m1.seeds(enc, 1) for label, enc in (("APE", "ape"), ("RPE", "rpe"), ("UPE", "upe"))}
    text = upe_m1.setup_text(m1, 16)
    assert "frame $l = 16$" in text and "APE 3, RPE 3, UPE 3" in text and "zoo train nb04-upe-m1-s0" in text


def test_decline_row_check_and_text():
    model, task = zoo.load("nb04-upe-m1-s0")
    row = upe_m1.decline_row(model, task, 5, 20)
    assert set(row) == {"EM, all", "EM, × 1 (a copy)", "EM, ≤ 1 carry level", "units digit right"}
    assert all(0 <= v <= 1 for v in row.values())
    planted = {"EM, all": 0.33, "EM, × 1 (a copy)": 0.5, "EM, ≤ 1 carry level": 0.44, "units digit right": 0.87}
    upe_m1.check_decline(planted)
    with pytest.raises(ClaimFailed, match=r"fail even on `× 1`.*got 95\.0%"):
        upe_m1.check_decline({**planted, "EM, × 1 (a copy)": 0.95})
    text = upe_m1.decline_text(planted, 12, 5)
    assert "At 12 digits UPE gets 33.0%" in text and "only 50.0% of the `× 1`" in text and "right in 87.0%" in text


def test_sites_text():
    sites = {5: {0: 1.0, 1: 0.995, 2: 1.0}, 15: {0: 0.65, 1: 0.6, 2: 0.7, 3: 0.55, 15: 0.6, 16: 0.1}}
    text = upe_m1.sites_text(sites, 5)
    assert "at least 99.5%" in text and "**units digit** is right in only 65.0%" in text
    assert "middle digits in 55.0% to 70.0%, the product's top digit in 60.0%" in text


class FakeExplorer:
    def __init__(self, curve, status="&#9888; not built. Available: UPE"):
        self.last_curves, self.status_value, self.last_figure = {"UPE": curve}, status, None

    def show(self, *args):
        self.last_curves = {}
        self.status = type("S", (), {"value": self.status_value})()


def test_check_explorer():
    band = {5: (1.0, 1.0, 1.0)}
    upe_m1.check_explorer(FakeExplorer(band), band)
    with pytest.raises(ClaimFailed, match="section 3's UPE medians"):
        upe_m1.check_explorer(FakeExplorer({5: (0.5, 0.5, 0.5)}), band)
    with pytest.raises(ClaimFailed, match="should say which settings are"):
        upe_m1.check_explorer(FakeExplorer(band, status="drawn"), band)


# -- section 4 ----------------------------------------------------------------------------------------------



def frame_rows(below=0.9, full=0.0, fit=0.0):
    return ({"all": below}, {"all": full, "share of products past the frame": 0.75,
                             "EM, product inside the frame": fit}, {15: {0: 0.99, 1: 0.98}, 16: {0: 0.3, 1: 0.2}})


def test_full_frame_check_and_text():
    upe_frame.check_full_frame(*frame_rows(), 16)
    with pytest.raises(ClaimFailed, match=r"should hold at 15 digits.*got 50\.0%"):
        upe_frame.check_full_frame(*frame_rows(below=0.5), 16)
    with pytest.raises(ClaimFailed, match=r"at the full frame \(16 digits\) it should fail.*got 40\.0%"):
        upe_frame.check_full_frame(*frame_rows(full=0.4), 16)
    with pytest.raises(ClaimFailed, match=r"also where the product still fits.*got 30\.0%"):
        upe_frame.check_full_frame(*frame_rows(fit=0.3), 16)
    below, full, per = frame_rows()
    with pytest.raises(ClaimFailed, match="every output digit"):
        upe_frame.check_full_frame(below, full, {15: per[15], 16: {0: 0.9}}, 16)
    text = upe_frame.full_frame_text(below, full, per, 16)
    assert "At 15 digits the model gets 90.0%" in text and "still fit (25.0% of the test set)" in text
    assert "at least\n98.0%" in text and "none in more than 30.0%" in text


def test_spill_table_splits_by_where_the_product_ends():
    rows = upe_frame.spill_table("nb04-upe-shift-m1-s0", (15, 16), 10)
    assert rows["nb04-upe-shift-m1-s0, 15 digits"]["EM, product past the frame"] is None   # 15 x 1 digits fits in 16
    assert 0 <= rows["nb04-upe-shift-m1-s0, 16 digits"]["share of products past the frame"] <= 1


# -- section 5 ----------------------------------------------------------------------------------------------

def med5(rpe10=0.2, ape15=0.41, ours15=0.84):
    return {aug.APE: {5: 0.94, 10: 0.74, 15: ape15}, aug.RPE: {5: 0.99, 10: rpe10, 15: 0.0},
            aug.UPE0: {5: 0.993, 10: 0.52, 15: 0.003}, aug.UPE: {5: 0.993, 10: 0.957, 15: ours15}}


def test_check_m3_augmentation():
    inside = {"a": 0.98, "b": 0.99}
    aug.check_m3(med5(), inside)
    with pytest.raises(ClaimFailed, match=r"should master 1 to 5 digits.*got 90\.0%"):
        aug.check_m3(med5(), {"a": 0.9})
    with pytest.raises(ClaimFailed, match=r"M3 for RPE.*got 45\.0% vs 52\.0%"):
        aug.check_m3(med5(rpe10=0.45), inside)
    with pytest.raises(ClaimFailed, match=r"augmented APE should beat.*0\.3% at 15"):
        aug.check_m3(med5(ape15=0.1), inside)
    with pytest.raises(ClaimFailed, match=r"UPE \+ shift should lead.*got 95\.7% at 10, 50\.0% at 15"):
        aug.check_m3(med5(ours15=0.5), inside)


def test_m3_and_seeds_text():
    text = aug.m3_text(med5(), 5, 15)
    for part in ("median\n20.0% at 10 digits against 52.0%", "74.0% against 52.0% at 10, 41.0% against 0.3% at 15",
                 "(94.0% at 5 digits, against at least\n99.0%", "95.7% at 10 digits and **84.0% at 15**",
                 "reaches 15 digits"):
        assert part in text, part
    text = aug.seeds_text({aug.APE: ["a", "b"], aug.RPE: ["c"]}, "nb04-rpe-shift-m1-s0")
    assert "APE + shift 2, RPE + shift 1" in text and "zoo train nb04-rpe-shift-m1-s0" in text


# -- section 6 ----------------------------------------------------------------------------------------------

def fake_map(largest: int, far_norm: float, K: int = 20, spread: float = 1.0) -> PositionalMaps:
    norms = np.full(2 * K + 1, spread)
    norms[K + largest] = 5.0
    norms[K - 17] = far_norm
    return PositionalMaps("upe", p=[norms[:, None].copy() for _ in range(3)], c=[])


def test_measure_and_check_maps():
    maps = {"RPE": [fake_map(1, 1.0, spread=0.8), fake_map(-1, 1.0, spread=0.8)], "UPE": [fake_map(1, 0.01), fake_map(-2, 0.01)]}
    stats = upe_maps.measure(maps, 16)
    assert stats["far"] == -17 and stats["carry"] == {"RPE": 3, "UPE": 3} and stats["layers"] == {"RPE": 6, "UPE": 6}
    assert sorted(set(stats["others"])) == [-2, -1]
    upe_maps.check_maps(stats)
    text = upe_maps.maps_text(stats, 0.5)
    assert "in 3 of the 6 layers of the RPE models and 3 of the 6 layers of the UPE models" in text
    assert "decayed to at most 0.010" in text and "-2 (3x), -1 (3x)" in text and "weight decay 0.5" in text
    with pytest.raises(ClaimFailed, match="some layers, not in all"):
        upe_maps.check_maps(upe_maps.measure({"RPE": [fake_map(1, 1.0)], "UPE": [fake_map(1, 0.01)]}, 16))
    with pytest.raises(ClaimFailed, match=r"far offset.*also \[5\]"):
        upe_maps.check_maps(upe_maps.measure({**maps, "UPE": [fake_map(5, 0.01), fake_map(1, 0.01)]}, 16))
    with pytest.raises(ClaimFailed, match="remove UPE's unused p_{-17}"):
        upe_maps.check_maps(upe_maps.measure({**maps, "UPE": [fake_map(1, 1.0), fake_map(-2, 0.01)]}, 16))
    with pytest.raises(ClaimFailed, match="RPE's p_{-17}"):
        upe_maps.check_maps(upe_maps.measure({**maps, "RPE": [fake_map(1, 0.1), fake_map(-1, 1.0)]}, 16))
    peaked = {**maps, "UPE": [fake_map(1, 1e-4, spread=0.01), fake_map(-2, 1e-4, spread=0.01)]}
    with pytest.raises(ClaimFailed, match="not be less dispersed"):
        upe_maps.check_maps(upe_maps.measure(peaked, 16))
    rows = upe_maps.map_stats(fake_map(1, 1.0), 1, 17)
    assert rows[1]["largest offsets"].startswith("+1") and rows[1]["share of p_+1"] > 0.3


# -- section 7 ----------------------------------------------------------------------------------------------

TEXT, PLAIN = ["t0", "t1", "t2"], ["p0", "p1", "p2"]


def text_live(with10=0.99, with15=0.93, without10=0.75, ape5=0.01, worst=0.99) -> dict:
    live = {n: {5: worst if n == "t2" else 1.0, 10: with10, 15: with15} for n in TEXT}
    live.update({n: {5: 0.98, 10: without10, 15: 0.4} for n in PLAIN})
    live.update({"rpe": {5: 1.0, 10: 0.999, 15: 0.999}, "ape": {5: ape5, 10: 0.0, 15: 0.0}})
    return live


def test_text_check_live():
    text_heads.check_live(text_live(), TEXT, PLAIN, "rpe", "ape", 5)
    with pytest.raises(ClaimFailed, match=r"should master 5 digits.*got 90\.0%"):
        text_heads.check_live(text_live(worst=0.9), TEXT, PLAIN, "rpe", "ape", 5)
    with pytest.raises(ClaimFailed, match=r"at 10 digits should be as good as.*got 90\.0% vs 99\.9%"):
        text_heads.check_live(text_live(with10=0.9), TEXT, PLAIN, "rpe", "ape", 5)
    with pytest.raises(ClaimFailed, match=r"at 15 digits, >= 90%.*got 80\.0%"):
        text_heads.check_live(text_live(with15=0.8), TEXT, PLAIN, "rpe", "ape", 5)
    with pytest.raises(ClaimFailed, match=r"without text should generalize less far .* at 10 digits"):
        text_heads.check_live(text_live(without10=0.95), TEXT, PLAIN, "rpe", "ape", 5)
    with pytest.raises(ClaimFailed, match=r"APE alone should not even fit 5 digits.*got 50\.0%"):
        text_heads.check_live(text_live(ape5=0.5), TEXT, PLAIN, "rpe", "ape", 5)


def test_text_attention_check_and_text():
    on = {"layer 1, head 1 (arithmetic)": 0.04, "layer 1, head 2 (arithmetic)": 0.02, "layer 1, head 3 (APE)": 0.1}
    text_heads.check_attention(on, 0.18)
    with pytest.raises(ClaimFailed, match=r"arithmetic heads should put less.*got 11\.0%"):
        text_heads.check_attention({**on, "layer 1, head 1 (arithmetic)": 0.2}, 0.18)
    assert "Text is 18.0%" in text_heads.attention_text(on, 0.18) and "put 3.0% of" in text_heads.attention_text(on, 0.18)


def test_text_manifest_texts_and_attention():
    from lengen_utils.lab.zoo.catalog_nb04_text import nb04t_name
    text, plain = [nb04t_name("text", s) for s in (0, 1, 2)], [nb04t_name("notext", s) for s in (0, 1, 2)]
    assert "arithmetic heads" in text_heads.setup_text(text, plain) and "medians over 3 seeds" in \
        text_heads.setup_text(text, plain)
    assert "full frame width (16 digits)" in text_heads.results_text(text, plain, "nb03-rpe-shift-l5",
                                                                      nb04t_name("ape", 0), 16)


# -- summary ------------------------------------------------------------------------------------------------

def window_board() -> dict:
    def method(name, at15):
        return {"entries": [f"{name}-s0"], "seeds": [0, 1, 2], "train_seconds": [100.0],
                "lengths": {15: {"median": at15, "min": at15 - 0.01, "max": at15 + 0.01}}}
    return {"methods": {upe_window.UPE_WINDOW: method(upe_window.UPE_WINDOW, 0.97),
                        upe_window.UPE_PLAIN: method(upe_window.UPE_PLAIN, 0.15),
                        upe_window.RPE_WINDOW: method(upe_window.RPE_WINDOW, 0.42)}}


def test_summary_claims_and_scale_text():
    b = {label: {n: (v, v, v) for n in (8, 10, 15)} for label, v in
         (("APE", 0.01), ("RPE", 0.1), ("UPE", 0.5), (aug.APE, 0.4), (aug.RPE, 0.2), (aug.UPE, 0.88))}
    text = upe_summary.summary(b, b, {"all": 0.9}, {"all": 0.0}, 16, 5, 3, window_board(), 15)
    for part in ("medians over 3 seeds", "UPE **50.0%**", "**An attention window of 2 removes them**",
                 "frame $l = 20$ UPE + window keeps a median of **97.0% at 15 digits** over 3 seeds",
                 "worst seed 96.0%", "without the window 15.0%, RPE with the same window 42.0%",
                 "reaches\n  **88.0% at 15 digits**", "(90.0% at 15 digits, 0.0% at 16)"):
        assert part in text, part
    maps = {"carry": {"RPE": 3, "UPE": 2}, "layers": {"RPE": 9, "UPE": 9}, "effective": {"RPE": [16.0], "UPE": [19.0]}}
    rows = upe_summary.claim_rows(b, {}, b, maps, window_board(), 15)
    assert rows["UPE + window at 3x (not in the paper)"]["ours (median over seeds)"] == \
        "97.0% at 15 digits (seeds 96.0–98.0%)"
    assert rows["M2: UPE, 3-digit multiplier"]["ours (median over seeds)"] == "not built (section 4)"
    rows = upe_summary.claim_rows(b, {"x": {5: 0.054}, "y": {5: 0.0}}, b, maps, window_board(), 15)
    assert rows["M2: UPE, 3-digit multiplier"]["ours (median over seeds)"] == \
        "not learned in distribution: the best of the search 5.4% at 5 digits (section 4)"
    assert "19.0 vs 16.0" in rows["maps: UPE less dispersed"]["ours (median over seeds)"]
    text = upe_summary.scale_text("nb04-upe-m1-s0", 16, window_board(), 15)
    assert "an attention window of 2 (97.0% at 15 digits, median over 3 seeds" in text and "$l = 20$" in text
    assert upe_summary.recipe("nb04-upe-m1-s0")["frame l"] == "16"


def test_protocol_rows_and_check_on_the_manifest():
    board = upe_window.protocol_board()
    rows = upe_window.protocol_rows(board)
    assert len(rows) == 4 and all({"5 dig", "10 dig", "15 dig", "seeds"} <= set(r) for r in rows.values())
    upe_window.check_protocol(board, 15)                  # the manifest supports the notebook's sentence


@pytest.mark.parametrize("paper5, paper15, window15, match", [
    (0.99, 0.60, 0.97, "should stay below 50% at 15"),
    (0.90, 0.40, 0.97, "should master 5 digits"),
    (0.99, 0.40, 0.80, "UPE \\+ window should keep >= 90%"),
])
def test_protocol_check_fails_when_the_board_contradicts_the_text(paper5, paper15, window15, match):
    board = {"methods": {upe_window.UPE_PAPER: {"lengths": {5: {"median": paper5}, 15: {"median": paper15}}},
                         upe_window.UPE_WINDOW: {"lengths": {15: {"median": window15}}}}}
    with pytest.raises(ClaimFailed, match=match):
        upe_window.check_protocol(board, 15)


def test_the_summary_and_the_claim_table_carry_the_gpu_m2_result_from_the_records():
    from lengen_utils.course.common import paper_scale
    recs = [r["metrics"]["em"] for r in paper_scale.m2_records(paper_scale.M2_RUNS[
        "schedule to its end, 256 per step"]).values()]
    kept = float(np.median([em["16"] / em["5"] for em in recs]))
    assert upe_summary._gpu_m2() == {"gk": len(recs), "g5": float(np.median([em["5"] for em in recs])), "kept": kept}
    maps = {"carry": {"RPE": 3, "UPE": 2}, "layers": {"RPE": 9, "UPE": 9}, "effective": {"RPE": [16.0], "UPE": [19.0]}}
    b = {label: {n: (0.5, 0.4, 0.6) for n in (8, 10, 15)} for label in ("APE", "RPE", "UPE", aug.APE, aug.RPE, aug.UPE)}
    rows = upe_summary.claim_rows(b, {}, b, maps, window_board(), 15)
    assert rows["M2 at the paper's depth (GPU, × hidden, 256 per step)"]["ours (median over seeds)"].startswith(
        f"{100 * kept:.1f}% kept at 16 digits")

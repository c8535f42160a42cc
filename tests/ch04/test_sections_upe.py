"""Notebook 04's measures and claim checks (lengen_utils.course.ch04_upe: upe, upe_m1, upe_maps, text_heads,
upe_summary) on planted numbers, each check shown holding and failing; the manifest readers on the
repository's zoo."""
from __future__ import annotations

import numpy as np
import pytest

from lengen_utils.analysis.interpret import PositionalMaps, VectorTable, vector_table
from lengen_utils.core.problems import Problem
from lengen_utils.core.tasks import Task
from lengen_utils.course.ch04_upe import text_heads, upe, upe_m1, upe_m3, upe_maps, upe_summary
from lengen_utils.course.common.claims import ClaimFailed
from lengen_utils.lab import zoo


# -- sections 1 and 2 -----------------------------------------------------------------------------------

def test_parallel_check():
    levels = [[49, 63, 14, 28, 0], [9, 7, 10, 9, 2], [9, 7, 0, 10, 2], [9, 7, 0, 0, 3]]
    upe.check_parallel(levels, 7, 4297)
    assert upe.product_of(levels) == 30079
    with pytest.raises(ClaimFailed, match=r"rounds of carries should be the 3 carry levels.*got 1\."):
        upe.check_parallel([levels[0], levels[3]], 7, 4297)
    with pytest.raises(ClaimFailed, match=r"should read 7 × 4297 = 30,079.*got 30,078"):
        upe.check_parallel(levels[:3] + [[8, 7, 0, 0, 3]], 7, 4297)


def test_hard_share_and_check_levels():
    assert upe.hard_share(5) == pytest.approx(0.0364, abs=5e-5) and upe.hard_share(15) == pytest.approx(0.1402, abs=5e-5)
    upe.check_levels(upe.hard_share(5), upe.hard_share(15))
    with pytest.raises(ClaimFailed, match=r"at least twice as often.*got 5\.00% against 4\.00%"):
        upe.check_levels(0.04, 0.05)


def test_offsets_check():
    upe.check_offsets({s: s - 17 for s in range(16)}, 16)
    with pytest.raises(ClaimFailed, match="offset s - l - 1"):
        upe.check_offsets({s: s - 16 for s in range(16)}, 16)


def test_vector_table_check_and_used_vectors():
    task = Task(zoo.entry("nb04-upe-m1-s0").task.with_(frame_width=5, multiplier_digits=2, max_digits=4, max_position=9))
    pairs = vector_table(task, Problem(4297, 56, "*"))
    upe.check_vector_table(pairs)
    used = upe.used_vectors(pairs)
    assert len(used) == 15 and used[:3] == ["c_{1}", "c_{2}", "p_{-5}"] and used[-1] == "p_{7}"
    bad = VectorTable(pairs.tokens, [row[:] for row in pairs.labels], pairs.slots)
    bad.labels[0][0] = "c_{2}"
    with pytest.raises(ClaimFailed, match=r"query 0 should add \$p_\{0\}\$ to key 0.*got \$c_\{2\}\$"):
        upe.check_vector_table(bad)


# -- section 3 ----------------------------------------------------------------------------------------------

def live1(ape10=0.01, rpe8=0.2, upe8=0.8, upe15=0.0, worst=0.99) -> dict:
    rows = {"APE": {5: 0.99, 8: 0.04, 10: ape10, 15: 0.0}, "RPE": {5: 1.0, 8: rpe8, 10: 0.03, 15: 0.0},
            "UPE": {5: 0.99, 8: upe8, 10: 0.5, 15: upe15}}
    return {label: {f"{label}-s{s}": {**row, 5: worst if s == 2 else row[5]} for s in range(3)}
            for label, row in rows.items()}


def test_seeds_bands_medians_and_rows():
    assert upe_m1.seeds("nb04-upe-m1") == ["nb04-upe-m1-s0", "nb04-upe-m1-s1", "nb04-upe-m1-s2"]
    band = upe_m1.bands({"UPE": upe_m1.seeds("nb04-upe-m1"), "none": []})
    assert set(band) == {"UPE"} and band["UPE"][5][1] <= band["UPE"][5][0] <= band["UPE"][5][2]
    assert upe_m1.em_rows({"x": {5: (0.5, 0.25, 1.0), 6: (0.0, 0.0, 0.0)}}, (5,)) == {"x": {"5 dig": (0.5, 0.25, 1.0)}}
    assert upe_m1.medians({"A": {"a": {5: 0.1}, "b": {5: 0.3}, "c": {5: 0.2}}}) == {"A": {5: 0.2}}
    assert upe_m1.em_rows({"a": {5: 0.5}}) == {"a": {"5 dig": 0.5}}
    row = upe_m1.recipe(upe_m1.seeds("nb04-upe-m1"))
    assert row["frame l"] == "16" and row["seeds"] == "3" and row["parameters"] == "111,984"


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
    with pytest.raises(ClaimFailed, match=r"UPE alone should fall short at 15 digits.*got 92\.0%"):
        upe_m1.check_m1m2(live1(upe15=0.92), 5)


def test_decline_row_and_check():
    model, task = zoo.load("nb04-upe-m1-s0")
    row = upe_m1.decline_row(model, task, 5, 20)
    assert set(row) == {"EM, all", "EM, × 1 (a copy)", "EM, ≤ 1 carry level", "units digit right"}
    assert all(0 <= v <= 1 for v in row.values())
    planted = {"EM, all": 0.33, "EM, × 1 (a copy)": 0.5, "EM, ≤ 1 carry level": 0.44, "units digit right": 0.87}
    upe_m1.check_decline(planted)
    with pytest.raises(ClaimFailed, match=r"fail even on `× 1`.*got 95\.0%"):
        upe_m1.check_decline({**planted, "EM, × 1 (a copy)": 0.95})


def test_site_rows_and_check_error_sites():
    sites = {5: {0: 1.0, 1: 0.995, 2: 1.0, 5: 0.99}, 15: {0: 0.65, 1: 0.6, 2: 0.7, 3: 0.55, 15: 0.6, 16: 0.6}}
    assert upe_m1.site_rows(sites)["15 digits"] == {"units digit": 0.65, "middle digits, worst": 0.55,
                                                    "middle digits, best": 0.7, "top digit": 0.6}
    upe_m1.check_error_sites(sites, trained=5)
    with pytest.raises(ClaimFailed, match=r"units digit .* should lose accuracy.*got 99\.0%"):
        upe_m1.check_error_sites({5: {0: 1.0}, 15: {0: 0.99, 1: 0.5}}, trained=5)
    with pytest.raises(ClaimFailed, match=r"fail about as often as the others.*got 90\.0% \(others 50\.0%"):
        upe_m1.check_error_sites({5: {0: 1.0}, 15: {0: 0.9, 1: 0.5}}, trained=5)
    with pytest.raises(ClaimFailed, match=r"right at the trained length.*got 90\.0%"):
        upe_m1.check_error_sites({5: {0: 0.9}, 15: {0: 0.5, 1: 0.5}}, trained=5)


def window_live(ours: float, plain: float, rpe: float, inside: float = 1.0) -> dict:
    out = {}
    for method, at15 in ((upe_m1.UPE_WINDOW, ours), (upe_m1.UPE_PLAIN, plain), (upe_m1.RPE_WINDOW, rpe)):
        for s in range(3):
            out[f"{method}-s{s}"] = {**{n: inside for n in range(1, 6)}, 15: at15}
    return out


def test_the_rows_are_found_by_axes_and_titles():
    """The rows sections 3 and 5 read, found by the table's axes and labelled by their titles, are the runs the text
    names."""
    assert upe_m1.M1 == {"APE": "nb04-ape-m1", "RPE": "nb04-rpe-m1", "UPE": "nb04-upe-m1"}
    assert upe_m1.SHIFTED == {"APE + shift": "nb04-ape-shift-m1", "RPE + shift": "nb04-rpe-shift-m1",
                              "UPE + shift (ours)": "nb04-upe-shift-m1"}
    assert (upe_m1.APE, upe_m1.RPE, upe_m1.UPE) == tuple(upe_m1.SHIFTED)
    assert upe_m1.LABELS == {"nb04-upe-m1-f20-w2": "UPE + window", "nb04-upe-m1-f20": "UPE (Sabbaghi)",
                             "nb04-rpe-m1-f20-w2": "RPE + window"}
    assert list(upe_m1.LABELS) == [upe_m1.UPE_WINDOW, upe_m1.UPE_PLAIN, upe_m1.RPE_WINDOW]
    assert upe_m1.UPE_PAPER == "nb04-upe-m1-f20-paper" and upe_m1.PROTOCOL_LABELS[upe_m1.UPE_WINDOW] == "UPE + window"


def test_check_window_passes_and_names_each_failure():
    upe_m1.check_window(window_live(0.96, 0.15, 0.4), trained=5, headline=15)
    with pytest.raises(ClaimFailed, match=r"UPE \+ window should keep a median >= 90% at 15 digits \(3x.*got 80\.0%"):
        upe_m1.check_window(window_live(0.8, 0.15, 0.4), 5, 15)
    with pytest.raises(ClaimFailed, match=r"UPE without the window should fail.*got 70\.0%"):
        upe_m1.check_window(window_live(0.96, 0.7, 0.4), 5, 15)
    with pytest.raises(ClaimFailed, match=r"RPE with the same window .* 20 points below.*got 90\.0% vs 96\.0%"):
        upe_m1.check_window(window_live(0.96, 0.15, 0.9), 5, 15)
    with pytest.raises(ClaimFailed, match=r"should master 1-5 digit.*got 90\.0%"):
        upe_m1.check_window(window_live(0.96, 0.15, 0.4, inside=0.9), 5, 15)


def test_board_rows_and_protocol_check_on_the_manifest():
    board = upe_m1.window_board()
    rows = upe_m1.board_rows(board, upe_m1.PROTOCOL_LABELS, (5, 10, 15))
    assert len(rows) == 4 and all(set(r) == {"seeds", "budget", "train s", "5 dig", "10 dig", "15 dig"}
                                  for r in rows.values())
    upe_m1.check_protocol(board, 15)                  # the manifest supports the notebook's sentence


@pytest.mark.parametrize("paper5, paper15, window15, match", [
    (0.99, 0.60, 0.97, "should stay below 50% at 15"),
    (0.90, 0.40, 0.97, "should master 5 digits"),
    (0.99, 0.40, 0.80, "UPE \\+ window should keep >= 90%"),
])
def test_protocol_check_fails_when_the_board_contradicts_the_text(paper5, paper15, window15, match):
    board = {"methods": {upe_m1.UPE_PAPER: {"lengths": {5: {"median": paper5}, 15: {"median": paper15}}},
                         upe_m1.UPE_WINDOW: {"lengths": {15: {"median": window15}}}}}
    with pytest.raises(ClaimFailed, match=match):
        upe_m1.check_protocol(board, 15)


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


# -- section 5 ----------------------------------------------------------------------------------------------

def med5(rpe10=0.2, ape5=0.94, ape15=0.41, ours15=0.84):
    return {upe_m1.APE: {5: ape5, 10: 0.74, 15: ape15}, upe_m1.RPE: {5: 0.99, 10: rpe10, 15: 0.0},
            upe_m1.UPE0: {5: 0.993, 10: 0.52, 15: 0.003}, upe_m1.UPE: {5: 0.993, 10: 0.957, 15: ours15}}


def test_check_m3_augmentation():
    inside = {"a": 0.98, "b": 0.99}
    upe_m1.check_m3(med5(), inside)
    with pytest.raises(ClaimFailed, match=r"should master 1 to 5 digits.*got 90\.0%"):
        upe_m1.check_m3(med5(), {"a": 0.9})
    with pytest.raises(ClaimFailed, match=r"M3 for RPE.*got 45\.0% vs 52\.0%"):
        upe_m1.check_m3(med5(rpe10=0.45), inside)
    with pytest.raises(ClaimFailed, match=r"augmented APE should beat.*0\.3% at 15"):
        upe_m1.check_m3(med5(ape15=0.1), inside)
    with pytest.raises(ClaimFailed, match=r"pay a little in distribution.*got 99\.5% vs at least 99\.0%"):
        upe_m1.check_m3(med5(ape5=0.995), inside)
    with pytest.raises(ClaimFailed, match=r"UPE \+ shift should lead.*got 95\.7% at 10, 50\.0% at 15"):
        upe_m1.check_m3(med5(ours15=0.5), inside)


# -- section 6 ----------------------------------------------------------------------------------------------

def fake_map(largest: int, far_norm: float, K: int = 20, spread: float = 1.0) -> PositionalMaps:
    norms = np.full(2 * K + 1, spread)
    norms[K + largest] = 5.0
    norms[K - 17] = far_norm
    return PositionalMaps("upe", p=[norms[:, None].copy() for _ in range(3)], c=[])


def test_measure_summary_and_check_maps():
    maps = {"RPE": [fake_map(1, 1.0, spread=0.8), fake_map(-1, 1.0, spread=0.8)], "UPE": [fake_map(1, 0.01), fake_map(-2, 0.01)]}
    stats = upe_maps.measure(maps, 16)
    assert stats["far"] == -17 and stats["carry"] == {"RPE": 3, "UPE": 3} and stats["layers"] == {"RPE": 6, "UPE": 6}
    assert sorted(set(stats["others"])) == [-2, -1]
    rows = upe_maps.summary_rows(stats)
    assert rows["UPE"]["layers where p_+1 is the largest"] == "3 of 6"
    assert rows["UPE"]["norm of p_-17 / the layer's median, largest"] == "0.010"
    upe_maps.check_maps(stats)
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
    layer = upe_maps.map_stats(fake_map(1, 1.0), 17)
    assert layer[1]["largest offsets"].startswith("+1") and layer[1]["share of p_+1"] > 0.3


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


def test_text_frame_drop_check():
    text_heads.check_frame_drop({"with text": [0.05, 0.16, 0.48], "without text": [0.0, 0.01, 0.02]})
    with pytest.raises(ClaimFailed, match=r"with text should drop at the full frame.*got 60\.0%"):
        text_heads.check_frame_drop({"with text": [0.5, 0.6, 0.9]})


def test_text_attention_rows_and_check():
    on = {"layer 1, head 1 (arithmetic)": 0.04, "layer 1, head 2 (arithmetic)": 0.02, "layer 1, head 3 (APE)": 0.1}
    rows = text_heads.attention_rows(on, 0.18)
    assert rows["arithmetic heads, mean"] == pytest.approx(0.03) and rows["APE heads, mean"] == pytest.approx(0.1)
    assert rows["text's share of the tokens"] == 0.18
    text_heads.check_attention(on, 0.18)
    with pytest.raises(ClaimFailed, match=r"arithmetic heads should put less.*got 11\.0%"):
        text_heads.check_attention({**on, "layer 1, head 1 (arithmetic)": 0.2}, 0.18)


def test_text_setup_rows_read_the_entries():
    rows = text_heads.setup_rows({"text": upe_m1.seeds("nb04-text-add")})
    assert rows["text"]["arithmetic heads"] == "2 of 4" and rows["text"]["seeds"] == "3"


# -- summary ------------------------------------------------------------------------------------------------

def window_board() -> dict:
    def method(at15):
        return {"lengths": {15: {"median": at15, "min": at15 - 0.01, "max": at15 + 0.01}}}
    return {"methods": {upe_m1.UPE_WINDOW: method(0.97)}}


def test_claim_rows_carry_the_bands_the_maps_and_the_gpu_records():
    b = {label: {n: (v, v, v) for n in (8, 10, 15)} for label, v in
         (("APE", 0.01), ("RPE", 0.1), ("UPE", 0.5), (upe_m1.APE, 0.4), (upe_m1.RPE, 0.2), (upe_m1.UPE, 0.88))}
    maps = {"carry": {"RPE": 3, "UPE": 2}, "layers": {"RPE": 9, "UPE": 9}, "effective": {"RPE": [16.0], "UPE": [19.0]}}
    rows = upe_summary.claim_rows(b, {}, b, maps, window_board(), 15)
    ours = {k: r["ours (median over seeds)"] for k, r in rows.items()}
    assert ours["UPE + window at 3x (not in the paper)"] == "97.0% at 15 digits (seeds 96.0–98.0%)"
    assert ours["M2: UPE, 3-digit multiplier (CPU)"] == "not built"
    assert ours["maps: UPE less dispersed"] == "19.0 vs 16.0 effective offsets"
    rows = upe_summary.claim_rows(b, {"x": {5: 0.054}, "y": {5: 0.0}}, b, maps, window_board(), 15)
    assert rows["M2: UPE, 3-digit multiplier (CPU)"]["ours (median over seeds)"].startswith("best of the search 5.4%")
    recs = [r["metrics"]["em"] for r in upe_m3.m2_records(upe_m3.M2_RUNS[
        "schedule to its end, 256 per step"]).values()]
    kept = float(np.median([em["16"] / em["5"] for em in recs]))
    row = rows["M2 at the paper's depth (GPU, 256 per step; × hidden among other departures, the ledger's table)"]
    assert row["ours (median over seeds)"].startswith(f"{100 * kept:.1f}% kept at 16 digits")

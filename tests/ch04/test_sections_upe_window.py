"""Notebook 04's "Where the errors sit, and a window": claim checks and prose on planted numbers."""
from __future__ import annotations

import pytest

from lengen_utils.course.common.claims import ClaimFailed
from lengen_utils.course.ch04_upe import upe_window as w


def test_check_error_sites():
    w.check_error_sites({5: {0: 1.0, 1: 0.99}, 15: {0: 0.6, 1: 0.6}}, trained=5)
    with pytest.raises(ClaimFailed, match=r"units digit .* should lose accuracy.*got 99\.0% vs 100\.0%"):
        w.check_error_sites({5: {0: 1.0}, 15: {0: 0.99}}, trained=5)
    with pytest.raises(ClaimFailed, match=r"right at the trained length.*got 90\.0%"):
        w.check_error_sites({5: {0: 0.9}, 15: {0: 0.5}}, trained=5)


def live(ours: float, plain: float, rpe: float, inside: float = 1.0) -> dict:
    out = {}
    for method, at15 in ((w.UPE_WINDOW, ours), (w.UPE_PLAIN, plain), (w.RPE_WINDOW, rpe)):
        for s in range(3):
            out[f"{method}-s{s}"] = {**{n: inside for n in range(1, 6)}, 15: at15}
    return out


def test_check_window_passes_and_names_each_failure():
    w.check_window(live(0.96, 0.15, 0.4), trained=5, headline=15)
    with pytest.raises(ClaimFailed, match=r"UPE \+ window should keep a median >= 90% at 15 digits \(3x.*got 80\.0%"):
        w.check_window(live(0.8, 0.15, 0.4), 5, 15)
    with pytest.raises(ClaimFailed, match=r"UPE without the window should fail.*got 70\.0%"):
        w.check_window(live(0.96, 0.7, 0.4), 5, 15)
    with pytest.raises(ClaimFailed, match=r"RPE with the same window .* 20 points below.*got 90\.0% vs 96\.0%"):
        w.check_window(live(0.96, 0.15, 0.9), 5, 15)
    with pytest.raises(ClaimFailed, match=r"should master 1-5 digit.*got 90\.0%"):
        w.check_window(live(0.96, 0.15, 0.4, inside=0.9), 5, 15)


def test_window_text_uses_the_board():
    def method(name, at15, seconds):
        return {"entries": [f"{name}-s0"], "seeds": [0, 1, 2], "train_seconds": seconds,
                "lengths": {5: {"median": 1.0, "min": 1.0, "max": 1.0}, 15: {"median": at15, "min": at15 - 0.02,
                                                                         "max": at15}, 19: {"median": 0.05, "min": 0.0, "max": 0.1}}}
    board = {"methods": {w.UPE_WINDOW: method(w.UPE_WINDOW, 0.968, [100.0, 120.0]),
                         w.UPE_PLAIN: method(w.UPE_PLAIN, 0.15, [95.0]), w.RPE_WINDOW: method(w.RPE_WINDOW, 0.418, [99.0])}}
    text = w.window_text(board, 15)
    for part in ("3 seeds", "median of 96.8% at 15 digits", "worst seed 94.8%", "5.0% at 19", "window, same frame and "
                 "budget, 15.0%", "same window 41.8%", "frame l = 20", "1–5 digit"):
        assert part in text, part

"""Notebook 05 section 8's claim checks (lengen_utils.course.ch05_coupling.minesweeper), on planted
numbers."""
from __future__ import annotations

import numpy as np
import pytest

from lengen_utils.course.common.claims import ClaimFailed
from lengen_utils.core.evaluate.boards import row_start_split
from lengen_utils.course.ch05_coupling import minesweeper as mine
from lengen_utils.lab.leaderboard import leaderboard

WIDTHS = (5, 9, 12, 14, 20)


def board(method_values: dict[str, dict[int, float]], seeds: int = 3) -> dict:
    methods = {}
    for method, values in method_values.items():
        methods[method] = {"seeds": list(range(seeds)), "entries": [f"{method}-s{s}" for s in range(seeds)],
                           "train_seconds": [400.0 + s for s in range(seeds)],
                           "lengths": {w: {"median": v, "min": v - 0.01 if v > 0.01 else v, "max": v}
                                       for w, v in values.items()}}
    return {"methods": methods}


def live(ours: dict[int, float], nope: float) -> dict[str, dict[int, float]]:
    out = {f"{mine.OURS}-s{s}": dict(ours) for s in range(3)}
    out.update({f"{mine.OURS_NOPE}-s{s}": {9: nope} for s in range(3)})
    return out


def test_target_widths_are_the_issue_targets():
    assert mine.target_widths(9) == (12, 14)


def test_check_next_cell_passes_and_names_each_failure():
    mine.check_next_cell(live({9: 1.0, 12: 0.99, 14: 0.9}, 0.02), 9)
    with pytest.raises(ClaimFailed, match=r"median >= 95% at width 12 .*got 90\.0%"):
        mine.check_next_cell(live({9: 1.0, 12: 0.90, 14: 0.9}, 0.02), 9)
    with pytest.raises(ClaimFailed, match=r"master the trained boards.*got 80\.0%.*says nothing about wider"):
        mine.check_next_cell(live({9: 0.8, 12: 0.99, 14: 0.9}, 0.02), 9)
    with pytest.raises(ClaimFailed, match=r"NoPE with the same budget should fail in distribution.*got 70\.0%"):
        mine.check_next_cell(live({9: 1.0, 12: 0.99, 14: 0.9}, 0.7), 9)


def test_check_row_start_and_its_messages():
    grid = np.ones((6, 6))
    grid[1:, 0] = 0.5                                   # the first cell of rows 2+ is weak
    split = row_start_split(grid)
    assert split == {"first column (rows 2+)": 0.5, "all other cells": 1.0}
    mine.check_row_start(split, {"taller": 0.9, "wider": 0.1})
    with pytest.raises(ClaimFailed, match="first cell of a row should be the weakest"):
        mine.check_row_start(row_start_split(np.ones((6, 6))), {"taller": 0.9, "wider": 0.1})
    with pytest.raises(ClaimFailed, match=r"one row taller .*got taller 50\.0%, wider 40\.0%"):
        mine.check_row_start(split, {"taller": 0.5, "wider": 0.4})


def test_check_widest_reads_the_widest_test_board():
    b = board({mine.OURS: {w: v for w, v in zip(WIDTHS, (1.0, 1.0, 0.987, 0.953, 0.95))}})
    mine.check_widest(b)
    b["methods"][mine.OURS]["lengths"][20]["median"] = 0.5
    with pytest.raises(ClaimFailed, match=r"median >= 90% at width 20, the widest test; got 50\.0%"):
        mine.check_widest(b)


def _board(shared: float, separate: float) -> dict:
    return {"methods": {mine.CHO_SHARED: {"lengths": {5: {"median": shared}}},
                        mine.CHO: {"lengths": {5: {"median": separate}}}}}


def test_shared_table_check_on_the_leaderboard_and_its_failures():
    mine.check_shared_table(leaderboard("nb05-2d-cho"), 5)                    # the recorded leaderboard supports the text
    with pytest.raises(ClaimFailed, match="should not master width 5"):
        mine.check_shared_table(_board(0.95, 0.99), 5)
    with pytest.raises(ClaimFailed, match="beat the shared table by >= 30 points"):
        mine.check_shared_table(_board(0.70, 0.90), 5)


def test_check_ids_recounts_the_mines_around_each_cell():
    from types import SimpleNamespace

    from lengen_utils.core.boards.board import Board
    from lengen_utils.core.boards.format import encode_board
    from lengen_utils.core.positions2d import BoardPositions

    b = Board.parse(["*M*", "**M", "M**"])
    ex = encode_board(b)
    ids = BoardPositions().assign(ex)
    mine.check_ids(ex, ids, b)
    with pytest.raises(ClaimFailed, match=r"the answer cell \(2, 2\) should be 1; got 2"):
        mine.check_ids(ex, ids, SimpleNamespace(cells=b.cells, answer=b.answer[:2] + (("M", "2", "2"),)))

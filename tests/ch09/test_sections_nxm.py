"""Notebook 09's sections: the recorded grid's checks on planted numbers, its refusal of a stale record, the live
agreement check, the figures and the widget on a tiny model."""
from __future__ import annotations

import json

import numpy as np
import pytest

from lengen_utils.course.ch09_nxm import grid
from lengen_utils.lab import nxm_grid
from lengen_utils.course.ch09_nxm.widget import GridExplorer, scratchpad_html
from lengen_utils.course.ch09_nxm.plots import error_map_heatmap, grid_heatmap
from lengen_utils.course.common.claims import ClaimFailed
from lengen_utils.core.model import ModelConfig, Transformer
from lengen_utils.core.tasks import Task, TaskConfig
from lengen_utils.core.train import TrainConfig, fit


def planted(value: float = 0.99, lengths=(5, 10, 20), trained: int = 10) -> dict:
    cells = {f"{a}x{b}": value for a in lengths for b in lengths}
    return {"lengths": list(lengths), "trained": [1, trained], "n": 200, "seeds": [],
            "summary": {"median_em": cells, "worst_em": cells, "median_token_accuracy": cells, "targets": {}}}


def test_trained_range_must_be_mastered():
    assert grid.check_trained_range(planted(0.995))
    weak = planted(0.995)
    weak["summary"]["median_em"]["10x5"] = 0.9
    with pytest.raises(ClaimFailed, match="10x5"):
        grid.check_trained_range(weak)
    past = planted(0.995)
    past["summary"]["median_em"]["20x20"] = 0.1          # outside the trained range: not this check's business
    assert grid.check_trained_range(past)


def test_live_sample_must_agree_with_the_record():
    record = planted(0.95)
    assert grid.check_live({(20, 20): [0.95, 0.9, 1.0]}, record, 20)
    with pytest.raises(ClaimFailed, match="20x20"):
        grid.check_live({(5, 5): [0.95], (20, 20): [0.2, 0.3, 0.1]}, record, 20)


def test_a_record_of_other_builds_is_refused(tmp_path):
    record = planted()
    record["seeds"] = [{"entry": "nb09-fused-s0", "sha256": "0" * 64}]
    path = tmp_path / "grid.json"
    path.write_text(json.dumps(record))
    with pytest.raises((ValueError, KeyError)):
        nxm_grid.read_record(path)
    with pytest.raises(FileNotFoundError, match="nxm-grid"):
        nxm_grid.read_record(tmp_path / "missing.json")


def test_median_matrix_and_reach_rows():
    record = planted(0.97)
    assert nxm_grid.median_matrix(record).shape == (3, 3)
    rows = nxm_grid.reach_rows(record)
    assert list(rows) == ["20x20 (2x in both)"] and rows["20x20 (2x in both)"]["median"] == 0.97


def test_figures_draw():
    import matplotlib.pyplot as plt
    fig = grid_heatmap(np.full((3, 3), 0.5), [5, 10, 20], 10)
    plt.close(fig)
    fig = error_map_heatmap(np.array([[np.nan, 0.0, 0.1], [0.2, 0.0, np.nan]]), title="errors")
    plt.close(fig)


@pytest.fixture(scope="module")
def tiny():
    task = Task(TaskConfig(task="nxm", op="*", format="fused_rows", positions="row_coupled", max_digits=2,
                           max_position=8, random_start=False))
    model = Transformer(ModelConfig(d_model=32, n_layers=1, n_heads=4, d_ff=64, encoding="none", position_channels=3,
                                    relative_bias=True, relative_bias_max_distance=3))
    fit(model, task, TrainConfig(steps=20, batch_size=8), progress=False)
    return model, task


def test_widget_shows_a_cell_and_refuses_bad_values(tiny):
    explorer = GridExplorer({0: tiny}, recorded=None, n=5, n_digits=2, m_digits=1)
    assert explorer.last["cell"] == (2, 1) and 0 <= explorer.last["live"][0] <= 1
    assert "not in the record" in explorer.status.value
    for bad in (0, 99, "3", 2.5):
        with pytest.raises(ValueError):
            explorer.show(bad, 1)
        assert "N must" in explorer.status.value
    assert explorer.limit == tiny[1].longest_operand()


def test_scratchpad_html_marks_every_supervised_token(tiny):
    model, task = tiny
    text = scratchpad_html(model, task, 2, 2)
    assert text.count("<span") == len([t for t in task.example(task.cell_problems(2, 2, 1)[0]).targets if t])


def test_error_budget_and_products_per_digit():
    from lengen_utils.analysis import nxm_measures as S
    assert S.supervised_tokens(2, 2) == len("000+ddd+ddd$")          # rows of N + 1 digits, separators, the '$'
    assert abs((1 - S.error_budget(20, 20)) ** S.supervised_tokens(20, 20) - 0.95) < 1e-9
    assert S.products_per_digit(3, 2) == [1, 2, 2, 1] and max(S.products_per_digit(20, 20)) == 20


def test_offsets_are_fixed_across_sizes_and_a_shift_would_be_caught(monkeypatch):
    from lengen_utils.course.ch09_nxm import scratchpad as S
    assert S.check_fixed_offsets([(3, 3), (25, 25)])
    from lengen_utils.analysis.nxm_measures import lookup_offsets
    offsets = lookup_offsets(6, 4)
    assert offsets["row above, two columns on"] == {(-1, 2, 0)} and offsets["multiplicand, next column"]
    real = S.lookup_offsets
    monkeypatch.setattr(S, "lookup_offsets", lambda n, m: {**real(n, m), "row above, next column": {(-1, n, 0)}})
    with pytest.raises(ClaimFailed, match="new ones"):
        S.check_fixed_offsets([(3, 3), (25, 25)])


def test_moving_a_slider_shows_its_cell(tiny):
    explorer = GridExplorer({0: tiny}, recorded=None, n=3, n_digits=2, m_digits=1)
    explorer.m_slider.value = 2
    assert explorer.last["cell"] == (2, 2) and "2 x 2" in explorer.status.value

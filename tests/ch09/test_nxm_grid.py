"""The N x M grid benchmark (lab.nxm_grid): its summary and targets on planted numbers, and its refusals."""
from __future__ import annotations

import pytest

from lengen_utils.lab.nxm_grid import format_grid, main, summarize


def run(seed: int, em: dict[str, float], minutes: float = 30.0, threads: int = 1, params: int = 200_000) -> dict:
    return {"seed": seed, "entry": f"nb09-fused-s{seed}", "train_seconds": 60 * minutes, "threads": threads,
            "device": "cpu", "n_parameters": params, "n_layers": 2, "eval_seconds": 1.0,
            "cells": {k: {"em": v, "token_accuracy": 0.999} for k, v in em.items()}}


def grid(value: float, lengths=(10, 20), stretch: float = 0.95) -> dict[str, float]:
    cells = {f"{a}x{b}": value for a in lengths for b in lengths}
    return {**cells, "30x30": stretch}


def test_targets_met_on_a_grid_above_them():
    runs = [run(s, grid(0.97)) for s in range(3)]
    summary = summarize(runs, (10, 20), 30)
    assert all(summary["targets"].values())


def test_the_median_decides_and_the_weakest_cell_is_named():
    cells = [grid(0.99), grid(0.99), grid(0.50)]
    cells[0]["20x20"] = cells[1]["20x20"] = 0.90          # median 0.90 at 20 x 20: below 95%
    summary = summarize([run(s, c) for s, c in enumerate(cells)], (10, 20), 30)
    assert summary["weakest_cell"] == "20x20" and summary["median_em"]["20x20"] == 0.90
    assert summary["worst_em"]["10x10"] == 0.50
    verdicts = dict(summary["targets"])
    assert verdicts[next(k for k in verdicts if "20 x 20" in k)] is False


def test_budget_and_size_targets_read_the_records():
    runs = [run(0, grid(0.99), minutes=61), run(1, grid(0.99)), run(2, grid(0.99), params=2_000_000)]
    targets = summarize(runs, (10, 20), 30)["targets"]
    assert [held for name, held in targets.items() if "min" in name] == [False]
    assert [held for name, held in targets.items() if "parameters" in name] == [False]


def test_a_grid_short_of_20_reports_not_run():
    summary = summarize([run(0, grid(0.99, lengths=(5, 10)))], (5, 10), 30)
    assert next(v for k, v in summary["targets"].items() if "20 x 20" in k) is None


def test_the_table_prints_every_verdict():
    runs = [run(s, grid(0.97)) for s in range(3)]
    result = {"recipe": "nb09-fused", "n": 200, "lengths": [10, 20], "stretch": 30, "trained": [1, 10],
              "seeds": runs, "summary": summarize(runs, (10, 20), 30)}
    text = format_grid(result)
    assert "97.0" in text and text.count("met:") == 4 and "trained 30.0 min" in text


def test_refusals_are_one_line(capsys):
    assert main(["--recipe", "nb09-nothing"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "nb09-nothing" in err
    with pytest.raises(SystemExit) as stopped:          # argparse's bounded type refuses it, in one line
        main(["--stretch", "-3"])
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert "--stretch" in err and len(err.strip().splitlines()) == 1

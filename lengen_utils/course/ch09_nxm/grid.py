"""Notebook 09's measures and checks: the recorded (N, M) grid of the fused-row recipe, a live sample of it, and the
targets (trained on N, M <= 10: median >= 95% on every cell to 20 x 20, stretch >= 90% at 30 x 30).

The full grid (200 products per cell, every cell to 20 x 20, each seed) is the benchmark's record,
``python -m lengen_utils.lab.bench nxm-grid --out docs/logs/nxm-grid.json`` (minutes per seed); the notebook reads it,
refuses it if a seed was rebuilt since (its file's sha256 differs from the manifest's), and re-measures a sample of
cells live on the cached models.
"""
from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np

from ...analysis.nxm_measures import evaluate_cell
from ...lab.nxm_grid import TARGET_GRID, TARGET_STRETCH
from ...lab.zoo import REPO_ROOT, manifest_record
from ..common.claims import claim
from ..common.paper_claims import ClaimRow
from ..notebook import pct

GRID_RECORD = REPO_ROOT / "docs" / "logs" / "nxm-grid.json"
BENCH = "python -m lengen_utils.lab.bench nxm-grid --out docs/logs/nxm-grid.json"
MASTERY = 0.99


def recorded_grid(path: Path = GRID_RECORD) -> dict:
    """The benchmark's recorded grid; refused when it is missing or when a seed's model is not the one built now."""
    if not Path(path).is_file():
        raise FileNotFoundError(f"no recorded grid at {path}; record it with {BENCH}")
    result = json.loads(Path(path).read_text())
    for run in result["seeds"]:
        built = manifest_record(run["entry"])["sha256"]
        if run.get("sha256") != built:
            raise ValueError(f"the recorded grid tested another build of {run['entry']} (sha256 "
                             f"{str(run.get('sha256'))[:12]}..., built now {built[:12]}...); record it again with {BENCH}")
    return result


def median_matrix(result: dict, key: str = "median_em") -> np.ndarray:
    """``[N, M]`` medians over seeds of the recorded grid (rows: the multiplicand's digits)."""
    lengths = result["lengths"]
    return np.array([[result["summary"][key][f"{a}x{b}"] for b in lengths] for a in lengths])


def live_sample(models: dict[int, tuple], cells: list[tuple[int, int]], n: int) -> dict[tuple[int, int], list[float]]:
    """``{(N, M): [exact match of each seed]}`` on ``n`` fixed products per cell (the first of the recorded ones)."""
    return {(a, b): [evaluate_cell(model, task, a, b, n).exact_match for model, task in models.values()]
            for a, b in cells}


def check_trained_range(result: dict) -> list[ClaimRow]:
    """Every trained cell (N, M <= the trained length) is mastered: median >= 99%, before any length claim."""
    top = result["trained"][1]
    cells = {k: v for k, v in result["summary"]["median_em"].items()
             if all(int(x) <= top for x in k.split("x"))}
    weakest = min(cells, key=cells.get)
    claim(cells[weakest] >= MASTERY, f"every trained cell (N, M <= {top}) mastered: median >= {pct(MASTERY)}",
          f"{pct(cells[weakest])} at {weakest}", "A model that fails in its trained range says nothing about length.")
    return [ClaimRow(f"every trained cell mastered (median >= {pct(MASTERY)}, N, M <= {top})", "(course rule)",
                     f"weakest {weakest}: {pct(cells[weakest])}", f"recorded grid, {result['n']} products per cell")]


def target_verdicts(result: dict) -> dict[str, bool | None]:
    """The issue's targets as the benchmark computed them from the record (True met, False missed, None not run)."""
    return dict(result["summary"]["targets"])


def reach_rows(result: dict) -> dict[str, dict[str, object]]:
    """The target cells: 2x and 3x the trained length in both operands, with median and worst seed."""
    top, summary = result["trained"][1], result["summary"]
    rows = {}
    for factor, target in ((2, TARGET_GRID), (3, TARGET_STRETCH)):
        key = f"{factor * top}x{factor * top}"
        if key in summary["median_em"]:
            rows[f"{key} ({factor}x in both)"] = {
                "median": summary["median_em"][key], "worst seed": summary["worst_em"][key],
                "median token accuracy": summary["median_token_accuracy"][key], "target": target}
    return rows


def check_live(live: dict[tuple[int, int], list[float]], result: dict, n: int) -> list[ClaimRow]:
    """The live sample agrees with the record: on each sampled cell the live median is within four standard errors
    of ``n`` problems (and 5 points) of the recorded median."""
    def gap(cell: tuple[int, int]) -> tuple[float, float]:
        recorded = result["summary"]["median_em"][f"{cell[0]}x{cell[1]}"]
        allowed = 4 * math.sqrt(max(recorded * (1 - recorded), 0.01) / n) + 0.05
        return abs(float(np.median(live[cell])) - recorded), allowed

    where = max(live, key=lambda cell: gap(cell)[0] - gap(cell)[1])
    worst_gap, worst_allowed = gap(where)
    a, b = where
    claim(worst_gap <= worst_allowed, f"the live sample ({n} products per cell) agrees with the record",
          f"live {pct(float(np.median(live[where])))} against recorded "
          f"{pct(result['summary']['median_em'][f'{a}x{b}'])} at {a}x{b}",
          "The cached models are not the ones the record tested: record the grid again.")
    return [ClaimRow("the cached models score as recorded (live sample)", "(course check)",
                     f"largest gap {pct(worst_gap)} at {a}x{b}", f"{n} products per sampled cell, live")]


__all__ = ["BENCH", "GRID_RECORD", "check_live", "check_trained_range", "live_sample", "median_matrix",
           "reach_rows", "recorded_grid", "target_verdicts"]

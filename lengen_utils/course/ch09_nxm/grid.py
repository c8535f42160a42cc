"""Notebook 09's checks on the recorded (N, M) grid (:func:`~lengen_utils.lab.nxm_grid.read_record`): the trained
range is mastered before any claim about length, and a live sample of cells on the cached models agrees with the
record."""
from __future__ import annotations

import math

import numpy as np

from ..common.claims import claim
from ..common.paper_claims import ClaimRow
from ..notebook import pct

MASTERY = 0.99


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


def check_live(live: dict[tuple[int, int], list[float]], result: dict, n: int) -> list[ClaimRow]:
    """The live sample agrees with the record: on each sampled cell the live median is within four standard errors
    of ``n`` problems (and 5 points) of the recorded median."""
    def gap(cell: tuple[int, int]) -> tuple[float, float, float]:      # (gap, allowed gap, recorded median)
        recorded = result["summary"]["median_em"][f"{cell[0]}x{cell[1]}"]
        return (abs(float(np.median(live[cell])) - recorded),
                4 * math.sqrt(max(recorded * (1 - recorded), 0.01) / n) + 0.05, recorded)

    beyond = max(live, key=lambda cell: gap(cell)[0] - gap(cell)[1])      # the cell nearest to failing
    largest, (worst_gap, worst_allowed, recorded) = max(live, key=lambda cell: gap(cell)[0]), gap(beyond)
    claim(worst_gap <= worst_allowed, f"the live sample ({n} products per cell) agrees with the record",
          f"live {pct(float(np.median(live[beyond])))} against recorded {pct(recorded)} at {beyond[0]}x{beyond[1]} "
          f"(allowed gap {pct(worst_allowed)})", "The cached models are not the ones the record tested: record it again.")
    return [ClaimRow("the cached models score as recorded (live sample)", "(course check)",
                     f"largest gap {pct(gap(largest)[0])} at {largest[0]}x{largest[1]}",
                     f"{n} products per sampled cell, live")]

__all__ = ["check_live", "check_trained_range"]

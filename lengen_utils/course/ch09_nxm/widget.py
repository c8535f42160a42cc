"""Notebook 09's widget (the N x M explorer): pick N and M, see the cached seeds multiply N-digit by M-digit numbers.

Two sliders (N, the multiplicand's digits; M, the multiplier's) up to the models' ID table; when one moves, for the cell it
shows the recorded median exact match (when the benchmark tested that cell), the live exact match of each seed on a
few fixed products, and one product's scratchpad as the first seed writes it, wrong tokens in red. A value out of
range or not an int is refused with a sentence on screen (:meth:`GridExplorer.show` raises ``ValueError``).
"""
from __future__ import annotations

import html as _html
from typing import Mapping

from ...analysis.nxm_measures import evaluate_cell
from ...core.config_checks import int_refusal
from ...core.evaluate import greedy_predictions
from ...core.evaluate.lengths import eval_batches
from ...core.vocab import ids_to_tokens
from ..widgets.common import _tip, _widgets, error_html, on_screen

#: the largest operand the sliders offer (the grid's stretch cell); past it a cell costs seconds per product
SLIDER_MAX = 30


def scratchpad_html(model, task, n_digits: int, m_digits: int) -> str:
    """The first test product of the cell as the model writes it greedily (red: a token that differs from the truth)."""
    problem = task.cell_problems(n_digits, m_digits, 1)[0]
    batch = next(eval_batches(model, task, [problem], 1))
    predicted = greedy_predictions(model, batch)[0]
    example = batch.examples[0]
    parts = []
    for i, token in enumerate(example.tokens):
        if i == 0 or example.targets[i - 1] is None:
            parts.append(_html.escape(token))
            continue
        said = ids_to_tokens([max(int(predicted[i - 1]), 0)])[0]
        style = "" if said == token else " style='color:#CC3311;font-weight:bold'"
        parts.append(f"<span{style}>{_html.escape(said)}</span>")
        if token in "+$" and i < len(example.tokens):
            parts.append("<br>")
    return (f"<div style='font-family:monospace'>{problem.a} x {problem.b} = {problem.a * problem.b}<br>"
            + "".join(parts) + "</div>")


class GridExplorer:
    """Sliders for N and M over the cached seeds ``models`` (``{seed: (model, task)}``); ``recorded`` is the
    benchmark's grid (:func:`~lengen_utils.course.ch09_nxm.grid.recorded_grid`) or None; ``n`` products per live
    cell. What it last showed is kept in ``last`` (``{"cell", "recorded", "live"}``) and ``status.value``."""

    def __init__(self, models: Mapping[int, tuple], recorded: dict | None = None, n: int = 20,
                 n_digits: int = 20, m_digits: int = 20, draw: bool = True):
        if not models:
            raise ValueError("GridExplorer needs at least one cached model ({seed: (model, task)})")
        why = int_refusal(n, "n (products per cell)")
        if why or n < 1:
            raise ValueError(why or f"n (products per cell) must be >= 1, got {n}")
        w = _widgets()
        self.models, self.recorded, self.n, self.draw = dict(models), recorded, int(n), draw
        task = next(iter(self.models.values()))[1]
        self.limit = min(SLIDER_MAX, task.longest_operand())
        self.last: dict = {}
        self.n_slider = _tip(w.IntSlider(value=1, min=1, max=self.limit, description="N digits",
                                         continuous_update=False), "digits of the multiplicand (training: 1-10)")
        self.m_slider = _tip(w.IntSlider(value=1, min=1, max=self.limit, description="M digits",
                                         continuous_update=False), "digits of the multiplier (training: 1-10)")
        self.status, self.pad = w.HTML(), w.HTML()
        self._quiet = False                  # set while show() moves the sliders itself
        for slider in (self.n_slider, self.m_slider):
            slider.observe(on_screen(self.status, self._on_change), names="value")
        self.widget = w.VBox([w.HBox([self.n_slider, self.m_slider]), self.status, self.pad])
        self.show(n_digits, m_digits)

    def _on_change(self, _change) -> None:
        if not self._quiet:
            self.show(self.n_slider.value, self.m_slider.value)

    def refusal(self, value: object, name: str) -> str | None:
        """Why ``value`` cannot be a number of digits (a sentence), or None."""
        why = int_refusal(value, name)
        if why is None and not 1 <= value <= self.limit:
            why = f"{name} must be between 1 and {self.limit} (the sliders' range), got {value}"
        return why

    def show(self, n_digits: int, m_digits: int) -> dict:
        """Measure and show the cell ``n_digits x m_digits``; an invalid value is shown and raised (``ValueError``)."""
        for value, name in ((n_digits, "N"), (m_digits, "M")):
            why = self.refusal(value, name)
            if why:
                self.status.value = error_html(why)
                raise ValueError(why)
        self._quiet = True
        try:
            self.n_slider.value, self.m_slider.value = int(n_digits), int(m_digits)
        finally:
            self._quiet = False
        key = f"{n_digits}x{m_digits}"
        recorded = None if self.recorded is None else self.recorded["summary"]["median_em"].get(key)
        live = {seed: evaluate_cell(model, task, n_digits, m_digits, self.n).exact_match
                for seed, (model, task) in self.models.items()}
        self.last = {"cell": (int(n_digits), int(m_digits)), "recorded": recorded, "live": live}
        told = "not in the record" if recorded is None else f"{100 * recorded:.1f}% (median, recorded)"
        self.status.value = (f"<b>{n_digits} x {m_digits}</b>: {told}; live on {self.n} products: "
                             + ", ".join(f"seed {s} {100 * em:.0f}%" for s, em in live.items()))
        if self.draw:
            model, task = next(iter(self.models.values()))
            self.pad.value = scratchpad_html(model, task, int(n_digits), int(m_digits))
        return self.last


__all__ = ["GridExplorer", "scratchpad_html"]

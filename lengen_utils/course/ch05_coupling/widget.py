"""The coupling explorer (notebook 05): pick a trained length and a method of position coupling, see the
median exact match over seeds with the seeds' spread (Cho et al. Figure 1's band) and Cho et al.'s
generalizable length (median EM > 95%, Section 4), read from the zoo manifest (no model is loaded).

A *choice* is ``(trained length, method label) -> [zoo entry names, one per seed]``. A combination that
was never trained, or whose entries are not built yet, gives a message that names what exists (or the
``zoo train`` command that builds it), never a traceback.
"""
from __future__ import annotations

import html as _html
from typing import Callable, Mapping, Sequence

from ...core.config_checks import int_refusal, require_int
from ...lab import zoo
from ..common.baselines import BASELINE_LABELS
from ...analysis.generalization import generalizable_length, median_and_range
from ..plots import median_band
from ..widgets.common import _tip, _widgets, error_html, on_screen, show_figure
from .trained_length import OURS as _TRAINED_LENGTH, SINK as _SINK   # {trained length: recipe}, Figure 3

Choices = Mapping[tuple[int, str], Sequence[str]]

#: Cho et al.'s generalizable lengths for 1-layer 4-head plain coupling (their Figure 3), by trained length.
PAPER_GENERALIZABLE = {10: 70, 20: 135, 30: 200, 40: 200}
#: the role of the recipe rows the explorer offers besides the baselines and Figure 3 (``recipes.py``)
EXPLORER_ROLE = "coupling-explorer"


def default_choices() -> dict[tuple[int, str], list[str]]:
    """The notebook-05 zoo entries, by (trained length, method): the rows with the role ``coupling-explorer`` (the
    ablation and depth rows on 1-10 digit sums, IDs up to 64, and N x 2 multiplication on 1-10 digit multiplicands),
    the baselines of section 5 on 1-10 digit sums, and our variant with IDs up to 128, without and with the sink
    (the flagship's recipe), on 1-5, 1-10 and 1-15 digit sums (Figure 3). A method is labelled by its row's title."""
    def seeds(recipe: str) -> list[str]:
        return list(zoo.recipe_entries(recipe).values())

    rows = {f"N × 2 multiplication, {r.title}" if r.task.op == "*" else r.title: r.id
            for r in zoo.with_role(EXPLORER_ROLE)}
    rows.update({f"baseline: {label}": recipe for recipe, label in BASELINE_LABELS.items()})
    out: dict[tuple[int, str], list[str]] = {(10, label): seeds(recipe) for label, recipe in rows.items()}
    for k in (5, 10, 15):
        out[(k, "our variant, IDs up to 128")] = seeds(_TRAINED_LENGTH[k])
        out[(k, "+ sink for the final carry (the flagship)")] = seeds(_SINK[k])
    return {key: value for key, value in out.items() if value}


class CouplingExplorer:
    """Two dropdowns (trained length, method); the median EM over the built seeds, their range as a band,
    and the generalizable length. ``metrics(name)`` returns a built entry's ``{length: EM}`` and raises
    :class:`~lengen_utils.lab.zoo.ZooError` for one that is not built (default :func:`lengen_utils.lab.zoo.metrics`).
    What it last showed is kept in ``status.value``, ``last_curve``, ``last_length`` and ``last_figure``.
    A ``trained`` length or ``method`` with no model is refused at once (``ValueError``), as ``show`` refuses
    it; by default 1-10 digits (else the shortest) and the first method trained on them are shown. ``paper``
    maps trained lengths to Cho et al.'s generalizable length for plain coupling, quoted beside the curve (notebook
    08, whose methods are not coupling, passes ``None``)."""

    def __init__(self, choices: Choices | None = None, *, metrics: Callable[[str], Mapping[int, float]] | None = None,
                 trained: int | None = None, method: str | None = None, draw: bool = True,
                 paper: Mapping[int, int] | None = PAPER_GENERALIZABLE):
        w = _widgets()
        self.paper = dict(paper or {})
        self.choices = {(require_int(k, "a choice's trained length", error=ValueError), str(m)): list(v)
                        for (k, m), v in (choices if choices is not None else default_choices()).items()}
        if not self.choices:
            raise ValueError("CouplingExplorer needs at least one (trained length, method) choice")
        empty = [key for key, names in self.choices.items() if not names]
        if empty:
            raise ValueError(f"the choice {empty[0]} lists no zoo entry; give each (trained length, method) at "
                             f"least one entry name")
        self.metrics_fn = metrics or zoo.metrics
        self.draw = draw
        self.lengths = sorted({k for k, _ in self.choices})
        self.methods = list(dict.fromkeys(m for _, m in self.choices))
        if trained is None:
            trained = 10 if 10 in self.lengths else self.lengths[0]
        why = self.length_refusal(trained)     # the same refusals as show(), at once
        if why is not None:
            raise ValueError(why)
        trained = int(trained)
        if method is not None and method not in self.methods:
            raise ValueError(f"unknown method {method!r}; choose one of {self.methods}")
        if method is not None and (trained, method) not in self.choices:
            raise ValueError(f"no model with method {method!r} was trained on 1-{trained} digits; on 1-{trained} "
                             f"digits choose one of {self.available(trained)}")
        self.last_curve: dict[int, tuple[float, float, float]] = {}
        self.last_length: int | None = None
        self.last_figure = None
        self.trained = _tip(w.Dropdown(options=self.lengths, value=trained,
                                       description="trained 1–"), "the longest operands seen in training (digits)")
        self.method = _tip(w.Dropdown(options=self.methods, value=method or self.available(trained)[0],
                                      description="method", layout=w.Layout(width="360px")),
                           "the recipe; its budget (layers x steps x problems per step) is in the "
                           "notebook's leaderboard")
        self.status = w.HTML()
        self.out = w.Output()
        self._quiet = False                  # set while show() moves the dropdowns itself
        self.trained.observe(on_screen(self.status, self._on_change), names="value")
        self.method.observe(on_screen(self.status, self._on_change), names="value")
        self.widget = w.VBox([w.HBox([self.trained, self.method]), self.status, self.out])
        self.show()

    def _on_change(self, _change) -> None:
        if not self._quiet:
            self.show()

    def length_refusal(self, k: object) -> str | None:
        """Why trained length ``k`` cannot be chosen (a sentence), or None when it can: a ``k`` that is not an int
        (``'10'``, as ``input()`` returns it) is refused by its type, not reported missing among the choices."""
        why = int_refusal(k, "the trained length")
        if why is None and k not in self.lengths:
            why = f"no model was trained on 1-{k} digits"
        return None if why is None else f"{why}; choose one of {self.lengths}"

    def available(self, k: int) -> list[str]:
        """The methods trained on 1-``k`` digits (a ``k`` that is not an int raises ``ValueError``)."""
        k = require_int(k, "the trained length", error=ValueError)
        return [m for (kk, m) in self.choices if kk == k]

    def curves(self, k: int, method: str) -> tuple[dict[str, dict[int, float]], list[str]]:
        """``({entry: {length: EM}} of the built seeds, [entries not built])``; raises ``ValueError`` for a
        combination that was never trained, or a ``k`` that is not an int."""
        k = require_int(k, "the trained length", error=ValueError)
        if (k, method) not in self.choices:
            raise ValueError(f"no model with method {method!r} was trained on 1-{k} digits; on 1-{k} digits "
                             f"choose one of {self.available(k) or 'nothing'}; {method!r} was trained on 1-N digits for N in "
                             f"{sorted(kk for kk, m in self.choices if m == method)}")
        built, missing = {}, []
        for name in self.choices[(k, method)]:
            try:
                built[name] = {int(x): float(y) for x, y in self.metrics_fn(name).items()}
            except zoo.ZooError:
                missing.append(name)
        return built, missing

    def summary(self, k: int, method: str, built: Mapping[str, Mapping[int, float]], missing: Sequence[str]) -> str:
        band = median_and_range(built)
        gen = generalizable_length(built)
        longer = [n for n in band if n > gen]
        ratio = f" ({gen / k:.1f}× the trained length)" if gen else ""
        lines = [f"<b>{_html.escape(method)}</b>, trained on 1–{k} digits, {len(built)} seed(s): "
                 f"generalizable length <b>{gen}</b>{ratio}."]
        if gen and longer:
            nxt = min(longer)
            lines.append(f"The median exact match is above 95% at every tested length up to {gen} and "
                         f"{100 * band[nxt][0]:.1f}% at {nxt} digits (seeds {100 * band[nxt][1]:.1f}–"
                         f"{100 * band[nxt][2]:.1f}%).")
        elif not gen:
            first = min(band)
            lines.append(f"The median is not above 95% even at {first} digits: the model does not master "
                         f"the shortest tested length, so it says nothing about length generalization.")
        else:
            lines.append(f"Above 95% at every tested length: {gen} is a lower bound (the longest length tested).")
        if len(built) < 3:
            lines.append("Fewer than 3 seeds: a median over so few runs is fragile.")
        if k in self.paper:
            lines.append(f"For reference, Cho et al. report {self.paper[k]} for plain coupling trained on "
                         f"1–{k} digit additions (paper, Figure 3, GPU scale).")
        if missing:
            lines.append("Not built yet: " + ", ".join(f"<code>python -m lengen_utils.lab.zoo train {_html.escape(n)}</code>"
                                                        for n in missing))
        return "<div style='line-height:1.5'>" + "<br>".join(lines) + "</div>"

    def show(self, trained: int | None = None, method: str | None = None):
        """Select a combination (or keep the current one), redraw, and return the widget. An unknown or
        unbuilt combination gives a message in ``status`` and clears the plot."""
        if trained is not None:
            why = self.length_refusal(trained)
            if why is not None:
                self.status.value = error_html(why)
                return self.widget
            trained = int(trained)
        if method is not None and method != self.method.value and method not in self.methods:
            self.status.value = error_html(f"unknown method {method!r}; choose one of {self.methods}")
            return self.widget
        self._quiet = True                           # move both dropdowns, then draw once
        try:
            if trained is not None:
                self.trained.value = trained
            if method is not None:
                self.method.value = method
        finally:
            self._quiet = False
        k, m = self.trained.value, self.method.value
        self.last_curve, self.last_length = {}, None
        try:
            built, missing = self.curves(k, m)
        except ValueError as err:
            self._message(error_html(str(err)))
            return self.widget
        if not built:
            cmds = "; ".join(f"python -m lengen_utils.lab.zoo train {n}" for n in missing)
            self._message(error_html(f"{m} on 1-{k} digits is in the catalog but not built yet: {cmds}"))
            return self.widget
        self.last_curve = median_and_range(built)
        self.last_length = generalizable_length(built)
        self.status.value = self.summary(k, m, built, missing)
        if self.draw:
            self._plot(k, m)
        return self.widget

    def _message(self, html: str) -> None:
        self.status.value = html
        self.last_figure = None
        self.out.clear_output()

    def figure(self, k: int, method: str):
        """The figure of the current combination: median and band over seeds, the generalizable length marked."""
        built, _ = self.curves(k, method)
        gen = generalizable_length(built)
        marks = {f"generalizable length {gen}": gen} if gen else None
        return median_band({method: median_and_range(built)}, trained_length=k, marks=marks,
                           title=f"{method}, trained on 1–{k} digits: median and range over {len(built)} seed(s)")

    def _plot(self, k: int, method: str) -> None:
        self.last_figure = show_figure(self.out, lambda: self.figure(k, method))

    def _ipython_display_(self):
        from IPython.display import display

        display(self.widget)


__all__ = ["CouplingExplorer", "default_choices", "PAPER_GENERALIZABLE"]

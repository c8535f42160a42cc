"""The course's interactive widgets (ipywidgets 7.7 API, so they also run on Colab).

* :class:`FormatExplorer` -- type two operands, pick an operation, a format and a position-ID
  scheme, and see the tokens, the position IDs and the supervised positions.
* :class:`TrainedLengthExplorer` -- a slider over the trained length that redraws accuracy against
  test length from cached zoo results (instant), and a button that retrains the chosen setting live
  on this machine (minutes on a CPU; never writes ``assets/``).

Both take their data as arguments and keep what they last showed in plain attributes
(``html.value``, ``status.value``, ``last_figure``, ``last_curves``), so they are tested without a
browser. Only expected input errors (:class:`ProblemError`, :class:`FormatError`,
:class:`PositionRangeError`) are caught and shown as a message; any other exception in a callback
propagates, so a broken widget fails the notebook test instead of failing silently.
"""
from __future__ import annotations

import html as _html
from typing import Callable, Mapping, Sequence

import numpy as np

from .formats import FORMATS, PAD, Example, FormatError, encode, render
from .positions import PositionRangeError, PositionScheme
from .problems import Problem, ProblemError, num_digits

USER_ERRORS = (ProblemError, FormatError, PositionRangeError)

# scheme label -> how to build it (the random-start schemes are drawn from a seeded generator)
SCHEME_CHOICES: dict[str, dict] = {
    "consecutive (APE)": {"name": "consecutive"},
    "consecutive, random start": {"name": "consecutive", "random_start": True},
    "coupled (Cho)": {"name": "coupled"},
    "coupled, random start": {"name": "coupled", "random_start": True},
    "abacus (McLeish)": {"name": "abacus"},
    "abacus, random offset": {"name": "abacus", "random_start": True},
}


def _widgets():
    import ipywidgets

    return ipywidgets


def scheme_ids(example: Example, scheme: str, seed: int = 0, max_position: int = 64) -> list[int]:
    """Position IDs of ``example`` under one of :data:`SCHEME_CHOICES` (random starts drawn from ``seed``)."""
    if scheme not in SCHEME_CHOICES:
        raise ValueError(f"unknown scheme {scheme!r}; choose one of {list(SCHEME_CHOICES)}")
    spec = dict(SCHEME_CHOICES[scheme])
    ps = PositionScheme(spec["name"], spec.get("random_start", False), max_position)
    rng = np.random.default_rng(seed) if ps.random_start else None
    return ps.assign(example, rng)


def example_html(example: Example, ids: Sequence[int] | None = None, scheme: str = "") -> str:
    """An HTML table: tokens coloured by role, position IDs, and the target at each supervised position."""
    from .plots import ROLE_COLOURS

    esc = _html.escape
    cell = "padding:2px 5px;border:1px solid #ddd;text-align:center;font-family:monospace;min-width:1.3em"
    head = "padding:2px 6px;text-align:right;font-weight:bold;white-space:nowrap"
    tok_cells, id_cells, tgt_cells = [], [], []
    sup = set(example.supervised)
    for i, (tok, role) in enumerate(zip(example.tokens, example.roles)):
        colour = ROLE_COLOURS["pad" if tok == PAD else role]
        border = "border:2px solid #000;" if i in sup else ""
        tok_cells.append(f'<td style="{cell};background:{colour};{border}" title="{esc(role)}">{esc(render([tok]))}</td>')
        if ids is not None:
            id_cells.append(f'<td style="{cell}">{int(ids[i])}</td>')
        tgt = example.targets[i]
        tgt_cells.append(f'<td style="{cell};color:#a00">{esc(render([tgt])) if tgt is not None else ""}</td>')
    rows = [f'<tr><td style="{head}">token</td>{"".join(tok_cells)}</tr>']
    if ids is not None:
        rows.append(f'<tr><td style="{head}">position ID{(" (" + esc(scheme) + ")") if scheme else ""}</td>'
                    f'{"".join(id_cells)}</tr>')
    rows.append(f'<tr><td style="{head}">target (supervised)</td>{"".join(tgt_cells)}</tr>')
    caption = (f"<div style='margin:4px 0'><b>{esc(str(example.problem))}</b> in format "
               f"<code>{esc(example.format_name)}</code>: <code>{esc(example.text())}</code> &nbsp; "
               f"{len(example)} tokens, {len(sup)} supervised (outlined)</div>")
    return caption + f"<table style='border-collapse:collapse'>{''.join(rows)}</table>"


def error_html(message: str) -> str:
    return f"<div style='color:#b00020;font-weight:bold'>&#9888; {_html.escape(message)}</div>"


class FormatExplorer:
    """Two operands, an operation, a format and a position scheme -> tokens, IDs, supervised positions.

    ``show(a, b, op, fmt, scheme)`` sets the controls and redraws (the notebook calls it once so the
    code path runs under nbval). Bad input is shown as a message naming the problem.
    """

    def __init__(self, a: str = "653", b: str = "49", op: str = "+", fmt: str = "cho",
                 scheme: str = "coupled (Cho)", frame_width: int = 8, seed: int = 0):
        w = _widgets()
        self.a = w.Text(value=str(a), description="a", layout=w.Layout(width="190px"))
        self.b = w.Text(value=str(b), description="b", layout=w.Layout(width="190px"))
        self.op = w.Dropdown(options=["+", "*"], value=op, description="op", layout=w.Layout(width="130px"))
        self.fmt = w.Dropdown(options=list(FORMATS), value=fmt, description="format")
        self.scheme = w.Dropdown(options=list(SCHEME_CHOICES), value=scheme, description="positions")
        self.frame = w.IntSlider(value=frame_width, min=1, max=30, description="frame l",
                                 tooltip="Sabbaghi's frame width (sabbaghi format only)")
        self.redraw = w.Button(description="new random start", tooltip="draw the random start again")
        self.html = w.HTML()
        self.seed = seed
        for control in (self.a, self.b, self.op, self.fmt, self.scheme, self.frame):
            control.observe(self._on_change, names="value")
        self.redraw.on_click(self._on_redraw)
        self.widget = w.VBox([w.HBox([self.a, self.op, self.b]), w.HBox([self.fmt, self.scheme]),
                              w.HBox([self.frame, self.redraw]), self.html])
        self.update()

    # the callbacks -------------------------------------------------------------------------------
    def _on_change(self, change=None) -> None:
        self.update()

    def _on_redraw(self, _button=None) -> None:
        self.seed += 1
        self.update()

    def render(self) -> tuple[Example, list[int]]:
        """The example and IDs for the current controls (raises the user-input errors)."""
        problem = Problem.parse(self.a.value, self.b.value, self.op.value)
        ex = encode(problem, self.fmt.value, frame_width=self.frame.value)
        return ex, scheme_ids(ex, self.scheme.value, self.seed)

    def update(self) -> str:
        """Redraw; returns the HTML shown. Only expected input errors become a message."""
        try:
            ex, ids = self.render()
        except USER_ERRORS as err:
            self.html.value = error_html(str(err))
            return self.html.value
        self.html.value = example_html(ex, ids, self.scheme.value)
        return self.html.value

    def show(self, a=None, b=None, op=None, fmt=None, scheme=None, frame_width=None):
        """Set any controls and return the widget (display it as the cell's last expression)."""
        for control, value in ((self.a, a), (self.b, b), (self.op, op), (self.fmt, fmt), (self.scheme, scheme),
                               (self.frame, frame_width)):
            if value is not None:
                control.value = str(value) if control in (self.a, self.b) else value
        self.update()
        return self.widget

    def _ipython_display_(self):  # display(explorer) shows the controls
        from IPython.display import display

        display(self.widget)


class TrainedLengthExplorer:
    """Accuracy against test length for the model trained on lengths <= the slider's value.

    ``names[trained_length]`` is a zoo entry; ``metrics(name)`` returns its cached ``{length: EM}``
    (default :func:`lengen_utils.zoo.metrics`, no model loading, so the slider answers at once);
    ``retrain(name)`` trains that entry from scratch here and returns the fresh ``{length: EM}``
    (default :func:`retrain_entry`). ``reference`` curves (e.g. another encoding) are drawn too.
    """

    def __init__(self, names: Mapping[int, str], *, metrics: Callable[[str], Mapping[int, float]] | None = None,
                 retrain: Callable[[str], Mapping[int, float]] | None = None, title: str = "",
                 reference: Mapping[str, Mapping[int, float]] | None = None, marks: Mapping[str, float] | None = None,
                 label: str = "trained on <= {k} digits", draw: bool = True):
        if not names:
            raise ValueError("TrainedLengthExplorer needs at least one zoo entry")
        from . import zoo

        w = _widgets()
        self.names = {int(k): v for k, v in sorted(names.items())}
        self.metrics_fn = metrics or zoo.metrics
        self.retrain_fn = retrain or retrain_entry
        self.title, self.reference, self.marks, self.label, self.draw = title, dict(reference or {}), marks, label, draw
        self.fresh: dict[int, dict[int, float]] = {}          # live retrained curves, by trained length
        self.last_curves: dict[str, dict[int, float]] = {}
        self.last_figure = None
        self.slider = w.SelectionSlider(options=list(self.names), value=list(self.names)[len(self.names) // 2],
                                        description="trained ≤", continuous_update=False)
        self.button = w.Button(description="retrain live", button_style="warning", icon="play",
                               tooltip="train this setting from scratch on this machine (minutes on a CPU)")
        self.status = w.HTML()
        self.out = w.Output()
        self.slider.observe(self._on_slide, names="value")
        self.button.on_click(self._on_retrain)
        self.widget = w.VBox([w.HBox([self.slider, self.button]), self.status, self.out])

    def _on_slide(self, change) -> None:
        self.show(change["new"])

    def _on_retrain(self, _button=None) -> None:
        self.retrain(self.slider.value)

    def curves(self, k: int) -> dict[str, dict[int, float]]:
        name = self.names[k]
        curves = {self.label.format(k=k) + " (cached)": {int(x): float(y) for x, y in self.metrics_fn(name).items()}}
        if k in self.fresh:
            curves[self.label.format(k=k) + " (retrained now)"] = self.fresh[k]
        curves.update(self.reference)
        return curves

    def summary(self, k: int) -> str:
        em = {int(x): float(y) for x, y in self.metrics_fn(self.names[k]).items()}
        inside = [v for x, v in em.items() if x <= k]
        outside = {x: v for x, v in em.items() if x > k}
        parts = [f"<b>{_html.escape(self.names[k])}</b>: trained on operands of at most {k} digits."]
        if inside:
            parts.append(f"Seen lengths: mean EM {100 * np.mean(inside):.1f}%.")
        if outside:
            first = min(outside)
            parts.append(f"First unseen length {first}: EM {100 * outside[first]:.1f}%; "
                         f"longest tested ({max(outside)}): {100 * outside[max(outside)]:.1f}%.")
        if k in self.fresh:
            parts.append("The dashed line is the model you just retrained.")
        return " ".join(parts)

    def show(self, k: int | None = None):
        """Select trained length ``k`` (or keep the current one), redraw, and return the widget."""
        if k is not None:
            if int(k) not in self.names:
                self.status.value = error_html(f"no cached model trained on {k} digits; choose one of {list(self.names)}")
                return self.widget
            if self.slider.value != int(k):
                self.slider.value = int(k)      # the observer redraws
                return self.widget
        k = self.slider.value
        self.last_curves = self.curves(k)
        self.status.value = self.summary(k)
        if self.draw:
            self._plot(k)
        return self.widget

    def _plot(self, k: int) -> None:
        import matplotlib.pyplot as plt
        from IPython.display import display

        from .plots import accuracy_vs_length

        styles = {lab: {"linestyle": "--", "marker": "s"} for lab in self.last_curves if "retrained" in lab}
        styles.update({lab: {"color": "0.55", "linewidth": 1.2, "marker": "."} for lab in self.reference})
        self.out.clear_output(wait=True)
        with self.out:
            fig = accuracy_vs_length(self.last_curves, trained_length=k, marks=self.marks, styles=styles,
                                     title=self.title or f"trained on at most {k} digits")
            self.last_figure = fig
            display(fig)
            plt.close(fig)

    def retrain(self, k: int) -> dict[int, float]:
        """Train the entry for ``k`` from scratch here (progress bar in the output area), then redraw."""
        name = self.names[k]
        self.status.value = f"Retraining <b>{_html.escape(name)}</b> on this machine... (the cached file is not touched)"
        with self.out:
            fresh = self.retrain_fn(name)
        self.fresh[k] = {int(x): float(y) for x, y in fresh.items()}
        self.show(k)
        return self.fresh[k]

    def _ipython_display_(self):
        from IPython.display import display

        display(self.widget)


def retrain_entry(name: str, n: int | None = None, progress: bool = True) -> dict[int, float]:
    """Train zoo entry ``name`` from its seed in this process and measure EM at its lengths.

    Nothing is written to ``assets/`` (the cached checkpoint and manifest stay as they are).
    ``n`` overrides the number of test problems per length (default: the entry's own ``eval_n``).
    """
    from . import zoo
    from .evaluate import evaluate_lengths
    from .tasks import Task

    e = zoo.entry(name)
    model, _ = zoo.train_entry(e, progress=progress)
    results = evaluate_lengths(model, Task(e.task), e.eval_lengths, n=n or e.eval_n)
    return {k: r.exact_match for k, r in results.items()}


__all__ = ["FormatExplorer", "TrainedLengthExplorer", "SCHEME_CHOICES", "USER_ERRORS", "scheme_ids",
           "example_html", "error_html", "retrain_entry"]

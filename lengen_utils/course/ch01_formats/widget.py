"""The format explorer: two operands, an operation, a format and a position scheme -> the tokens,
their position IDs and the supervised positions, as an HTML table (notebook 01)."""
from __future__ import annotations

import html as _html
from typing import Sequence

import numpy as np

from ...core.formats import FORMATS, PAD, Example, FormatError, encode, render
from ..plots import ROLE_COLOURS
from ...core.positions import PositionScheme
from ...core.problems import Problem, ProblemError
from ..widgets.common import USER_ERRORS, _tip, _widgets, error_html, on_screen

# scheme label -> how to build it (the random-start schemes are drawn from a seeded generator)
SCHEME_CHOICES: dict[str, dict] = {
    "consecutive (APE)": {"name": "consecutive"},
    "consecutive, random start": {"name": "consecutive", "random_start": True},
    "coupled (Cho)": {"name": "coupled"},
    "coupled, random start": {"name": "coupled", "random_start": True},
    "abacus (McLeish)": {"name": "abacus"},
    "abacus, random offset": {"name": "abacus", "random_start": True},
}


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


class FormatExplorer:
    """Two operands, an operation, a format and a position scheme -> tokens, IDs, supervised positions.

    ``show(a, b, op, fmt, scheme)`` sets the controls and redraws (the notebook calls it once so the
    code path runs under nbval). Bad operands typed into the boxes are shown as a message naming the
    problem; a bad choice passed from code (unknown format, operation or scheme, a frame width outside
    ``1..MAX_FRAME``) raises at once, naming the valid choices.
    """

    OPS = ("+", "*")
    MAX_FRAME = 30

    def __init__(self, a: str = "653", b: str = "49", op: str = "+", fmt: str = "cho",
                 scheme: str = "coupled (Cho)", frame_width: int = 8, seed: int = 0):
        self._check(op, fmt, scheme, frame_width)
        w = _widgets()
        self.a = w.Text(value=str(a), description="a", layout=w.Layout(width="190px"))
        self.b = w.Text(value=str(b), description="b", layout=w.Layout(width="190px"))
        self.op = w.Dropdown(options=list(self.OPS), value=op, description="op", layout=w.Layout(width="130px"))
        self.fmt = w.Dropdown(options=list(FORMATS), value=fmt, description="format")
        self.scheme = w.Dropdown(options=list(SCHEME_CHOICES), value=scheme, description="positions")
        self.frame = _tip(w.IntSlider(value=frame_width, min=1, max=self.MAX_FRAME, description="frame l"),
                          "Sabbaghi's frame width (sabbaghi format only)")
        self.redraw = _tip(w.Button(description="new random start"), "draw the random start again")
        self.html = w.HTML()
        self.seed = seed
        for control in (self.a, self.b, self.op, self.fmt, self.scheme, self.frame):
            control.observe(on_screen(self.html, self._on_change), names="value")
        self.redraw.on_click(on_screen(self.html, self._on_redraw))
        self.widget = w.VBox([w.HBox([self.a, self.op, self.b]), w.HBox([self.fmt, self.scheme]),
                              w.HBox([self.frame, self.redraw]), self.html])
        self.update()

    @classmethod
    def _check(cls, op=None, fmt=None, scheme=None, frame_width=None) -> None:
        """Refuse a choice the controls cannot show, naming the valid ones (a widget would clamp or raise
        an opaque traitlets error)."""
        if fmt is not None and fmt not in FORMATS:
            raise FormatError(f"unknown format {fmt!r}; choose one of {', '.join(FORMATS)}")
        if op is not None and op not in cls.OPS:
            raise ProblemError(f"unknown operation {op!r}; the explorer shows {' and '.join(cls.OPS)}")
        if scheme is not None and scheme not in SCHEME_CHOICES:
            raise ValueError(f"unknown position scheme {scheme!r}; choose one of {list(SCHEME_CHOICES)}")
        if frame_width is not None:
            if isinstance(frame_width, bool) or not isinstance(frame_width, (int, np.integer)):
                raise FormatError(f"frame width must be a whole number of digits, got {frame_width!r}")
            if not 1 <= frame_width <= cls.MAX_FRAME:
                raise FormatError(f"frame width {frame_width} is outside the explorer's slider "
                                  f"(1..{cls.MAX_FRAME}); use encode(problem, 'sabbaghi', frame_width=...) "
                                  f"for wider frames")

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
        """Set any controls and return the widget (display it as the cell's last expression).
        An unknown format, operation or scheme, or an out-of-range frame width, raises before anything changes."""
        self._check(op, fmt, scheme, frame_width)
        for control, value in ((self.a, a), (self.b, b), (self.op, op), (self.fmt, fmt), (self.scheme, scheme),
                               (self.frame, frame_width)):
            if value is not None:
                control.value = str(value) if control in (self.a, self.b) else value
        self.update()
        return self.widget

    def _ipython_display_(self):  # display(explorer) shows the controls
        from IPython.display import display

        display(self.widget)


__all__ = ["FormatExplorer", "SCHEME_CHOICES", "scheme_ids", "example_html"]

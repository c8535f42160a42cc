"""The course's figure standard: one look for every notebook, legible at 100 % zoom in JupyterLab.

The rules every figure function in :mod:`lengen_utils.course.plots` follows:

* **Fonts.** No text below :data:`MIN_FONT` points (tick labels, annotations, legends). Inline
  figures render at :data:`DPI` pixels per inch, so 9 pt is about 12 px.
* **Width.** No figure wider than :data:`MAX_WIDTH` inches: a wider PNG is scaled down by the
  browser to fit the notebook column, and its text shrinks with it. Long rows wrap instead.
* **Colours.** :data:`PALETTE` has ten colour-blind-safe colours (Okabe-Ito and Paul Tol), enough
  for the largest comparison in the course (notebook 05's nine-method leaderboard);
  :func:`series_styles` gives each series of one axes its own colour *and* marker, so even the
  closest pair under colour-vision deficiency differs in shape. Grey is kept for references.
* **Legends** sit below the axes (:func:`legend_below`), never on the data.
* **Ticks.** Long axes are thinned (:func:`thin_ticks`, :func:`every_kth`): a heatmap larger than
  about 30 x 30 labels every k-th row and column.
* **Symbols** are mathtext: :func:`math` turns ``p_{j-i}`` into ``$p_{j-i}$``.
"""
from __future__ import annotations

import math as _math
import re
from typing import Sequence

import matplotlib
import numpy as np

MIN_FONT = 9          # points: the smallest text any course figure draws
FONT = 10             # points: body text (axis labels, titles of panels)
DPI = 100             # inline PNG resolution (pixels per inch)
MAX_WIDTH = 9.5       # inches: wider figures are shrunk by the browser
REFERENCE_GREY = "0.55"

# ten colours, most distinct first: Okabe & Ito (2008) plus Paul Tol's wine, olive, indigo, red.
PALETTE: tuple[str, ...] = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#000000",
                            "#66CCEE", "#882255", "#999933", "#332288", "#CC3311")
MARKERS: tuple[str, ...] = ("o", "s", "^", "D", "v", "P", "X", "*", "h", "<")

# colours of the token roles in token tables (colour-blind safe, light enough for black text)
ROLE_COLOURS = {
    "a": "#9ecae1", "b": "#fdae6b", "answer": "#a1d99b", "op": "#d9d9d9", "eq": "#d9d9d9",
    "bos": "#bcbddc", "eos": "#bcbddc", "hint": "#fbe3a1", "pad": "#f0f0f0", "": "#ffffff",
}


def use_course_style() -> None:
    """seaborn's whitegrid look, :data:`PALETTE` as the colour cycle, fonts >= :data:`MIN_FONT`, PNG output."""
    import seaborn as sns

    sns.set_theme(style="whitegrid", palette=list(PALETTE), context="notebook")
    matplotlib.rcParams.update({
        "figure.dpi": DPI, "savefig.dpi": 150, "figure.figsize": (7, 4), "axes.titleweight": "bold",
        "font.size": FONT, "axes.labelsize": FONT + 1, "axes.titlesize": FONT + 1,
        "xtick.labelsize": MIN_FONT + 1, "ytick.labelsize": MIN_FONT + 1, "legend.fontsize": MIN_FONT + 1,
        "figure.titlesize": FONT + 2, "axes.prop_cycle": matplotlib.cycler(color=list(PALETTE)),
    })
    try:  # inline figures as PNG, not SVG (smaller notebooks, same look everywhere)
        from matplotlib_inline.backend_inline import set_matplotlib_formats

        set_matplotlib_formats("png")
    except ImportError:
        pass


def series_styles(labels: Sequence[str]) -> dict[str, dict]:
    """One colour and one marker per series, all different within one axes (up to ten, then an error)."""
    labels = list(labels)
    if len(labels) > len(PALETTE):
        raise ValueError(f"{len(labels)} series in one axes; the course palette distinguishes at most "
                         f"{len(PALETTE)}: split the figure")
    return {lab: {"color": PALETTE[i], "marker": MARKERS[i]} for i, lab in enumerate(labels)}


_SYMBOL = re.compile(r"(?<![A-Za-z0-9_\\])(\\[A-Za-z]+|[A-Za-z])(?:[_^]\{[^}]*\}|[_^][A-Za-z0-9](?![A-Za-z0-9_]))+")


def math(text: str | None) -> str | None:
    """Render LaTeX-like symbols: ``p_{j-i}`` -> ``$p_{j-i}$``. Text that already has ``$`` is kept."""
    if not text or "$" in text:
        return text
    return _SYMBOL.sub(lambda m: f"${m.group(0)}$", text)


def new_axes(ax=None, figsize: tuple[float, float] = (7, 4)):
    """``(fig, ax)``: the given axes, or a new figure of ``figsize`` (capped at :data:`MAX_WIDTH`)."""
    import matplotlib.pyplot as plt

    if ax is not None:
        return ax.figure, ax
    fig, ax = plt.subplots(figsize=(min(figsize[0], MAX_WIDTH), figsize[1]))
    return fig, ax


def legend_below(ax, *, ncol: int | None = None, handles=None, labels=None):
    """The legend centred under the axes (below the x label), so it never covers data."""
    if handles is None:
        handles, labels = ax.get_legend_handles_labels()
    if not handles:
        return None
    if ncol is None:
        longest = max(len(str(lab)) for lab in labels)
        ncol = max(1, min(len(handles), 3 if longest <= 22 else 2 if longest <= 38 else 1))
    return ax.legend(handles, labels, loc="upper center", bbox_to_anchor=(0.5, -0.2), ncol=ncol,
                     fontsize=MIN_FONT + 1, frameon=False, borderaxespad=0.0)


def thin_ticks(values: Sequence[int], max_ticks: int = 14) -> list[int]:
    """Integer tick positions for ``values`` at a round step (1, 2, 5, 10, 20...), at most ``max_ticks``.

    The first value is always kept, so 1..40 becomes 1, 5, 10, ..., 40."""
    vals = sorted({int(v) for v in values})
    if len(vals) <= max_ticks:
        lo, hi = vals[0], vals[-1]
        if hi - lo + 1 <= max_ticks:
            return vals
    lo, hi = vals[0], vals[-1]
    for step in (1, 2, 5, 10, 20, 25, 50, 100, 200, 500, 1000):
        ticks = [lo] + [x for x in range(step * _math.ceil((lo + 1) / step), hi + 1, step)]
        if len(ticks) > 1 and ticks[1] - lo < step / 2:     # 1 and 2 would crowd: drop the 2
            ticks.pop(1)
        if len(ticks) <= max_ticks:
            return ticks
    return [lo, hi]


def every_kth(n: int, axis_inches: float, fontsize: float = MIN_FONT + 1, max_labels: int = 30) -> int:
    """The step k at which ``n`` labels of one line each fit along ``axis_inches`` (and at most ``max_labels``)."""
    per_label = 1.3 * fontsize / 72.0
    fit = max(1, int(axis_inches / per_label))
    return max(1, _math.ceil(n / min(fit, max_labels)))


def sparse_ticks(ax, axis: str, labels: Sequence[str], axis_inches: float, *, rotation: float = 0,
                 fontsize: float = MIN_FONT + 1, offset: float = 0.0) -> int:
    """Label a heatmap axis cell by cell, every k-th cell when they would not fit (see :func:`every_kth`).
    ``offset`` shifts the ticks to the cell centres (0.5 for seaborn heatmaps). Returns k."""
    n = len(labels)
    k = every_kth(n, axis_inches, fontsize)
    idx = list(range(0, n, k))
    pos = [i + offset for i in idx]
    if axis == "x":
        ax.set_xticks(pos)
        ax.set_xticklabels([labels[i] for i in idx], fontsize=fontsize, rotation=rotation)
    else:
        ax.set_yticks(pos)
        ax.set_yticklabels([labels[i] for i in idx], fontsize=fontsize, rotation=rotation)
    return k


def finish(fig, ax, title: str | None, legend: bool):
    """The common last steps of a line plot: title, legend below when there are several lines, layout."""
    if title:
        ax.set_title(math(title))
    if legend:
        legend_below(ax)
    fig.tight_layout()
    return fig


def check_figure(fig, min_font: float = MIN_FONT) -> list[str]:
    """Every breach of the standard in ``fig``: text below ``min_font``, a figure wider than
    :data:`MAX_WIDTH`, two series of one axes in the same colour. Empty when the figure is legible."""
    problems = []
    if fig.get_figwidth() > MAX_WIDTH + 1e-6:
        problems.append(f"figure is {fig.get_figwidth():.1f} in wide (max {MAX_WIDTH})")
    for text in fig.findobj(matplotlib.text.Text):
        if text.get_visible() and text.get_text().strip() and text.get_fontsize() < min_font - 1e-6:
            problems.append(f"text {text.get_text()!r} at {text.get_fontsize():.1f} pt")
    for ax in fig.axes:
        seen: dict[tuple, str] = {}
        series = [(line.get_label(), line) for line in ax.get_lines()]
        series += [(c.get_label(), c.lines[0]) for c in ax.containers if hasattr(c, "has_xerr") and c.lines[0]]
        for label, line in series:
            if label is None or label.startswith("_") or len(line.get_xdata()) < 2:
                continue
            key = tuple(np.round(matplotlib.colors.to_rgba(line.get_color()), 3))
            if key in seen:
                problems.append(f"series {label!r} and {seen[key]!r} share colour {line.get_color()}")
            seen[key] = label
    return problems


__all__ = ["MIN_FONT", "FONT", "DPI", "MAX_WIDTH", "PALETTE", "MARKERS", "ROLE_COLOURS", "REFERENCE_GREY",
           "use_course_style", "series_styles", "math", "new_axes", "legend_below", "thin_ticks", "every_kth",
           "sparse_ticks", "finish", "check_figure"]

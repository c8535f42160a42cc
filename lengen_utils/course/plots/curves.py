"""Line and bar figures: a score against a length, a level or a training step.

* :func:`accuracy_vs_length` -- exact match against operand length, one line per model, the seen
  domain D_s shaded and landmarks (the frame width l...) labelled above the axes;
* :func:`median_band` -- the same with several seeds per model: the median as a line, the seeds'
  min-max as a band (Cho et al. Figure 1);
* :func:`loss_curve` -- training loss of one or more runs;
* :func:`accuracy_by_level` -- exact match per complexity level (Sabbaghi Figure 8);
* :func:`per_position_loss` -- test loss at every position of the ring (Sabbaghi Figure 9b);
* :func:`complexity_histogram` -- exact distributions of a complexity measure (Sabbaghi Figures 13, 14);
* :func:`selection_curve` -- the validation exact match through training, and the checkpoint it selects.

Every function follows :mod:`lengen_utils.course.plots.style`: legend below the axes, one colour and one
marker per series, labels of landmarks above the axes (never on the data), thinned ticks.
"""
from __future__ import annotations

from typing import Mapping, Sequence

import numpy as np

from .style import (FONT, MAX_WIDTH, MIN_FONT, REFERENCE_GREY, PALETTE, finish, legend_below, math, new_axes,
                    series_styles, thin_ticks)


def _legend_rows(labels: Sequence[str]) -> int:
    longest = max((len(str(lab)) for lab in labels), default=0)
    ncol = 3 if longest <= 22 else 2 if longest <= 38 else 1
    return -(-len(labels) // ncol)


def label_above(ax, items: Mapping[str, float], *, colour: str = "0.25") -> None:
    """Write each ``text`` above the axes at data x ``items[text]``: pushed inward at the edges and
    stacked when two labels would collide, so none sits on a curve or in a corner."""
    lo, hi = ax.get_xlim()
    width_in = ax.get_position().width * ax.figure.get_figwidth()
    rows: list[list[tuple[float, float]]] = []
    for text, x in sorted(items.items(), key=lambda kv: kv[1]):
        frac = (x - lo) / (hi - lo)
        half = 0.5 * 0.075 * len(text) / max(width_in, 1e-6)       # ~0.075 in per character at 9-10 pt
        ha = "center"
        if frac + half > 1.0:
            ha, left, right = "right", frac - 2 * half, frac
        elif frac - half < 0.0:
            ha, left, right = "left", frac, frac + 2 * half
        else:
            left, right = frac - half, frac + half
        row = next((i for i, r in enumerate(rows) if all(right < a - 0.01 or left > b + 0.01 for a, b in r)), len(rows))
        if row == len(rows):
            rows.append([])
        rows[row].append((left, right))
        ax.text(x, 1.015 + 0.075 * row, text, transform=ax.get_xaxis_transform(), ha=ha, va="bottom",
                fontsize=MIN_FONT + 1, color=colour, clip_on=False)
    ax._lengen_label_rows = len(rows)


def accuracy_vs_length(curves: Mapping[str, Mapping[int, float]], *,
                       trained_length: int | Mapping[str, int] | None = None, marks: Mapping[str, float] | None = None,
                       title: str | None = None, ylabel: str = "exact-match accuracy",
                       xlabel: str = "operand length (digits)", styles: Mapping[str, dict] | None = None, ax=None,
                       figsize=(7, 4), legend: bool = True, xlim: tuple[float, float] | None = None):
    """One line per model: ``curves[label] = {length: accuracy}`` (accuracy in [0, 1]).

    ``trained_length`` shades the seen domain D_s (one int for all curves) or marks each curve's own
    trained length with a dotted line in its colour (a dict). ``marks`` adds labelled vertical lines
    (e.g. ``{"frame width l": 25}``). ``styles[label]`` passes extra keyword arguments to ``plot``.
    ``xlim`` fixes the x range (a widget keeps it fixed across slider positions).
    """
    if not curves:
        raise ValueError("accuracy_vs_length needs at least one curve")
    if ax is None:
        figsize = (figsize[0], figsize[1] + (0.24 * _legend_rows(list(curves)) if legend else 0))
    fig, ax = new_axes(ax, figsize)
    base = series_styles([lab for lab in curves if "color" not in (styles or {}).get(lab, {})])
    all_x = []
    for z, (label, points) in enumerate(curves.items()):
        xs = sorted(int(k) for k in points)
        ys = [100 * float(points[k] if k in points else points[str(k)]) for k in xs]
        all_x += xs
        kw = {"markersize": 5, "linewidth": 2, "zorder": 3 + z, **base.get(label, {})}
        kw.update((styles or {}).get(label, {}))
        ax.plot(xs, ys, label=label, **kw)
        if isinstance(trained_length, Mapping) and label in trained_length:
            ax.axvline(trained_length[label] + 0.5, color=kw["color"], linestyle=":", linewidth=1.5)
    lo, hi = (min(all_x), max(all_x)) if xlim is None else xlim
    ax.set_xlim((lo - 0.7, hi + 0.7) if xlim is None else xlim)
    above = {}
    if isinstance(trained_length, (int, np.integer)):
        left = ax.get_xlim()[0]
        ax.axvspan(left, trained_length + 0.5, color="0.88", zorder=0)
        above[r"seen $\mathcal{D}_s$"] = (left + trained_length + 0.5) / 2
    for text, x in (marks or {}).items():
        ax.axvline(x, color="0.35", linestyle="--", linewidth=1.2, zorder=2)
        above[math(text)] = x
    ax.set_ylim(-3, 103)
    ax.set_xlabel(math(xlabel))
    ax.set_ylabel(math(ylabel) + " (%)")
    if all_x:
        width_in = min(figsize[0], MAX_WIDTH) * 0.8
        ax.set_xticks(thin_ticks(all_x, max_ticks=max(5, int(width_in / 0.42))))
        ax.set_xlim((lo - 0.7, hi + 0.7) if xlim is None else xlim)
    fig.tight_layout()                     # final axes size, so the labels above know their room
    label_above(ax, above)
    if title:
        ax.set_title(math(title), pad=8 + 14 * getattr(ax, "_lengen_label_rows", 0))
    if legend:
        legend_below(ax)
    fig.tight_layout()
    return fig


def median_band(curves: Mapping[str, Mapping[int, tuple[float, float, float]]], *,
                trained_length: int | None = None, threshold: float | None = 0.95,
                marks: Mapping[str, float] | None = None, title: str | None = None,
                ylabel: str = "exact match, median over seeds", xlabel: str = "operand length (digits)",
                figsize=(7, 4), ax=None):
    """Cho et al. Figure 1: one line per method through the median over seeds, and a band of the same
    colour from the worst to the best seed. ``curves[label] = {length: (median, min, max)}`` in [0, 1],
    as :func:`lengen_utils.analysis.generalization.median_and_range` returns it. ``threshold`` draws the
    generalizable-length threshold (95%) as a grey dashed line; the rest is :func:`accuracy_vs_length`."""
    if not curves:
        raise ValueError("median_band needs at least one curve")
    for label, points in curves.items():
        for k, v in points.items():
            if len(v) != 3 or not v[1] - 1e-9 <= v[0] <= v[2] + 1e-9:
                raise ValueError(f"{label!r}, length {k}: expected (median, min, max) with "
                                 f"min <= median <= max, got {v!r}")
    labels = list(curves) + (["median > threshold"] if threshold is not None else [])
    if ax is None:
        figsize = (figsize[0], figsize[1] + 0.24 * _legend_rows(labels))
    medians = {label: {int(k): float(v[0]) for k, v in points.items()} for label, points in curves.items()}
    fig = accuracy_vs_length(medians, trained_length=trained_length, marks=marks, title=title, ylabel=ylabel,
                             xlabel=xlabel, ax=ax, figsize=figsize, legend=False)
    ax = fig.axes[0] if ax is None else ax
    for label, style in series_styles(list(curves)).items():
        xs = sorted(int(k) for k in curves[label])
        lo = [100 * float(curves[label][k][1]) for k in xs]
        hi = [100 * float(curves[label][k][2]) for k in xs]
        ax.fill_between(xs, lo, hi, color=style["color"], alpha=0.18, linewidth=0, zorder=1)
    if threshold is not None:
        ax.axhline(100 * threshold, color=REFERENCE_GREY, linestyle="--", linewidth=1.2, zorder=2,
                   label=f"{100 * threshold:g}% threshold")
    legend_below(ax)
    fig.tight_layout()
    return fig


def loss_curve(losses: Mapping[str, Sequence[float]], *, log_every: int = 50, title: str | None = None, ax=None):
    """Training loss per logged window, one line per run (log scale)."""
    fig, ax = new_axes(ax, (6, 3.2 + (0.24 * _legend_rows(list(losses)) if len(losses) > 1 else 0)))
    for label, style in series_styles(list(losses)).items():
        ys = losses[label]
        ax.plot(np.arange(1, len(ys) + 1) * log_every, ys, label=label, color=style["color"])
    ax.set_yscale("log")
    ax.set_xlabel("step")
    ax.set_ylabel("loss")
    return finish(fig, ax, title, legend=len(losses) > 1)


def _em_and_err(value) -> tuple[float, float]:
    if hasattr(value, "exact_match"):
        return float(value.exact_match), float(getattr(value, "stderr", 0.0))
    return float(value), 0.0


def accuracy_by_level(curves: Mapping[str, Mapping[int, object]], *, xlabel: str = "cascade length",
                      ylabel: str = "exact match", trained_max: int | None = None, title: str | None = None, ax=None):
    """Sabbaghi Figure 8: exact match per complexity level, one line per model or measure. Values are
    floats or objects with ``exact_match`` (and ``stderr``, drawn as error bars), e.g. a
    ``GroupResult`` of the complexity scoring. ``trained_max`` marks the largest level seen in training."""
    fig, ax = new_axes(ax, (6.4, 3.6 + (0.24 * _legend_rows(list(curves)) if len(curves) > 1 else 0)))
    levels = []
    for label, style in series_styles(list(curves)).items():
        by_level = curves[label]
        ks = sorted(by_level)
        levels += ks
        vals = [_em_and_err(by_level[k]) for k in ks]
        ax.errorbar(ks, [v for v, _ in vals], yerr=[e for _, e in vals], markersize=5, capsize=2, label=label,
                    **style)
    ax.set_ylim(-0.03, 1.05)
    if levels:
        ax.set_xticks(thin_ticks(levels))
    ax.set_xlabel(math(xlabel))
    ax.set_ylabel(math(ylabel))
    if trained_max is not None:
        ax.axvline(trained_max, color=REFERENCE_GREY, linestyle=":", linewidth=1.2)
        fig.tight_layout()
        label_above(ax, {"max in training": trained_max}, colour="0.35")
        if title:
            ax.set_title(math(title), pad=8 + 14 * ax._lengen_label_rows)
            title = None
    return finish(fig, ax, title, legend=len(curves) > 1)


def per_position_loss(losses: Mapping[str, Sequence[float]], *, seen: Sequence[bool] | None = None,
                      reference: Mapping[str, float] | None = None, title: str | None = None, ax=None):
    """Sabbaghi Figure 9b: test loss at every position of the ring, one line per model (log scale).
    ``seen`` shades the positions that carried data in training; ``reference`` draws horizontal lines
    (e.g. ``{"alpha^2 + 2 beta^2": 1.32}``), labelled right of the axes."""
    n_legend = len(losses) + (seen is not None)
    fig, ax = new_axes(ax, (7.5, 3.6 + 0.24 * _legend_rows(list(losses) + ["seen in training"] * (seen is not None))))
    for label, style in series_styles(list(losses)).items():
        ys = np.asarray(losses[label], dtype=float)
        ax.plot(np.arange(len(ys)), np.maximum(ys, 1e-12), label=label, markersize=4, linewidth=1.5, **style)
    if seen is not None:
        idx = np.flatnonzero(np.asarray(seen))
        if len(idx):
            ax.axvspan(idx.min() - 0.5, idx.max() + 0.5, color="0.88", zorder=0, label="seen in training")
    for text, y in (reference or {}).items():
        ax.axhline(y, color="0.3", linestyle="--", linewidth=1)
        ax.text(1.01, y, math(text), transform=ax.get_yaxis_transform(), va="center", fontsize=MIN_FONT + 1,
                color="0.3", clip_on=False)
    ax.set_yscale("log")
    ax.set_xlabel("position $i$")
    ax.set_ylabel(r"test loss $E[(\hat y_i - y_i)^2]$")
    return finish(fig, ax, title, legend=n_legend > 1)


def complexity_histogram(distributions: Mapping[str, Sequence[float]], *, xlabel: str = "cascade length",
                         log: bool = True, max_level: int | None = None, annotate_from: int | None = None,
                         title: str | None = None):
    """Sabbaghi Figures 13 and 14: one bar panel per distribution (entry k = P(level = k)).

    ``log`` puts the probabilities on a log axis so the rare levels stay visible; ``max_level`` crops
    the x axis; ``annotate_from`` writes the probability above every bar from that level on."""
    import matplotlib.pyplot as plt

    if not distributions:
        raise ValueError("complexity_histogram needs at least one distribution")
    n = len(distributions)
    fig, axes = plt.subplots(1, n, figsize=(min(MAX_WIDTH, 4.5 * n), 3.8), squeeze=False)
    for ax, (label, dist) in zip(axes[0], distributions.items()):
        p = np.asarray([float(x) for x in dist])
        top = len(p) - 1 if max_level is None else min(max_level, len(p) - 1)
        ks = np.arange(top + 1)
        ax.bar(ks, p[:top + 1], color=PALETTE[0], width=0.8)
        if log:
            ax.set_yscale("log")
            positive = p[:top + 1][p[:top + 1] > 0]
            if len(positive):
                labelled = p[annotate_from:top + 1] if annotate_from is not None else []
                room = max([2.0] + [2e3 * float(x) for x in labelled if x > 0])      # for the rotated labels
                ax.set_ylim(positive.min() / 3, room)
                ax.set_yticks([t for t in ax.get_yticks() if positive.min() / 3 <= t <= 1])
        if annotate_from is not None:
            for k in ks[ks >= annotate_from]:
                if p[k] > 0:
                    ax.text(k, p[k] * (1.4 if log else 1.02), f"{p[k]:.1e}", ha="center", va="bottom",
                            fontsize=MIN_FONT, rotation=90)
        ax.set_xticks(thin_ticks(ks, max_ticks=12))
        ax.set_xlabel(math(xlabel))
        ax.set_ylabel("probability")
        ax.set_title(math(label), fontsize=FONT)
    if title:
        fig.suptitle(math(title), fontweight="bold")
    fig.tight_layout()
    return fig


__all__ = ["accuracy_vs_length", "median_band", "loss_curve", "accuracy_by_level", "per_position_loss",
           "complexity_histogram", "label_above"]


def selection_curve(steps: Sequence[int], curve: Mapping[int, Sequence[float]], *, selected: int | None = None,
                    title: str | None = None, ax=None):
    """Checkpoint selection (the papers' protocol): the exact match on the validation lengths at each validated step,
    one line per length, and the selected step marked (Sabbaghi et al. call such curves highly fluctuating)."""
    labels = [f"{k} digits" for k in curve]
    fig, ax = new_axes(ax, (6, 3.2 + 0.24 * _legend_rows(labels)))
    for (k, ems), (label, style) in zip(curve.items(), series_styles(labels).items()):
        ax.plot(list(steps), [100 * v for v in ems], label=label, color=style["color"], marker=style.get("marker"))
    if selected is not None:
        ax.axvline(selected, color=REFERENCE_GREY, linestyle="--", linewidth=1, label=f"selected: step {selected:,}")
    ax.set_ylim(-3, 103)
    ax.set_xlabel("training step")
    ax.set_ylabel("validation exact match (%)")
    return finish(fig, ax, title, legend=True)

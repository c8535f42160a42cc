"""Notebook 04's figures: learned position vectors of RPE and UPE models side by side (Sabbaghi et al. Figures 11
and 12), and which vector each query-key pair uses under UPE (eq. 3.3).

* :func:`positional_map_grid` -- one row of panels per model, one panel per layer: the vectors p_d
  as an image (rows: offset d = j - i, columns: vector elements), UPE's uniform vectors c_r below a
  line, on one colour scale for all panels so that models and layers compare;
* :func:`norm_profiles` -- the norm of every p_d against d, one line per layer, one panel per model,
  with the norms of c_1..c_S to the right: where the positional signal is, as a curve.

The arrays come from :func:`lengen_utils.analysis.interpret.positional_maps` (any object with ``p``, ``c`` and
``offsets``); nothing here runs a model. Offsets follow the library's left-to-right convention
(d = key - query); Sabbaghi's P_{-1}, "one position back", is our d = +1.

* :func:`vector_pair_table` -- a :class:`~lengen_utils.analysis.interpret.VectorTable` as coloured cells (rows:
  queries i, columns: keys j; each cell names its vector). The uniform vectors c_r share the multiplier's colour, one
  shade per r: a whole column, whatever the query, which is the symmetry of UPE. The relative vectors p_d are coloured
  by d, so a diagonal of one colour is one vector shared by every pair at that offset, the translation symmetry of
  RPE. The style follows :mod:`lengen_utils.course.plots.tables` (notebook 01).
"""
from __future__ import annotations

from typing import Mapping

import numpy as np

from ..plots.style import (FONT, MAX_WIDTH, MIN_FONT, PALETTE, REFERENCE_GREY, ROLE_COLOURS, legend_below, math,
                           series_styles, sparse_ticks)


def _check(maps: Mapping[str, object], what: str) -> None:
    if not maps:
        raise ValueError(f"{what} needs the positional maps of at least one model")
    for label, m in maps.items():
        if not getattr(m, "p", None):
            raise ValueError(f"{what}: model {label!r} has no relative vectors p (is it an RPE/UPE model?)")


def _crop(m, max_offset: int | None) -> tuple[int, int]:
    K = (m.p[0].shape[0] - 1) // 2
    return K, K if max_offset is None else max(0, min(K, int(max_offset)))


def positional_map_grid(maps: Mapping[str, object], *, max_offset: int | None = None,
                        marks: Mapping[str, int] | None = None, title: str | None = None):
    """Figures 11/12: ``maps[label]`` (a :class:`~lengen_utils.analysis.interpret.PositionalMaps`) drawn as one
    row of panels per model, one panel per layer. Rows of each image are p_{-M}..p_{M} (``M =
    max_offset``, default all) and then c_1..c_S; ``marks`` labels chosen offsets in red on the y axis
    (``{"carry": 1}`` writes "+1 carry")."""
    import matplotlib.pyplot as plt

    _check(maps, "positional_map_grid")
    n_rows = len(maps)
    n_cols = max(len(m.p) for m in maps.values())
    crops = {label: _crop(m, max_offset) for label, m in maps.items()}
    vmax = max(float(np.abs(v).max()) for m in maps.values() for v in list(m.p) + [c for c in m.c if c.size]) or 1.0
    fig, axes = plt.subplots(n_rows, n_cols, figsize=(min(MAX_WIDTH, 2.6 * n_cols + 1.6), 3.3 * n_rows + 0.6),
                             squeeze=False, layout="constrained")
    im = None
    for r, (label, m) in enumerate(maps.items()):
        K, M = crops[label]
        for layer in range(n_cols):
            ax = axes[r, layer]
            if layer >= len(m.p):
                ax.set_visible(False)
                continue
            p = m.p[layer][K - M:K + M + 1]
            c = m.c[layer] if layer < len(m.c) else np.zeros((0, p.shape[1]))
            image = np.vstack([p, np.full((1, p.shape[1]), np.nan), c]) if len(c) else p
            im = ax.imshow(image, aspect="auto", cmap="RdBu_r", vmin=-vmax, vmax=vmax, interpolation="nearest")
            rows = [f"{d:+d}" if d else "0" for d in range(-M, M + 1)]
            sparse_ticks(ax, "y", rows, 2.6 * len(rows) / (len(rows) + len(c) + 1), fontsize=MIN_FONT)
            if len(c):       # always label every c_r, below the offsets (thinned or not)
                ticks = list(ax.get_yticks()) + [2 * M + 2 + i for i in range(len(c))]
                names = [t.get_text() for t in ax.get_yticklabels()] + [f"$c_{i + 1}$" for i in range(len(c))]
                ax.set_yticks(ticks)
                ax.set_yticklabels(names, fontsize=MIN_FONT)
                ax.axhline(2 * M + 1, color="black", linewidth=1.2)
            marked = {d + M: text for text, d in (marks or {}).items() if -M <= d <= M}
            if marked:         # a marked offset gets its own red tick label (a line would hide its row)
                ticks = list(ax.get_yticks())
                names = [t.get_text() for t in ax.get_yticklabels()]
                for row, text in marked.items():
                    if row in ticks:
                        names[ticks.index(row)] = f"{row - M:+d} {text}"
                    else:
                        ticks.append(row)
                        names.append(f"{row - M:+d} {text}")
                ax.set_yticks(ticks)
                ax.set_yticklabels(names, fontsize=MIN_FONT)
                for tick, name in zip(ax.get_yticklabels(), names):
                    if any(name.endswith(f" {t}") for t in marked.values()):
                        tick.set_color(PALETTE[9])
                        tick.set_fontweight("bold")
            ax.set_xticks([0, p.shape[1] - 1])
            ax.set_xticklabels(["1", str(p.shape[1])], fontsize=MIN_FONT)
            ax.grid(False)
            ax.set_title(f"{label}: layer {layer + 1}", fontsize=FONT)
            if layer == 0:
                ax.set_ylabel("offset $d = j-i$", fontsize=FONT)
            if r == n_rows - 1:
                ax.set_xlabel("vector element", fontsize=FONT)
    fig.colorbar(im, ax=axes.ravel().tolist(), shrink=0.7, label="value")
    if title:
        fig.suptitle(math(title), fontweight="bold")
    return fig


def norm_profiles(maps: Mapping[str, object], *, max_offset: int | None = None,
                  marks: Mapping[str, int] | None = None, title: str | None = None):
    """``||p_d||`` against d, one panel per model and one line per layer; the norms of UPE's c_r as
    the last points on the right (labelled c1, c2...). ``marks`` labels offsets with dotted lines."""
    import matplotlib.pyplot as plt

    _check(maps, "norm_profiles")
    n = len(maps)
    n_layers = max(len(m.p) for m in maps.values())
    styles = series_styles([f"layer {i + 1}" for i in range(n_layers)])
    fig, axes = plt.subplots(1, n, figsize=(min(MAX_WIDTH, 4.6 * n), 3.9), squeeze=False, sharey=True)
    top = 0.0
    for ax, (label, m) in zip(axes[0], maps.items()):
        K, M = _crop(m, max_offset)
        xs = np.arange(-M, M + 1)
        n_c = max((len(c) for c in m.c), default=0)
        for layer in range(len(m.p)):
            norms = np.linalg.norm(m.p[layer][K - M:K + M + 1], axis=1)
            st = styles[f"layer {layer + 1}"]
            ax.plot(xs, norms, label=f"layer {layer + 1}", color=st["color"], marker=st["marker"], markersize=4,
                    linewidth=1.5)
            top = max(top, float(norms.max()))
            if n_c:
                cn = np.linalg.norm(m.c[layer], axis=1)
                ax.plot(M + 2 + np.arange(n_c), cn, linestyle="none", color=st["color"], marker=st["marker"],
                        markersize=7, label="_nolegend_")
                top = max(top, float(cn.max()))
        ticks = [d for d in range(-M, M + 1) if d % max(1, (2 * M) // 8) == 0]
        labels = [f"{d:+d}" if d else "0" for d in ticks]
        if n_c:
            ax.axvline(M + 1, color=REFERENCE_GREY, linewidth=1)
            ticks += [M + 2 + i for i in range(n_c)]
            labels += [f"$c_{i + 1}$" for i in range(n_c)]
        ax.set_xticks(ticks)
        ax.set_xticklabels(labels, fontsize=MIN_FONT)
        for text, d in (marks or {}).items():
            if -M <= d <= M:
                ax.axvline(d, color="0.3", linestyle=":", linewidth=1)
                ax.text(d, 0.98, f" {text}", transform=ax.get_xaxis_transform(), ha="left", va="top",
                        fontsize=MIN_FONT, color="0.3")
        ax.set_title(math(label), fontsize=FONT + 1)
        ax.set_xlabel("offset $d = j-i$")
    axes[0, 0].set_ylabel(r"$\|p_d\|$, $\|c_r\|$")
    axes[0, 0].set_ylim(0, top * 1.1 + 1e-9)
    fig.tight_layout()
    legend_below(axes[0, 0] if n == 1 else axes[0, n // 2], ncol=min(n_layers, 5))
    if title:
        fig.suptitle(math(title), fontweight="bold")
    fig.tight_layout()
    return fig


UNIFORM_SHADES = ("#fdae6b", "#f16913", "#fdd0a2", "#d94801")   # c_1, c_2, ... (multiplier orange)


def _lighten(rgba, amount: float = 0.55) -> tuple:
    r, g, b = rgba[:3]
    return (r + (1 - r) * amount, g + (1 - g) * amount, b + (1 - b) * amount, 1.0)


def _parse(label: str) -> tuple[str, int]:
    kind, _, rest = label.partition("_")
    try:
        return kind, int(rest.strip("{}"))
    except ValueError:
        raise ValueError(f"vector label {label!r} is not p_{{d}} or c_{{r}}") from None


def vector_pair_table(table, *, title: str | None = None, cell: float = 0.62):
    """Draw ``table.labels[i][j]`` for every query i (rows) and key j (columns), tokens on both axes.

    Cells of the uniform vectors c_r are orange (a darker shade per r); cells of p_d are blue for d < 0,
    green for d > 0 and grey for d = 0, lighter as |d| grows. A table wider than the notebook column
    (over about 13 tokens) raises a ``ValueError``: use a smaller frame."""
    import matplotlib.pyplot as plt
    from matplotlib.patches import Rectangle

    labels = table.labels
    T = len(labels)
    if T == 0 or any(len(row) != T for row in labels) or len(table.tokens) != T:
        raise ValueError(f"vector_pair_table needs a square table with one token per row; got {T} rows and "
                         f"{len(table.tokens)} tokens")
    width = 1.6 + cell * T
    if width > MAX_WIDTH:
        raise ValueError(f"{T} tokens need {width:.1f} in at {cell} in per cell (max {MAX_WIDTH}); use a smaller "
                         f"frame or a shorter example")
    parsed = [[_parse(x) for x in row] for row in labels]
    ds = [v for row in parsed for k, v in row if k == "p"]
    span = max((abs(d) for d in ds), default=1) or 1
    blues, greens = plt.get_cmap("Blues"), plt.get_cmap("Greens")
    fig, ax = plt.subplots(figsize=(width, 1.2 + cell * T))
    for i, row in enumerate(parsed):
        for j, (kind, v) in enumerate(row):
            if kind == "c":
                face = UNIFORM_SHADES[(v - 1) % len(UNIFORM_SHADES)]
            elif v == 0:
                face = ROLE_COLOURS["op"]
            else:
                cmap = greens if v > 0 else blues
                face = _lighten(cmap(0.75 - 0.45 * (abs(v) - 1) / max(1, span - 1)), 0.35)
            ax.add_patch(Rectangle((j, -i - 1), 1, 1, facecolor=face, edgecolor="white", linewidth=1.5))
            text = f"$c_{{{v}}}$" if kind == "c" else f"$p_{{{v}}}$"
            ax.text(j + 0.5, -i - 0.5, text, ha="center", va="center", fontsize=FONT)
    ax.set_xlim(0, T)
    ax.set_ylim(-T, 0)
    ax.set_xticks([j + 0.5 for j in range(T)])
    ax.set_xticklabels(table.tokens, fontsize=FONT)
    ax.xaxis.tick_top()
    ax.set_yticks([-i - 0.5 for i in range(T)])
    ax.set_yticklabels(table.tokens, fontsize=FONT)
    ax.set_xlabel("key $j$", fontsize=FONT)
    ax.xaxis.set_label_position("top")
    ax.set_ylabel("query $i$", fontsize=FONT)
    ax.tick_params(length=0, labelsize=max(MIN_FONT, FONT))
    ax.grid(False)
    for side in ("top", "right", "bottom", "left"):
        ax.spines[side].set_visible(False)
    if title:
        ax.set_title(math(title), loc="left", fontsize=FONT + 1, pad=30)
    fig.tight_layout()
    return fig


__all__ = ["positional_map_grid", "norm_profiles", "vector_pair_table", "UNIFORM_SHADES"]

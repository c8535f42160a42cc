"""Attention weights as images: one example, several models side by side, and attention by offset.

* :func:`attention_heatmap` -- attention of one example, one panel per head;
* :func:`attention_side_by_side` -- mean attention of several models (Cho Figure 7);
* :func:`offset_attention_map` -- attention by relative offset (Sabbaghi Appendix E).

None of them runs a model: the weights come from :mod:`lengen_utils.analysis.interpret` (``attention_maps``,
``offset_attention``). Axes longer than fit at :data:`~lengen_utils.course.plots.style.MIN_FONT` label every
k-th cell (:func:`~lengen_utils.course.plots.style.sparse_ticks`).
"""
from __future__ import annotations

from typing import Mapping, Sequence

import numpy as np

from .style import FONT, MAX_WIDTH, MIN_FONT, PALETTE, math, sparse_ticks, thin_ticks


def attention_heatmap(weights: np.ndarray, tokens: Sequence[str], *, heads: Sequence[int] | None = None,
                      rows: Sequence[int] | None = None, title: str | None = None):
    """Attention of one layer, ``weights[head, query, key]``, one panel per head (two per row), on one
    colour scale 0..1; ``rows`` keeps only some query positions (e.g. the supervised ones). Short
    sequences label every key with its token; longer ones (over 24 tokens) number the key positions,
    and rows that would not fit at 10 pt are labelled every k-th."""
    import matplotlib.pyplot as plt

    weights = np.asarray(weights)
    if weights.ndim == 2:
        weights = weights[None]
    heads = list(range(weights.shape[0])) if heads is None else list(heads)
    rows = list(range(weights.shape[1])) if rows is None else list(rows)
    ncols = min(2, len(heads))
    nrows = -(-len(heads) // ncols)
    panel_w = min(4.2, 0.22 * len(tokens) + 0.6)
    panel_h = max(1.8, min(3.4, 0.19 * len(rows)))
    fig, axes = plt.subplots(nrows, ncols, figsize=(min(MAX_WIDTH, ncols * (panel_w + 1.3) + 1.0),
                                                    nrows * (panel_h + 0.9) + 0.5), squeeze=False, layout="constrained")
    ylabels = [f"{tokens[r]} @{r}" for r in rows]
    long = len(tokens) > 24
    for idx, h in enumerate(heads):
        ax = axes[idx // ncols, idx % ncols]
        im = ax.imshow(weights[h][rows], aspect="auto", cmap="magma", vmin=0, vmax=1)
        if long:
            ax.set_xticks(thin_ticks(range(len(tokens)), max_ticks=max(4, int(panel_w / 0.45))))
            ax.set_xlabel("key position")
        else:
            sparse_ticks(ax, "x", list(tokens), panel_w)
            ax.set_xlabel("key (token)")
        sparse_ticks(ax, "y", ylabels, panel_h)
        ax.set_title(f"head {h}", fontsize=FONT + 1)
        ax.grid(False)
        if idx % ncols == 0:
            ax.set_ylabel("query (token @ position)")
    for idx in range(len(heads), nrows * ncols):
        axes[idx // ncols, idx % ncols].set_visible(False)
    fig.colorbar(im, ax=axes.ravel().tolist(), shrink=0.6, label="attention weight")
    if title:
        fig.suptitle(math(title), fontweight="bold")
    return fig


def attention_side_by_side(panels: Mapping[str, np.ndarray], labels: Sequence[str], *, rows: Sequence[int] | None = None,
                           clip: float = 0.01, title: str | None = None):
    """Cho Figure 7: attention ``[heads, T, T]`` of several models on the same tokens, one row of panels
    per model, one column per head. Weights below ``clip`` are shown as 0 (the paper clips at 0.01);
    ``rows`` keeps some query positions (e.g. from ``=`` on: the positions that produce the answer)."""
    import matplotlib.pyplot as plt

    if not panels:
        raise ValueError("attention_side_by_side needs at least one model")
    n_heads = max(np.asarray(w).shape[0] for w in panels.values())
    T = len(labels)
    rows = list(range(T)) if rows is None else list(rows)
    panel_w = min(0.2 * T + 0.4, (MAX_WIDTH - 1.6) / n_heads)
    panel_h = max(1.6, 0.2 * len(rows) + 0.2)
    fig, axes = plt.subplots(len(panels), n_heads, figsize=(panel_w * n_heads + 1.6, (panel_h + 1.0) * len(panels) + 0.5),
                             squeeze=False, layout="constrained")
    for r, (name, w) in enumerate(panels.items()):
        w = np.asarray(w)
        for h in range(n_heads):
            ax = axes[r, h]
            ax.grid(False)
            if h >= w.shape[0]:
                ax.axis("off")
                continue
            shown = np.where(w[h][rows] < clip, 0.0, w[h][rows])
            ax.imshow(shown, aspect="auto", cmap="Blues", vmin=0, vmax=1)
            sparse_ticks(ax, "x", list(labels), panel_w, rotation=90, fontsize=MIN_FONT)
            sparse_ticks(ax, "y", [labels[i] for i in rows], panel_h - 0.2, fontsize=MIN_FONT)
            ax.set_title(f"{name}: head {h}", fontsize=FONT)
            if h == 0:
                ax.set_ylabel("query")
    if title:
        fig.suptitle(math(title), fontweight="bold")
    return fig


def offset_attention_map(offset_attention, layer: int = 0, *, max_offset: int | None = None,
                         marks: Sequence[int] | None = None, title: str | None = None):
    """Sabbaghi Appendix E: for one layer, per head, the attention from each answer digit (rows:
    significance k) to the keys at each relative offset (columns, the paper's right-to-left convention).
    A fixed relative map shows up as vertical stripes: the same offsets for every k. ``marks`` outlines
    offsets (e.g. ``interpret.sigma_rel``); ``max_offset`` crops to ``|offset| <= max_offset``."""
    import matplotlib.pyplot as plt

    w = offset_attention.weights[layer]
    offsets = np.asarray(offset_attention.offsets)
    keep = np.ones(len(offsets), bool) if max_offset is None else np.abs(offsets) <= max_offset
    offs = offsets[keep]
    H = w.shape[0]
    fig, axes = plt.subplots(2, H, figsize=(min(MAX_WIDTH, 3.8 * H + 0.8), 5.6), squeeze=False,
                             gridspec_kw={"height_ratios": [3, 1.3]}, layout="constrained")
    for h in range(H):
        ax = axes[0, h]
        ax.imshow(w[h][:, keep], aspect="auto", cmap="Blues", vmin=0, vmax=1,
                  extent=(offs[0] - 0.5, offs[-1] + 0.5, w.shape[1] - 0.5, -0.5))
        ax.set_title(f"layer {layer + 1}, head {h}", fontsize=FONT)
        ax.set_xlabel("offset (right to left)")
        if h == 0:
            ax.set_ylabel("answer digit $k$")
        ax.grid(False)
        prof = w[h][:, keep].mean(0)
        axes[1, h].bar(offs, prof, width=0.9, color="0.35")
        for m in marks or ():
            if offs[0] <= m <= offs[-1]:
                axes[1, h].axvline(m, color=PALETTE[9], linewidth=0.8, linestyle=":")
        axes[1, h].set_ylim(0, 1)
        axes[1, h].set_xlabel("offset")
        if h == 0:
            axes[1, h].set_ylabel("mean attention")
    if title:
        fig.suptitle(math(title), fontweight="bold")
    return fig


__all__ = ["attention_heatmap", "attention_side_by_side", "offset_attention_map"]

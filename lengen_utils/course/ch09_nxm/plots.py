"""Notebook 09's figures: exact match over the (N, M) grid with the trained range boxed, and the error map of one
cell by scratchpad row and column. Both follow the course's figure standard (:mod:`lengen_utils.course.plots.style`)."""
from __future__ import annotations

from typing import Sequence

import numpy as np

from ..plots.style import MAX_WIDTH, MIN_FONT, REFERENCE_GREY, sparse_ticks


def grid_heatmap(em: np.ndarray, lengths: Sequence[int], trained: int, *, title: str | None = None):
    """``em[N, M]`` (fractions) as a heatmap in percent, rows the multiplicand's digits N, columns the multiplier's M;
    the trained range (N, M <= ``trained``) boxed, and the box of twice that length dashed."""
    import matplotlib.pyplot as plt
    import seaborn as sns
    from matplotlib.patches import Rectangle

    n = len(lengths)
    fig, ax = plt.subplots(figsize=(min(MAX_WIDTH, 0.36 * n + 2.4), min(MAX_WIDTH, 0.36 * n + 1.2)))
    sns.heatmap(100 * np.asarray(em, dtype=float), ax=ax, vmin=0, vmax=100, cmap="rocket", annot=n <= 20, fmt=".0f",
                annot_kws={"fontsize": MIN_FONT - 1 if n > 12 else MIN_FONT}, cbar_kws={"label": "exact match (%)"},
                xticklabels=False, yticklabels=False, square=True)
    sparse_ticks(ax, "x", [str(k) for k in lengths], 0.36 * n, offset=0.5)
    sparse_ticks(ax, "y", [str(k) for k in lengths], 0.36 * n, offset=0.5)
    for factor, style in ((1, "-"), (2, "--")):
        inside = sum(1 for k in lengths if k <= factor * trained)
        if inside:
            ax.add_patch(Rectangle((0, 0), inside, inside, fill=False, edgecolor="white" if factor == 1 else
                                   REFERENCE_GREY, linewidth=2, linestyle=style))
    ax.set_xlabel("M: digits of the multiplier")
    ax.set_ylabel("N: digits of the multiplicand")
    ax.set_title(title or f"exact match, trained on N, M <= {trained} (box); dashed: twice that")
    fig.tight_layout()
    return fig


def error_map_heatmap(errors: np.ndarray, *, title: str | None = None):
    """The error rate of each scratchpad place (:func:`~lengen_utils.analysis.nxm_measures.error_map`): rows of the
    scratchpad, columns 0 (the row's closing ``+`` or ``$``) to N + 1 (digit N)."""
    import matplotlib.pyplot as plt
    import seaborn as sns

    rows, cols = errors.shape
    fig, ax = plt.subplots(figsize=(min(MAX_WIDTH, 0.3 * cols + 2.6), min(6.5, 0.28 * rows + 1.6)))
    sns.heatmap(100 * errors, ax=ax, vmin=0, vmax=max(1.0, float(np.nanmax(100 * errors))), cmap="mako_r",
                cbar_kws={"label": "wrong predictions (%)"}, xticklabels=False, yticklabels=False)
    sparse_ticks(ax, "x", ["sep"] + [str(t) for t in range(cols - 1)], 0.3 * cols, offset=0.5)
    sparse_ticks(ax, "y", [str(k) for k in range(rows)], 0.28 * rows, offset=0.5)
    ax.set_xlabel("column: the row's separator, then digit t (units first)")
    ax.set_ylabel("row k of the scratchpad")
    if title:
        ax.set_title(title)
    fig.tight_layout()
    return fig


__all__ = ["grid_heatmap", "error_map_heatmap"]

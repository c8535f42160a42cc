"""Image figures of what a model learned: accuracy per digit, relative vectors, Gram matrices, 2-D biases.

* :func:`per_digit_heatmap` -- accuracy per output digit and test length (Sabbaghi Table 1);
* :func:`relative_vector_map` -- the learned vectors $p_{j-i}$ of every layer and their norms
  (Sabbaghi Figure 11);
* :func:`gram_heatmaps` -- learned coefficients ``A_ij`` (Sabbaghi Figure 16);
* :func:`relative_bias_2d` -- the 2-D relative bias of a board model, per head and layer.

The attention figures live in :mod:`.attention` (re-exported here). None of them runs a model: the
arrays come from :mod:`lengen_utils.analysis.interpret`. Axes longer than fit at
:data:`~lengen_utils.course.plots.style.MIN_FONT` label every k-th cell (:func:`sparse_ticks`).
"""
from __future__ import annotations

from typing import Mapping, Sequence

import numpy as np

from .attention import attention_heatmap, attention_side_by_side, offset_attention_map
from .style import FONT, MAX_WIDTH, MIN_FONT, PALETTE, math, sparse_ticks


def per_digit_heatmap(per_digit: Mapping[int, Mapping[int, float]], *, title: str | None = None,
                      max_significance: int | None = None, annotate: bool | None = None, ax=None,
                      digit_label: str = "output digit (1 = least significant)"):
    """Accuracy per output digit: ``per_digit[length][significance] = accuracy`` (as stored by the
    zoo's metrics). Rows are test lengths, columns output digits counted from the right (digit 1 is
    the units digit, Sabbaghi's "1st digit" in Table 1). Significances above ``max_significance``
    (the always-pad tail of a wide frame) are cut off."""
    import matplotlib.pyplot as plt
    import seaborn as sns

    lengths = sorted(int(k) for k in per_digit)
    if not lengths:
        raise ValueError("per_digit_heatmap needs at least one length")
    sigs = sorted({int(s) for k in per_digit for s in per_digit[k]})
    if max_significance is not None:
        sigs = [s for s in sigs if s <= max_significance]
    grid = np.full((len(lengths), len(sigs)), np.nan)
    for r, k in enumerate(lengths):
        row = per_digit[k] if k in per_digit else per_digit[str(k)]
        for c, s in enumerate(sigs):
            v = row.get(s, row.get(str(s)))
            if v is not None:
                grid[r, c] = 100 * v
    width = min(MAX_WIDTH, max(5.0, 0.42 * len(sigs) + 2.0))
    cell = (width - 2.0) / max(1, len(sigs))
    if ax is None:
        fig, ax = plt.subplots(figsize=(width, max(2.6, 0.38 * len(lengths) + 1.4)))
    else:
        fig = ax.figure
    if annotate is None:
        annotate = cell >= 0.3                      # "100" at 9 pt needs about 0.25 in
    sns.heatmap(grid, ax=ax, vmin=0, vmax=100, cmap="rocket", annot=annotate, fmt=".0f",
                annot_kws={"fontsize": MIN_FONT}, cbar_kws={"label": "accuracy (%)"},
                xticklabels=False, yticklabels=False)
    sparse_ticks(ax, "x", [str(s + 1) for s in sigs], cell * len(sigs), offset=0.5)
    sparse_ticks(ax, "y", [str(k) for k in lengths], 0.38 * len(lengths), offset=0.5)
    ax.set_xlabel(math(digit_label))
    ax.set_ylabel("test length")
    if title:
        ax.set_title(math(title))
    fig.tight_layout()
    return fig


def relative_vector_map(vectors: Sequence[np.ndarray], *, max_offset: int | None = None,
                        marks: Mapping[str, int] | None = None, title: str | None = None, top: int = 3):
    """Sabbaghi Figure 11: per layer, the relative vectors as an image (rows: offset j - i, columns:
    vector elements), and below them the norm of each vector so the offsets that carry signal stand
    out (the ``top`` largest in colour, listed under the panel). ``max_offset`` crops to
    ``|j - i| <= max_offset``; ``marks`` labels offsets (``{"l+1": 26}``) above the norm panel."""
    import matplotlib.pyplot as plt

    n = len(vectors)
    if n == 0:
        raise ValueError("relative_vector_map needs the vectors of at least one layer")
    K = (vectors[0].shape[0] - 1) // 2
    M = K if max_offset is None else min(K, max_offset)
    offsets = np.arange(-M, M + 1)
    fig, axes = plt.subplots(2, n, figsize=(min(MAX_WIDTH, 4.0 * n + 1.2), 7.2), squeeze=False, layout="constrained",
                             gridspec_kw={"height_ratios": [3, 1.5]})
    vmax = max(float(np.abs(v[K - M:K + M + 1]).max()) for v in vectors) or 1.0
    for layer, vec in enumerate(vectors):
        crop = vec[K - M:K + M + 1]
        ax = axes[0, layer]
        im = ax.imshow(crop, aspect="auto", cmap="RdBu_r", vmin=-vmax, vmax=vmax,
                       extent=(-0.5, crop.shape[1] - 0.5, M + 0.5, -M - 0.5))
        ax.set_title(f"layer {layer + 1}", fontsize=FONT + 1)
        ax.set_xlabel("vector element")
        if layer == 0:
            ax.set_ylabel("offset $j-i$")
        ax.grid(False)
        norms = np.linalg.norm(crop, axis=1)
        largest = offsets[np.argsort(norms)[::-1][:top]]
        colours = [PALETTE[9] if d in set(largest) else "0.45" for d in offsets]
        ax2 = axes[1, layer]
        ax2.bar(offsets, norms, width=0.9, color=colours)
        ax2.set_ylim(0, norms.max() * 1.08 + 1e-9)
        ax2.set_xlim(-M - 1, M + 1)
        items = {}
        for text, d in (marks or {}).items():
            if -M <= d <= M:
                ax.axhline(d, color=PALETTE[2], linewidth=1, linestyle=":")
                ax2.axvline(d, color=PALETTE[2], linewidth=1, linestyle=":")
                items[f"{text} = {d}" if str(d) not in text else text] = d
        for text, d in sorted(items.items(), key=lambda kv: kv[1]):
            ax2.text(d, 1.02, text, transform=ax2.get_xaxis_transform(), ha="center", va="bottom",
                     fontsize=MIN_FONT + 1, color=PALETTE[2], clip_on=False)
        listed = ", ".join(str(int(d)) for d in sorted(largest, key=lambda d: -norms[d + M]))
        ax2.set_xlabel(f"offset $j-i$   (largest: {listed})")
        if layer == 0:
            ax2.set_ylabel(r"$\|p_{j-i}\|$")
    fig.colorbar(im, ax=axes[0, :].tolist(), shrink=0.8, label="value")
    if title:
        fig.suptitle(math(title), fontweight="bold")
    return fig


def gram_heatmaps(matrices: Mapping[str, np.ndarray], *, block: int | None = None, title: str | None = None):
    """Sabbaghi Figure 16: the learned attention coefficients ``A_ij`` (``p_i^T p_j`` for APE) as images,
    one panel per model, on a shared symmetric colour scale; ``block`` outlines the trained block ``0..block-1``."""
    import matplotlib.pyplot as plt
    from matplotlib.patches import Rectangle

    n = len(matrices)
    if n == 0:
        raise ValueError("gram_heatmaps needs at least one matrix")
    vmax = max(float(np.abs(m).max()) for m in matrices.values()) or 1.0
    side = min(3.6, (MAX_WIDTH - 1.0) / n)
    fig, axes = plt.subplots(1, n, figsize=(side * n + 1.0, side + 1.0), squeeze=False, layout="constrained")
    for ax, (label, m) in zip(axes[0], matrices.items()):
        im = ax.imshow(m, cmap="RdBu_r", vmin=-vmax, vmax=vmax)
        if block:
            ax.add_patch(Rectangle((-0.5, -0.5), block, block, fill=False, edgecolor="k", linewidth=1.2))
        ax.set_title(math(label), fontsize=FONT)
        ax.set_xlabel("$j$")
        ax.set_ylabel("$i$")
        ax.grid(False)
    fig.colorbar(im, ax=axes[0].tolist(), shrink=0.8)
    if title:
        fig.suptitle(math(title), fontweight="bold")
    return fig


def relative_bias_2d(tables: np.ndarray, *, title: str | None = None):
    """The 2-D relative bias of a board model, ``tables[layer, head, dr, dc]`` (row and column differences
    -K..K, the border holding every farther one): one image per head and layer on a shared colour scale,
    the 3 x 3 neighbourhood outlined."""
    import matplotlib.pyplot as plt
    from matplotlib.patches import Rectangle

    tables = np.asarray(tables)
    if tables.ndim != 4 or tables.shape[2] != tables.shape[3] or tables.shape[2] % 2 == 0:
        raise ValueError(f"relative_bias_2d needs [layers, heads, 2K+1, 2K+1], got shape {tables.shape}")
    layers, heads, width = tables.shape[:3]
    k = width // 2
    vmax = float(np.abs(tables).max()) or 1.0
    side = min(2.2, (MAX_WIDTH - 1.0) / heads)
    fig, axes = plt.subplots(layers, heads, figsize=(side * heads + 1.0, side * layers + 0.9), squeeze=False,
                             layout="constrained")
    ticks = list(range(width))
    names = [f"{d:+d}" if abs(d) < k else (f"≤{d:+d}" if d < 0 else f"≥{d:+d}") for d in range(-k, k + 1)]
    for layer in range(layers):
        for head in range(heads):
            ax = axes[layer, head]
            im = ax.imshow(tables[layer, head], cmap="RdBu_r", vmin=-vmax, vmax=vmax)
            ax.add_patch(Rectangle((k - 1.5, k - 1.5), 3, 3, fill=False, edgecolor="k", linewidth=1.2))
            ax.set_xticks(ticks, names, fontsize=MIN_FONT)
            ax.set_yticks(ticks, names, fontsize=MIN_FONT)
            ax.set_title(f"layer {layer}, head {head}", fontsize=max(MIN_FONT, FONT - 1))
            ax.grid(False)
            if layer == layers - 1:
                ax.set_xlabel("column difference")
            if head == 0:
                ax.set_ylabel("row difference")
    fig.colorbar(im, ax=axes.ravel().tolist(), shrink=0.8, label="bias added to the score")
    if title:
        fig.suptitle(math(title), fontweight="bold")
    return fig


__all__ = ["per_digit_heatmap", "relative_vector_map", "attention_heatmap", "gram_heatmaps",
           "attention_side_by_side", "offset_attention_map"]

"""Which position vector each (query, key) pair uses under UPE (Sabbaghi eq. 3.3), as coloured cells.

:func:`vector_pair_table` draws a :class:`~lengen_utils.analysis.interpret.VectorTable` (built by
:func:`lengen_utils.analysis.interpret.vector_table` from the encoding module itself): rows are queries i,
columns keys j, each cell names its vector. The uniform vectors c_r share the multiplier's colour
(one shade per r): a whole column, whatever the query, which is the symmetry of UPE. The relative
vectors p_d are coloured by d, so a diagonal of one colour is one vector shared by every pair at that
offset, the translation symmetry of RPE. The style follows :mod:`.tables` (notebook 01).
"""
from __future__ import annotations

import numpy as np

from .style import FONT, MAX_WIDTH, MIN_FONT, ROLE_COLOURS, math

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


__all__ = ["vector_pair_table", "UNIFORM_SHADES"]

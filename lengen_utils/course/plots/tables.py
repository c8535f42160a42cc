"""Sequences drawn as rows of coloured cells: formats by token role, position IDs by value.

* :func:`token_table` -- the generic strip of cells (equal IDs share a colour, supervised cells outlined);
  a row longer than the notebook column wraps onto a continuation row instead of shrinking the text;
* :func:`format_table` -- one problem in several formats (notebook 01);
* :func:`position_table` -- one example under several position-ID schemes (Cho's coupling, Abacus...);
* :func:`highlight_table` -- the same tokens once per row, only some coloured (Sabbaghi's σ(i)).
"""
from __future__ import annotations

from typing import Mapping, Sequence

import numpy as np

from ...core.vocab import PAD, render
from .style import FONT, MAX_WIDTH, MIN_FONT, ROLE_COLOURS, math


def _cell_colour_by_value(values, cmap_name: str = "tab20") -> dict:
    import matplotlib.pyplot as plt

    cmap = plt.get_cmap(cmap_name)
    return {v: cmap(i % cmap.N) for i, v in enumerate(sorted({v for v in values if v is not None}))}


def _wrap(rows: Mapping[str, Sequence[str]], max_cells: int) -> list[tuple[str, str, int, int]]:
    """``(shown label, row key, first cell, end cell)`` per drawn line: long rows continue on the next line."""
    lines = []
    for lab, cells in rows.items():
        n = max(1, len(cells))
        for i, start in enumerate(range(0, n, max_cells)):
            lines.append((lab if i == 0 else "↳ " + lab, lab, start, min(n, start + max_cells)))
    return lines


def token_table(rows: Mapping[str, Sequence[str]], *, colour_by: Mapping[str, Sequence] | None = None,
                supervised: Mapping[str, Sequence[int]] | None = None, role_colours: bool = True,
                title: str | None = None, cell_width: float = 0.36, fontsize: int = FONT, ax=None):
    """Draw each row of strings as a strip of cells.

    ``colour_by[row]`` gives per cell either a role name (coloured with :data:`ROLE_COLOURS`) or a
    number (numbers shared across all rows get one colour each, so equal IDs stand out).
    ``supervised[row]`` lists the cells to outline in black (the positions the loss reads).
    Rows wider than :data:`~lengen_utils.course.plots.style.MAX_WIDTH` continue on a line marked ``↳``.
    """
    import matplotlib.pyplot as plt
    from matplotlib.patches import Rectangle

    labels = list(rows)
    if not labels:
        raise ValueError("token_table needs at least one row")
    fontsize = max(fontsize, MIN_FONT)
    label_inches = 0.3 + 0.085 * max(len(lab) + 2 for lab in labels)
    max_cells = max(4, int((MAX_WIDTH - label_inches - 0.2) / cell_width))
    lines = _wrap(rows, max_cells)
    width = max(end - start for _, _, start, end in lines)
    numeric = [v for lab in labels for v in (colour_by or {}).get(lab, []) if isinstance(v, (int, np.integer))]
    by_value = _cell_colour_by_value(numeric)
    if ax is None:
        fig_w = min(MAX_WIDTH, max(4.0, label_inches + 0.2 + cell_width * width))
        fig, ax = plt.subplots(figsize=(fig_w, 0.35 + 0.42 * len(lines) + (0.3 if title else 0)))
    else:
        fig = ax.figure
    for r, (_, lab, start, end) in enumerate(lines):
        colours = (colour_by or {}).get(lab)
        outline = set((supervised or {}).get(lab, []))
        for c in range(start, end):
            text, x = rows[lab][c], c - start
            key = colours[c] if colours is not None and c < len(colours) else None
            if isinstance(key, (int, np.integer)):
                face = by_value.get(key, "#ffffff")
            elif role_colours and isinstance(key, str):
                face = ROLE_COLOURS.get(key, "#ffffff")
            else:
                face = "#ffffff"
            ax.add_patch(Rectangle((x, -r - 1), 1, 1, facecolor=face, edgecolor="white", linewidth=1.5))
            if c in outline:
                ax.add_patch(Rectangle((x + 0.06, -r - 0.94), 0.88, 0.88, fill=False, edgecolor="black",
                                       linewidth=1.4))
            ax.text(x + 0.5, -r - 0.5, str(text), ha="center", va="center", fontsize=fontsize)
    ax.set_xlim(0, width)
    ax.set_ylim(-len(lines), 0)
    ax.set_yticks([-r - 0.5 for r in range(len(lines))])
    ax.set_yticklabels([shown for shown, _, _, _ in lines], fontsize=fontsize)
    ax.set_xticks([])
    ax.grid(False)
    for side in ("top", "right", "bottom", "left"):
        ax.spines[side].set_visible(False)
    if title:
        ax.set_title(math(title), loc="left", fontsize=FONT + 1)
    fig.tight_layout()
    return fig


def _tokens_and_roles(example) -> tuple[list[str], list[str]]:
    tokens = [render([t]) or " " for t in example.tokens]
    roles = ["pad" if t == PAD else r for t, r in zip(example.tokens, example.roles)]
    return tokens, roles


def format_table(examples: Mapping[str, object], *, title: str | None = None):
    """Several :class:`~lengen_utils.core.formats.Example` objects, one row each, cells coloured by role
    (operand a, operand b, answer, operators, $, hints, pad) and supervised positions outlined."""
    rows, colours, sup = {}, {}, {}
    for label, ex in examples.items():
        rows[label], colours[label] = _tokens_and_roles(ex)
        sup[label] = ex.supervised
    return token_table(rows, colour_by=colours, supervised=sup, title=title)


def position_table(example, ids_by_scheme: Mapping[str, Sequence[int]], *, title: str | None = None):
    """One example, then one row of position IDs per scheme; each ID has its own colour, so the
    tokens that share an ID (coupling, Abacus) share a colour."""
    tokens, roles = _tokens_and_roles(example)
    rows: dict[str, list] = {"token": tokens}
    colours: dict[str, list] = {"token": roles}
    for name, ids in ids_by_scheme.items():
        if len(ids) != len(tokens):
            raise ValueError(f"scheme {name!r} gives {len(ids)} IDs for {len(tokens)} tokens")
        rows[name] = [str(i) for i in ids]
        colours[name] = [int(i) for i in ids]
    return token_table(rows, colour_by=colours, supervised={"token": example.supervised}, title=title)


def highlight_table(example, highlights: Mapping[str, Sequence[int]], *,
                    outline: Mapping[str, Sequence[int]] | None = None, title: str | None = None):
    """The tokens of ``example`` repeated once per row of ``highlights``; in each row only the listed
    positions are coloured (by role). E.g. Sabbaghi's σ(i): which inputs the i-th answer digit needs.
    ``outline[row]`` draws a box around some cells (e.g. where that answer digit is read)."""
    tokens, roles = _tokens_and_roles(example)
    rows = {label: tokens for label in highlights}
    colours = {label: [roles[j] if j in set(idx) else "" for j in range(len(tokens))]
               for label, idx in highlights.items()}
    return token_table(rows, colour_by=colours, supervised=outline, title=title)


__all__ = ["token_table", "format_table", "position_table", "highlight_table"]

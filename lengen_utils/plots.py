"""The course's plots: one style, and one function per figure type. Every function returns the
matplotlib ``Figure`` (PNG inline in notebooks) and never calls ``plt.show`` itself.

Figure types (generic: later notebooks reuse them):

* :func:`accuracy_vs_length` -- exact match (or any score) against the operand length, one line per
  model, the trained length and other landmarks marked;
* :func:`token_table` -- sequences drawn as rows of coloured cells (formats by role, position IDs by
  value so that equal IDs share a colour), supervised positions outlined;
* :func:`position_table` -- one example under several position-ID schemes;
* :func:`per_digit_heatmap` -- accuracy per output digit (significance) and test length
  (Sabbaghi Table 1);
* :func:`relative_vector_map` -- the learned relative vectors p_{j-i} of every layer (Sabbaghi
  Figure 11) and their norm per offset;
* :func:`attention_heatmap` -- attention weights of one example, one panel per head;
* :func:`loss_curve` -- training loss of one or more runs.

The small data helpers :func:`relative_vectors` and :func:`attention_maps` pull what those figures
need out of a trained :class:`~lengen_utils.model.Transformer`.
"""
from __future__ import annotations

from typing import Mapping, Sequence

import matplotlib
import numpy as np

PALETTE = "colorblind"

# colours of the token roles in token tables (colour-blind safe, light enough for black text)
ROLE_COLOURS = {
    "a": "#9ecae1", "b": "#fdae6b", "answer": "#a1d99b", "op": "#d9d9d9", "eq": "#d9d9d9",
    "bos": "#bcbddc", "eos": "#bcbddc", "hint": "#fbe3a1", "pad": "#f0f0f0", "": "#ffffff",
}


def use_course_style() -> None:
    """seaborn's whitegrid look, a colour-blind-safe palette, PNG output at a readable size."""
    import seaborn as sns

    sns.set_theme(style="whitegrid", palette=PALETTE, context="notebook")
    matplotlib.rcParams.update({"figure.dpi": 100, "savefig.dpi": 150, "figure.figsize": (7, 4),
                                "axes.titleweight": "bold"})
    try:  # inline figures as PNG, not SVG (smaller notebooks, same look everywhere)
        from matplotlib_inline.backend_inline import set_matplotlib_formats

        set_matplotlib_formats("png")
    except ImportError:
        pass


def _new_axes(ax=None, figsize=(7, 4)):
    import matplotlib.pyplot as plt

    if ax is not None:
        return ax.figure, ax
    fig, ax = plt.subplots(figsize=figsize)
    return fig, ax


# -- accuracy against length -----------------------------------------------------------------------
def accuracy_vs_length(curves: Mapping[str, Mapping[int, float]], *, trained_length: int | Mapping[str, int] | None = None,
                       marks: Mapping[str, float] | None = None, title: str | None = None,
                       ylabel: str = "exact-match accuracy", xlabel: str = "operand length (digits)",
                       styles: Mapping[str, dict] | None = None, ax=None, figsize=(7, 4), legend: bool = True):
    """One line per model: ``curves[label] = {length: accuracy}`` (accuracy in [0, 1]).

    ``trained_length`` shades the seen domain D_s (one int for all curves) or marks each curve's own
    trained length with a dotted line in its colour (a dict). ``marks`` adds labelled vertical lines
    (e.g. ``{"frame width l": 25}``). ``styles[label]`` passes extra keyword arguments to ``plot``.
    """
    import seaborn as sns

    if not curves:
        raise ValueError("accuracy_vs_length needs at least one curve")
    fig, ax = _new_axes(ax, figsize)
    colours = sns.color_palette(PALETTE, max(len(curves), 3))
    all_x = []
    for colour, (label, points) in zip(colours, curves.items()):
        xs = sorted(int(k) for k in points)
        ys = [100 * float(points[k] if k in points else points[str(k)]) for k in xs]
        all_x += xs
        kw = {"marker": "o", "markersize": 4, "linewidth": 2, "color": colour}
        kw.update((styles or {}).get(label, {}))
        ax.plot(xs, ys, label=label, **kw)
        if isinstance(trained_length, Mapping) and label in trained_length:
            ax.axvline(trained_length[label] + 0.5, color=kw["color"], linestyle=":", linewidth=1.5)
    if isinstance(trained_length, (int, np.integer)):
        lo = min(all_x + [1])
        ax.axvspan(lo - 0.5, trained_length + 0.5, color="0.85", alpha=0.6, zorder=0)
        ax.text(lo - 0.3, 50, r"seen $\mathcal{D}_s$", rotation=90, va="center", fontsize=9, color="0.3")
    for text, x in (marks or {}).items():
        ax.axvline(x, color="0.35", linestyle="--", linewidth=1)
        ax.text(x, 103, text, ha="center", va="bottom", fontsize=8, color="0.25")
    ax.set_ylim(-3, 108 if marks else 103)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel + " (%)")
    if all_x:
        span = sorted(set(all_x))
        step = 1 if len(span) <= 25 else 5
        ax.set_xticks([x for x in span if x % step == 0 or x == span[0]])
    if title:
        ax.set_title(title)
    if legend:
        ax.legend(loc="best", fontsize=9, frameon=True)
    fig.tight_layout()
    return fig


# -- sequences as coloured tables ------------------------------------------------------------------
def _cell_colour_by_value(values, cmap_name="tab20"):
    import matplotlib.pyplot as plt

    cmap = plt.get_cmap(cmap_name)
    return {v: cmap(i % cmap.N) for i, v in enumerate(sorted({v for v in values if v is not None}))}

def _finish(fig, ax, title: str | None, legend: bool):
    """The common last steps of a line plot: title, legend when there are several lines, tight layout."""
    if title:
        ax.set_title(title)
    if legend:
        ax.legend(fontsize=9)
    fig.tight_layout()
    return fig


def token_table(rows: Mapping[str, Sequence[str]], *, colour_by: Mapping[str, Sequence] | None = None,
                supervised: Mapping[str, Sequence[int]] | None = None, role_colours: bool = True,
                title: str | None = None, cell_width: float = 0.36, fontsize: int = 10, ax=None):
    """Draw each row of strings as a strip of cells.

    ``colour_by[row]`` gives per cell either a role name (coloured with :data:`ROLE_COLOURS`) or a
    number (numbers shared across all rows get one colour each, so equal IDs stand out).
    ``supervised[row]`` lists the cells to outline in black (the positions the loss reads).
    """
    import matplotlib.pyplot as plt
    from matplotlib.patches import Rectangle

    labels = list(rows)
    if not labels:
        raise ValueError("token_table needs at least one row")
    width = max(len(r) for r in rows.values())
    numeric = [v for lab in labels for v in (colour_by or {}).get(lab, []) if isinstance(v, (int, np.integer))]
    by_value = _cell_colour_by_value(numeric)
    if ax is None:
        fig, ax = plt.subplots(figsize=(max(4.0, 1.6 + cell_width * width), 0.2 + 0.42 * len(labels)))
    else:
        fig = ax.figure
    for r, lab in enumerate(labels):
        colours = (colour_by or {}).get(lab)
        outline = set((supervised or {}).get(lab, []))
        for c, text in enumerate(rows[lab]):
            key = colours[c] if colours is not None and c < len(colours) else None
            if isinstance(key, (int, np.integer)):
                face = by_value.get(key, "#ffffff")
            elif role_colours and isinstance(key, str):
                face = ROLE_COLOURS.get(key, "#ffffff")
            else:
                face = "#ffffff"
            ax.add_patch(Rectangle((c, -r - 1), 1, 1, facecolor=face, edgecolor="white", linewidth=1.5))
            if c in outline:
                ax.add_patch(Rectangle((c + 0.06, -r - 0.94), 0.88, 0.88, fill=False, edgecolor="black",
                                       linewidth=1.4))
            ax.text(c + 0.5, -r - 0.5, str(text), ha="center", va="center", fontsize=fontsize)
    ax.set_xlim(0, width)
    ax.set_ylim(-len(labels), 0)
    ax.set_yticks([-r - 0.5 for r in range(len(labels))])
    ax.set_yticklabels(labels)
    ax.set_xticks([])
    ax.grid(False)
    for side in ("top", "right", "bottom", "left"):
        ax.spines[side].set_visible(False)
    if title:
        ax.set_title(title, loc="left", fontsize=11)
    fig.tight_layout()
    return fig


def format_table(examples: Mapping[str, "object"], *, title: str | None = None):
    """Several :class:`~lengen_utils.formats.Example` objects, one row each, cells coloured by role
    (operand a, operand b, answer, operators, $, hints, pad) and supervised positions outlined."""
    from .formats import PAD, render

    rows, colours, sup = {}, {}, {}
    for label, ex in examples.items():
        rows[label] = [render([t]) or " " for t in ex.tokens]
        colours[label] = ["pad" if t == PAD else role for t, role in zip(ex.tokens, ex.roles)]
        sup[label] = ex.supervised
    return token_table(rows, colour_by=colours, supervised=sup, title=title)


def position_table(example, ids_by_scheme: Mapping[str, Sequence[int]], *, title: str | None = None):
    """One example, then one row of position IDs per scheme; each ID has its own colour, so the
    tokens that share an ID (coupling, Abacus) share a colour."""
    from .formats import PAD, render

    tokens = [render([t]) or " " for t in example.tokens]
    rows = {"token": tokens}
    colours: dict[str, list] = {"token": ["pad" if t == PAD else r for t, r in zip(example.tokens, example.roles)]}
    for name, ids in ids_by_scheme.items():
        if len(ids) != len(tokens):
            raise ValueError(f"scheme {name!r} gives {len(ids)} IDs for {len(tokens)} tokens")
        rows[name] = [str(i) for i in ids]
        colours[name] = [int(i) for i in ids]
    return token_table(rows, colour_by=colours, supervised={"token": example.supervised}, title=title)


def highlight_table(example, highlights: Mapping[str, Sequence[int]], *, outline: Mapping[str, Sequence[int]] | None = None,
                    title: str | None = None):
    """The tokens of ``example`` repeated once per row of ``highlights``; in each row only the listed
    positions are coloured (by role). E.g. Sabbaghi's σ(i): which inputs the i-th answer digit needs.
    ``outline[row]`` draws a box around some cells (e.g. where that answer digit is read)."""
    from .formats import PAD, render

    tokens = [render([t]) or " " for t in example.tokens]
    roles = ["pad" if t == PAD else r for t, r in zip(example.tokens, example.roles)]
    rows = {label: tokens for label in highlights}
    colours = {label: [roles[j] if j in set(idx) else "" for j in range(len(tokens))]
               for label, idx in highlights.items()}
    return token_table(rows, colour_by=colours, supervised=outline, title=title)


# -- per-digit accuracy ----------------------------------------------------------------------------
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
    if ax is None:
        fig, ax = plt.subplots(figsize=(max(5, 0.42 * len(sigs) + 1.8), max(2.4, 0.36 * len(lengths) + 1.2)))
    else:
        fig = ax.figure
    if annotate is None:
        annotate = len(sigs) <= 24
    sns.heatmap(grid, ax=ax, vmin=0, vmax=100, cmap="rocket", annot=annotate, fmt=".0f",
                annot_kws={"fontsize": 7}, cbar_kws={"label": "accuracy (%)"},
                xticklabels=[s + 1 for s in sigs], yticklabels=lengths)
    ax.set_xlabel(digit_label)
    ax.set_ylabel("test length")
    if title:
        ax.set_title(title)
    fig.tight_layout()
    return fig


# -- relative position vectors (Sabbaghi Figure 11) ------------------------------------------------
def relative_vectors(model) -> list[np.ndarray]:
    """The learned RPE vectors of every layer, ``[2K+1, d_head]`` each; row ``K + d`` is p_d, the
    vector added to a key ``d`` positions after the query (``d = j - i``)."""
    out = []
    for block in model.blocks:
        for mod in block.attn.biases:
            if hasattr(mod, "vectors"):
                out.append(getattr(mod, "table", mod.vectors).detach().float().cpu().numpy())
                break
    if not out:
        raise ValueError(f"this model has no relative vectors (encoding={model.cfg.encoding!r}); use an 'rpe' "
                         f"or 'upe' model")
    return out


def relative_vector_map(vectors: Sequence[np.ndarray], *, max_offset: int | None = None, marks: Mapping[str, int] | None = None,
                        title: str | None = None):
    """Sabbaghi Figure 11: per layer, the relative vectors as an image (rows: offset j - i, columns:
    vector elements), and below them the norm of each vector so the offsets that carry signal stand
    out. ``max_offset`` crops to |j - i| <= max_offset; ``marks`` labels offsets (``{"l+1": 26}``)."""
    import matplotlib.pyplot as plt

    n = len(vectors)
    if n == 0:
        raise ValueError("relative_vector_map needs the vectors of at least one layer")
    K = (vectors[0].shape[0] - 1) // 2
    M = K if max_offset is None else min(K, max_offset)
    offsets = np.arange(-M, M + 1)
    fig, axes = plt.subplots(2, n, figsize=(3.6 * n + 1.2, 6.6), squeeze=False, layout="constrained",
                             gridspec_kw={"height_ratios": [3, 1.4]})
    vmax = max(float(np.abs(v[K - M:K + M + 1]).max()) for v in vectors) or 1.0
    for layer, vec in enumerate(vectors):
        crop = vec[K - M:K + M + 1]
        ax = axes[0, layer]
        im = ax.imshow(crop, aspect="auto", cmap="RdBu_r", vmin=-vmax, vmax=vmax,
                       extent=(-0.5, crop.shape[1] - 0.5, M + 0.5, -M - 0.5))
        ax.set_title(f"layer {layer + 1}")
        ax.set_xlabel("vector element")
        if layer == 0:
            ax.set_ylabel("offset j - i")
        ax.grid(False)
        norms = np.linalg.norm(crop, axis=1)
        ax2 = axes[1, layer]
        ax2.bar(offsets, norms, width=0.9, color="0.4")
        top = offsets[np.argsort(norms)[-3:]]
        for d in top:
            ax2.text(d, norms[d + M], str(int(d)), ha="center", va="bottom", fontsize=8, color="C3")
        for text, d in (marks or {}).items():
            if -M <= d <= M:
                ax.axhline(d, color="C2", linewidth=0.8, linestyle=":")
                ax2.axvline(d, color="C2", linewidth=0.8, linestyle=":")
                ax2.text(d, norms.max() * 1.15, text, ha="center", fontsize=8, color="C2")
        ax2.set_xlabel("offset j - i")
        if layer == 0:
            ax2.set_ylabel(r"$\|p_{j-i}\|$")
        ax2.set_ylim(0, norms.max() * 1.3 + 1e-9)
    fig.colorbar(im, ax=axes[0, :].tolist(), shrink=0.8, label="value")
    if title:
        fig.suptitle(title, fontweight="bold")
    return fig


# -- attention -----------------------------------------------------------------------------------
def attention_maps(model, task, problem) -> tuple[list[np.ndarray], list[str]]:
    """Attention weights of every layer (``[heads, T, T]`` each) for one problem, and its tokens."""
    import torch

    from .formats import render

    batch = task.batch([problem]).to(model.device)
    model.eval()
    with torch.no_grad():
        _, weights = model(**batch.model_inputs(), return_attention=True)
    ex = batch.examples[0]
    n = len(ex)
    return [w[0, :, :n, :n].float().cpu().numpy() for w in weights], [render([t]) or " " for t in ex.tokens]


def attention_heatmap(weights: np.ndarray, tokens: Sequence[str], *, heads: Sequence[int] | None = None,
                      rows: Sequence[int] | None = None, title: str | None = None):
    """Attention of one layer, ``weights[head, query, key]``, one panel per head; ``rows`` keeps only
    some query positions (e.g. the supervised ones)."""
    import matplotlib.pyplot as plt

    weights = np.asarray(weights)
    if weights.ndim == 2:
        weights = weights[None]
    heads = list(range(weights.shape[0])) if heads is None else list(heads)
    rows = list(range(weights.shape[1])) if rows is None else list(rows)
    ncols = min(2, len(heads))
    nrows = (len(heads) + ncols - 1) // ncols
    panel_w, panel_h = max(3.0, 0.15 * len(tokens)), max(2.0, 0.15 * len(rows))
    fig, axes = plt.subplots(nrows, ncols, figsize=(ncols * panel_w + 1.0, nrows * panel_h + 1.0), squeeze=False,
                             layout="constrained")
    for idx, h in enumerate(heads):
        ax = axes[idx // ncols, idx % ncols]
        block = weights[h][rows]
        ax.imshow(block, aspect="auto", cmap="magma", vmin=0, vmax=max(float(block.max()), 1e-6))
        ax.set_xticks(range(len(tokens)))
        ax.set_xticklabels(tokens, fontsize=7)
        ax.set_yticks(range(len(rows)))
        ax.set_yticklabels([f"{tokens[r]} @{r}" for r in rows], fontsize=6)
        ax.set_title(f"head {h}", fontsize=10)
        ax.set_xlabel("key", fontsize=8)
        ax.grid(False)
        if idx % ncols == 0:
            ax.set_ylabel("query")
    for idx in range(len(heads), nrows * ncols):
        axes[idx // ncols, idx % ncols].set_visible(False)
    if title:
        fig.suptitle(title, fontweight="bold")
    return fig


def loss_curve(losses: Mapping[str, Sequence[float]], *, log_every: int = 50, title: str | None = None, ax=None):
    """Training loss per logged window, one line per run (log scale)."""
    fig, ax = _new_axes(ax, (6, 3.2))
    for label, ys in losses.items():
        ax.plot(np.arange(1, len(ys) + 1) * log_every, ys, label=label)
    ax.set_yscale("log")
    ax.set_xlabel("step")
    ax.set_ylabel("loss")
    return _finish(fig, ax, title, legend=len(losses) > 1)


# == part 3 ==
# Figures of notebooks 06 (task complexity) and 07 (theory):
# complexity_histogram (Sabbaghi Figures 13, 14), accuracy_by_level (Figure 8), per_position_loss
# (Figure 9b), gram_heatmaps (Figure 16), attention_side_by_side (Cho Figure 7), offset_attention_map
# (Sabbaghi Appendix E).


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
    fig, axes = plt.subplots(1, n, figsize=(4.2 * n, 3.3), squeeze=False)
    for ax, (label, dist) in zip(axes[0], distributions.items()):
        p = np.asarray([float(x) for x in dist])
        top = len(p) - 1 if max_level is None else min(max_level, len(p) - 1)
        ks = np.arange(top + 1)
        ax.bar(ks, p[:top + 1], color="C0", width=0.8)
        if log:
            ax.set_yscale("log")
            positive = p[:top + 1][p[:top + 1] > 0]
            if len(positive):
                ax.set_ylim(positive.min() / 3, 2 if annotate_from is None else 300)  # room for the labels
        if annotate_from is not None:
            for k in ks[ks >= annotate_from]:
                if p[k] > 0:
                    ax.text(k, p[k] * (1.3 if log else 1.02), f"{p[k]:.1e}", ha="center", va="bottom", fontsize=7,
                            rotation=90)
        ax.set_xticks(ks)
        ax.set_xlabel(xlabel)
        ax.set_ylabel("probability")
        ax.set_title(label, fontsize=10)
    if title:
        fig.suptitle(title, fontweight="bold")
    fig.tight_layout()
    return fig


def _em_and_err(value) -> tuple[float, float]:
    if hasattr(value, "exact_match"):
        return float(value.exact_match), float(getattr(value, "stderr", 0.0))
    return float(value), 0.0


def accuracy_by_level(curves: Mapping[str, Mapping[int, object]], *, xlabel: str = "cascade length",
                      ylabel: str = "exact match", trained_max: int | None = None, title: str | None = None, ax=None):
    """Sabbaghi Figure 8: exact match per complexity level, one line per model or measure. Values are
    floats or objects with ``exact_match`` (and ``stderr``, drawn as error bars), e.g.
    :class:`~lengen_utils.complexity.GroupResult`. ``trained_max`` marks the largest level seen in training."""
    fig, ax = _new_axes(ax, (6.2, 3.6))
    for i, (label, by_level) in enumerate(curves.items()):
        ks = sorted(by_level)
        vals = [_em_and_err(by_level[k]) for k in ks]
        ax.errorbar(ks, [v for v, _ in vals], yerr=[e for _, e in vals], marker="o", markersize=4, capsize=2,
                    label=label, color=f"C{i}")
    if trained_max is not None:
        ax.axvline(trained_max, color="0.5", linestyle=":", linewidth=1)
        ax.text(trained_max, 1.02, " max in training", fontsize=8, color="0.4", va="bottom")
    ax.set_ylim(-0.03, 1.08)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    return _finish(fig, ax, title, legend=len(curves) > 1)


def per_position_loss(losses: Mapping[str, Sequence[float]], *, seen: Sequence[bool] | None = None,
                      reference: Mapping[str, float] | None = None, title: str | None = None, ax=None):
    """Sabbaghi Figure 9b: test loss at every position of the ring, one line per model (log scale).
    ``seen`` shades the positions that carried data in training; ``reference`` draws horizontal lines
    (e.g. ``{"alpha^2 + 2 beta^2": 1.32}``)."""
    fig, ax = _new_axes(ax, (7, 3.6))
    for i, (label, ys) in enumerate(losses.items()):
        ys = np.asarray(ys, dtype=float)
        ax.plot(np.arange(len(ys)), np.maximum(ys, 1e-12), marker=".", label=label, color=f"C{i}")
    if seen is not None:
        idx = np.flatnonzero(np.asarray(seen))
        if len(idx):
            ax.axvspan(idx.min() - 0.5, idx.max() + 0.5, color="0.85", zorder=0, label="seen in training")
    for j, (text, y) in enumerate((reference or {}).items()):
        ax.axhline(y, color="0.3", linestyle="--", linewidth=0.8)
        ax.text(ax.get_xlim()[1], y, f" {text}", va="center", fontsize=8, color="0.3")
    ax.set_yscale("log")
    ax.set_xlabel("position i")
    ax.set_ylabel("test loss E[(ŷ_i - y_i)²]")
    if title:
        ax.set_title(title)
    ax.legend(fontsize=8)
    fig.tight_layout()
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
    fig, axes = plt.subplots(1, n, figsize=(3.6 * n + 0.8, 3.6), squeeze=False)
    for ax, (label, m) in zip(axes[0], matrices.items()):
        im = ax.imshow(m, cmap="RdBu_r", vmin=-vmax, vmax=vmax)
        if block:
            ax.add_patch(Rectangle((-0.5, -0.5), block, block, fill=False, edgecolor="k", linewidth=1))
        ax.set_title(label, fontsize=10)
        ax.set_xlabel("j")
        ax.set_ylabel("i")
        ax.grid(False)
    fig.colorbar(im, ax=axes[0].tolist(), shrink=0.8)
    if title:
        fig.suptitle(title, fontweight="bold")
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
    fig, axes = plt.subplots(len(panels), n_heads, figsize=(0.22 * T * n_heads + 1.5, (0.22 * len(rows) + 1.2) * len(panels)),
                             squeeze=False)
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
            ax.set_xticks(range(T))
            ax.set_xticklabels(labels, fontsize=6, rotation=90)
            ax.set_yticks(range(len(rows)))
            ax.set_yticklabels([labels[i] for i in rows], fontsize=6)
            ax.set_title(f"{name}: head {h}", fontsize=9)
            if h == 0:
                ax.set_ylabel("query")
    if title:
        fig.suptitle(title, fontweight="bold")
    fig.tight_layout()
    return fig


def offset_attention_map(offset_attention, layer: int = 0, *, max_offset: int | None = None,
                         marks: Sequence[int] | None = None, title: str | None = None):
    """Sabbaghi Appendix E: for one layer, per head, the attention from each answer digit (rows:
    significance k) to the keys at each relative offset (columns, the paper's right-to-left convention).
    A fixed relative map shows up as vertical stripes: the same offsets for every k. ``marks`` outlines
    offsets (e.g. :func:`~lengen_utils.interpret.sigma_rel`); ``max_offset`` crops to ``|offset| <= max_offset``."""
    import matplotlib.pyplot as plt

    w = offset_attention.weights[layer]
    offsets = np.asarray(offset_attention.offsets)
    keep = np.ones(len(offsets), bool) if max_offset is None else np.abs(offsets) <= max_offset
    offs = offsets[keep]
    H = w.shape[0]
    fig, axes = plt.subplots(2, H, figsize=(3.3 * H + 0.5, 5.2), squeeze=False, gridspec_kw={"height_ratios": [3, 1.2]})
    for h in range(H):
        ax = axes[0, h]
        ax.imshow(w[h][:, keep], aspect="auto", cmap="Blues", vmin=0, vmax=1,
                  extent=(offs[0] - 0.5, offs[-1] + 0.5, w.shape[1] - 0.5, -0.5))
        ax.set_title(f"layer {layer + 1}, head {h}", fontsize=9)
        ax.set_xlabel("offset (right to left)")
        if h == 0:
            ax.set_ylabel("answer digit k")
        ax.grid(False)
        prof = w[h][:, keep].mean(0)
        axes[1, h].bar(offs, prof, width=0.9, color="0.35")
        for m in marks or ():
            if offs[0] <= m <= offs[-1]:
                axes[1, h].axvline(m, color="C3", linewidth=0.6, linestyle=":")
        axes[1, h].set_ylim(0, 1)
        axes[1, h].set_xlabel("offset")
        if h == 0:
            axes[1, h].set_ylabel("mean attention")
    if title:
        fig.suptitle(title, fontweight="bold")
    fig.tight_layout()
    return fig

"""Notebook 05b, section 6: the minesweeper generator (Cho et al. 6.2), the paper's recipe at our scale and ours."""
from __future__ import annotations

import math

import numpy as np

from ..common.claims import claim
from ..common.seeds import median_at, of_recipe
from ..notebook import pct
from .coupling_attention import relative_biases
from .recipes import MINESWEEPER

#: the paper's recipe at our scale (boards of 3-5 per side): one learned table per channel, 3,000 steps (3 seeds)
CHO = MINESWEEPER.one(widest=5, encoding="learned", steps=3000, shared_table=False).id
#: the same longer (seed 0), and with one table shared by the two channels (the paper's Appendix B.8)
CHO_8000, CHO_SHARED = MINESWEEPER.one(steps=8000).id, MINESWEEPER.one(shared_table=True).id
#: our recipe: next-cell IDs read by a 2-D relative bias, boards of 5-9 per side as in the paper
OURS = MINESWEEPER.one(ids="coupled2d_next").id
#: NoPE (no position information at all) on the paper's recipe's boards, and on ours (5-9 per side)
CHO_NOPE, OURS_NOPE = (MINESWEEPER.one(widest=w, encoding="none", relative_bias=False).id for w in (5, 9))
#: Cho et al. Figure 10 as their text states it (paper): over 98% up to width 12, near 90% at width 14.
PAPER_FIGURE10 = {12: 0.98, 14: 0.90}
#: ``{recipe: title}`` of every row; the paper's-recipe leaderboard: its rows on 3-5 per side, NoPE last
LABELS = {r.id: r.title for r in MINESWEEPER.recipes()}
CHO_ROWS = {r.id: r.title for r in sorted(MINESWEEPER.select(widest=5), key=lambda r: r.model.encoding == "none")}


def target_widths(trained_max: int) -> tuple[int, int]:
    """The widths the course's targets name: ceil(1.3 x) and ceil(1.5 x) the widest training side."""
    return math.ceil(1.3 * trained_max), math.ceil(1.5 * trained_max)


def check_ids(example, ids, board) -> None:
    """Cho's 2-D IDs tie each input cell to its answer cell, ``=`` at (1, 1), ``$`` at (0, 0); answers count mines."""
    eq = example.tokens.index("=")
    inputs, answers = list(ids[1:eq]), list(ids[eq + 1:-1])
    claim(inputs == answers, "every input cell should share its (row, column) IDs with its answer cell",
          f"input {inputs}, answer {answers}", "Without it the answer cell cannot find its own cell at any width.")
    claim(tuple(ids[eq]) == (1, 1) and tuple(ids[0]) == (0, 0), "`=` should get (1, 1) at the evaluation start and "
          "`$` (0, 0)", f"{ids[eq]} and {ids[0]}")
    cells = np.array(board.cells)
    mines = np.pad(cells == "M", 1)                   # a border of no mines: each cell's 3 x 3 window fits
    for (r, c), cell in np.ndenumerate(cells):
        want = "M" if cell == "M" else str(mines[r:r + 3, c:c + 3].sum())
        claim(board.answer[r][c] == want, f"the answer cell ({r}, {c}) should be {want}", board.answer[r][c])


def id_grid(board, ids) -> dict[str, dict[str, str]]:
    """The board in 2-D for a table: each cell "input → answer" under its (row ID, column ID)."""
    w = board.width
    return {f"row ID {ids[1 + r * w][0]}": {f"column ID {ids[1 + c][1]}": f"{cell} → {board.answer[r][c]}"
                                           for c, cell in enumerate(row)} for r, row in enumerate(board.cells)}


def id_rows(example, channels: dict[str, list]) -> tuple[dict[str, list[str]], dict[str, list]]:
    """``(rows, colours)`` for ``plots.token_table``: the tokens, then each assignment's row and column ID per token."""
    rows = {"token": list(example.tokens)}
    for name, ids in channels.items():
        rows |= {f"row ID, {name}": [str(i[0]) for i in ids], f"column ID, {name}": [str(i[1]) for i in ids]}
    return rows, {"token": list(example.roles), **{k: list(map(int, v)) for k, v in rows.items() if k != "token"}}


def check_row_start(split: dict[str, float], rect: dict[str, float]) -> None:
    """Live: the row's first cell is the weak spot, and an extra column costs far more than an extra row."""
    first, other = split["first column (rows 2+)"], split["all other cells"]
    claim(first < other, "the first cell of a row should be the weakest cell of a board wider than any in training",
          f"{pct(first)} there against {pct(other)} elsewhere",
          "Then the end of a row is not what limits Cho's IDs at this scale; look at the cell grid.")
    claim(rect["taller"] > rect["wider"] + 0.3, "a board one row taller should keep far more exact match than one "
          "column wider", f"taller {pct(rect['taller'])}, wider {pct(rect['wider'])}",
          "The row length (the jump back to the first column) is what the model could not learn to extend.")


def check_cho_recipe(live: dict[str, dict[int, float]], trained_max: int, wider: int) -> None:
    """Live, every seed of the paper's recipe at our scale: masters the trained boards, fails wider ones; NoPE fails."""
    med_in, med_out = median_at(live, CHO, trained_max), median_at(live, CHO, wider)
    claim(med_in >= 0.9, "2-D coupling should (nearly) master the trained boards: median >= 90% at width "
          f"{trained_max}", pct(med_in))
    claim(med_out <= 0.2, f"at this scale Cho's IDs should fail at width {wider}, wider than any training board",
          pct(med_out), "If this passes now, the recipe generalizes: say so in the text.")
    nope = [em[trained_max] for em in of_recipe(live, CHO_NOPE)]
    claim(all(em <= 0.2 for em in nope), f"NoPE should fail on width {trained_max}, a trained size",
          ", ".join(map(pct, nope)))


def check_shared_table(board: dict, trained_max: int) -> None:
    """Leaderboard: one table for both channels (the paper's) misses the widest trained boards; one per channel wins."""
    shared, separate = (board["methods"][m]["lengths"][trained_max]["median"] for m in (CHO_SHARED, CHO))
    claim(shared < 0.9, f"one shared table should not master width {trained_max} at this budget (median < 90%)",
          pct(shared), "If it does, the shared table works at our scale too: update the text.")
    claim(separate - shared >= 0.3, f"one table per channel should beat the shared table by >= 30 points at width "
          f"{trained_max}", f"{pct(separate)} against {pct(shared)}")


def check_next_cell(live: dict[str, dict[int, float]], trained_max: int) -> None:
    """Live, every seed: our recipe masters the trained boards and holds at 1.3x and 1.5x; NoPE fails in training."""
    w13, w15 = target_widths(trained_max)
    med = {w: median_at(live, OURS, w) for w in (trained_max, w13, w15)}
    claim(med[trained_max] >= 0.95, "our recipe should master the trained boards (median >= 95% at width "
          f"{trained_max})", pct(med[trained_max]), "A model failing in distribution says nothing about wider boards.")
    for w, bar, x in ((w13, 0.95, 1.3), (w15, 0.85, 1.5)):
        claim(med[w] >= bar, f"our recipe should keep a median >= {bar:.0%} at width {w} ({x} x the trained width)",
              pct(med[w]), "If the wider boards fail, look at the last rows: that is where attention is most diluted.")
    nope = median_at(live, OURS_NOPE, trained_max)
    claim(nope <= 0.5, f"NoPE with the same budget should fail in distribution (median <= 50% at width {trained_max})",
          pct(nope))


def check_widest(board: dict, at_least: float = 0.9) -> None:
    """From the manifest: our recipe's median stays high (>= 90%) at the widest test board."""
    lengths = board["methods"][OURS]["lengths"]
    claim(lengths[max(lengths)]["median"] >= at_least, f"our recipe should keep a median >= {at_least:.0%} at width "
          f"{max(lengths)}, the widest test", pct(lengths[max(lengths)]["median"]))


def bias_neighbourhood(model) -> np.ndarray:
    """The learned 2-D relative bias ``[layers, heads, 2K+1, 2K+1]`` (row by column difference, -K..K)."""
    return np.stack([b.reshape(-1, 2 * k + 1, 2 * k + 1) for k, b in relative_biases(model)])

"""Zoo entries of notebook 05, Cho et al. Section 6.2: the 2-D minesweeper task with two coupled ID channels.

Cho et al. train on boards of 5-9 cells per side (width and height apart), test on square boards of
width 5-14, with a 4-layer 8-head decoder (position coupling) and a 6-layer 8-head one (NoPE), 100k steps
of 800 boards.

**The paper's recipe at our scale** (tag ``nb05-2d-cho``): 3-5 cells per side, square test boards of width
3-10, a 2-layer 4-head decoder (d 64), 3,000 steps of 32 boards, Cho's coupled IDs in two channels (row,
column), each with its own random start in 1..max_position - side (max_position 12), start 1 at
evaluation; one learned table per channel (the paper shares one table, its Appendix B.8:
``nb05-mine-coupled-shared`` is that variant). The NoPE
baseline has the same size and budget. ``nb05-mine-coupled-8000-s0`` is that recipe trained 8,000 steps.

**Our recipe** (tag ``nb05-2d``), on the paper's sizes (train 5-9 per side, test square boards 5-14), same
network size, 2,000 steps of 32 boards. Two changes, each aimed at one weak spot found in the recipe above:

* ``coupled2d_next`` IDs: every position carries the IDs of the cell it predicts, so the end of a row is no
  longer a jump whose size is the board's width (:mod:`lengen_utils.core.positions2d`);
* a 2-D relative bias instead of the absolute tables: one learned number per head for each (row, column)
  difference clipped at 2, so the 3 x 3 neighbourhood has its own entries and everything farther shares the
  clipped ones; the model has no absolute position at all (``encoding="none"``).

Its NoPE baseline (``nb05-mine-nope59``) has the same sizes, network and budget. The vocabulary ends at the
mine token 'M' (IDs 0..80).
"""
from __future__ import annotations

from ...core.model import ModelConfig
from ...core.task_config import TaskConfig
from ...core.train import TrainConfig
from ...core.vocab import TOKEN_ID
from .recipe import Recipe
from .registry import register_recipe

MINE_SIDES = (3, 5)                          # the paper's recipe at our scale: boards of 3..5 cells per side
MINE_WIDTHS = (3, 4, 5, 6, 7, 8, 9, 10)      # test: square boards of these widths
MINE_MAX_POSITION = 12                       # IDs 0..12 in each channel: square boards up to width 11
MINE_SEEDS = (0, 1, 2)
MINE_STEPS, MINE_BATCH = 3000, 32

PAPER_SIDES = (5, 9)                         # Cho et al.'s training boards
PAPER_WIDTHS = (*range(5, 15), 16, 18, 20)   # Cho et al.'s test widths, 5..14, then on to 20
NEXT_MAX_POSITION = 24                       # row IDs up to 1 + 22 + 1 under coupled2d_next: square boards up to width 22
NEXT_STEPS = 2000
NEXT_BIAS_DISTANCE, NEXT_BIAS_SCALE = 2, 30.0
NEXT_EVAL_N = 300                            # boards per test width (a 14-wide board is 395 tokens)


def _board_model(encoding: str, **extra) -> ModelConfig:
    return ModelConfig(vocab_size=TOKEN_ID["M"] + 1, d_model=64, n_layers=2, n_heads=4, d_ff=256, encoding=encoding,
                       position_channels=2, **extra)


def minesweeper_recipe(encoding: str = "learned", steps: int = MINE_STEPS,
                       seeds: tuple[int, ...] = MINE_SEEDS, shared_table: bool = False) -> Recipe:
    """The paper's recipe at our scale: the coupled 2-D decoder (``encoding='learned'``) or its NoPE baseline
    (``'none'``); ``steps`` other than the default adds ``-{steps}`` to the id (the longer run);
    ``shared_table`` gives both ID channels one learned table, as Cho et al. do (their Appendix B.8)."""
    task = TaskConfig(task="minesweeper", format="minesweeper", positions="coupled2d", min_digits=MINE_SIDES[0],
                      max_digits=MINE_SIDES[1], random_start=True, max_position=MINE_MAX_POSITION)
    method = "coupled" if encoding == "learned" else "nope"
    what = ("2-D position coupling (row and column IDs, random starts)" if encoding == "learned"
            else "NoPE baseline (no position information)")
    if shared_table:
        what += ", one learned table shared by the two channels (the paper's Appendix B.8)"
    longer = "" if steps == MINE_STEPS else f"-{steps}"
    model = _board_model(encoding, max_positions=MINE_MAX_POSITION + 1,
                         **({"shared_channel_table": True} if shared_table else {}))
    return Recipe(id=f"nb05-mine-{method}{'-shared' if shared_table else ''}{longer}", task=task, model=model,
                  train=TrainConfig(steps=steps, batch_size=MINE_BATCH, lr=3e-3, warmup_steps=100), seeds=seeds,
                  eval_lengths=MINE_WIDTHS, eval_n=1000, tags=("nb05-2d-cho", "minesweeper"),
                  description=f"minesweeper generator (Cho et al. 6.2): {what}; boards 3-5 per side, tested on square "
                              f"boards of width 3-10, {steps} steps, seed {{seed}} (notebook 05)")


def next_cell_recipe(relative: bool = True) -> Recipe:
    """Our recipe on the paper's sizes (``relative=True``: coupled2d_next IDs read by the 2-D relative bias), or
    its NoPE baseline (``False``: the same task, network and budget, no position information)."""
    task = TaskConfig(task="minesweeper", format="minesweeper",
                      positions="coupled2d_next" if relative else "coupled2d", min_digits=PAPER_SIDES[0],
                      max_digits=PAPER_SIDES[1], random_start=True, max_position=NEXT_MAX_POSITION)
    extra = (dict(relative_bias=True, relative_bias_max_distance=NEXT_BIAS_DISTANCE,
                  relative_bias_scale=NEXT_BIAS_SCALE) if relative else {})
    what = ("2-D relative bias over next-cell coupled IDs (our recipe)" if relative
            else "NoPE baseline (no position information)")
    return Recipe(id=f"nb05-mine-{'next' if relative else 'nope59'}", task=task,
                  model=_board_model("none", max_positions=NEXT_MAX_POSITION + 1, **extra),
                  train=TrainConfig(steps=NEXT_STEPS, batch_size=MINE_BATCH, lr=3e-3, warmup_steps=100),
                  seeds=MINE_SEEDS, eval_lengths=PAPER_WIDTHS, eval_n=NEXT_EVAL_N, tags=("nb05-2d", "minesweeper"),
                  description=f"minesweeper generator (Cho et al. 6.2): {what}; boards 5-9 per side as in the "
                              f"paper, tested on square boards of width 5-14, {NEXT_STEPS} steps, seed {{seed}} "
                              f"(notebook 05)")


register_recipe(minesweeper_recipe("learned"))
register_recipe(minesweeper_recipe("none", seeds=(0,)))
register_recipe(minesweeper_recipe("learned", steps=8000, seeds=(0,)))   # does a longer run widen the boards it solves?
register_recipe(minesweeper_recipe("learned", shared_table=True))   # the paper's one table for both channels
register_recipe(next_cell_recipe())
register_recipe(next_cell_recipe(relative=False))

"""Zoo entries of notebook 05, Cho et al. Section 6.2: the 2-D minesweeper task with two coupled ID channels.

Cho et al. train on boards of 5-9 cells per side (width and height apart), test on square boards of
width 5-14, with a 4-layer 8-head decoder (position coupling) and a 6-layer 8-head one (NoPE), 100k steps
of 800 boards.

**The paper's recipe at our scale** (tag ``nb05-2d-cho``): 3-5 cells per side, square test boards of width
3-10, a 2-layer 4-head decoder (d 64), 3,000 steps of 32 boards, Cho's coupled IDs in two channels (row,
column), each with its own random start in 1..max_position - side (max_position 12), start 1 at
evaluation; one learned table per channel (the paper shares one table, its Appendix B.8). The NoPE
baseline has the same size and budget. ``nb05-mine-coupled-8000-s0`` is that recipe trained 8,000 steps.

**Our recipe** (tag ``nb05-2d``), on the paper's sizes (train 5-9 per side, test square boards 5-14), same
network size, 2,000 steps of 32 boards. Two changes, each aimed at one weak spot found in the recipe above:

* ``coupled2d_next`` IDs: every position carries the IDs of the cell it predicts, so the end of a row is no
  longer a jump whose size is the board's width (:mod:`lengen_utils.positions2d`);
* a 2-D relative bias instead of the absolute tables: one learned number per head for each (row, column)
  difference clipped at 2, so the 3 x 3 neighbourhood has its own entries and everything farther shares the
  clipped ones; the model has no absolute position at all (``encoding="none"``).

Its NoPE baseline (``nb05-mine-nope59``) has the same sizes, network and budget. The vocabulary ends at the
mine token 'M' (IDs 0..80).
"""
from __future__ import annotations

from ..model import ModelConfig
from ..task_config import TaskConfig
from ..train import TrainConfig
from ..vocab import TOKEN_ID
from .entry import ZooEntry
from .registry import register

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


def minesweeper_entry(encoding: str = "learned", seed: int = 0, steps: int = MINE_STEPS) -> ZooEntry:
    """The paper's recipe at our scale: the coupled 2-D decoder (``encoding='learned'``) or its NoPE baseline
    (``'none'``), one seed; ``steps`` other than the default adds ``-{steps}`` to the name (the longer run)."""
    task = TaskConfig(task="minesweeper", format="minesweeper", positions="coupled2d", min_digits=MINE_SIDES[0],
                      max_digits=MINE_SIDES[1], random_start=True, max_position=MINE_MAX_POSITION)
    model = _board_model(encoding, max_positions=MINE_MAX_POSITION + 1)
    train = TrainConfig(steps=steps, batch_size=MINE_BATCH, lr=3e-3, warmup_steps=100, seed=seed)
    method = "coupled" if encoding == "learned" else "nope"
    what = ("2-D position coupling (row and column IDs, random starts)" if encoding == "learned"
            else "NoPE baseline (no position information)")
    longer = "" if steps == MINE_STEPS else f"-{steps}"
    return ZooEntry(name=f"nb05-mine-{method}{longer}-s{seed}", task=task, model=model, train=train,
                    eval_lengths=MINE_WIDTHS, eval_n=1000, tags=("nb05-2d-cho", "minesweeper"),
                    description=f"minesweeper generator (Cho et al. 6.2): {what}; boards 3-5 per side, "
                                f"tested on square boards of width 3-10, {steps} steps, seed {seed} (notebook 05)")


def next_cell_entry(seed: int = 0, relative: bool = True) -> ZooEntry:
    """Our recipe on the paper's sizes (``relative=True``: coupled2d_next IDs read by the 2-D relative bias), or
    its NoPE baseline (``False``: the same task, network and budget, no position information)."""
    task = TaskConfig(task="minesweeper", format="minesweeper",
                      positions="coupled2d_next" if relative else "coupled2d", min_digits=PAPER_SIDES[0],
                      max_digits=PAPER_SIDES[1], random_start=True, max_position=NEXT_MAX_POSITION)
    extra = (dict(relative_bias=True, relative_bias_max_distance=NEXT_BIAS_DISTANCE,
                  relative_bias_scale=NEXT_BIAS_SCALE) if relative else {})
    model = _board_model("none", max_positions=NEXT_MAX_POSITION + 1, **extra)
    train = TrainConfig(steps=NEXT_STEPS, batch_size=MINE_BATCH, lr=3e-3, warmup_steps=100, seed=seed)
    what = ("2-D relative bias over next-cell coupled IDs (our recipe)" if relative
            else "NoPE baseline (no position information)")
    return ZooEntry(name=f"nb05-mine-{'next' if relative else 'nope59'}-s{seed}", task=task, model=model, train=train,
                    eval_lengths=PAPER_WIDTHS, eval_n=NEXT_EVAL_N, tags=("nb05-2d", "minesweeper"),
                    description=f"minesweeper generator (Cho et al. 6.2): {what}; boards 5-9 per side as in the "
                                f"paper, tested on square boards of width 5-14, {NEXT_STEPS} steps, seed {seed} "
                                f"(notebook 05)")


for _seed in MINE_SEEDS:
    register(minesweeper_entry("learned", _seed))
register(minesweeper_entry("none", 0))
register(minesweeper_entry("learned", 0, steps=8000))   # does a longer run widen the boards it solves?
for _seed in MINE_SEEDS:
    register(next_cell_entry(_seed))
for _seed in MINE_SEEDS:
    register(next_cell_entry(_seed, relative=False))

"""Zoo entries of notebook 05, Cho et al. Section 6.2: the 2-D minesweeper task with two coupled ID channels.

Cho et al. train on boards of 5-9 cells per side (width and height apart), test on square boards of
width 5-14, with a 4-layer 8-head decoder (position coupling) and a 6-layer 8-head one (NoPE), 100k steps
of 800 boards. At CPU scale we train on 3-5 cells per side and test square boards of width 3-10, with a
2-layer 4-head decoder (d 64) for 3,000 steps of 32 boards, coupled IDs in two channels (row, column), each
with its own random start in 1..max_position - side (max_position 12), start 1 at evaluation. One learned
table per channel (the paper shares one table between the channels, its Appendix B.8). The NoPE baseline
has the same size and budget. The vocabulary ends at the mine token 'M' (IDs 0..80).
``nb05-mine-coupled-8000-s0`` is the coupled recipe trained 8,000 steps (does a longer run widen the boards?).
"""
from __future__ import annotations

from ..formats import TOKEN_ID
from ..model import ModelConfig
from ..tasks import TaskConfig
from ..train import TrainConfig
from .entry import ZooEntry
from .registry import register

MINE_SIDES = (3, 5)                          # training boards: 3..5 cells per side
MINE_WIDTHS = (3, 4, 5, 6, 7, 8, 9, 10)      # test: square boards of these widths
MINE_MAX_POSITION = 12                       # IDs 0..12 in each channel: square boards up to width 11
MINE_SEEDS = (0, 1, 2)
MINE_STEPS, MINE_BATCH = 3000, 32


def minesweeper_entry(encoding: str = "learned", seed: int = 0, steps: int = MINE_STEPS) -> ZooEntry:
    """The coupled 2-D decoder (``encoding='learned'``) or its NoPE baseline (``'none'``), one seed;
    ``steps`` other than the default adds ``-{steps}`` to the name (the longer-training check)."""
    task = TaskConfig(task="minesweeper", format="minesweeper", positions="coupled2d", min_digits=MINE_SIDES[0],
                      max_digits=MINE_SIDES[1], random_start=True, max_position=MINE_MAX_POSITION)
    model = ModelConfig(vocab_size=TOKEN_ID["M"] + 1, d_model=64, n_layers=2, n_heads=4, d_ff=256, encoding=encoding,
                        max_positions=MINE_MAX_POSITION + 1, position_channels=2)
    train = TrainConfig(steps=steps, batch_size=MINE_BATCH, lr=3e-3, warmup_steps=100, seed=seed)
    method = "coupled" if encoding == "learned" else "nope"
    what = ("2-D position coupling (row and column IDs, random starts)" if encoding == "learned"
            else "NoPE baseline (no position information)")
    longer = "" if steps == MINE_STEPS else f"-{steps}"
    return ZooEntry(name=f"nb05-mine-{method}{longer}-s{seed}", task=task, model=model, train=train,
                    eval_lengths=MINE_WIDTHS, eval_n=1000, tags=("nb05-2d", "minesweeper"),
                    description=f"minesweeper generator (Cho et al. 6.2): {what}; boards 3-5 per side, "
                                f"tested on square boards of width 3-10, {steps} steps, seed {seed} (notebook 05)")


for _seed in MINE_SEEDS:
    register(minesweeper_entry("learned", _seed))
register(minesweeper_entry("none", 0))
register(minesweeper_entry("learned", 0, steps=8000))   # does a longer run widen the boards it solves?

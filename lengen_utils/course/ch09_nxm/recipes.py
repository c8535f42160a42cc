"""Notebook 09's recipes: N x M multiplication, both operands of 1-10 digits in training, tested on the grid to 30 x 30.

``fused``: the fused-row scratchpad (:mod:`lengen_utils.core.nxm`) with (row, column, level) IDs read by a
relative bias over the clipped vector of ID differences (clip 3: the farthest lookup, two columns right in the row
above, stays its own entry), no position table, the scalable softmax; 2 layers, 8 heads, d 64, one seed (the first model, whose errors
notebook 09 locates). ``window``, 3 seeds:
the same with a row window (``ModelConfig.row_window``: no older row than the one above is seen). ``plain``:
the baseline with no scratchpad, Cho et al.'s format with coupled IDs and the same model, one seed.
``cho``: the faithful rung, Cho, Cha, Bhojanapalli and Yun's scratchpad (partial products, then running sums) with
their three channels of coupled IDs read as they read them (one learned table per channel, random starts), at our
model size and budget, one seed.
``python -m lengen_utils.lab.bench nxm-grid --recipe R`` tests the seeds of a recipe (``nb09-local`` by default) on
every cell to 20 x 20 and at 30 x 30.
"""
from __future__ import annotations

from ...core.model import ModelConfig
from ...core.task_config import TaskConfig
from ...core.train import TrainConfig
from ...core.vocab import SUM_SEPARATOR, TOKEN_ID
from ...lab.experiment.recipe import Recipe, RecipeTable

NXM = RecipeTable(
    prefix="nb09",
    base=Recipe(
        id="",
        task=TaskConfig(task="nxm", op="*", format="fused_rows", positions="row_coupled", min_digits=1,
                        max_digits=10, max_position=64, random_start=False),
        model=ModelConfig(d_model=64, n_layers=2, n_heads=8, d_ff=256, encoding="none", position_channels=3,
                          relative_bias=True, relative_bias_max_distance=3, length_scale=True),
        train=TrainConfig(steps=5000, batch_size=64, lr=0.003, warmup_steps=200),
        seeds=(0, 1, 2),
        eval_lengths=(5, 10, 15, 20, 30),
        eval_n=200,
        tags=("nb09",),
    ),
    variants={
        "fused": {"seeds": (0,),
            "description": ("N x M multiplication, the fused-row scratchpad (each row: the row above without its last digit, plus A times one multiplier digit) with "
                            "(row, column, level) IDs and a relative bias over them (clip 3), no position table, "
                            "scalable softmax; 2 layers, 8 heads, d 64; both operands 1-10 digits, 5,000 steps of "
                            "64 products; seed {seed} (notebook 09)"),
            "roles": ("claim:cho-nxm/fused",)},
        "window": {"model.row_window": 1,
            "description": ("N x M multiplication, the fused-row scratchpad as nb09-fused, plus a row window: a row "
                            "digit sees its own row, the row above and the operands, no older row; 2 layers, 8 "
                            "heads, d 64; both operands 1-10 digits, 5,000 steps of 64 products; seed {seed} "
                            "(notebook 09)"),
            "roles": ("claim:cho-nxm/window", "claim:cho-nxm/window-3x")},
        "visible": {"model.row_window": 1, "model.length_scale_visible": True, "seeds": (2, 1, 0),
            "description": ("N x M multiplication, nb09-window with the scalable softmax's n counting only the keys "
                            "the row window leaves visible; 2 layers, 8 heads, d 64; both operands 1-10 digits, "
                            "5,000 steps of 64 products; seed {seed} (notebook 09)")},
        "local": {"model.row_window": 1, "model.lookup_window": 2, "model.length_scale_visible": True,
                  "seeds": (2, 1, 0),
            "description": ("N x M multiplication, nb09-window plus a lookup window: a row digit sees the "
                            "multiplicand and its two rows within 2 columns, the multiplier within 2 rows; the "
                            "scalable softmax counts the visible keys; 2 layers, 8 heads, d 64; both operands 1-10 "
                            "digits, 5,000 steps of 64 products; seed {seed} (notebook 09)"),
            "roles": ("claim:cho-nxm/local", "claim:cho-nxm/local-3x", "nxm-grid")},
    },
)

PLAIN = RecipeTable(
    prefix="nb09",
    base=Recipe(
        id="",
        task=TaskConfig(op="*", format="cho", positions="coupled", max_digits=10, max_position=64),
        model=ModelConfig(d_model=64, n_layers=2, n_heads=8, d_ff=256, encoding="none", relative_bias=True,
                          length_scale=True),
        train=TrainConfig(steps=5000, batch_size=64, lr=0.003, warmup_steps=200),
        seeds=(0,),
        eval_lengths=(3, 5, 10, 15, 20),
        eval_n=200,
        tags=("nb09",),
    ),
    variants={
        "plain": {
            "description": ("N x M multiplication without a scratchpad (the baseline): Cho et al.'s format "
                            "(operands as written, the product reversed) with coupled IDs read by a relative bias, "
                            "no position table, scalable softmax; 2 layers, 8 heads, d 64; both operands 1-10 "
                            "digits, 5,000 steps of 64 products; seed {seed} (notebook 09)")},
    },
)

CHO = RecipeTable(
    prefix="nb09",
    base=Recipe(
        id="",
        task=TaskConfig(task="nxm", op="*", format="cho_scratchpad", positions="cho_coupled", min_digits=1,
                        max_digits=10, max_position=64, random_start=True),
        model=ModelConfig(vocab_size=TOKEN_ID[SUM_SEPARATOR] + 1, d_model=64, n_layers=2, n_heads=8, d_ff=256,
                          encoding="learned", max_positions=65, position_channels=3),
        train=TrainConfig(steps=5000, batch_size=64, lr=0.003, warmup_steps=200),
        seeds=(0,),
        eval_lengths=(5, 10, 15, 20, 30),
        eval_n=200,
        tags=("nb09",),
    ),
    variants={
        "cho": {
            "description": ("N x M multiplication, Cho et al.'s scratchpad (partial products, then running sums) "
                            "with their three channels of coupled IDs, random starts, one learned table per "
                            "channel; 2 layers, 8 heads, d 64; both operands 1-10 digits, 5,000 steps of 64 "
                            "products; seed {seed} (notebook 09)"),
            "roles": ("claim:cho-nxm/paper-recipe",)},
        "cho-ends": {"task.positions": "cho_ends",
            "description": ("N x M multiplication, nb09-cho with the operands' ends marked: the opening $ gets the "
                            "digits ID one past the multiplicand's top digit, * the operands ID one past the "
                            "multiplier's; 2 layers, 8 heads, d 64; both operands 1-10 digits, 5,000 steps of 64 "
                            "products; seed {seed} (notebook 09)")},
    },
)

TABLES: tuple[RecipeTable, ...] = (NXM, PLAIN, CHO)

"""Notebook 02's recipes: the APE encoder (learned absolute positions) in Sabbaghi's frame l = 20, one row per
trained length (the notebook's slider) and one with the zero-shift augmentation (A3).

Departure from the paper: operand lengths are drawn uniformly in 1..k before the digits (Cho's balanced sampling)
instead of uniform numbers below 10^k, so that short numbers are in D_s too.
"""
from __future__ import annotations

from ...core.model import ModelConfig
from ...core.task_config import TaskConfig
from ...core.train import TrainConfig
from ...lab.experiment.recipe import Recipe, RecipeTable


APE = RecipeTable(
    prefix="nb02",
    base=Recipe(
        id="",
        task=TaskConfig(format="sabbaghi", positions="consecutive", max_digits=5, frame_width=20,
                        random_start=False, max_position=42, eval_sampler="uniform"),
        model=ModelConfig(n_layers=2, d_ff=128, causal=False, max_positions=43),
        train=TrainConfig(steps=1500, batch_size=64, lr=0.002),
        eval_lengths=(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20),
        eval_n=500,
        tags=("nb02",),
        seed_in_name=False,
    ),
    variants={
        "ape-l2": {"task.max_digits": 2,
            "description": ("APE encoder (learned absolute positions), Sabbaghi format l=20, trained on "
                            "1..2-digit sums")},
        "ape-l3": {"task.max_digits": 3,
            "description": ("APE encoder (learned absolute positions), Sabbaghi format l=20, trained on "
                            "1..3-digit sums")},
        "ape-l4": {"task.max_digits": 4,
            "description": ("APE encoder (learned absolute positions), Sabbaghi format l=20, trained on "
                            "1..4-digit sums")},
        "ape-l5": {"eval_n": 1000,
            "description": ("APE encoder (learned absolute positions), Sabbaghi format l=20, trained on "
                            "1..5-digit sums"),
            "roles": ("claim:sabbaghi-a1",)},
        "ape-l6": {"task.max_digits": 6,
            "description": ("APE encoder (learned absolute positions), Sabbaghi format l=20, trained on "
                            "1..6-digit sums")},
        "ape-l8": {"task.max_digits": 8,
            "description": ("APE encoder (learned absolute positions), Sabbaghi format l=20, trained on "
                            "1..8-digit sums")},
        "ape-l10": {"task.max_digits": 10,
            "description": ("APE encoder (learned absolute positions), Sabbaghi format l=20, trained on "
                            "1..10-digit sums")},
        "ape-shift-l5": {"task.shift_augment": True, "eval_n": 1000,
            "description": ("APE encoder (learned absolute positions), Sabbaghi format l=20, trained on "
                            "1..5-digit sums with zero-shift augmentation (Sabbaghi A3)"),
            "roles": ("claim:sabbaghi-a3",)},
    },
    axes={"trained_length": "task.max_digits", "shift_augment": "task.shift_augment"},
)


TABLES: tuple[RecipeTable, ...] = (APE,)

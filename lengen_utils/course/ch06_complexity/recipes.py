"""Notebook 06's recipes: three RPE encoders in Sabbaghi's format (frame l = 24) trained on operands below 10^5 with
the same budget and seeds (0, 1, 2), differing only in the training distribution (Sabbaghi C3, Figure 8c).
Departure from the paper, to generalise after ~2 CPU minutes: the zero-shift augmentation (A3) is on and a T5-style
scalar relative bias (scaled x10) sits beside Shaw's relative key vectors.
"""
from __future__ import annotations

from ...core.model import ModelConfig
from ...core.task_config import TaskConfig
from ...core.train import TrainConfig
from ...lab.experiment.recipe import Recipe, RecipeTable


COMPLEXITY = RecipeTable(
    prefix="nb06",
    base=Recipe(
        id="",
        task=TaskConfig(format="sabbaghi", positions="consecutive", sampler="uniform", max_digits=5,
                        frame_width=24, random_start=False, max_position=50, shift_augment=True),
        model=ModelConfig(n_layers=2, causal=False, encoding="rpe", max_positions=51, rpe_max_distance=26,
                          relative_bias=True, relative_bias_max_distance=26, relative_bias_scale=10.0),
        train=TrainConfig(steps=1500, batch_size=64, lr=0.003),
        eval_lengths=(3, 5, 10, 15, 20, 22),
        eval_n=500,
        tags=("nb06",),
        seeds=(0, 1, 2),
    ),
    variants={
        "rpe-uniform": {"title": "uniform over numbers",
            "description": ("RPE encoder, Sabbaghi format l=24, operands < 10^5 drawn uniformly (the "
                            "paper's D_s) (Sabbaghi C3)")},
        "rpe-cascade": {"task.sampler": "uniform_complexity", "title": "uniform over complexity",
            "description": ("RPE encoder, Sabbaghi format l=24, operands < 10^5 drawn uniformly over the "
                            "cascade length 0..5 (Sabbaghi C3)")},
        "rpe-mixed": {"task.sampler": "mixed_complexity", "title": "50/50 mixture",
            "description": ("RPE encoder, Sabbaghi format l=24, operands < 10^5 drawn 50/50 from the two "
                            "distributions above (Sabbaghi C3)")},
    },
    axes={"sampler": "task.sampler"},
)


TABLES: tuple[RecipeTable, ...] = (COMPLEXITY,)

"""Notebook 07's recipe: a trained 1-layer 2-head coupled decoder (Cho Figure 7), set beside the hand-built adder of
Cho Theorem 5.1.
"""
from __future__ import annotations

from ...core.model import ModelConfig
from ...core.task_config import TaskConfig
from ...core.train import TrainConfig
from ...lab.experiment.recipe import Recipe, RecipeTable


THEORY = RecipeTable(
    prefix="nb07",
    base=Recipe(
        id="",
        task=TaskConfig(max_digits=5, max_position=20),
        model=ModelConfig(n_heads=2, max_positions=21),
        train=TrainConfig(lr=0.003),
        eval_lengths=(1, 3, 5, 6, 8, 10, 15),
        eval_n=500,
        description=("1-layer 2-head coupled decoder on 1-5 digit sums (Cho format); its attention is set "
                     "beside the hand-built adder of Cho Theorem 5.1 (Cho Figure 7)"),
        tags=("nb07",),
        seed_in_name=False,
    ),
    variants={
        "coupled-1l2h": {},
    },
)


TABLES: tuple[RecipeTable, ...] = (THEORY,)

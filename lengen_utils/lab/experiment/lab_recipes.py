"""The lab's own recipes, as data: the flagship's bases and runs (``bench``) and the smoke entry (CI).

* :data:`COUPLED`: our coupled decoder before the sink (:func:`~.flagship.coupled_recipe` at its defaults), the base
  of notebook 05's ablation;
* :data:`FLAGSHIP`: that decoder with ``$`` as the final carry's sink and IDs up to 128 (:func:`~.flagship.flagship_recipe`);
* :data:`APE`: the flagship's APE baseline (:func:`~.flagship.ape_recipe`), the base of notebook 05's baselines;
* :data:`FLAGSHIP_RUNS`: ``flagship-reach`` (the flagship without its table, 1000-digit sums; ``bench leaderboard
  --tag flagship-seeds``) and ``flagship-minute`` (the same trained for time; ``bench flagship-time``);
* :data:`SMOKE`: ``smoke-coupled-3``, the entry CI retrains end to end (tens of seconds on 2 cores).

tests/test_recipe_tables.py checks that the bases are the flagship functions' recipes at their defaults.
"""
from __future__ import annotations

from ...core.model import ModelConfig
from ...core.task_config import TaskConfig
from ...core.train import TrainConfig
from .recipe import Recipe, RecipeTable

#: our coupled variant: coupled IDs up to 64 + coupled relative bias + packing (4 per sequence)
COUPLED = Recipe(
    id="",
    task=TaskConfig(pack=4),
    model=ModelConfig(relative_bias=True, relative_bias_scale=20.0),
    train=TrainConfig(batch_size=32),
    eval_lengths=(5, 10, 15, 20, 30, 40),
    description=("coupled decoder (Cho et al.) + coupled relative bias + packing, 1-10 digit sums, tested "
                 "to 40 digits"),
    tags=("flagship",),
)

#: the flagship: COUPLED with $ as the final carry's sink and IDs up to 128
FLAGSHIP = Recipe(
    id="",
    task=TaskConfig(positions="coupled_sink", max_position=128, pack=4),
    model=ModelConfig(max_positions=129, relative_bias=True, relative_bias_scale=20.0),
    train=TrainConfig(batch_size=32),
    eval_lengths=(5, 10, 15, 20, 30, 40, 70, 100),
    description=("flagship: coupled decoder (Cho et al.) + $ as the final carry's sink + coupled relative "
                 "bias + packing, IDs up to 128, 1-10 digit sums, tested to 100 digits"),
    tags=("flagship",),
)

#: the flagship's baseline: plain APE (IDs 0, 1, 2, ...), 3 layers x 10,000 steps
APE = Recipe(
    id="",
    task=TaskConfig(positions="consecutive", random_start=False, max_position=124),
    model=ModelConfig(n_layers=3, max_positions=125, relative_bias_scale=20.0),
    train=TrainConfig(steps=10000, lr=0.003, weight_decay=0.1),
    eval_lengths=(5, 10, 15, 20, 30, 40),
    description=("flagship baseline: plain APE decoder (IDs 0, 1, 2, ...), 3 layers, 1-10 digit sums, "
                 "tested to 40 digits"),
    tags=("flagship",),
)

#: the flagship without its table (no absolute encoding, scalable softmax, IDs for 1000-digit sums), 5 seeds;
#: ``minute``: the same trained for time (lr 3e-3, 700 steps of 96 problems, 16 to a sequence) behind an attention
#: window of 2 coupled IDs (issue 51: every seed of ten to 1000 digits)
_FLAGSHIP_RUNS_ROWS = {"task.max_position": 1002, "model.encoding": "none", "model.max_positions": 1003,
    "model.length_scale": True, "seeds": (0, 1, 2, 3, 4), "eval_lengths": (5, 10, 20, 40, 70, 100, 200, 500, 1000)}
FLAGSHIP_RUNS = RecipeTable(
    prefix="flagship",
    base=FLAGSHIP,
    variants={
        "reach": {"title": "the flagship without its table", "roles": ("flagship:reach",),
            **_FLAGSHIP_RUNS_ROWS, "task.pack": 8, "train.batch_size": 16,
            "description": ("flagship without its table: coupled relative bias + sink + packing (8 per "
                            "sequence), scalable softmax, 1-10 digit sums, tested to 1000 digits"),
            "tags": ("flagship-seeds",)},
        "minute": {"title": "the one-minute flagship", "roles": ("flagship:one-minute",),
            **_FLAGSHIP_RUNS_ROWS, "task.pack": 16, "train.steps": 700, "train.batch_size": 6,
            "train.lr": 0.003, "train.warmup_steps": 80, "model.attention_window": 2,
            "description": ("the flagship without its table, trained for time: lr 0.003, 700 steps of 96 "
                            "problems, 16 to a sequence, an attention window of 2 IDs; tested to 1000 digits"),
            "tags": ("flagship-minute",)},
    },
)

#: the entry CI retrains to check the zoo end to end
SMOKE = RecipeTable(
    prefix="smoke",
    base=Recipe(
        id="",
        task=TaskConfig(max_digits=3, max_position=16),
        model=ModelConfig(d_model=32, n_heads=2, d_ff=64, max_positions=17),
        train=TrainConfig(steps=400, batch_size=64, lr=0.003, warmup_steps=20),
        eval_lengths=(1, 2, 3, 4, 6),
        eval_n=300,
        description=("tiny coupled decoder on 1-3 digit sums; CI retrains it to check the zoo end to end"),
        tags=("smoke",),
        seed_in_name=False,
    ),
    variants={
        "coupled-3": {},
    },
)

TABLES: tuple[RecipeTable, ...] = (FLAGSHIP_RUNS, SMOKE)

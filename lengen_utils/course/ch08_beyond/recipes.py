"""Notebook 08's recipes: the thesis's agenda beyond position encodings, one row per method, 3 seeds.

Every row changes one thing in the base (``direct``): a 2-layer decoder (d 64, 4 heads) with learned absolute
positions, trained on balanced 1-5 digit sums in Cho et al.'s format and tested to 15 digits. Sections: the
compositionality gap (sub-task formats, with APE and coupled IDs; tag ``nb08-gap``), random spaces
(``nb08-spaces``), scratchpads (equal budget in tokens: half the problems per step; ``nb08-scratch``), curricula
(``nb08-curriculum``), looping (``nb08-loop``). The ``-l3`` rows are the widget's other trained length (seed 0).
``python -m lengen_utils.lab.bench leaderboard --tag nb08`` prints them all, with their budgets.
"""
from __future__ import annotations

from ...core.model import ModelConfig
from ...core.task_config import TaskConfig
from ...core.train import TrainConfig
from ...lab.experiment.recipe import Recipe, RecipeTable


METHODS = RecipeTable(
    prefix="nb08",
    base=Recipe(
        id="",
        task=TaskConfig(positions="consecutive", max_digits=5, random_start=False, max_position=127),
        model=ModelConfig(n_layers=2, d_ff=128, max_positions=128),
        train=TrainConfig(steps=3000, lr=0.003, weight_decay=0.1),
        seeds=(0, 1, 2),
        eval_lengths=(3, 5, 6, 7, 8, 10, 12, 15),
        eval_n=500,
        tags=("nb08", "nb08-gap", "nb08-spaces", "nb08-scratch", "nb08-curriculum", "nb08-loop"),
        curve_every=250,
    ),
    variants={
        "direct": {
            "description": ("the base: APE, the sum written directly; 1-5 digit sums, 3,000 steps of 128 "
                            "problems, seed {seed} (notebook 08)")},
        "align": {"task.format": "cho_align",
            "description": ("the aligned digit pair of each column, units first; 1-5 digit sums, 3,000 "
                            "steps of 128 problems, seed {seed} (notebook 08)"), "tags": ("nb08", "nb08-gap")},
        "modsum": {"task.format": "cho_modsum",
            "description": ("each column's digit sum mod 10, no carries; 1-5 digit sums, 3,000 steps of "
                            "128 problems, seed {seed} (notebook 08)"), "tags": ("nb08", "nb08-gap")},
        "carries": {"task.format": "cho_carries",
            "description": ("the carry into each column; 1-5 digit sums, 3,000 steps of 128 problems, seed"
                            " {seed} (notebook 08)"), "tags": ("nb08", "nb08-gap")},
        "rsape": {"task.random_start": True, "train.steps": 4000,
            "description": ("random-start APE: in training the IDs start at a random offset (Cho et al.; "
                            "Ruoss et al.'s randomized positions); 1-5 digit sums, 4,000 steps of 128 "
                            "problems, seed {seed} (notebook 08)"), "tags": ("nb08", "nb08-spaces")},
        "spaces": {"task.spaces": 0.2, "model.vocab_size": 90,
            "description": ("APE, a blank in each gap between digits w.p. 0.2 in training; 1-5 digit sums,"
                            " 3,000 steps of 128 problems, seed {seed} (notebook 08)"),
            "tags": ("nb08", "nb08-spaces")},
        "scratch": {"task.format": "cho_scratchpad", "train.batch_size": 64,
            "description": ("APE, each answer digit after its step (pair, carry in); 1-5 digit sums, 3,000"
                            " steps of 64 problems, seed {seed} (notebook 08)"), "tags": ("nb08", "nb08-scratch")},
        "coupled": {"task.positions": "coupled", "task.random_start": True,
            "description": ("coupled IDs (Cho et al.), the sum written directly; 1-5 digit sums, 3,000 "
                            "steps of 128 problems, seed {seed} (notebook 08)"),
            "tags": ("nb08", "nb08-gap", "nb08-scratch")},
        "coupled-align": {"task.format": "cho_align", "task.positions": "coupled", "task.random_start": True,
            "description": ("coupled IDs, the aligned digit pair of each column; 1-5 digit sums, 3,000 "
                            "steps of 128 problems, seed {seed} (notebook 08)"), "tags": ("nb08", "nb08-gap")},
        "coupled-modsum": {"task.format": "cho_modsum", "task.positions": "coupled", "task.random_start": True,
            "description": ("coupled IDs, each column's digit sum mod 10; 1-5 digit sums, 3,000 steps of "
                            "128 problems, seed {seed} (notebook 08)"), "tags": ("nb08", "nb08-gap")},
        "coupled-carries": {"task.format": "cho_carries", "task.positions": "coupled", "task.random_start": True,
            "description": ("coupled IDs, the carry into each column; 1-5 digit sums, 3,000 steps of 128 "
                            "problems, seed {seed} (notebook 08)"), "tags": ("nb08", "nb08-gap")},
        "coupled-scratch": {"task.format": "cho_scratchpad", "task.positions": "coupled",
            "task.random_start": True, "train.batch_size": 64,
            "description": ("coupled IDs, each answer digit after its step; 1-5 digit sums, 3,000 steps of"
                            " 64 problems, seed {seed} (notebook 08)"), "tags": ("nb08", "nb08-scratch")},
        "coupled-scratch-6k": {"task.format": "cho_scratchpad", "task.positions": "coupled",
            "task.random_start": True, "train.steps": 6000, "train.batch_size": 64,
            "description": ("coupled IDs, each answer digit after its step; the budget it needs to master "
                            "1-5 digits; 1-5 digit sums, 6,000 steps of 64 problems, seed {seed} (notebook"
                            " 08)"), "tags": ("nb08", "nb08-scratch")},
        "length-curriculum": {"task.curriculum": "length",
            "description": ("lengths capped 1, 2, ..., 5 over the first half; 1-5 digit sums, 3,000 steps "
                            "of 128 problems, seed {seed} (notebook 08)"), "tags": ("nb08", "nb08-curriculum")},
        "length-cur-6k": {"task.curriculum": "length", "train.steps": 6000,
            "description": ("lengths capped 1, 2, ..., 5 over the first half; the budget it needs to "
                            "master 1-5 digits; 1-5 digit sums, 6,000 steps of 128 problems, seed {seed} "
                            "(notebook 08)"), "tags": ("nb08", "nb08-curriculum")},
        "cascade-curriculum": {"task.curriculum": "cascade",
            "description": ("carry cascades capped 0, 1, ..., 5 over the first half (notebook 06); 1-5 "
                            "digit sums, 3,000 steps of 128 problems, seed {seed} (notebook 08)"),
            "tags": ("nb08", "nb08-curriculum")},
        "looped": {"model.loops": 2, "model.loops_per_digit": 0.5, "model.input_injection": True,
            "description": ("the 2-layer block looped max(2, ceil(d/2)) times with input injection, APE; "
                            "1-5 digit sums, 3,000 steps of 128 problems, seed {seed} (notebook 08)"),
            "tags": ("nb08", "nb08-loop")},
        "abacus": {"task.positions": "abacus", "task.random_start": True, "task.max_position": 64,
            "model.max_positions": 65,
            "description": ("Abacus IDs (McLeish et al.), 2 layers; 1-5 digit sums, 3,000 steps of 128 "
                            "problems, seed {seed} (notebook 08)"), "tags": ("nb08", "nb08-loop")},
        "abacus-looped": {"task.positions": "abacus", "task.random_start": True, "task.max_position": 64,
            "model.max_positions": 65, "model.loops": 2, "model.loops_per_digit": 0.5,
            "model.input_injection": True,
            "description": ("Abacus IDs, the 2-layer block looped max(2, ceil(d/2)) times with input "
                            "injection (McLeish et al.); 1-5 digit sums, 3,000 steps of 128 problems, seed"
                            " {seed} (notebook 08)"), "tags": ("nb08", "nb08-loop")},
        "abacus-eq": {"task.positions": "abacus_eq", "task.random_start": True, "task.max_position": 64,
            "model.max_positions": 65,
            "description": ("Abacus IDs with = at the offset, one below the units digits (our departure), "
                            "2 layers: the control for the looped model; 1-5 digit sums, 3,000 steps of "
                            "128 problems, seed {seed} (notebook 08)"), "tags": ("nb08", "nb08-loop")},
        "abacus-eq-looped": {"task.positions": "abacus_eq", "task.random_start": True, "task.max_position": 64,
            "model.max_positions": 65, "model.loops": 2, "model.loops_per_digit": 0.5,
            "model.input_injection": True,
            "description": ("Abacus IDs with = at the offset, one below the units digits (our departure), "
                            "the 2-layer block looped max(2, ceil(d/2)) times with input injection; 1-5 "
                            "digit sums, 3,000 steps of 128 problems, seed {seed} (notebook 08)"),
            "tags": ("nb08", "nb08-loop")},
        "direct-l3": {"task.max_digits": 3, "seeds": (0,),
            "description": ("the base: APE, the sum written directly; 1-3 digit sums, 3,000 steps of 128 "
                            "problems, seed {seed} (notebook 08)"), "tags": ("nb08-trained",)},
        "spaces-l3": {"task.max_digits": 3, "task.spaces": 0.2, "model.vocab_size": 90, "seeds": (0,),
            "description": ("APE, a blank in each gap between digits w.p. 0.2 in training; 1-3 digit sums,"
                            " 3,000 steps of 128 problems, seed {seed} (notebook 08)"), "tags": ("nb08-trained",)},
        "scratch-l3": {"task.format": "cho_scratchpad", "task.max_digits": 3, "train.batch_size": 64,
            "seeds": (0,),
            "description": ("APE, each answer digit after its step (pair, carry in); 1-3 digit sums, 3,000"
                            " steps of 64 problems, seed {seed} (notebook 08)"), "tags": ("nb08-trained",)},
        "coupled-l3": {"task.positions": "coupled", "task.max_digits": 3, "task.random_start": True, "seeds": (0,),
            "description": ("coupled IDs (Cho et al.), the sum written directly; 1-3 digit sums, 3,000 "
                            "steps of 128 problems, seed {seed} (notebook 08)"), "tags": ("nb08-trained",)},
        "coupled-scratch-l3": {"task.format": "cho_scratchpad", "task.positions": "coupled", "task.max_digits": 3,
            "task.random_start": True, "train.batch_size": 64, "seeds": (0,),
            "description": ("coupled IDs, each answer digit after its step; 1-3 digit sums, 3,000 steps of"
                            " 64 problems, seed {seed} (notebook 08)"), "tags": ("nb08-trained",)},
        "looped-l3": {"task.max_digits": 3, "model.loops": 2, "model.loops_per_digit": 0.5,
            "model.input_injection": True, "seeds": (0,),
            "description": ("the 2-layer block looped max(2, ceil(d/2)) times with input injection, APE; "
                            "1-3 digit sums, 3,000 steps of 128 problems, seed {seed} (notebook 08)"),
            "tags": ("nb08-trained",)},
    },
)


TABLES: tuple[RecipeTable, ...] = (METHODS,)

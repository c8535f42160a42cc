"""Notebook 08's recipes: the thesis's agenda beyond position encodings, one row per method, 3 seeds.

Every row changes one thing in the base (``direct``): a 2-layer decoder (d 64, 4 heads) with learned absolute
positions, trained on balanced 1-5 digit sums in Cho et al.'s format and tested to 15 digits. Sections: the
compositionality gap (sub-task formats, with APE and coupled IDs; tag ``nb08-gap``), random spaces
(``nb08-spaces``), scratchpads (equal budget in tokens: half the problems per step; ``nb08-scratch``), curricula
(``nb08-curriculum``), looping (``nb08-loop``). The ``-l3`` rows are the widget's other trained length (seed 0),
titled as their 1-5 digit rows. ``python -m lengen_utils.lab.bench leaderboard --tag nb08`` prints them all, with
their budgets.

A row's ``title`` labels it in the notebook's tables and ``summary`` says what it changes; the roles
``summary:absolute`` and ``summary:significance`` put it in one of the summary's two groups (absolute positions,
positions tied to significance). The sections find their rows by tag and by the table's axes
(``METHODS.one(trained_length=5, positions="abacus_eq", looped=True)``), never by id.
"""
from __future__ import annotations

from ...core.model import ModelConfig
from ...core.task_config import TaskConfig
from ...core.train import TrainConfig
from ...lab.experiment.recipe import Recipe, RecipeTable

#: the notebook's sections, as the tags of the rows each one compares (``leaderboard(SPACES)``)
GAP, SPACES, SCRATCH, CURRICULUM, LOOP = "nb08-gap", "nb08-spaces", "nb08-scratch", "nb08-curriculum", "nb08-loop"

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
        tags=("nb08", GAP, SPACES, SCRATCH, CURRICULUM, LOOP),
        curve_every=250,
    ),
    variants={
        "direct": {"title": "direct answer",
            "summary": "the base: APE, the sum written directly",
            "description": ("the base: APE, the sum written directly; 1-5 digit sums, 3,000 steps of 128 "
                            "problems, seed {seed} (notebook 08)"),
            "roles": ("control:direct", "summary:absolute")},
        "align": {"title": "sub-task: alignment",
            "summary": "the aligned digit pair of each column, units first",
            "task.format": "cho_align",
            "description": ("the aligned digit pair of each column, units first; 1-5 digit sums, 3,000 "
                            "steps of 128 problems, seed {seed} (notebook 08)"), "tags": ("nb08", GAP),
            "roles": ("summary:absolute",)},
        "modsum": {"title": "sub-task: digit sum",
            "summary": "each column's digit sum mod 10, no carries",
            "task.format": "cho_modsum",
            "description": ("each column's digit sum mod 10, no carries; 1-5 digit sums, 3,000 steps of "
                            "128 problems, seed {seed} (notebook 08)"), "tags": ("nb08", GAP),
            "roles": ("summary:absolute",)},
        "carries": {"title": "sub-task: carries",
            "summary": "the carry into each column",
            "task.format": "cho_carries",
            "description": ("the carry into each column; 1-5 digit sums, 3,000 steps of 128 problems, seed"
                            " {seed} (notebook 08)"), "tags": ("nb08", GAP),
            "roles": ("summary:absolute",)},
        "rsape": {"title": "random-start APE",
            "summary": ("random-start APE: in training the IDs start at a random offset (Cho et al.; Ruoss et "
                        "al.'s randomized positions)"),
            "task.random_start": True, "train.steps": 4000,
            "description": ("random-start APE: in training the IDs start at a random offset (Cho et al.; "
                            "Ruoss et al.'s randomized positions); 1-5 digit sums, 4,000 steps of 128 "
                            "problems, seed {seed} (notebook 08)"), "tags": ("nb08", SPACES),
            "roles": ("summary:absolute",)},
        "spaces": {"title": "APE + random spaces",
            "summary": "APE, a blank in each gap between digits w.p. 0.2 in training",
            "task.spaces": 0.2, "model.vocab_size": 90,
            "description": ("APE, a blank in each gap between digits w.p. 0.2 in training; 1-5 digit sums,"
                            " 3,000 steps of 128 problems, seed {seed} (notebook 08)"),
            "tags": ("nb08", SPACES),
            "roles": ("claim:survey/random-spaces", "summary:absolute")},
        "scratch": {"title": "scratchpad",
            "summary": "APE, each answer digit after its step (pair, carry in)",
            "task.format": "cho_scratchpad", "train.batch_size": 64,
            "description": ("APE, each answer digit after its step (pair, carry in); 1-5 digit sums, 3,000"
                            " steps of 64 problems, seed {seed} (notebook 08)"), "tags": ("nb08", SCRATCH),
            "roles": ("claim:survey/scratchpad", "summary:absolute")},
        "coupled": {"title": "coupled IDs",
            "summary": "coupled IDs (Cho et al.), the sum written directly",
            "task.positions": "coupled", "task.random_start": True,
            "description": ("coupled IDs (Cho et al.), the sum written directly; 1-5 digit sums, 3,000 "
                            "steps of 128 problems, seed {seed} (notebook 08)"),
            "tags": ("nb08", GAP, SCRATCH),
            "roles": ("summary:significance",)},
        "coupled-align": {"title": "coupled IDs, sub-task: alignment",
            "summary": "coupled IDs, the aligned digit pair of each column",
            "task.format": "cho_align", "task.positions": "coupled", "task.random_start": True,
            "description": ("coupled IDs, the aligned digit pair of each column; 1-5 digit sums, 3,000 "
                            "steps of 128 problems, seed {seed} (notebook 08)"), "tags": ("nb08", GAP)},
        "coupled-modsum": {"title": "coupled IDs, sub-task: digit sum",
            "summary": "coupled IDs, each column's digit sum mod 10",
            "task.format": "cho_modsum", "task.positions": "coupled", "task.random_start": True,
            "description": ("coupled IDs, each column's digit sum mod 10; 1-5 digit sums, 3,000 steps of "
                            "128 problems, seed {seed} (notebook 08)"), "tags": ("nb08", GAP)},
        "coupled-carries": {"title": "coupled IDs, sub-task: carries",
            "summary": "coupled IDs, the carry into each column",
            "task.format": "cho_carries", "task.positions": "coupled", "task.random_start": True,
            "description": ("coupled IDs, the carry into each column; 1-5 digit sums, 3,000 steps of 128 "
                            "problems, seed {seed} (notebook 08)"), "tags": ("nb08", GAP)},
        "coupled-scratch": {"title": "coupled IDs + scratchpad",
            "summary": "coupled IDs, each answer digit after its step",
            "task.format": "cho_scratchpad", "task.positions": "coupled",
            "task.random_start": True, "train.batch_size": 64,
            "description": ("coupled IDs, each answer digit after its step; 1-5 digit sums, 3,000 steps of"
                            " 64 problems, seed {seed} (notebook 08)"), "tags": ("nb08", SCRATCH)},
        "coupled-scratch-6k": {"title": "coupled IDs + scratchpad, 2× steps",
            "summary": "coupled IDs, each answer digit after its step; the budget it needs to master 1-5 digits",
            "task.format": "cho_scratchpad", "task.positions": "coupled",
            "task.random_start": True, "train.steps": 6000, "train.batch_size": 64,
            "description": ("coupled IDs, each answer digit after its step; the budget it needs to master "
                            "1-5 digits; 1-5 digit sums, 6,000 steps of 64 problems, seed {seed} (notebook"
                            " 08)"), "tags": ("nb08", SCRATCH),
            "roles": ("summary:significance",)},
        "length-curriculum": {"title": "curriculum: short to long",
            "summary": "lengths capped 1, 2, ..., 5 over the first half",
            "task.curriculum": "length",
            "description": ("lengths capped 1, 2, ..., 5 over the first half; 1-5 digit sums, 3,000 steps "
                            "of 128 problems, seed {seed} (notebook 08)"), "tags": ("nb08", CURRICULUM),
            "roles": ("claim:survey/curriculum",)},
        "length-cur-6k": {"title": "curriculum: short to long, 2× steps",
            "summary": "lengths capped 1, 2, ..., 5 over the first half; the budget it needs to master 1-5 digits",
            "task.curriculum": "length", "train.steps": 6000,
            "description": ("lengths capped 1, 2, ..., 5 over the first half; the budget it needs to "
                            "master 1-5 digits; 1-5 digit sums, 6,000 steps of 128 problems, seed {seed} "
                            "(notebook 08)"), "tags": ("nb08", CURRICULUM),
            "roles": ("summary:absolute",)},
        "cascade-curriculum": {"title": "curriculum: easy to hard",
            "summary": "carry cascades capped 0, 1, ..., 5 over the first half (notebook 06)",
            "task.curriculum": "cascade",
            "description": ("carry cascades capped 0, 1, ..., 5 over the first half (notebook 06); 1-5 "
                            "digit sums, 3,000 steps of 128 problems, seed {seed} (notebook 08)"),
            "tags": ("nb08", CURRICULUM),
            "roles": ("summary:absolute",)},
        "looped": {"title": "looped",
            "summary": "the 2-layer block looped max(2, ceil(d/2)) times with input injection, APE",
            "model.loops": 2, "model.loops_per_digit": 0.5, "model.input_injection": True,
            "description": ("the 2-layer block looped max(2, ceil(d/2)) times with input injection, APE; "
                            "1-5 digit sums, 3,000 steps of 128 problems, seed {seed} (notebook 08)"),
            "tags": ("nb08", LOOP),
            "roles": ("summary:absolute",)},
        "abacus": {"title": "Abacus",
            "summary": "Abacus IDs (McLeish et al.), 2 layers",
            "task.positions": "abacus", "task.random_start": True, "task.max_position": 64,
            "model.max_positions": 65,
            "description": ("Abacus IDs (McLeish et al.), 2 layers; 1-5 digit sums, 3,000 steps of 128 "
                            "problems, seed {seed} (notebook 08)"), "tags": ("nb08", LOOP)},
        "abacus-looped": {"title": "Abacus + looped",
            "summary": ("Abacus IDs, the 2-layer block looped max(2, ceil(d/2)) times with input injection "
                        "(McLeish et al.)"),
            "task.positions": "abacus", "task.random_start": True, "task.max_position": 64,
            "model.max_positions": 65, "model.loops": 2, "model.loops_per_digit": 0.5,
            "model.input_injection": True,
            "description": ("Abacus IDs, the 2-layer block looped max(2, ceil(d/2)) times with input "
                            "injection (McLeish et al.); 1-5 digit sums, 3,000 steps of 128 problems, seed"
                            " {seed} (notebook 08)"), "tags": ("nb08", LOOP)},
        "abacus-eq": {"title": "Abacus (= one below the units)",
            "summary": ("Abacus IDs with = at the offset, one below the units digits (our departure), 2 layers: "
                        "the control for the looped model"),
            "task.positions": "abacus_eq", "task.random_start": True, "task.max_position": 64,
            "model.max_positions": 65,
            "description": ("Abacus IDs with = at the offset, one below the units digits (our departure), "
                            "2 layers: the control for the looped model; 1-5 digit sums, 3,000 steps of "
                            "128 problems, seed {seed} (notebook 08)"), "tags": ("nb08", LOOP),
            "roles": ("control:no-looping", "summary:significance")},
        "abacus-eq-looped": {"title": "Abacus (= one below the units) + looped",
            "summary": ("Abacus IDs with = at the offset, one below the units digits (our departure), the 2-layer"
                        " block looped max(2, ceil(d/2)) times with input injection"),
            "task.positions": "abacus_eq", "task.random_start": True, "task.max_position": 64,
            "model.max_positions": 65, "model.loops": 2, "model.loops_per_digit": 0.5,
            "model.input_injection": True,
            "description": ("Abacus IDs with = at the offset, one below the units digits (our departure), "
                            "the 2-layer block looped max(2, ceil(d/2)) times with input injection; 1-5 "
                            "digit sums, 3,000 steps of 128 problems, seed {seed} (notebook 08)"),
            "tags": ("nb08", LOOP),
            "roles": ("claim:survey/looping", "summary:significance")},
        "direct-l3": {"title": "direct answer",
            "task.max_digits": 3, "seeds": (0,),
            "description": ("the base: APE, the sum written directly; 1-3 digit sums, 3,000 steps of 128 "
                            "problems, seed {seed} (notebook 08)"), "tags": ("nb08-trained",)},
        "spaces-l3": {"title": "APE + random spaces",
            "task.max_digits": 3, "task.spaces": 0.2, "model.vocab_size": 90, "seeds": (0,),
            "description": ("APE, a blank in each gap between digits w.p. 0.2 in training; 1-3 digit sums,"
                            " 3,000 steps of 128 problems, seed {seed} (notebook 08)"), "tags": ("nb08-trained",)},
        "scratch-l3": {"title": "scratchpad",
            "task.format": "cho_scratchpad", "task.max_digits": 3, "train.batch_size": 64,
            "seeds": (0,),
            "description": ("APE, each answer digit after its step (pair, carry in); 1-3 digit sums, 3,000"
                            " steps of 64 problems, seed {seed} (notebook 08)"), "tags": ("nb08-trained",)},
        "coupled-l3": {"title": "coupled IDs",
            "task.positions": "coupled", "task.max_digits": 3, "task.random_start": True, "seeds": (0,),
            "description": ("coupled IDs (Cho et al.), the sum written directly; 1-3 digit sums, 3,000 "
                            "steps of 128 problems, seed {seed} (notebook 08)"), "tags": ("nb08-trained",)},
        "coupled-scratch-l3": {"title": "coupled IDs + scratchpad",
            "task.format": "cho_scratchpad", "task.positions": "coupled", "task.max_digits": 3,
            "task.random_start": True, "train.batch_size": 64, "seeds": (0,),
            "description": ("coupled IDs, each answer digit after its step; 1-3 digit sums, 3,000 steps of"
                            " 64 problems, seed {seed} (notebook 08)"), "tags": ("nb08-trained",)},
        "looped-l3": {"title": "looped",
            "task.max_digits": 3, "model.loops": 2, "model.loops_per_digit": 0.5,
            "model.input_injection": True, "seeds": (0,),
            "description": ("the 2-layer block looped max(2, ceil(d/2)) times with input injection, APE; "
                            "1-3 digit sums, 3,000 steps of 128 problems, seed {seed} (notebook 08)"),
            "tags": ("nb08-trained",)},
    },
    axes={"trained_length": "task.max_digits", "title": "title", "positions": "task.positions", "format": "task.format",
          "looped": "model.looped", "steps": "train.steps"},
)


TABLES: tuple[RecipeTable, ...] = (METHODS,)

"""Notebook 03's recipes: RPE and the encoding comparison, Sabbaghi's RPE encoder at the paper's scale (GPU), and
Sabbaghi A2 on the CPU one change at a time toward the paper.

* :data:`ENCODINGS`: notebook 02's encoder with Shaw-style relative vectors on the keys (Sabbaghi eq. 2.1) in a frame
  l = 22, offsets up to 2l+1 (none clipped); one row per trained length for the slider, and APE / NoPE / RoPE / ALiBi
  at the same task, size, budget and seed (titled: the comparison's labels).
* :data:`PAPER_SCALE`: Sabbaghi et al.'s RPE encoder (6 layers, 8 heads, d 256 instead of 768, no dropout) on 1-5
  digit sums in the frame l = 50, and A2 as the paper trains it (BERT, d 768, dropout, post-LN, 100k fixed sums,
  the best checkpoint on longer sums; recorded, not stored). Trained on a GPU (tag ``gpu``); the axis ``d_model``
  tells them apart (256: ours, 768: the paper's).
* :data:`A2_LADDER` (tag ``sabbaghi-a2``): RPE on sums of <= 5 digits in the frame l = 50 at the course's size; each
  rung adds one of the paper's choices to the one before (Sabbaghi et al. App. B): ``ours`` (the course's recipe),
  ``uniform`` (the paper's sampler), ``fixed`` (100k fixed sums), ``dropout`` (0.1), ``postln`` (BERT's post-LN),
  ``select`` (the best checkpoint on 10-40 digit sums), ``window`` (ours: the attention window centred on the
  query's own column in both operands). The rows are in the ladder's order; a rung's ``title`` says what it adds,
  its ``roles`` what notebook 03b reads it for (``ladder-figure``: the rungs the text reads and a figure draws;
  ``attention-sink``: those whose attention on pad-only offsets is compared).
"""
from __future__ import annotations

from ...core.model import ModelConfig
from ...core.task_config import TaskConfig
from ...core.train import TrainConfig
from ...lab.experiment.recipe import Recipe, RecipeTable


ENCODINGS = RecipeTable(
    prefix="nb03",
    base=Recipe(
        id="",
        task=TaskConfig(format="sabbaghi", positions="consecutive", max_digits=5, frame_width=22,
                        random_start=False, max_position=46, eval_sampler="uniform"),
        model=ModelConfig(n_layers=2, d_ff=128, causal=False, encoding="rpe", max_positions=47, rpe_max_distance=45),
        train=TrainConfig(steps=2500, batch_size=64, lr=0.003),
        eval_lengths=(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22),
        tags=("nb03",),
        seed_in_name=False,
    ),
    variants={
        "rpe-l3": {"task.max_digits": 3, "eval_n": 500,
            "description": ("RPE encoder, Sabbaghi format l=22, trained on 1..3-digit sums (notebook 03)")},
        "rpe-l5": {"title": "RPE", "seeds": (0, 1, 2), "seed_in_name": True,
            "description": ("RPE encoder, Sabbaghi format l=22, trained on 1..5-digit sums (notebook 03)"),
            "roles": ("claim:sabbaghi-a2/cpu-balanced", "throughput:sabbaghi-rpe-l50")},
        "rpe-l8": {"task.max_digits": 8, "eval_n": 500,
            "description": ("RPE encoder, Sabbaghi format l=22, trained on 1..8-digit sums (notebook 03)")},
        "ape-l5": {"title": "APE", "seeds": (0, 1, 2), "seed_in_name": True, "model.encoding": "learned",
            "description": ("APE encoder, Sabbaghi format l=22, trained on 1..5-digit sums (notebook 03)"),
            "roles": ("claim:sabbaghi-a1/equal-budget",)},
        "nope-l5": {"title": "NoPE", "seeds": (0, 1, 2), "seed_in_name": True, "model.encoding": "none",
            "description": ("NOPE encoder, Sabbaghi format l=22, trained on 1..5-digit sums (notebook 03)")},
        "rope-l5": {"title": "RoPE", "seeds": (0, 1, 2), "seed_in_name": True, "model.encoding": "rope",
            "description": ("ROPE encoder, Sabbaghi format l=22, trained on 1..5-digit sums (notebook 03)")},
        "alibi-l5": {"title": "ALiBi", "seeds": (0, 1, 2), "seed_in_name": True, "model.encoding": "alibi",
            "description": ("ALIBI encoder, Sabbaghi format l=22, trained on 1..5-digit sums (notebook 03)")},
        "rpe-shift-l5": {"task.shift_augment": True, "task.shift_max_width": 21,
            "description": ("RPE encoder, Sabbaghi format l=22, trained on 1..5-digit sums shifted by "
                            "zeros to at most l-1 digits (A3) (notebook 03)")},
    },
    axes={"encoding": "model.encoding", "trained_length": "task.max_digits",
          "shift_augment": "task.shift_augment"},
)


PAPER_SCALE = RecipeTable(
    prefix="sabbaghi",
    base=Recipe(
        id="",
        task=TaskConfig(format="sabbaghi", positions="consecutive", max_digits=5, frame_width=50,
                        random_start=False, max_position=102, eval_sampler="uniform"),
        model=ModelConfig(d_model=256, n_layers=6, n_heads=8, d_ff=1024, causal=False, encoding="rpe",
                          max_positions=103, rpe_max_distance=101),
        train=TrainConfig(steps=4000, batch_size=64, lr=0.0003, weight_decay=1e-05, warmup_steps=300),
        eval_lengths=(1, 3, 5, 6, 8, 10, 15, 20, 30, 40, 50),
        eval_n=500,
        tags=("gpu", "paper-scale"),
    ),
    variants={
        "rpe-add-5to50": {
            "description": ("Sabbaghi et al.'s RPE encoder (6 layers, 8 heads, d 256) on 1-5 digit sums in"
                            " the frame l = 50, tested to 50 digits, trained on a GPU; seed {seed}"),
            "roles": ("claim:sabbaghi-a2/gpu-ours", "reproduces:sabbaghi-a2")},
        "a2-paper": {"task.sampler": "uniform", "task.train_set_size": 100000, "model.d_model": 768,
            "model.d_ff": 3072, "model.dropout": 0.1, "model.norm_placement": "post", "train.steps": 12000,
            "train.lr": 0.0001, "train.warmup_steps": 500, "train.betas": (0.9, 0.999),
            "train.data_seeding": "per_step", "train.select_lengths": (10, 20, 30, 40), "train.select_every": 1000,
            "seeds": (0, 1),
            "description": ("Sabbaghi et al. A2 as the paper trains it: BERT (6 layers, 8 heads, d 768, "
                            "dropout 0.1, post-LN) with Shaw RPE, frame l = 50, 100k uniform sums of <= 5 "
                            "digits, AdamW lr 1e-4, batch 64, best checkpoint on longer sums; trained on a"
                            " GPU, recorded, not stored; seed {seed}"),
            "tags": ("gpu", "paper-scale", "record-only"),
            "roles": ("claim:sabbaghi-a2/paper-recipe", "reproduces:sabbaghi-a2", "reference:sabbaghi-a2")},
    },
    axes={"d_model": "model.d_model"},
)


A2_LADDER = RecipeTable(
    prefix="a2",
    base=Recipe(
        id="",
        task=TaskConfig(format="sabbaghi", positions="consecutive", max_digits=5, frame_width=50,
                        random_start=False, max_position=102, eval_sampler="uniform"),
        model=ModelConfig(n_layers=2, d_ff=128, causal=False, encoding="rpe", max_positions=103,
                          rpe_max_distance=101),
        train=TrainConfig(steps=2500, batch_size=64, lr=0.003),
        seeds=(0, 1, 2),
        eval_lengths=(1, 3, 5, 6, 8, 10, 15, 20, 25, 30, 35, 40),
        eval_n=500,
        tags=("sabbaghi-a2",),
    ),
    variants={
        "ours": {"title": "the course's recipe", "roles": ("ladder-figure", "attention-sink"),
            "description": ("Sabbaghi A2 ladder, rung 1 (the course's recipe): RPE encoder, 2 layers, d "
                            "64, frame l = 50, trained on 1-5 digit sums; seed {seed}")},
        "uniform": {"title": "+ the paper's sampler (uniform over D_s)", "roles": ("ladder-figure",),
            "task.sampler": "uniform",
            "description": ("Sabbaghi A2 ladder, rung 2 (+ the paper's sampler (uniform over D_s)): RPE "
                            "encoder, 2 layers, d 64, frame l = 50, trained on 1-5 digit sums; seed {seed}")},
        "fixed": {"title": "+ a fixed set of 100k sums", "task.sampler": "uniform", "task.train_set_size": 100000,
            "description": ("Sabbaghi A2 ladder, rung 3 (+ a fixed set of 100k sums): RPE encoder, 2 "
                            "layers, d 64, frame l = 50, trained on 1-5 digit sums; seed {seed}")},
        "dropout": {"title": "+ dropout 0.1", "task.sampler": "uniform", "task.train_set_size": 100000,
            "model.dropout": 0.1,
            "description": ("Sabbaghi A2 ladder, rung 4 (+ dropout 0.1): RPE encoder, 2 layers, d 64, "
                            "frame l = 50, trained on 1-5 digit sums; seed {seed}")},
        "postln": {"title": "+ post-LN (BERT)", "task.sampler": "uniform", "task.train_set_size": 100000,
            "model.dropout": 0.1, "model.norm_placement": "post",
            "description": ("Sabbaghi A2 ladder, rung 5 (+ post-LN (BERT)): RPE encoder, 2 layers, d 64, "
                            "frame l = 50, trained on 1-5 digit sums; seed {seed}")},
        "select": {"title": "+ the best checkpoint on longer sums (our lr 3e-3, no weight decay)",
            "roles": ("ladder-figure", "attention-sink", "claim:sabbaghi-a2/cpu-paper-rung"),
            "task.sampler": "uniform", "task.train_set_size": 100000,
            "model.dropout": 0.1,
            "model.norm_placement": "post", "train.select_lengths": (10, 20, 30, 40), "train.select_every": 250,
            "description": ("Sabbaghi A2 ladder, rung 6 (+ the best checkpoint on longer sums): RPE "
                            "encoder, 2 layers, d 64, frame l = 50, trained on 1-5 digit sums; seed {seed}")},
        "window": {"title": "+ the aligned attention window (ours)",
            "roles": ("ladder-figure", "attention-sink", "claim:sabbaghi-a2/window", "departures:aligned-window"),
            "task.sampler": "uniform", "task.train_set_size": 100000, "model.dropout": 0.1,
            "model.norm_placement": "post", "model.attention_window": 2, "model.window_offsets": (51, -51),
            "train.select_lengths": (10, 20, 30, 40), "train.select_every": 250,
            "description": ("Sabbaghi A2 ladder, rung 7 (+ the aligned attention window (ours)): RPE "
                            "encoder, 2 layers, d 64, frame l = 50, trained on 1-5 digit sums; seed {seed}")},
    },
    axes={"window": "model.attention_window"},
)


TABLES: tuple[RecipeTable, ...] = (ENCODINGS, PAPER_SCALE, A2_LADDER)

"""Notebook 05's recipes: position coupling (Cho et al.) as published, the way to our variant, and Cho et al.'s
models at the paper's scale (GPU).

* :data:`ABLATION` (section 3): plain coupling as published and our variant's two departures, alone and together
  (``both`` is :data:`~lengen_utils.lab.experiment.lab_recipes.COUPLED`); 3 seeds.
* :data:`TRAINED_LENGTH` (section 4, Cho Figure 3): our variant trained on 1-5, 1-10, 1-15 digit sums, IDs to 128.
* :data:`SINK`: the raised flagship (``nb05-sink``: the flagship's recipe and seeds; ``flagship-coupled`` is another
  name of ``nb05-sink-s0``) and Figure 3 again with the sink.
* :data:`REACH`: the flagship without its table, 4, 8 or 16 problems per sequence, no scalable softmax (seed 0).
* :data:`BASELINES` (section 5, Cho Figure 1): every baseline on the same task as plain coupling, each with the
  depth and steps it needs to master 1-10 digits (docs/logs/flagship-log.md, "Baselines").
* :data:`DEPTH` (section 6, Cho Figure 4): plain coupling with 2 and 3 layers.
* :data:`CHO_MUL` (section 7, Cho 6.1): N x 2 multiplication with plain coupling; :data:`MUL`: our N x 2 recipe
  (uniform bias for the multiplier's digits, no table, one problem per sequence, 8 heads; docs/logs/nx2-log.md).
* :data:`MINESWEEPER` (Cho 6.2): the 2-D task with two coupled ID channels, the paper's recipe at our scale
  (tag ``nb05-2d-cho``) and ours (``next``: next-cell IDs read by a 2-D relative bias; tag ``nb05-2d``).
* :data:`CHO_ADDITION`, :data:`CHO_PLAIN`, :data:`CHO_NX2`, :data:`CHO_MINESWEEPER`: Cho et al.'s models at the
  paper's size, trained on a GPU (tag ``gpu``); departures in docs/logs/gpu-log.md.

Each row names itself (``title``: its label in the sections' tables and the coupling explorer) and the tables name
what their rows vary (``axes``): the sections find a row by its axes (``ABLATION.one(relative_bias=False, pack=1)``)
or its role (``coupling-explorer``: the explorer's rows), never by typing its id.
"""
from __future__ import annotations

from ...core.model import ModelConfig
from ...core.task_config import TaskConfig
from ...core.train import TrainConfig
from ...lab.experiment.recipe import Recipe, RecipeTable
from ...lab.experiment.lab_recipes import APE, COUPLED, FLAGSHIP


_ABLATION_ROWS = {"seeds": (0, 1, 2), "eval_lengths": (5, 10, 15, 20, 25, 30, 40)}
ABLATION = RecipeTable(
    prefix="nb05",
    base=COUPLED,
    variants={
        "plain": {"title": "plain coupling (Cho et al.)",
            "roles": ("coupling-explorer", "claim:cho-fig3/1-10-plain", "throughput:cho-1to30"),
            **_ABLATION_ROWS, "task.pack": 1, "model.relative_bias": False, "train.batch_size": 128,
            "description": ("plain position coupling as published (Cho et al.): learned table over coupled"
                            " IDs, no relative bias, one problem per sequence; 1-10 digit sums, seed "
                            "{seed} (notebook 05)"), "tags": ("nb05", "nb05-baselines")},
        "bias": {"title": "+ relative bias", "roles": ("coupling-explorer",),
            **_ABLATION_ROWS, "task.pack": 1, "train.batch_size": 128,
            "description": ("position coupling + coupled relative bias (clip 8, x20), one problem per "
                            "sequence; 1-10 digit sums, seed {seed} (notebook 05)"), "tags": ("nb05",)},
        "pack": {"title": "+ packing", "roles": ("coupling-explorer",), **_ABLATION_ROWS, "model.relative_bias": False,
            "description": ("position coupling + packing (4 problems per sequence, disjoint ID ranges), no"
                            " relative bias; 1-10 digit sums, seed {seed} (notebook 05)"), "tags": ("nb05",)},
        "both": {"title": "both (our variant)", "roles": ("coupling-explorer", "multiseed-bench"), **_ABLATION_ROWS,
            "description": ("position coupling + coupled relative bias + packing (the flagship recipe); "
                            "1-10 digit sums, seed {seed} (notebook 05)"), "tags": ("nb05", "nb05-baselines")},
    },
    axes={"relative_bias": "model.relative_bias", "pack": "task.pack"},
)


_DEPTH_ROWS = {"roles": ("coupling-explorer",), "tags": ("nb05-depth",)}
DEPTH = RecipeTable(
    prefix="nb05",
    base=ABLATION.recipe("plain"),
    variants={
        "plain-2l": {"title": "plain coupling, 2 layers", **_DEPTH_ROWS, "model.n_layers": 2,
            "description": ("plain position coupling (Cho et al.) with 2 layers, 4 heads; 1-10 digit sums,"
                            " seed {seed} (notebook 05, depth, Cho Figure 4)"),
            "roles": ("coupling-explorer", "claim:cho-fig4/2-layers")},
        "plain-3l": {"title": "plain coupling, 3 layers", **_DEPTH_ROWS, "model.n_layers": 3,
            "description": ("plain position coupling (Cho et al.) with 3 layers, 4 heads; 1-10 digit sums,"
                            " seed {seed} (notebook 05, depth, Cho Figure 4)"),
            "roles": ("coupling-explorer", "claim:cho-fig4/3-layers")},
    },
    axes={"layers": "model.n_layers"},
)


_CHO_MUL_ROWS = {"task.op": "*", "task.multiplier_digits": 2}
CHO_MUL = RecipeTable(
    prefix="nb05",
    base=ABLATION.recipe("plain"),
    variants={
        "mul-1l": {"title": "plain coupling, 1 layer", "roles": ("coupling-explorer",), **_CHO_MUL_ROWS,
            "description": ("N x 2 multiplication (Cho et al. Section 6.1), plain position coupling, 1 "
                            "layer(s), 4 heads, 2,000 steps; multiplicand 1-10 digits, seed {seed} "
                            "(notebook 05)"), "tags": ("nb05-mul-cho",)},
        "mul-1l-long": {"title": "plain coupling, 1 layer, 3x steps", **_CHO_MUL_ROWS, "train.steps": 6000,
            "description": ("N x 2 multiplication (Cho et al. Section 6.1), plain position coupling, 1 "
                            "layer(s), 4 heads, 6,000 steps; multiplicand 1-10 digits, seed {seed} "
                            "(notebook 05)"), "tags": ("nb05-mul-long",)},
        "mul-2l": {"title": "plain coupling, 2 layers",
            "roles": ("coupling-explorer", "claim:cho-nx2/cpu-plain-2-layers"),
            **_CHO_MUL_ROWS, "model.n_layers": 2,
            "description": ("N x 2 multiplication (Cho et al. Section 6.1), plain position coupling, 2 "
                            "layer(s), 4 heads, 2,000 steps; multiplicand 1-10 digits, seed {seed} "
                            "(notebook 05)"), "tags": ("nb05-mul-cho",)},
        "mul-2l-long": {"title": "plain coupling, 2 layers, 3x steps", "roles": ("coupling-explorer",),
            **_CHO_MUL_ROWS, "model.n_layers": 2, "train.steps": 6000,
            "description": ("N x 2 multiplication (Cho et al. Section 6.1), plain position coupling, 2 "
                            "layer(s), 4 heads, 6,000 steps; multiplicand 1-10 digits, seed {seed} "
                            "(notebook 05)"), "tags": ("nb05-mul-long",)},
    },
    axes={"layers": "model.n_layers", "steps": "train.steps"},
)


_TRAINED_LENGTH_ROWS = {"title": "our variant, IDs up to 128", "task.max_position": 128, "model.max_positions": 129,
    "eval_lengths": (5, 10, 15, 20, 30, 40, 50, 60, 80, 100, 120), "eval_n": 500, "tags": ("nb05-trained",)}
TRAINED_LENGTH = RecipeTable(
    prefix="nb05",
    base=COUPLED,
    variants={
        "len5": {**_TRAINED_LENGTH_ROWS, "task.max_digits": 5, "seeds": (0, 1, 2),
            "description": ("position coupling + relative bias + packing (our variant), 1-5 digit sums, "
                            "IDs up to 128, seed {seed} (notebook 05, Cho Figure 3)")},
        "len10": {**_TRAINED_LENGTH_ROWS, "seeds": (0, 1, 2, 3, 4),
            "description": ("position coupling + relative bias + packing (our variant), 1-10 digit sums, "
                            "IDs up to 128, seed {seed} (notebook 05, Cho Figure 3)"),
            "roles": ("claim:cho-fig3/1-10-ours",)},
        "len15": {**_TRAINED_LENGTH_ROWS, "task.max_digits": 15, "seeds": (0, 1, 2),
            "description": ("position coupling + relative bias + packing (our variant), 1-15 digit sums, "
                            "IDs up to 128, seed {seed} (notebook 05, Cho Figure 3)")},
    },
    axes={"trained_length": "task.max_digits"},
)


_SINK_ROWS = {"title": "+ sink for the final carry", "eval_n": 500}
SINK = RecipeTable(
    prefix="nb05",
    base=FLAGSHIP,
    variants={
        "sink": {**_SINK_ROWS, "seeds": (0, 1, 2, 3, 4),
            "eval_lengths": (5, 10, 15, 20, 30, 40, 50, 60, 70, 80, 100, 120),
            "description": ("position coupling with $ as the final carry's sink (coupled_sink) + relative "
                            "bias + packing, 1-10 digit sums, IDs up to 128, seed {seed} (notebook 05, "
                            "raised flagship)"), "tags": ("nb05-sink",),
            "roles": ("claim:cho-fig3/1-10-sink",)},
        "sink-len5": {**_SINK_ROWS, "task.max_digits": 5, "seeds": (0, 1, 2),
            "eval_lengths": (5, 10, 15, 20, 30, 40, 50, 60, 80, 100, 120),
            "description": ("position coupling with $ as the final carry's sink + relative bias + packing,"
                            " 1-5 digit sums, IDs up to 128, seed {seed} (notebook 05, Cho Figure 3 with "
                            "the sink)"), "tags": ("nb05-sink-trained",)},
        "sink-len15": {**_SINK_ROWS, "task.max_digits": 15, "seeds": (0, 1, 2),
            "eval_lengths": (5, 10, 15, 20, 30, 40, 50, 60, 80, 100, 120),
            "description": ("position coupling with $ as the final carry's sink + relative bias + packing,"
                            " 1-15 digit sums, IDs up to 128, seed {seed} (notebook 05, Cho Figure 3 with "
                            "the sink)"), "tags": ("nb05-sink-trained",)},
    },
    axes={"trained_length": "task.max_digits"},
)


_REACH_ROWS = {"task.max_position": 1002, "model.encoding": "none", "model.max_positions": 1003,
    "eval_lengths": (5, 10, 20, 40, 70, 100, 200, 500, 1000), "eval_n": 200, "tags": ("nb05-reach",)}
REACH = RecipeTable(
    prefix="nb05",
    base=FLAGSHIP,
    variants={
        "reach-pack4": {**_REACH_ROWS,
            "description": ("flagship without its table: coupled relative bias + sink + packing (4 per "
                            "sequence), no scalable softmax, 1-10 digit sums, tested to 1000 digits")},
        "reach-pack8": {**_REACH_ROWS, "task.pack": 8, "train.batch_size": 16,
            "description": ("flagship without its table: coupled relative bias + sink + packing (8 per "
                            "sequence), no scalable softmax, 1-10 digit sums, tested to 1000 digits")},
        "reach-pack16": {**_REACH_ROWS, "task.pack": 16, "train.batch_size": 8,
            "description": ("flagship without its table: coupled relative bias + sink + packing (16 per "
                            "sequence), no scalable softmax, 1-10 digit sums, tested to 1000 digits")},
    },
    axes={"pack": "task.pack"},
)


_BASELINES_ROWS = {"seeds": (0, 1, 2), "eval_lengths": (5, 10, 15, 20, 25, 30, 40), "tags": ("nb05-baselines",)}
BASELINES = RecipeTable(
    prefix="nb05",
    base=APE,
    variants={
        "base-ape": {"title": "APE", **_BASELINES_ROWS,
            "description": ("plain APE: learned absolute positions 0, 1, 2, ... (the flagship's baseline);"
                            " 3 layers, 10,000 steps of 128 problems; 1-10 digit sums, seed {seed} "
                            "(notebook 05, baselines)"),
            "roles": ("control:plain-ape",)},
        "base-rsape": {"title": "random-start APE", **_BASELINES_ROWS, "task.random_start": True, "train.steps": 4000,
            "description": ("random-start APE (Cho et al.; Ruoss et al.'s randomized positions); 3 layers,"
                            " 4,000 steps of 128 problems; 1-10 digit sums, seed {seed} (notebook 05, "
                            "baselines)"),
            "roles": ("claim:survey/randomized",)},
        "base-nope": {"title": "NoPE", **_BASELINES_ROWS, "model.encoding": "none", "train.steps": 4000,
            "description": ("NoPE: no position encoding (Kazemnejad et al.); 3 layers, 4,000 steps of 128 "
                            "problems; 1-10 digit sums, seed {seed} (notebook 05, baselines)"),
            "roles": ("claim:survey/nope",)},
        "base-rope": {"title": "RoPE", **_BASELINES_ROWS, "model.encoding": "rope", "train.steps": 4000,
            "description": ("RoPE: rotary position encoding (Su et al.); 3 layers, 4,000 steps of 128 "
                            "problems; 1-10 digit sums, seed {seed} (notebook 05, baselines)")},
        "base-alibi": {"title": "ALiBi", **_BASELINES_ROWS, "model.encoding": "alibi", "train.steps": 4000,
            "description": ("ALiBi: linear attention biases (Press et al.); 3 layers, 4,000 steps of 128 "
                            "problems; 1-10 digit sums, seed {seed} (notebook 05, baselines)")},
        "base-hints": {"title": "index hints",
            **_BASELINES_ROWS, "task.format": "cho_hints", "task.random_start": True,
            "task.max_position": 255, "model.max_positions": 256, "train.steps": 4000,
            "description": ("index hints (Zhou et al.) in Cho's format, random-start APE; 3 layers, 4,000 "
                            "steps of 128 problems; 1-10 digit sums, seed {seed} (notebook 05, baselines)")},
        "base-abacus": {"title": "Abacus", **_BASELINES_ROWS, "task.positions": "abacus", "task.random_start": True,
            "task.max_position": 64, "model.max_positions": 65, "train.steps": 4000,
            "description": ("Abacus IDs (McLeish et al.) in a learned table, random offset in training; 3 "
                            "layers, 4,000 steps of 128 problems; 1-10 digit sums, seed {seed} (notebook "
                            "05, baselines)"),
            "roles": ("claim:survey/abacus",)},
        "base-fire": {"title": "FIRE", **_BASELINES_ROWS, "model.encoding": "fire", "train.steps": 4000,
            "description": ("FIRE: functional relative positions with progressive interpolation (Li et al."
                            " 2024); 3 layers, 4,000 steps of 128 problems; 1-10 digit sums, seed {seed} "
                            "(notebook 05, baselines)"),
            "roles": ("claim:survey/fire",)},
        "base-fire-hints": {"title": "FIRE + index hints",
            **_BASELINES_ROWS, "task.format": "cho_hints", "task.random_start": True,
            "task.max_position": 255, "model.encoding": "fire", "model.max_positions": 256, "train.steps": 4000,
            "description": ("FIRE with index hints (Zhou et al. 2024's recipe) in Cho's format, "
                            "random-start IDs; 3 layers, 4,000 steps of 128 problems; 1-10 digit sums, "
                            "seed {seed} (notebook 05, baselines)"),
            "roles": ("claim:survey/fire-index-hints",)},
    },
    axes={"encoding": "model.encoding", "positions": "task.positions", "format": "task.format"},
)


_MUL_ROWS = {"task.op": "*", "task.multiplier_digits": 2, "task.pack": 1, "model.n_heads": 8,
    "model.encoding": "none", "model.relative_bias_uniform": True, "train.steps": 8000, "train.batch_size": 128,
    "train.lr": 0.003, "seeds": (0, 1, 2), "eval_lengths": (5, 10, 15, 20, 25, 30, 40), "eval_n": 500,
    "tags": ("nb05-mul",)}
MUL = RecipeTable(
    prefix="nb05",
    base=COUPLED,
    variants={
        "mulu-1l": {"title": "our recipe, 1 layer", **_MUL_ROWS,
            "description": ("N x 2 multiplication (Cho et al. 6.1), our recipe: coupled relative bias with"
                            " a uniform entry for the multiplier's digits, no absolute table, one problem "
                            "per sequence; 1 layer(s), 8 heads, 8,000 steps; multiplicand 1-10 digits, "
                            "seed {seed} (notebook 05)"),
            "roles": ("claim:cho-nx2/cpu-ours-1-layer",)},
        "mulu-2l": {"title": "our recipe, 2 layers", **_MUL_ROWS, "model.n_layers": 2,
            "description": ("N x 2 multiplication (Cho et al. 6.1), our recipe: coupled relative bias with"
                            " a uniform entry for the multiplier's digits, no absolute table, one problem "
                            "per sequence; 2 layer(s), 8 heads, 8,000 steps; multiplicand 1-10 digits, "
                            "seed {seed} (notebook 05)"),
            "roles": ("claim:cho-nx2/cpu-ours-2-layers",)},
    },
    axes={"layers": "model.n_layers"},
)


MINESWEEPER = RecipeTable(
    prefix="nb05",
    base=Recipe(
        id="",
        task=TaskConfig(format="minesweeper", positions="coupled2d", min_digits=3, max_digits=5, max_position=12,
                        task="minesweeper"),
        model=ModelConfig(vocab_size=81, n_layers=2, max_positions=13, position_channels=2),
        train=TrainConfig(steps=3000, batch_size=32, lr=0.003),
        seeds=(0, 1, 2),
        eval_lengths=(3, 4, 5, 6, 7, 8, 9, 10),
        tags=("nb05-2d-cho", "minesweeper"),
    ),
    variants={
        "mine-coupled": {"title": "2-D coupling, Cho's IDs and tables (3–5 per side)",
            "description": ("minesweeper generator (Cho et al. 6.2): 2-D position coupling (row and column"
                            " IDs, random starts); boards 3-5 per side, tested on square boards of width "
                            "3-10, 3000 steps, seed {seed} (notebook 05)")},
        "mine-nope": {"title": "NoPE (3–5 per side)", "model.encoding": "none", "seeds": (0,),
            "description": ("minesweeper generator (Cho et al. 6.2): NoPE baseline (no position "
                            "information); boards 3-5 per side, tested on square boards of width 3-10, "
                            "3000 steps, seed {seed} (notebook 05)")},
        "mine-coupled-8000": {"title": "2-D coupling, 8,000 steps", "train.steps": 8000, "seeds": (0,),
            "description": ("minesweeper generator (Cho et al. 6.2): 2-D position coupling (row and column"
                            " IDs, random starts); boards 3-5 per side, tested on square boards of width "
                            "3-10, 8000 steps, seed {seed} (notebook 05)")},
        "mine-coupled-shared": {"title": "2-D coupling, one table for both channels (the paper's)",
            "model.shared_channel_table": True,
            "description": ("minesweeper generator (Cho et al. 6.2): 2-D position coupling (row and column"
                            " IDs, random starts), one learned table shared by the two channels (the "
                            "paper's Appendix B.8); boards 3-5 per side, tested on square boards of width "
                            "3-10, 3000 steps, seed {seed} (notebook 05)"),
            "roles": ("claim:cho-minesweeper/shared-table",)},
        "mine-next": {"title": "our recipe: next-cell IDs + 2-D relative bias (5–9)",
            "task.positions": "coupled2d_next", "task.min_digits": 5, "task.max_digits": 9,
            "task.max_position": 24, "model.encoding": "none", "model.max_positions": 25,
            "model.relative_bias": True, "model.relative_bias_max_distance": 2, "model.relative_bias_scale": 30.0,
            "train.steps": 2000, "eval_lengths": (5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 16, 18, 20), "eval_n": 300,
            "description": ("minesweeper generator (Cho et al. 6.2): 2-D relative bias over next-cell "
                            "coupled IDs (our recipe); boards 5-9 per side as in the paper, tested on "
                            "square boards of width 5-14, 2000 steps, seed {seed} (notebook 05)"),
            "tags": ("nb05-2d", "minesweeper"),
            "roles": ("claim:cho-minesweeper/cpu-next",)},
        "mine-nope59": {"title": "NoPE (5–9 per side)", "task.min_digits": 5, "task.max_digits": 9,
            "task.max_position": 24, "model.encoding": "none", "model.max_positions": 25, "train.steps": 2000,
            "eval_lengths": (5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 16, 18, 20), "eval_n": 300,
            "description": ("minesweeper generator (Cho et al. 6.2): NoPE baseline (no position "
                            "information); boards 5-9 per side as in the paper, tested on square boards of"
                            " width 5-14, 2000 steps, seed {seed} (notebook 05)"),
            "tags": ("nb05-2d", "minesweeper"),
            "roles": ("claim:cho-minesweeper/nope",)},
    },
    axes={"ids": "task.positions", "encoding": "model.encoding", "relative_bias": "model.relative_bias",
          "widest": "task.max_digits", "steps": "train.steps", "shared_table": "model.shared_channel_table"},
)


#: Cho et al. Section 4's size (1 layer, d 512, d_ff 2048, operands of 1-30 digits, IDs to 202), trained on a GPU;
#: its two seeds are tested to 200 digits
_CHO_SECTION4_SIZE = {"task.max_digits": 30, "task.max_position": 202, "model.d_model": 512, "model.d_ff": 2048,
                      "model.max_positions": 203, "seeds": (0, 1), "eval_lengths": (5, 10, 20, 30, 50, 100, 150, 200),
                      "eval_n": 500, "tags": ("gpu", "paper-scale")}


CHO_ADDITION = RecipeTable(
    prefix="cho",
    base=FLAGSHIP,
    variants={
        "addition-1to30": {"title": "the flagship's recipe at the paper's size (1-30 digits)",
            **_CHO_SECTION4_SIZE, "train.steps": 3000, "train.batch_size": 64,
            "train.lr": 0.0005, "train.warmup_steps": 300,
            "description": ("Cho et al. Section 4 at the paper's size (1 layer, d 512, 4 heads, operands "
                            "of 1-30 digits, IDs to 202) with the flagship's recipe (coupled relative "
                            "bias, the sink, packing), trained on a GPU; seed {seed}"),
            "roles": ("claim:cho-addition/ours", "reproduces:cho-addition", "departures:flagship-bias")},
    },
)


CHO_PLAIN = RecipeTable(
    prefix="cho",
    base=ABLATION.recipe("plain"),
    variants={
        "plain-1to30": {"title": "plain coupling as published, at the paper's size (1-30 digits)",
            **_CHO_SECTION4_SIZE, "train.steps": 10000, "train.batch_size": 1000, "train.lr": 0.0001,
            "train.betas": (0.9, 0.999), "train.data_seeding": "per_step", "train.select_lengths": (100, 200),
            "train.select_n": 50, "train.select_every": 1000,
            "description": ("Cho et al. Section 4 as published: plain coupling (no bias, no sink, no "
                            "packing), 1 layer, d 512, 4 heads, balanced 1-30 digit sums, AdamW lr 1e-4, "
                            "batch 1000, best checkpoint on 100 and 200 digits; trained on a GPU; seed "
                            "{seed}"),
            "roles": ("claim:cho-addition/paper-recipe", "reproduces:cho-addition", "reference:cho-addition")},
    },
)


CHO_NX2 = RecipeTable(
    prefix="cho",
    base=MUL.recipe("mulu-2l"),
    variants={
        "mul-nx2-1to40": {"title": "our N × 2 recipe at the paper's size (1-40 digits)",
            "task.max_digits": 40, "task.max_position": 202, "model.d_model": 256,
            "model.d_ff": 1024, "model.max_positions": 203, "train.lr": 0.001, "train.warmup_steps": 400,
            "train.data_seeding": "per_step", "seeds": (0, 1), "eval_lengths": (5, 10, 20, 30, 40, 50, 70, 100),
            "description": ("Cho et al. Section 6.1 N x 2 multiplication, 2 layers, multiplicands of 1-40 "
                            "digits, our N x 2 recipe (uniform multiplier bias, no table) at d 256, "
                            "trained on a GPU; seed {seed}"), "tags": ("gpu", "paper-scale"),
            "roles": ("claim:cho-nx2/gpu-ours", "reproduces:cho-nx2", "reference:cho-nx2", "departures:nx2-bias")},
    },
)


CHO_MINESWEEPER = RecipeTable(
    prefix="cho",
    base=MINESWEEPER.recipe("mine-next"),
    variants={
        "minesweeper-5to9": {"title": "our minesweeper recipe at the paper's depth (5-9 per side)",
            "model.d_model": 256, "model.n_layers": 4, "model.n_heads": 8, "model.d_ff": 1024,
            "train.steps": 4000, "train.batch_size": 64, "train.lr": 0.001, "train.warmup_steps": 200,
            "train.data_seeding": "per_step", "seeds": (0,),
            "description": ("Cho et al. Section 6.2 minesweeper at the paper's depth (4 layers, 8 heads, d"
                            " 256) with our recipe (next-cell coupled IDs, 2-D relative bias), boards 5-9 "
                            "per side, trained on a GPU; seed {seed}"), "tags": ("gpu", "paper-scale"),
            "roles": ("claim:cho-minesweeper/gpu-12", "claim:cho-minesweeper/gpu-14", "reproduces:cho-minesweeper",
                      "reference:cho-minesweeper", "departures:2d-bias")},
    },
)


TABLES: tuple[RecipeTable, ...] = (ABLATION, DEPTH, CHO_MUL, TRAINED_LENGTH, SINK, REACH, BASELINES, MUL, MINESWEEPER, CHO_ADDITION, CHO_PLAIN, CHO_NX2, CHO_MINESWEEPER)

"""Notebook 04's recipes: uniform positions (UPE) for multiplication (Sabbaghi et al. M1-M3), arithmetic inside text
(Sabbaghi 3.3), Sabbaghi M1 with the paper's protocol, and M2 at the paper's depth on a GPU.

* :data:`MULTIPLICATION`: Sabbaghi's eq. 3.2 format in a frame of l = 16 (or the paper's 20: ``-f20``) read by a
  pre-LN encoder with APE, RPE or UPE at the same task, size, budget and seed; rows for the 1- and 3-digit
  multiplier (``m1``, ``m3``), the zero-shift augmentation (``shift``), shorter trained multiplicands (``l3``),
  weight decay for the positional maps (``wd``), the attention window (``w2``, ``w3``), and the 3-digit
  multiplier's second search (sizes ``big``/``deep``/``wide``/``long``, the curriculum ``cur``, the carry and
  product read-outs ``carry``, ``prod``). Departures and the search: docs/logs/upe-log.md. The search's rows (role
  ``m3-search``) are in the order it was run, each titled by what it changed; ``m3-best`` is the recipe it found and
  ``m3-rpe`` RPE with all of it. The code finds the other rows by the table's axes (encoding, multiplier, trained
  length, frame l, shift augmentation, weight decay, attention window) and labels them by their titles.
* :data:`TEXT`: addition in text with filler words and arithmetic heads, and its two controls (axes ``filler``,
  ``arithmetic_heads``).
* :data:`M1_PAPER`: the 1-digit UPE model without the window (``nb04-upe-m1-f20``) with the paper's protocol
  (uniform sampler, 100k fixed set, dropout 0.1, post-LN, the best checkpoint on longer products).
* :data:`M2_PAPER_SCALE`: the 3-digit multiplier at the paper's depth (9 layers, d 256) with the course's best CPU
  recipe, trained on a GPU (tag ``gpu``); ``masked`` hides the operator from every query (axis ``mask_operator``),
  with three budgets, titled.
"""
from __future__ import annotations

from ...core.model import ModelConfig
from ...core.task_config import TaskConfig
from ...core.train import TrainConfig
from ...lab.experiment.recipe import Recipe, RecipeTable

#: the test lengths of the rows in the paper's frame l = 20 (``f20``)
_FRAME20_LENGTHS = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19)
#: what every row of the 3-digit multiplier's second search shares (frame 20, window 3, 6 layers of d 128, 9,000
#: steps at lr 1e-3, a learning curve); each row names what it changes
_M3_SEARCH = {"task.multiplier_digits": 3, "task.frame_width": 20, "task.max_position": 25, "model.d_model": 128,
              "model.n_layers": 6, "model.n_heads": 8, "model.d_ff": 512, "model.max_positions": 26,
              "model.rpe_max_distance": 25, "model.upe_slots": 3, "model.attention_window": 3, "train.steps": 9000,
              "train.lr": 0.001, "eval_lengths": _FRAME20_LENGTHS, "tags": ("nb04", "nb04-m3-search"),
              "curve_every": 500}
_CURRICULUM = {"task.curriculum": "multiplier"}                          # the multiplier curriculum 1 -> 2 -> 3
_CARRY = {"task.carry_targets": True, "model.carry_classes": 27}        # a carry head on each column
_PRODUCTS = {"task.product_targets": True, "model.product_heads": 3}    # digit-product heads


MULTIPLICATION = RecipeTable(
    prefix="nb04",
    base=Recipe(
        id="",
        task=TaskConfig(op="*", format="sabbaghi", positions="consecutive", max_digits=5, multiplier_digits=1,
                        frame_width=16, random_start=False, max_position=19, multiplier_exact=True),
        model=ModelConfig(n_layers=3, d_ff=128, causal=False, encoding="upe", max_positions=20,
                          rpe_max_distance=19, upe_slots=1),
        train=TrainConfig(steps=3000, batch_size=64, lr=0.003),
        seeds=(0, 1, 2),
        eval_lengths=(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
        eval_n=500,
        tags=("nb04",),
    ),
    variants={
        "ape-m1": {"title": "APE", "model.encoding": "learned",
            "description": ("APE encoder, Sabbaghi format l=16, 1-digit multiplier x 1..5-digit "
                            "multiplicand, seed {seed} (notebook 04)"), "tags": ("nb04", "nb04-m1"),
            "roles": ("claim:sabbaghi-m1/ape",)},
        "rpe-m1": {"title": "RPE", "model.encoding": "rpe",
            "description": ("RPE encoder, Sabbaghi format l=16, 1-digit multiplier x 1..5-digit "
                            "multiplicand, seed {seed} (notebook 04)"),
            "roles": ("claim:sabbaghi-m1/rpe",)},
        "upe-m1": {"title": "UPE",
            "description": ("UPE encoder, Sabbaghi format l=16, 1-digit multiplier x 1..5-digit "
                            "multiplicand, seed {seed} (notebook 04)"),
            "roles": ("claim:sabbaghi-m1/upe-over-rpe",)},
        "rpe-m3": {"task.multiplier_digits": 3, "task.max_position": 21, "model.n_layers": 4, "model.d_ff": 512,
            "model.encoding": "rpe", "model.max_positions": 22, "model.rpe_max_distance": 21, "model.upe_slots": 3,
            "train.steps": 4000, "seeds": (0,),
            "description": ("RPE encoder, Sabbaghi format l=16, 3-digit multiplier x 1..5-digit "
                            "multiplicand; does not master its trained range at this CPU budget "
                            "(docs/logs/upe-log.md), seed {seed} (notebook 04)")},
        "upe-m3": {"title": "the first recipe (4 layers, d 64, l = 16)", "roles": ("m3-search",),
            "task.multiplier_digits": 3, "task.max_position": 21, "model.n_layers": 4, "model.d_ff": 512,
            "model.max_positions": 22, "model.rpe_max_distance": 21, "model.upe_slots": 3, "train.steps": 4000,
            "seeds": (0,),
            "description": ("UPE encoder, Sabbaghi format l=16, 3-digit multiplier x 1..5-digit "
                            "multiplicand; does not master its trained range at this CPU budget "
                            "(docs/logs/upe-log.md), seed {seed} (notebook 04)")},
        "ape-shift-m1": {"title": "APE + shift",
            "task.shift_augment": True, "task.shift_max_width": 15, "model.encoding": "learned",
            "description": ("APE encoder, Sabbaghi format l=16, 1-digit multiplier x 1..5-digit "
                            "multiplicand with zero-shift augmentation to at most l-1 digits (Sabbaghi "
                            "M3), seed {seed} (notebook 04)"),
            "roles": ("claim:sabbaghi-m3/ape",)},
        "rpe-shift-m1": {"title": "RPE + shift",
            "task.shift_augment": True, "task.shift_max_width": 15, "model.encoding": "rpe",
            "description": ("RPE encoder, Sabbaghi format l=16, 1-digit multiplier x 1..5-digit "
                            "multiplicand with zero-shift augmentation to at most l-1 digits (Sabbaghi "
                            "M3), seed {seed} (notebook 04)"),
            "roles": ("claim:sabbaghi-m3/rpe",)},
        "upe-shift-m1": {"title": "UPE + shift (ours)", "task.shift_augment": True, "task.shift_max_width": 15,
            "description": ("UPE encoder, Sabbaghi format l=16, 1-digit multiplier x 1..5-digit "
                            "multiplicand with zero-shift augmentation to at most l-1 digits (Sabbaghi "
                            "M3); UPE with the augmentation departs from the paper, which trains UPE "
                            "without it, seed {seed} (notebook 04)")},
        "ape-m1-l3": {"task.max_digits": 3, "model.encoding": "learned", "seeds": (0,),
            "description": ("APE encoder, Sabbaghi format l=16, 1-digit multiplier x 1..3-digit "
                            "multiplicand, seed {seed} (notebook 04)")},
        "rpe-m1-l3": {"task.max_digits": 3, "model.encoding": "rpe", "seeds": (0,),
            "description": ("RPE encoder, Sabbaghi format l=16, 1-digit multiplier x 1..3-digit "
                            "multiplicand, seed {seed} (notebook 04)")},
        "upe-m1-l3": {"task.max_digits": 3, "seeds": (0,),
            "description": ("UPE encoder, Sabbaghi format l=16, 1-digit multiplier x 1..3-digit "
                            "multiplicand, seed {seed} (notebook 04)")},
        "rpe-m1-wd": {"model.encoding": "rpe", "train.weight_decay": 0.5,
            "description": ("RPE encoder, Sabbaghi format l=16, 1-digit multiplier x 1..5-digit "
                            "multiplicand, weight decay 0.5, seed {seed} (notebook 04)")},
        "upe-m1-wd": {"train.weight_decay": 0.5,
            "description": ("UPE encoder, Sabbaghi format l=16, 1-digit multiplier x 1..5-digit "
                            "multiplicand, weight decay 0.5, seed {seed} (notebook 04)")},
        "upe-m1-f20-w2": {"title": "UPE + window",
            "task.frame_width": 20, "task.max_position": 23, "model.max_positions": 24,
            "model.rpe_max_distance": 23, "model.attention_window": 2,
            "eval_lengths": _FRAME20_LENGTHS,
            "description": ("UPE encoder, Sabbaghi format l=20, 1-digit multiplier x 1..5-digit "
                            "multiplicand; attention window 2 (our departure: Sabbaghi's UPE attends "
                            "everywhere), seed {seed} (notebook 04)"), "tags": ("nb04", "nb04-window", "nb04-m1")},
        "upe-m1-f20": {"title": "UPE (Sabbaghi)",
            "task.frame_width": 20, "task.max_position": 23, "model.max_positions": 24,
            "model.rpe_max_distance": 23,
            "eval_lengths": _FRAME20_LENGTHS,
            "description": ("UPE encoder, Sabbaghi format l=20, 1-digit multiplier x 1..5-digit "
                            "multiplicand, seed {seed} (notebook 04)"), "tags": ("nb04", "nb04-window", "nb04-m1")},
        "rpe-m1-f20-w2": {"title": "RPE + window",
            "task.frame_width": 20, "task.max_position": 23, "model.encoding": "rpe",
            "model.max_positions": 24, "model.rpe_max_distance": 23, "model.attention_window": 2,
            "eval_lengths": _FRAME20_LENGTHS,
            "description": ("RPE encoder, Sabbaghi format l=20, 1-digit multiplier x 1..5-digit "
                            "multiplicand; attention window 2, seed {seed} (notebook 04)"),
            "tags": ("nb04", "nb04-window", "nb04-m1")},
        "upe-m3-big": {"title": "6 layers, d 128, window 3, l = 20",
            **_M3_SEARCH, "seeds": (0,),
            "description": ("UPE encoder, Sabbaghi format l=20, 3-digit multiplier x 1..5-digit "
                            "multiplicand; attention window 3, seed {seed} (notebook 04)"),
            "roles": ("m3-search",)},
        "upe-m3-big-cur": {"title": "+ multiplier curriculum 1 → 2 → 3",
            **_M3_SEARCH, **_CURRICULUM, "seeds": (0,),
            "description": ("UPE encoder, Sabbaghi format l=20, 3-digit multiplier x 1..5-digit "
                            "multiplicand; attention window 3; multiplier curriculum 1 -> 2 -> 3 digits, "
                            "seed {seed} (notebook 04)"),
            "roles": ("m3-search",)},
        "upe-m3-deep-cur": {"title": "+ curriculum, 8 layers",
            **_M3_SEARCH, **_CURRICULUM, "model.n_layers": 8, "seeds": (0,),
            "description": ("UPE encoder, Sabbaghi format l=20, 3-digit multiplier x 1..5-digit "
                            "multiplicand; attention window 3; multiplier curriculum 1 -> 2 -> 3 digits, "
                            "seed {seed} (notebook 04)"),
            "roles": ("m3-search",)},
        "upe-m3-wide-cur": {"title": "+ curriculum, MLP twice as wide",
            **_M3_SEARCH, **_CURRICULUM, "model.d_ff": 1024, "seeds": (0,),
            "description": ("UPE encoder, Sabbaghi format l=20, 3-digit multiplier x 1..5-digit "
                            "multiplicand; attention window 3; multiplier curriculum 1 -> 2 -> 3 digits, "
                            "seed {seed} (notebook 04)"),
            "roles": ("m3-search",)},
        "upe-m3-long-cur": {"title": "+ curriculum, twice the steps", "summary": "no read-out, twice the steps",
            **_M3_SEARCH, **_CURRICULUM, "train.steps": 18000,
            "description": ("UPE encoder, Sabbaghi format l=20, 3-digit multiplier x 1..5-digit "
                            "multiplicand; attention window 3; multiplier curriculum 1 -> 2 -> 3 digits, "
                            "seed {seed} (notebook 04)"),
            "roles": ("m3-search",)},
        "upe-m3-big-carry": {"title": "+ curriculum, carry head",
            **_M3_SEARCH, **_CURRICULUM, **_CARRY, "seeds": (0,),
            "description": ("UPE encoder, Sabbaghi format l=20, 3-digit multiplier x 1..5-digit "
                            "multiplicand; attention window 3; multiplier curriculum 1 -> 2 -> 3 digits; "
                            "carry head trained on each column's incoming carry, seed {seed} (notebook 04)"),
            "roles": ("m3-search",)},
        "upe-m3-big-heads": {"title": "+ curriculum, carry and product heads",
            "summary": "both read-outs, half the steps",
            **_M3_SEARCH, **_CURRICULUM, **_CARRY, **_PRODUCTS, "seeds": (0, 1),
            "description": ("UPE encoder, Sabbaghi format l=20, 3-digit multiplier x 1..5-digit "
                            "multiplicand; attention window 3; multiplier curriculum 1 -> 2 -> 3 digits; "
                            "carry head and product heads trained on each column's incoming carry and "
                            "digit products, seed {seed} (notebook 04)"),
            "roles": ("m3-search",)},
        "upe-m3-long-carry": {"title": "+ curriculum, carry head, twice the steps",
            **_M3_SEARCH, **_CURRICULUM, **_CARRY, "train.steps": 18000, "seeds": (0,),
            "description": ("UPE encoder, Sabbaghi format l=20, 3-digit multiplier x 1..5-digit "
                            "multiplicand; attention window 3; multiplier curriculum 1 -> 2 -> 3 digits; "
                            "carry head trained on each column's incoming carry, seed {seed} (notebook 04)"),
            "roles": ("m3-search",)},
        "upe-m3-long-heads": {"title": "+ curriculum, carry and product heads, twice the steps",
            "summary": "both read-outs, twice the steps", **_M3_SEARCH, **_CURRICULUM, **_CARRY, **_PRODUCTS,
            "train.steps": 18000, "tags": ("nb04", "nb04-m3-search", "nb04-m3"),
            "description": ("UPE encoder, Sabbaghi format l=20, 3-digit multiplier x 1..5-digit "
                            "multiplicand; attention window 3; multiplier curriculum 1 -> 2 -> 3 digits; "
                            "carry head and product heads trained on each column's incoming carry and "
                            "digit products, seed {seed} (notebook 04)"),
            "roles": ("m3-best", "claim:sabbaghi-m2/cpu")},
        "rpe-m3-long-heads": {"title": "RPE with the best recipe", **_M3_SEARCH, **_CURRICULUM, **_CARRY, **_PRODUCTS,
            "model.encoding": "rpe", "train.steps": 18000, "tags": ("nb04", "nb04-m3-search", "nb04-m3"),
            "description": ("RPE encoder, Sabbaghi format l=20, 3-digit multiplier x 1..5-digit "
                            "multiplicand; attention window 3; multiplier curriculum 1 -> 2 -> 3 digits; "
                            "carry head and product heads trained on each column's incoming carry and "
                            "digit products, seed {seed} (notebook 04)"),
            "roles": ("m3-rpe", "claim:sabbaghi-m1/rpe-3-digit")},
    },
    axes={"encoding": "model.encoding", "multiplier": "task.multiplier_digits", "trained_length": "task.max_digits",
          "frame": "task.frame_width", "shift_augment": "task.shift_augment", "weight_decay": "train.weight_decay",
          "window": "model.attention_window"},
)


TEXT = RecipeTable(
    prefix="nb04",
    base=Recipe(
        id="",
        task=TaskConfig(format="sabbaghi", positions="consecutive", max_digits=5, frame_width=16,
                        random_start=False, max_position=47, shift_augment=True, eval_sampler="uniform",
                        shift_max_width=15, filler_max=5),
        model=ModelConfig(vocab_size=89, n_layers=2, d_ff=128, causal=False, max_positions=48, rpe_max_distance=33,
                          arithmetic_heads=2),
        train=TrainConfig(steps=2500, batch_size=64, lr=0.003),
        seeds=(0, 1, 2),
        eval_lengths=(1, 3, 5, 6, 8, 10, 12, 14, 15, 16),
        eval_n=500,
        tags=("nb04", "nb04-text"),
    ),
    variants={
        "text-add": {
            "description": ("addition in text (Sabbaghi 3.3): encoder, Sabbaghi format l=16, 1..5-digit "
                            "sums shifted by zeros (A3), 0..5 filler words per gap, 2 arithmetic heads "
                            "(RPE among number tokens) + APE; seed {seed} (notebook 04)")},
        "notext-add": {"task.filler_max": 0,
            "description": ("addition in text (Sabbaghi 3.3): encoder, Sabbaghi format l=16, 1..5-digit "
                            "sums shifted by zeros (A3), no text, the same model (2 arithmetic heads + "
                            "APE); seed {seed} (notebook 04)")},
        "text-ape": {"model.arithmetic_heads": 0, "seeds": (0,),
            "description": ("addition in text (Sabbaghi 3.3): encoder, Sabbaghi format l=16, 1..5-digit "
                            "sums shifted by zeros (A3), 0..5 filler words per gap, APE only (no "
                            "arithmetic heads); seed {seed} (notebook 04)")},
    },
    axes={"filler": "task.filler_max", "arithmetic_heads": "model.arithmetic_heads"},
)


M1_PAPER = RecipeTable(
    prefix="nb04",
    base=MULTIPLICATION.recipe("upe-m1-f20"),
    variants={
        "upe-m1-f20-paper": {"title": "UPE, the paper's protocol (our lr 3e-3, no weight decay)",
            "task.sampler": "uniform", "task.train_set_size": 100000, "model.dropout": 0.1,
            "model.norm_placement": "post", "train.select_lengths": (10, 15), "train.select_every": 250,
            "description": ("Sabbaghi M1 with the paper's protocol: UPE without the window, 1-digit "
                            "multiplier, trained on <= 5 digits in the frame l = 20 with the uniform "
                            "sampler, 100k fixed products, dropout 0.1, post-LN and the best checkpoint on"
                            " 10- and 15-digit products; seed {seed}"), "tags": ("sabbaghi-m1-paper",),
            "roles": ("claim:sabbaghi-m1/upe-paper-protocol",)},
    },
)


_M2_PAPER_SCALE_ROWS = {"model.d_model": 256, "model.n_layers": 9, "model.d_ff": 1024, "train.warmup_steps": 500,
    "train.data_seeding": "per_step"}
M2_PAPER_SCALE = RecipeTable(
    prefix="sabbaghi",
    base=MULTIPLICATION.recipe("upe-m3-long-heads"),
    variants={
        "upe-m3-9l": {**_M2_PAPER_SCALE_ROWS, "train.steps": 9000, "train.batch_size": 128, "seeds": (0,),
            "description": ("Sabbaghi et al. M2 (Figure 5b), 3-digit multiplier x 1-5 digit multiplicands,"
                            " at the paper's depth (9 layers, 8 heads, d 256) with the course's best "
                            "recipe (UPE, window 3, multiplier curriculum, carry and product read-outs), "
                            "trained on a GPU; seed {seed}"), "tags": ("gpu", "paper-scale", "sabbaghi-m2-k3"),
            "roles": ("claim:sabbaghi-m2/x-visible", "reproduces:sabbaghi-m2-k3",
                      "reference:sabbaghi-m2-k3", "departures:m3-recipe")},
        "upe-m3-masked": {"title": "cut short by the time bound",
            **_M2_PAPER_SCALE_ROWS, "task.mask_operator": True, "train.steps": 12000,
            "train.batch_size": 128, "seeds": (0,),
            "eval_lengths": (1, 3, 5, 6, 8, 10, 12, 14, 15, 16, 17, 18, 19),
            "description": ("Sabbaghi et al. M2 at the paper's depth (9 layers, d 256) with the course's "
                            "best recipe and the operator hidden from every query (the fix for the "
                            "collapse past 14 digits), trained on a GPU; seed {seed}"),
            "tags": ("gpu", "paper-scale", "sabbaghi-m2-k3"),
            "roles": ("claim:sabbaghi-m2/masked", "reproduces:sabbaghi-m2-k3",
                      "departures:m3-recipe", "departures:masked-operator")},
        "upe-m3-annealed": {"title": "schedule to its end, 128 per step",
            **_M2_PAPER_SCALE_ROWS, "task.mask_operator": True, "train.steps": 10000,
            "train.batch_size": 128, "eval_lengths": (1, 3, 5, 6, 8, 10, 12, 14, 15, 16, 17, 18, 19),
            "description": ("Sabbaghi et al. M2 at the paper's depth (9 layers, d 256) with the course's "
                            "best recipe and the operator hidden from every query, 10,000 steps planned so"
                            " that the schedule completes; trained on a GPU, recorded, not stored; seed "
                            "{seed}"), "tags": ("gpu", "paper-scale", "sabbaghi-m2-k3", "record-only"),
            "roles": ("claim:sabbaghi-m2/annealed", "reproduces:sabbaghi-m2-k3",
                      "departures:m3-recipe", "departures:masked-operator")},
        "upe-m3-b256": {"title": "schedule to its end, 256 per step",
            **_M2_PAPER_SCALE_ROWS, "task.mask_operator": True, "train.steps": 8000,
            "train.batch_size": 256, "eval_lengths": (1, 3, 5, 6, 8, 10, 12, 14, 15, 16, 17, 18, 19),
            "description": ("Sabbaghi et al. M2 at the paper's depth (9 layers, d 256) with the course's "
                            "best recipe and the operator hidden from every query, 8,000 steps of 256 "
                            "problems; trained on a GPU, recorded, not stored; seed {seed}"),
            "tags": ("gpu", "paper-scale", "sabbaghi-m2-k3", "record-only"),
            "roles": ("claim:sabbaghi-m2/b256", "reproduces:sabbaghi-m2-k3",
                      "departures:m3-recipe", "departures:masked-operator")},
    },
    axes={"mask_operator": "task.mask_operator"},
)


TABLES: tuple[RecipeTable, ...] = (MULTIPLICATION, TEXT, M1_PAPER, M2_PAPER_SCALE)

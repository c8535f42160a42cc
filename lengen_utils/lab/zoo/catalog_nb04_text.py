"""Zoo entries of notebook 04, Section 3.3 of Sabbaghi et al.: arithmetic inside text (filler tokens).

Task: Sabbaghi's addition format (eq. 3.1) in a frame of l = ``NB04T_FRAME`` places, operands of 1..5
digits (balanced lengths) shifted by zeros to at most l-1 digits (A3), as notebook 03's
``nb03-rpe-shift-l5``; with text, 0..``NB04T_FILLER`` random words (lengen_utils.core.formats.TEXT_TOKENS) before
``a``, between ``a`` and ``+``, and after ``b`` (:mod:`lengen_utils.core.text_filler`), in training and in the
tests (each test problem's words are fixed by the problem).

Model: notebook 03's encoder (2 layers, 4 heads, d_model 64, d_ff 128, 2,500 steps of 64, lr 3e-3) with
learned absolute positions over the raw positions (APE, text included) and ``arithmetic_heads = 2``:
in every layer the first 2 heads add relative key vectors indexed by the frame-ID difference (the
significance difference) among number tokens only (:mod:`lengen_utils.core.model.arithmetic_heads`).

* ``nb04-text-add-s*``   text + arithmetic heads (Figure 7a at CPU scale);
* ``nb04-notext-add-s*`` the same model on the same numbers without text (the baseline);
* ``nb04-text-ape-s0``   text, APE only (no arithmetic heads): what the arithmetic heads add.

The "original implementation in Figure 2b" that Sabbaghi et al. compare Figure 7a with is notebook 03's
``nb03-rpe-shift-l5`` (RPE in every head, no APE, no text; frame l = 22).

Departures from the paper: 0..5 words per gap instead of "up to 20"; a 2-layer, 4-head CPU model whose
arithmetic heads are 2 of the 4 (the paper adds heads to a 6-layer, 8-head BERT); frame l = 16 (tests
to 16 digits, 3x the trained length at 15); final checkpoints, no selection on a validation set.
"""
from __future__ import annotations

from ...core.model import ModelConfig
from ...core.task_config import TaskConfig
from ...core.text_filler import filled_length
from ...core.train import TrainConfig
from ...core.vocab import TEXT_VOCAB_SIZE
from .recipe import Recipe
from .registry import entry_for, register_recipe

NB04T_FRAME = 16                   # Sabbaghi's l
NB04T_FILLER = 5                   # words per gap: 0..5 before a, between a and +, after b
NB04T_TRAINED = 5
NB04T_HEADS = 2                    # arithmetic heads of the 4
NB04T_SEEDS = (0, 1, 2)
NB04T_EVAL_LENGTHS = (1, 3, 5, 6, 8, 10, 12, 14, 15, 16)
NB04T_EVAL_N = 500
_MAX_POSITION = filled_length(NB04T_FRAME, NB04T_FILLER) - 1      # raw positions 0..T-1 of the longest input


#: ``{kind: recipe}``: "text" (text + arithmetic heads), "notext" (same model, no text), "ape" (text, APE only)
NB04T_RECIPES = {"text": "nb04-text-add", "notext": "nb04-notext-add", "ape": "nb04-text-ape"}


def nb04t_name(kind: str, seed: int = 0) -> str:
    """The entry of ``kind`` (a key of :data:`NB04T_RECIPES`) trained with ``seed``."""
    return entry_for(NB04T_RECIPES[kind], seed).name


def nb04t_recipe(kind: str) -> Recipe:
    """Addition in text (Sabbaghi 3.3) with filler words and arithmetic heads, or one of its two controls."""
    filler = 0 if kind == "notext" else NB04T_FILLER
    heads = 0 if kind == "ape" else NB04T_HEADS
    what = {"text": f"0..{filler} filler words per gap, {heads} arithmetic heads (RPE among number tokens) + APE",
            "notext": f"no text, the same model ({heads} arithmetic heads + APE)",
            "ape": f"0..{filler} filler words per gap, APE only (no arithmetic heads)"}[kind]
    return Recipe(
        id=NB04T_RECIPES[kind],
        description=f"addition in text (Sabbaghi 3.3): encoder, Sabbaghi format l={NB04T_FRAME}, "
                    f"1..{NB04T_TRAINED}-digit sums shifted by zeros (A3), {what}; seed {{seed}} (notebook 04)",
        task=TaskConfig(op="+", format="sabbaghi", positions="consecutive", sampler="balanced",
                        max_digits=NB04T_TRAINED, frame_width=NB04T_FRAME, random_start=False,
                        max_position=_MAX_POSITION, eval_sampler="uniform", shift_augment=True,
                        shift_max_width=NB04T_FRAME - 1, filler_max=filler),
        model=ModelConfig(vocab_size=TEXT_VOCAB_SIZE, d_model=64, n_layers=2, n_heads=4, d_ff=128, causal=False,
                          encoding="learned", rpe_max_distance=2 * NB04T_FRAME + 1, max_positions=_MAX_POSITION + 1,
                          arithmetic_heads=heads),
        train=TrainConfig(steps=2500, batch_size=64, lr=3e-3, warmup_steps=100),
        seeds=(0,) if kind == "ape" else NB04T_SEEDS,
        eval_lengths=NB04T_EVAL_LENGTHS, eval_n=NB04T_EVAL_N, tags=("nb04", "nb04-text"),
    )


for _kind in NB04T_RECIPES:
    register_recipe(nb04t_recipe(_kind))

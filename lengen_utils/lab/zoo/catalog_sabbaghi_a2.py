"""Sabbaghi A2 on the CPU, one change at a time toward the paper (tag ``sabbaghi-a2``, notebook 03).

RPE on addition, trained on sums of <= 5 digits without augmentation, in the frame l = 50 (it holds the 40-digit
test), at the course's size (notebook 03's 2-layer, 64-wide encoder, 2,500 steps of 64). Each rung adds one of the
paper's choices to the one before (Sabbaghi et al. App. B), so the table says what each one changes:

1. ``a2-ours``: the course's recipe (balanced sampler, fresh problems every step, no dropout, pre-LN, the final
   checkpoint);
2. ``a2-uniform``: the paper's sampler, uniform over D_s (both operands below 10^5: two 5-digit operands in 81%);
3. ``a2-fixed``: a fixed set of 100k such sums (the paper's data set), batches drawn from it;
4. ``a2-dropout``: dropout 0.1 (BERT's: attention probabilities, attention and MLP outputs, embeddings);
5. ``a2-postln``: BERT's post-LN blocks;
6. ``a2-select``: the paper's checkpoint choice, the best on a small validation set of longer sums (10-40 digits);
7. ``a2-window``: the structural fix, on top of the paper's recipe: the attention window (w = 2) centred on the
   query's own column in both operands (IDs +-(l + 1) away), so every query sees the same neighbourhood at every
   length (notebook 03 explains it from the attention mass on offsets that training filled only with pad).

Kept from the course's recipe at every rung (labelled departures from the paper): the size (2 layers, d 64 against 6
layers, d 768), the learning rate (3e-3 against 1e-4) and the steps, so that each run takes minutes on one thread.
"""
from __future__ import annotations

from .registry import get_recipe, register_recipe

A2_FRAME = 50
A2_SEEDS = (0, 1, 2)
A2_TAG = "sabbaghi-a2"
A2_LENGTHS = (1, 3, 5, 6, 8, 10, 15, 20, 25, 30, 35, 40)

#: the rungs, in order: (recipe id, the overrides this rung adds, what it changes)
A2_RUNGS: tuple[tuple[str, tuple[str, ...], str], ...] = (
    ("a2-ours", (), "the course's recipe"),
    ("a2-uniform", ("task.sampler=uniform",), "+ the paper's sampler (uniform over D_s)"),
    ("a2-fixed", ("task.train_set_size=100000",), "+ a fixed set of 100k sums"),
    ("a2-dropout", ("model.dropout=0.1",), "+ dropout 0.1"),
    ("a2-postln", ("model.norm_placement=post",), "+ post-LN (BERT)"),
    ("a2-select", ("train.select_lengths=[10, 20, 30, 40]", "train.select_every=250"),
     "+ the best checkpoint on longer sums"),
    ("a2-window", ("model.attention_window=2", f"model.window_offsets=[{A2_FRAME + 1}, {-(A2_FRAME + 1)}]"),
     "+ the aligned attention window (ours)"),
)


def _register_rungs() -> dict[str, str]:
    base = get_recipe("nb03-rpe-l5").derive(
        "a2-ours", f"task.frame_width={A2_FRAME}", f"task.max_position={2 * A2_FRAME + 2}",
        f"model.rpe_max_distance={2 * A2_FRAME + 1}", f"model.max_positions={2 * A2_FRAME + 3}",
        seeds=A2_SEEDS, eval_lengths=A2_LENGTHS, eval_n=500, tags=(A2_TAG,),
        description=f"Sabbaghi A2 ladder, rung 1 (the course's recipe): RPE encoder, 2 layers, d 64, frame "
                    f"l = {A2_FRAME}, trained on 1-5 digit sums; seed {{seed}}")
    rungs, overrides = {}, []
    for number, (rung, added, change) in enumerate(A2_RUNGS, start=1):
        overrides += list(added)
        recipe = base if rung == "a2-ours" else base.derive(
            rung, *overrides, seeds=A2_SEEDS, eval_lengths=A2_LENGTHS, eval_n=500, tags=(A2_TAG,),
            description=f"Sabbaghi A2 ladder, rung {number} ({change}): RPE encoder, 2 layers, d 64, frame "
                        f"l = {A2_FRAME}, trained on 1-5 digit sums; seed {{seed}}")
        rungs[rung] = register_recipe(recipe).id
    return rungs


#: ``{rung: recipe id}`` in the ladder's order
A2_RECIPES = _register_rungs()


# == Sabbaghi M1 with the paper's protocol: the 1-digit UPE model without the window (notebook 04's nb04-upe-m1-f20)
# and the paper's choices of the A2 ladder's rungs 2-6 at once (uniform sampler, 100k fixed set, dropout 0.1, post-LN,
# the best checkpoint on longer products). Does the paper's UPE alone reach 3x? (tag sabbaghi-m1-paper)
M1_PAPER = register_recipe(get_recipe("nb04-upe-m1-f20").derive(
    "nb04-upe-m1-f20-paper", "task.sampler=uniform", "task.train_set_size=100000", "model.dropout=0.1",
    "model.norm_placement=post", "train.select_lengths=[10, 15]", "train.select_every=250",
    seeds=A2_SEEDS, tags=("sabbaghi-m1-paper",),
    description="Sabbaghi M1 with the paper's protocol: UPE without the window, 1-digit multiplier, trained on <= 5 "
                "digits in the frame l = 20 with the uniform sampler, 100k fixed products, dropout 0.1, post-LN and "
                "the best checkpoint on 10- and 15-digit products; seed {seed}"))

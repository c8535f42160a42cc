"""Zoo entries of notebook 05: position coupling (Cho et al.) as published, and the way to our variant."""
from __future__ import annotations

from ...core.config_checks import require_int
from .flagship import BATCH as FLAGSHIP_BATCH
from .flagship import coupled_recipe, flagship_recipe
from .recipe import Recipe
from .registry import register_recipe

#: the two bases: our coupled variant (``nb05-both`` is it) and the flagship (that variant with the sink, IDs to 128)
VARIANT = Recipe.from_entry(coupled_recipe(), id="coupled-variant")
FLAGSHIP = Recipe.from_entry(flagship_recipe(), id="flagship")

# == notebook 05: position coupling as published, and the ablation to the flagship ===================
# Cho et al. Section 3 at the flagship's CPU budget (1 layer, 4 heads, d 64, 2,000 steps of 128 problems,
# 1-10 digit sums, balanced sampling, random start in training, start 1 at evaluation), 3 seeds each:
# "plain" is the published method (learned table over coupled IDs, no bias, one problem per sequence);
# "bias" adds the coupled relative bias, "pack" adds packing, "both" is the flagship recipe itself
# (coupled_recipe, only the name, tags and test lengths differ).
NB05_LENGTHS = (5, 10, 15, 20, 25, 30, 40)
NB05_SEEDS = (0, 1, 2)
NB05_METHODS = {
    "plain": "plain position coupling as published (Cho et al.): learned table over coupled IDs, no "
             "relative bias, one problem per sequence",
    "bias": "position coupling + coupled relative bias (clip 8, x20), one problem per sequence",
    "pack": "position coupling + packing (4 problems per sequence, disjoint ID ranges), no relative bias",
    "both": "position coupling + coupled relative bias + packing (the flagship recipe)",
}


# Plain coupling and our variant also stand in section 5's leaderboard of baselines (tag nb05-baselines).
BASELINE_TAGS = {"plain": ("nb05-baselines",), "both": ("nb05-baselines",)}


def ablation_recipe(method: str) -> Recipe:
    """``nb05-{method}``: our variant without the bias (``plain``, ``pack``) and/or without packing (``plain``,
    ``bias``: one problem per sequence, 128 sequences per step)."""
    overrides = []
    if method in ("plain", "bias"):
        overrides += ["task.pack=1", f"train.batch_size={FLAGSHIP_BATCH}"]
    if method in ("plain", "pack"):
        overrides += ["model.relative_bias=false"]
    return VARIANT.derive(f"nb05-{method}", *overrides, seeds=NB05_SEEDS, eval_lengths=NB05_LENGTHS,
                          tags=("nb05",) + BASELINE_TAGS.get(method, ()),
                          description=f"{NB05_METHODS[method]}; 1-10 digit sums, seed {{seed}} (notebook 05)")


#: the ablation (section 3): ``{method: recipe}``, ``"plain"`` -> ``"nb05-plain"``
ABLATION_RECIPES: dict[str, str] = {m: register_recipe(ablation_recipe(m)).id for m in NB05_METHODS}
PLAIN = ablation_recipe("plain")


# == notebook 05, section 6: depth (Cho et al. Figure 4) ===============================================
# Plain coupling (the nb05-plain recipe: no bias, no packing) with 2 and 3 layers at the same budget
# (2,000 steps of 128 problems, same data, lr, seeds); the 1-layer row is nb05-plain-s*. Tag nb05-depth.
NB05_DEPTHS = (2, 3)
#: depth (section 6): ``{layers: recipe}`` of plain coupling with 2 and 3 layers, ``2`` -> ``"nb05-plain-2l"``
DEPTH_RECIPES: dict[int, str] = {layers: register_recipe(PLAIN.derive(
    f"nb05-plain-{layers}l", f"model.n_layers={layers}", tags=("nb05-depth",),
    description=f"plain position coupling (Cho et al.) with {layers} layers, 4 heads; 1-10 digit sums, seed {{seed}} "
                f"(notebook 05, depth, Cho Figure 4)")).id for layers in NB05_DEPTHS}


# == notebook 05, section 7: N x 2 multiplication (Cho et al. Section 6.1) =============================
# Cho's format (operands most significant first, the multiplier zero-padded to 2 digits, the product
# reversed and zero-padded to N + 2 digits) and coupled IDs (equal significance, equal ID), the
# multiplicand of 1..10 digits (balanced sampling), the multiplier uniform in 0..99. Plain coupling
# (learned table, no bias, no packing), 4 heads, d 64, at one budget for 1 and 2 layers. IDs up to 64:
# tests up to 60-digit multiplicands fit. Tag nb05-mul-cho (our recipe: catalog_nb05_mul, tag nb05-mul).
NB05_MUL_LENGTHS = (5, 10, 15, 20, 25, 30, 40)
NB05_MUL_LAYERS = (1, 2)
NB05_MUL_STEPS = 2000          # the addition entries' budget (tag nb05-mul)
NB05_MUL_LONG_STEPS = 6000     # 3x that budget, for the 2-layer model that fails at 2,000 (tag nb05-mul-long)


def cho_mul_recipe(layers: int, steps: int = NB05_MUL_STEPS) -> Recipe:
    """Plain coupling on N x 2 multiplication with ``layers`` layers and ``steps`` steps (``-long`` past 2,000)."""
    long = steps != NB05_MUL_STEPS
    return PLAIN.derive(
        f"nb05-mul-{layers}l{'-long' if long else ''}", 'task.op="*"', "task.multiplier_digits=2",
        f"model.n_layers={layers}", f"train.steps={steps}", eval_lengths=NB05_MUL_LENGTHS,
        tags=("nb05-mul-long" if long else "nb05-mul-cho",),
        description=f"N x 2 multiplication (Cho et al. Section 6.1), plain position coupling, {layers} layer(s), "
                    f"4 heads, {steps:,} steps; multiplicand 1-10 digits, seed {{seed}} (notebook 05)")


#: N x 2 multiplication as published (section 7): ``{(layers, steps): recipe}``, ``(2, 6000)`` -> ``"nb05-mul-2l-long"``
CHO_MUL_RECIPES: dict[tuple[int, int], str] = {
    (layers, steps): register_recipe(cho_mul_recipe(layers, steps)).id
    for layers in NB05_MUL_LAYERS for steps in (NB05_MUL_STEPS, NB05_MUL_LONG_STEPS)}


# == notebook 05, section 4: trained length vs generalizable length (Cho et al. Figure 3) ==============
# Our variant (coupled_recipe: coupled IDs + relative bias + packing 4), trained on 1-5, 1-10 and 1-15
# digit sums with IDs up to 128 (instead of 64) so that tests reach 120 digits. Same budget for each
# trained length: 2,000 steps of 128 problems. Tag nb05-trained. The raised flagship is judged over 5 seeds:
# the 1-10 digit recipe has two more.
NB05_TRAINED = (5, 10, 15)
NB05_TRAINED_MAX_POSITION = 128
NB05_TRAINED_LENGTHS = (5, 10, 15, 20, 30, 40, 50, 60, 80, 100, 120)
NB05_FLAGSHIP_SEEDS = NB05_SEEDS + (3, 4)


def trained_length_recipe(digits: int) -> Recipe:
    """Our variant trained on 1-``digits`` digit sums with IDs up to 128 (``digits`` an int: ``'10'`` is refused,
    not formatted into the overrides)."""
    digits = require_int(digits, "digits")
    return VARIANT.derive(
        f"nb05-len{digits}", f"task.max_digits={digits}", f"task.max_position={NB05_TRAINED_MAX_POSITION}",
        f"model.max_positions={NB05_TRAINED_MAX_POSITION + 1}",
        seeds=NB05_FLAGSHIP_SEEDS if digits == 10 else NB05_SEEDS, eval_lengths=NB05_TRAINED_LENGTHS, eval_n=500,
        tags=("nb05-trained",),
        description=f"position coupling + relative bias + packing (our variant), 1-{digits} digit sums, IDs up to "
                    f"{NB05_TRAINED_MAX_POSITION}, seed {{seed}} (notebook 05, Cho Figure 3)")


#: Figure 3 (section 4): ``{trained length: recipe}`` of our variant, ``10`` -> ``"nb05-len10"``
TRAINED_LENGTH_RECIPES: dict[int, str] = {d: register_recipe(trained_length_recipe(d)).id for d in NB05_TRAINED}


# == the raised flagship: a sink for the final carry =====================================================
# The nb05-len10 recipe (our variant, IDs up to 128, 1-10 digit sums) with the position scheme coupled_sink:
# '$' moves with the random start, one below the lowest digit ID, where the final carry looks for the digits
# "one below" it (docs/logs/flagship-log.md, "what the evaluation start says"). Same budget, same test sets;
# 5 seeds, as the raised flagship's target is judged: these are the flagship's seeds (flagship_recipe;
# flagship-coupled is another name of nb05-sink-s0, zoo/aliases.py). Tag nb05-sink.
NB05_SINK_SEEDS = (0, 1, 2, 3, 4)
NB05_SINK_LENGTHS = tuple(sorted(NB05_TRAINED_LENGTHS + (70,)))   # 70: the raised flagship's target length
# Figure 3 again with the sink: the same recipe trained on 1-5 and 1-15 digit sums (3 seeds; the 1-10 point is
# nb05-sink-s*), tested as nb05-len*. Tag nb05-sink-trained.
NB05_SINK_TRAINED = (5, 15)


def sink_recipe(digits: int = 10) -> Recipe:
    """``nb05-sink`` (1-10 digits, the flagship's recipe and seeds) or ``nb05-sink-len{digits}`` (``digits`` an
    int)."""
    digits = require_int(digits, "digits")
    if digits == FLAGSHIP.task.max_digits:
        rid, lengths, tag, seeds = "nb05-sink", NB05_SINK_LENGTHS, "nb05-sink", NB05_SINK_SEEDS
        sink, why = "$ as the final carry's sink (coupled_sink)", "raised flagship"
    else:
        rid, lengths, tag, seeds = f"nb05-sink-len{digits}", NB05_TRAINED_LENGTHS, "nb05-sink-trained", NB05_SEEDS
        sink, why = "$ as the final carry's sink", "Cho Figure 3 with the sink"
    return FLAGSHIP.derive(
        rid, f"task.max_digits={digits}", seeds=seeds, eval_lengths=lengths, eval_n=500, tags=(tag,),
        description=f"position coupling with {sink} + relative bias + packing, 1-{digits} digit sums, IDs up to "
                    f"{NB05_TRAINED_MAX_POSITION}, seed {{seed}} (notebook 05, {why})")


#: the sink: ``{trained length: recipe}``, ``10`` -> ``"nb05-sink"`` (the raised flagship), ``5`` ->
#: ``"nb05-sink-len5"``
SINK_RECIPES: dict[int, str] = dict(sorted({d: register_recipe(sink_recipe(d)).id
                                            for d in (10,) + NB05_SINK_TRAINED}.items()))   # the flagship first

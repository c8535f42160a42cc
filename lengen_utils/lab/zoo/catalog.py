"""The zoo's entries: every cached model of the course, as config + seed.

Each notebook's entries sit in their own section; notebooks 04 and 05 have their own modules
(:mod:`.catalog_nb04`, :mod:`.catalog_nb05`), imported at the end so that their entries register too.
Changing an entry means rebuilding it (``python -m lengen_utils.lab.zoo train NAME``); ``verify`` refuses a
manifest that no longer matches.
"""
from __future__ import annotations

from ...core.model import ModelConfig
from ...core.task_config import TaskConfig
from ...core.train import TrainConfig
from .aliases import add_alias
from .flagship import ape_recipe, flagship_recipe, minute_recipe, reach_recipe
from .recipe import Recipe
from .registry import ENTRIES, catalog, entry, register, register_recipe

# == flagship: Cho et al. Section 4 at CPU scale (python -m lengen_utils.lab.bench flagship) ==============
# Each flagship model is one seed of a notebook-05 recipe, trained and stored once under that name: the flagship's
# names are aliases (:mod:`.aliases`). tests/test_recipes.py checks that each alias's entry is the recipe function's.
#: ``{model: name}`` of the flagship comparison (``"coupled"`` -> ``"flagship-coupled"``, ``"ape"``); each name is an
#: alias, and as a recipe stands for its entry's seeds (``recipe_entries("flagship-coupled")``: ``nb05-sink-s0..4``)
FLAGSHIP_RECIPES: dict[str, str] = {"coupled": add_alias(flagship_recipe().name, "nb05-sink-s0"),
                                    "ape": add_alias(ape_recipe().name, "nb05-base-ape-s0")}

# == the flagship without its table: 1000-digit sums (python -m lengen_utils.lab.bench leaderboard --tag flagship-seeds)
FLAGSHIP_SEEDS = (0, 1, 2, 3, 4)
register_recipe(Recipe.from_entry(reach_recipe(), seeds=FLAGSHIP_SEEDS))
# the same decoder trained for time (python -m lengen_utils.lab.bench flagship-time): the learner's retrain button
register_recipe(Recipe.from_entry(minute_recipe(), seeds=FLAGSHIP_SEEDS))
# what the reach depends on (notebook 05, "Do we need the table at all?"): the same decoder without the scalable
# softmax, with 4, 8 or 16 problems per training sequence (the same 128 problems per step); seed 0
REACH_PACKS = (4, 8, 16)
#: ``{problems per sequence: recipe}`` of those decoders (``8`` -> ``"nb05-reach-pack8"``)
REACH_PACK_RECIPES: dict[int, str] = {
    pack: register_recipe(Recipe.from_entry(reach_recipe(seed=0, pack=pack, length_scale=False)).derive(
        f"nb05-reach-pack{pack}", seeds=(0,), tags=("nb05-reach",), eval_n=200)).id for pack in REACH_PACKS}

# == smoke: the entry CI retrains end to end (tens of seconds on 2 cores) ========================
register_recipe(Recipe(
    id="smoke-coupled-3", seed_in_name=False,
    description="tiny coupled decoder on 1-3 digit sums; CI retrains it to check the zoo end to end",
    task=TaskConfig(format="cho", positions="coupled", max_digits=3, max_position=16),
    model=ModelConfig(d_model=32, n_heads=2, d_ff=64, max_positions=17),
    train=TrainConfig(steps=400, batch_size=64, lr=3e-3, warmup_steps=20),
    eval_lengths=(1, 2, 3, 4, 6), eval_n=300, tags=("smoke",),
))

# == notebook 02: APE on <= l digits (Sabbaghi format) =================================================
# A 2-layer encoder with learned absolute positions (consecutive IDs) in Sabbaghi's frame l = 20, one
# entry per trained length (the notebook's slider) and one with the zero-shift augmentation (A3).
# Departure from the paper: operand lengths are drawn uniformly in 1..k before the digits (Cho's
# balanced sampling) instead of uniform numbers below 10^k, so that short numbers are in D_s too; the
# same recipe is used for RPE in notebook 03, where it is what makes RPE generalize at CPU scale.
NB02_FRAME = 20
NB02_TRAINED = (2, 3, 4, 5, 6, 8, 10)


def _nb02_ape(k: int, shift: bool = False) -> Recipe:
    what = " with zero-shift augmentation (Sabbaghi A3)" if shift else ""
    return register_recipe(Recipe(
        id=f"nb02-ape{'-shift' if shift else ''}-l{k}", seed_in_name=False,
        description=f"APE encoder (learned absolute positions), Sabbaghi format l={NB02_FRAME}, trained on "
                    f"1..{k}-digit sums{what}",
        task=TaskConfig(op="+", format="sabbaghi", positions="consecutive", sampler="balanced", max_digits=k,
                        frame_width=NB02_FRAME, random_start=False, max_position=2 * NB02_FRAME + 2,
                        shift_augment=shift, eval_sampler="uniform"),
        model=ModelConfig(d_model=64, n_layers=2, n_heads=4, d_ff=128, causal=False, encoding="learned",
                          max_positions=2 * NB02_FRAME + 3),
        train=TrainConfig(steps=1500, batch_size=64, lr=2e-3, warmup_steps=100),
        eval_lengths=tuple(range(1, NB02_FRAME + 1)), eval_n=1000 if k == 5 else 500, tags=("nb02",),
    ))


#: ``{trained length: recipe}`` of the APE encoders (the slider; ``5`` -> ``"nb02-ape-l5"``)
NB02_APE_RECIPES: dict[int, str] = {k: _nb02_ape(k).id for k in NB02_TRAINED}
_nb02_ape(5, shift=True)

# == notebook 03: RPE and the encoding comparison ======================================================
# The encoder of notebook 02 with Shaw-style relative vectors on the keys (Sabbaghi eq. 2.1), in a frame
# l = NB03_FRAME wider than the 20-digit tests, offsets up to 2l+1 (none clipped); one entry per trained
# length for the slider, and APE / NoPE / RoPE / ALiBi at the same task, size, budget and seed.
NB03_FRAME = 22
NB03_TRAINED = (3, 5, 8)
NB03_ENCODINGS = ("rpe", "learned", "none", "rope", "alibi")
_NB03_LABEL = {"rpe": "rpe", "learned": "ape", "none": "nope", "rope": "rope", "alibi": "alibi"}


def _nb03(k: int, encoding: str = "rpe", shift: bool = False) -> Recipe:
    # shift: Sabbaghi's zero-shift augmentation (A3), numbers shifted to at most l-1 digits so that the
    # full frame width stays unseen
    return register_recipe(Recipe(
        id=f"nb03-{_NB03_LABEL[encoding]}{'-shift' if shift else ''}-l{k}", seed_in_name=False,
        description=f"{_NB03_LABEL[encoding].upper()} encoder, Sabbaghi format l={NB03_FRAME}, trained on 1..{k}-digit "
                    f"sums{' shifted by zeros to at most l-1 digits (A3)' if shift else ''} (notebook 03)",
        task=TaskConfig(op="+", format="sabbaghi", positions="consecutive", sampler="balanced", max_digits=k,
                        frame_width=NB03_FRAME, random_start=False, max_position=2 * NB03_FRAME + 2,
                        eval_sampler="uniform", shift_augment=shift,
                        shift_max_width=NB03_FRAME - 1 if shift else None),
        model=ModelConfig(d_model=64, n_layers=2, n_heads=4, d_ff=128, causal=False, encoding=encoding,
                          rpe_max_distance=2 * NB03_FRAME + 1, max_positions=2 * NB03_FRAME + 3),
        train=TrainConfig(steps=2500, batch_size=64, lr=3e-3, warmup_steps=100),
        eval_lengths=tuple(range(1, NB03_FRAME + 1)), eval_n=1000 if k == 5 else 500, tags=("nb03",),
    ))


#: ``{trained length: recipe}`` of the RPE encoders (the slider; ``5`` -> ``"nb03-rpe-l5"``)
NB03_RPE_RECIPES: dict[int, str] = {k: _nb03(k).id for k in NB03_TRAINED}
#: ``{encoding: recipe}`` of the comparison on 1..5 digits (``"none"`` -> ``"nb03-nope-l5"``; RPE is the slider's)
NB03_ENCODING_RECIPES: dict[str, str] = {"rpe": NB03_RPE_RECIPES[5],
                                         **{enc: _nb03(5, enc).id for enc in NB03_ENCODINGS[1:]}}
_nb03(5, shift=True)

# == notebook 06: complexity-aware training ============================================================
# Three RPE encoders in Sabbaghi's format (frame l = 24), trained on operands below 10^5 with the same
# budget and seed, differing only in the training distribution (Sabbaghi C3, Figure 8c). Departure from
# the paper, to generalise after ~3 CPU minutes: the zero-shift augmentation (A3) is on and a T5-style
# scalar relative bias (scaled x10) sits beside Shaw's relative key vectors.
NB06_FRAME = 24


def _nb06(name: str, sampler: str, what: str) -> Recipe:
    return register_recipe(Recipe(
        id=name, seed_in_name=False,
        description=f"RPE encoder, Sabbaghi format l={NB06_FRAME}, operands < 10^5 drawn {what} (Sabbaghi C3)",
        task=TaskConfig(op="+", format="sabbaghi", positions="consecutive", sampler=sampler, max_digits=5,
                        frame_width=NB06_FRAME, random_start=False, max_position=2 * NB06_FRAME + 2,
                        shift_augment=True),
        model=ModelConfig(d_model=64, n_layers=2, n_heads=4, d_ff=256, causal=False, encoding="rpe",
                          rpe_max_distance=NB06_FRAME + 2, relative_bias=True,
                          relative_bias_max_distance=NB06_FRAME + 2, relative_bias_scale=10.0,
                          max_positions=2 * NB06_FRAME + 3),
        train=TrainConfig(steps=1500, batch_size=64, lr=3e-3, warmup_steps=100),
        eval_lengths=(3, 5, 10, 15, 20, 22), eval_n=500, tags=("nb06",),
    ))


_nb06("nb06-rpe-uniform", "uniform", "uniformly (the paper's D_s)")
_nb06("nb06-rpe-uniform-complexity", "uniform_complexity", "uniformly over the cascade length 0..5")
_nb06("nb06-rpe-mixed-complexity", "mixed_complexity", "50/50 from the two distributions above")

# == notebook 07: theory (Cho Figure 7: a trained 1-layer 2-head coupled decoder) ======================
register_recipe(Recipe(
    id="nb07-coupled-1l2h", seed_in_name=False,
    description="1-layer 2-head coupled decoder on 1-5 digit sums (Cho format); its attention is set beside "
                "the hand-built adder of Cho Theorem 5.1 (Cho Figure 7)",
    task=TaskConfig(format="cho", positions="coupled", sampler="balanced", max_digits=5, max_position=20),
    model=ModelConfig(d_model=64, n_layers=1, n_heads=2, d_ff=256, max_positions=21),
    train=TrainConfig(steps=2000, batch_size=128, lr=3e-3, warmup_steps=100),
    eval_lengths=(1, 3, 5, 6, 8, 10, 15), eval_n=500, tags=("nb07",),
))


# == notebooks 04, 05 and 08, and the paper-scale GPU entries: their own modules (importing them registers them)
from . import (catalog_nb04, catalog_nb04_text, catalog_nb05, catalog_nb05_2d,  # noqa: E402,F401
               catalog_nb05_baselines, catalog_nb05_mul, catalog_nb08, catalog_gpu, catalog_sabbaghi_a2)

__all__ = ["ENTRIES", "catalog", "entry", "register"]

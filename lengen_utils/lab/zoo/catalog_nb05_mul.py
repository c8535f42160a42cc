"""Zoo entries of notebook 05, section 7: N x 2 multiplication (Cho et al. Section 6.1), our recipe.

The paper's recipe at our scale (plain coupling, tag ``nb05-mul-cho``) and our addition variant never master
1-10 digit multiplicands (``docs/logs/flagship-log.md``, ``docs/logs/nx2-log.md``). Our recipe changes three things,
each aimed at a measured weak spot (``docs/logs/nx2-log.md``):

* a uniform bias for the multiplier's digits (``relative_bias_uniform``): every product digit needs ``b0``
  and ``b1``, whose coupled IDs sit next to the operator, further away the longer the product, so each head
  gets one learned scalar per multiplier digit, at any distance (Sabbaghi et al.'s uniform idea, eq. 3.3,
  inside the coupled decoder);
* one problem per sequence (no packing): with 4 problems packed, 4 multipliers share that bias and the
  model tells its own apart by ID proximity, which fails past the trained product width;
* no absolute table (``encoding="none"``): the coupled relative bias carries all the position information;
  with the learned table on top, the large carries (10-17) stayed near chance.

Same task otherwise (Cho's format, multiplicand balanced over 1-10 digits, multiplier uniform in 0-99,
coupled IDs up to 64 so that 60-digit tests fit), d 64, 128 problems per step, lr 3e-3, for 1 and 2 layers at
the same budget (tag ``nb05-mul``). It has 8 heads per layer instead of 4: a product digit needs six tokens
(``b0``, ``b1`` and four multiplicand digits for the sum and its carry of up to 17), and with 4 heads the large
carries stayed the weak spot (Cho et al.'s Theorem 6.1 construction has 10 heads in its 2 layers).
"""
from __future__ import annotations

from .catalog_nb05 import VARIANT
from .flagship import BATCH
from .recipe import Recipe
from .registry import register_recipe

MUL_LENGTHS = (5, 10, 15, 20, 25, 30, 40)
MUL_LAYERS = (1, 2)
MUL_SEEDS = (0, 1, 2)
MUL_STEPS = 8000
MUL_HEADS = 8                  # b0, b1 and four multiplicand digits to fetch: 4 heads were short (docs/logs/nx2-log.md)


def mul_uniform_recipe(layers: int) -> Recipe:
    """Our N x 2 recipe with ``layers`` layers, seeds ``MUL_SEEDS``: the coupled variant (one problem per
    sequence, 8 heads, no table, the multiplier's uniform bias) on ``a x b`` with ``b`` of 2 digits."""
    return VARIANT.derive(
        f"nb05-mulu-{layers}l", 'task.op="*"', "task.multiplier_digits=2", "task.pack=1",
        f"model.n_layers={layers}", f"model.n_heads={MUL_HEADS}", 'model.encoding="none"',
        "model.relative_bias_uniform=true", f"train.steps={MUL_STEPS}", f"train.batch_size={BATCH}", "train.lr=0.003",
        seeds=MUL_SEEDS, eval_lengths=MUL_LENGTHS, eval_n=500, tags=("nb05-mul",),
        description=f"N x 2 multiplication (Cho et al. 6.1), our recipe: coupled relative bias with a uniform entry "
                    f"for the multiplier's digits, no absolute table, one problem per sequence; {layers} layer(s), "
                    f"{MUL_HEADS} heads, {MUL_STEPS:,} steps; multiplicand 1-10 digits, seed {{seed}} (notebook 05)")


#: ``{layers: recipe}`` of our N x 2 recipe (``2`` -> ``"nb05-mulu-2l"``)
MUL_RECIPES: dict[int, str] = {layers: register_recipe(mul_uniform_recipe(layers)).id for layers in MUL_LAYERS}

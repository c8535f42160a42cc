"""Zoo entries at the papers' scale, trained on a GPU (tag ``gpu``; issue 24).

Each is built with ``python -m lengen_utils.zoo train --device cuda NAME`` on an NVIDIA GPU; ``zoo train`` and
``zoo verify`` refuse them on a machine without one. CI checks a cached file's sha256 and evaluates it briefly on
the CPU (tests/test_gpu_entries.py). The departures from the papers, each for a reason:

* ``cho-addition-1to30``: Cho et al.'s Section 4 model (1 layer, 4 heads, d 512, d_ff 2048, operands of
  1-30 digits, coupled IDs up to 202), trained with our flagship's recipe instead of 50k steps x batch 1000:
  the coupled relative bias (clip 8), ``$`` as the final carry's sink, and 4 problems packed per sequence.
* ``sabbaghi-rpe-addition-5to50``: Sabbaghi et al.'s RPE encoder on 1-5 digit sums in the frame l = 50
  (their App. A: 6 layers, 8 heads, AdamW, batch 64). d 256 instead of 768 and no dropout: a 768-wide model
  is 85 MB even in float16, past what assets/ can hold; lr 3e-4 instead of 1e-4, for a budget of minutes.
* ``cho-mul-nx2-1to40``: Cho et al.'s Section 6.1 N x 2 multiplication with 2 layers, multiplicands of
  1-40 digits, with our N x 2 recipe (notebook 05, section 7: a uniform bias for the multiplier's digits,
  no absolute table, one problem per sequence) at d 256; coupled IDs up to 202, so that 100-digit
  multiplicands fit.
"""
from __future__ import annotations

from dataclasses import replace

from ..model import ModelConfig
from ..task_config import TaskConfig
from ..train import TrainConfig
from .catalog_nb05_mul import mul_uniform_entry
from .entry import GPU_TAG, ZooEntry
from .flagship import flagship_recipe
from .registry import register

CHO_ADD_SEEDS = (0, 1)
CHO_ADD_LENGTHS = (5, 10, 20, 30, 50, 100, 150, 200)
SABBAGHI_FRAME = 50
NX2_LENGTHS = (5, 10, 20, 30, 40, 50, 70, 100)


def cho_addition_entry(seed: int) -> ZooEntry:
    """Cho et al.'s addition model (1-30 digits, IDs to 202) with our flagship recipe, one seed."""
    base = flagship_recipe(seed=seed)
    task = replace(base.task, max_digits=30, max_position=202)
    model = replace(base.model, d_model=512, n_heads=4, d_ff=2048, max_positions=203)
    train = replace(base.train, steps=3000, batch_size=64, lr=5e-4, warmup_steps=300)   # 64 sequences of 4
    return ZooEntry(name=f"cho-addition-1to30-s{seed}", task=task, model=model, train=train,
                    eval_lengths=CHO_ADD_LENGTHS, eval_n=500, tags=(GPU_TAG, "paper-scale"),
                    description=f"Cho et al. Section 4 at the paper's size (1 layer, d 512, 4 heads, operands of "
                                f"1-30 digits, IDs to 202) with the flagship's recipe (coupled relative bias, the "
                                f"sink, packing), trained on a GPU; seed {seed}")


def sabbaghi_rpe_entry(seed: int = 0) -> ZooEntry:
    """Sabbaghi et al.'s RPE encoder (6 layers, 8 heads) on 1-5 digit sums in the frame l = 50."""
    l = SABBAGHI_FRAME
    return ZooEntry(
        name=f"sabbaghi-rpe-addition-5to50-s{seed}",
        task=TaskConfig(op="+", format="sabbaghi", positions="consecutive", sampler="balanced", max_digits=5,
                        frame_width=l, random_start=False, max_position=2 * l + 2, eval_sampler="uniform"),
        model=ModelConfig(d_model=256, n_layers=6, n_heads=8, d_ff=1024, causal=False, encoding="rpe",
                          rpe_max_distance=2 * l + 1, max_positions=2 * l + 3),
        train=TrainConfig(steps=4000, batch_size=64, lr=3e-4, weight_decay=1e-5, warmup_steps=300, seed=seed),
        eval_lengths=(1, 3, 5, 6, 8, 10, 15, 20, 30, 40, 50), eval_n=500, tags=(GPU_TAG, "paper-scale"),
        description=f"Sabbaghi et al.'s RPE encoder (6 layers, 8 heads, d 256) on 1-5 digit sums in the frame "
                    f"l = {l}, tested to {l} digits, trained on a GPU; seed {seed}")


def cho_nx2_entry(seed: int = 0) -> ZooEntry:
    """Cho et al.'s N x 2 multiplication with 2 layers on 1-40 digit multiplicands, our N x 2 recipe at d 256."""
    base = mul_uniform_entry(2, seed)
    task = replace(base.task, max_digits=40, max_position=202)
    model = replace(base.model, d_model=256, d_ff=1024, max_positions=203)
    train = replace(base.train, steps=8000, lr=1e-3, warmup_steps=400)
    return ZooEntry(name=f"cho-mul-nx2-1to40-s{seed}", task=task, model=model, train=train,
                    eval_lengths=NX2_LENGTHS, eval_n=500, tags=(GPU_TAG, "paper-scale"),
                    description=f"Cho et al. Section 6.1 N x 2 multiplication, 2 layers, multiplicands of 1-40 "
                                f"digits, our N x 2 recipe (uniform multiplier bias, no table) at d 256, trained on "
                                f"a GPU; seed {seed}")


for _seed in CHO_ADD_SEEDS:
    register(cho_addition_entry(_seed))
register(sabbaghi_rpe_entry(0))
register(cho_nx2_entry(0))

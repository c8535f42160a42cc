"""Zoo entries of notebook 05: position coupling (Cho et al.) as published, and the way to our variant."""
from __future__ import annotations

from dataclasses import replace

from .entry import ZooEntry
from .flagship import BATCH as FLAGSHIP_BATCH
from .flagship import coupled_recipe
from .registry import register

# == notebook 05: position coupling as published, and the ablation to the flagship ===================
# Cho et al. Section 3 at the flagship's CPU budget (1 layer, 4 heads, d 64, 2,000 steps of 128 problems,
# 1-10 digit sums, balanced sampling, random start in training, start 1 at evaluation), 3 seeds each:
# "plain" is the published method (learned table over coupled IDs, no bias, one problem per sequence);
# "bias" adds the coupled relative bias, "pack" adds packing, "both" is the flagship recipe itself
# (coupled_recipe, only the name, tags and test lengths differ; nb05-both-s0 trains as flagship-coupled).
NB05_LENGTHS = (5, 10, 15, 20, 25, 30, 40)
NB05_SEEDS = (0, 1, 2)
NB05_METHODS = {
    "plain": "plain position coupling as published (Cho et al.): learned table over coupled IDs, no "
             "relative bias, one problem per sequence",
    "bias": "position coupling + coupled relative bias (clip 8, x20), one problem per sequence",
    "pack": "position coupling + packing (4 problems per sequence, disjoint ID ranges), no relative bias",
    "both": "position coupling + coupled relative bias + packing (the flagship recipe)",
}


def _nb05(method: str, seed: int) -> ZooEntry:
    both = coupled_recipe(seed=seed)
    task, model, train = both.task, both.model, both.train
    if method in ("plain", "bias"):          # one problem per sequence: 128 sequences per step
        task = replace(task, pack=1)
        train = replace(train, batch_size=FLAGSHIP_BATCH)
    if method in ("plain", "pack"):
        model = replace(model, relative_bias=False)
    return register(replace(both, name=f"nb05-{method}-s{seed}", task=task, model=model, train=train,
                            eval_lengths=NB05_LENGTHS, tags=("nb05",),
                            description=f"{NB05_METHODS[method]}; 1-10 digit sums, seed {seed} (notebook 05)"))


for _method in NB05_METHODS:
    for _seed in NB05_SEEDS:
        _nb05(_method, _seed)

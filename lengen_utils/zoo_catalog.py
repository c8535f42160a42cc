"""The zoo's entries: every cached model of the course, as config + seed.

Each notebook's entries sit in their own section. Changing an entry means rebuilding it
(``python -m lengen_utils.zoo train NAME``); ``verify`` refuses a manifest that no longer matches.
"""
from __future__ import annotations

from .model import ModelConfig
from .tasks import TaskConfig
from .train import TrainConfig
from .zoo import ZooEntry

ENTRIES: dict[str, ZooEntry] = {}


def register(entry: ZooEntry) -> ZooEntry:
    if entry.name in ENTRIES:
        raise ValueError(f"zoo entry {entry.name!r} registered twice")
    ENTRIES[entry.name] = entry
    return entry


# == smoke: the entry CI retrains end to end (tens of seconds on 2 cores) ========================
register(ZooEntry(
    name="smoke-coupled-3",
    description="tiny coupled decoder on 1-3 digit sums; CI retrains it to check the zoo end to end",
    task=TaskConfig(format="cho", positions="coupled", max_digits=3, max_position=16),
    model=ModelConfig(d_model=32, n_heads=2, d_ff=64, max_positions=17),
    train=TrainConfig(steps=400, batch_size=64, lr=3e-3, warmup_steps=20, seed=0),
    eval_lengths=(1, 2, 3, 4, 6), eval_n=300, tags=("smoke",),
))

# == notebook 02: APE on <= l digits (Sabbaghi format) =================================================
# (added by the part-1 notebooks)

# == notebook 03: RPE and the encoding comparison ======================================================
# (added by the part-1 notebooks)

# == notebook 06: complexity-aware training ============================================================
# (added by the part-3 notebooks)

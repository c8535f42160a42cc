"""The flagship benchmark's recipes at a budget, with their overrides, checked before anything trains.

:func:`flagship_recipes` builds the coupled and the APE recipe (:mod:`lengen_utils.lab.zoo.flagship`) at a
number of steps and problems per step, with ``--set`` / ``--set-ape`` overrides applied by the zoo's one override
function (:func:`~lengen_utils.lab.zoo.with_overrides`); :func:`preflight` pushes one batch through each model, so that a config the model
cannot take, or test lengths its position table cannot place, fail before training.
:mod:`lengen_utils.lab.bench` trains and evaluates them.
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np

from ..core.constants import EVAL_SEED
from ..core.model import Transformer
from ..core.positions import PositionRangeError
from ..core.tasks import Task
from .zoo import ZooEntry, with_overrides
from .zoo.flagship import APE_STEPS, BATCH, STEPS, ape_recipe, flagship_recipe


def flagship_recipes(steps: int | None = None, batch_size: int = BATCH, seed: int = 0, overrides=(),
                     ape_overrides=()) -> dict[str, ZooEntry]:
    """The two recipes at this budget, with the overrides applied (``batch_size`` counts problems;
    ``steps`` None: each recipe's own, ``STEPS`` for the coupled decoder and ``APE_STEPS`` for APE)."""
    coupled = with_overrides(flagship_recipe(steps or STEPS, batch_size, seed), list(overrides))
    if not any(o.startswith("train.batch_size=") for o in overrides):   # keep `batch_size` problems per step
        coupled = replace(coupled, train=replace(coupled.train, batch_size=max(1, batch_size // coupled.task.pack)))
    ape = with_overrides(ape_recipe(steps or APE_STEPS, batch_size, seed), list(ape_overrides))
    return {"coupled": coupled, "ape": ape}


def preflight(recipe: ZooEntry, lengths) -> tuple[int, ...]:
    """Build the model and push one training batch and one test problem per length through it, so that a
    config the model cannot take fails now, with the library's message, not after training.

    Returns the lengths whose problems the position table can place; raises ``PositionRangeError`` (naming
    the table's limit) if it can place none of them."""
    task, model = Task(recipe.task), Transformer(recipe.model)
    model(**task.train_batch(np.random.default_rng(0), 1).model_inputs())
    longest = task.longest_operand()
    placed = tuple(n for n in lengths if n <= longest)
    if not placed:
        n, limit = min(lengths), task.config.max_position
        raise PositionRangeError(f"a {n}-digit test problem needs position IDs past max_position={limit}: the "
                                 f"position table places operands of at most {longest} digits")
    for length in placed:
        model(**task.batch(task.eval_problems(length, 1, EVAL_SEED)).model_inputs())
    return placed

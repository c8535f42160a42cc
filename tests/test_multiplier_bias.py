"""The relative bias with a uniform entry for the multiplier's digits (``relative_bias_uniform``, for N x 2)."""
from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
import torch

from lengen_utils.core.constants import IGNORE_INDEX
from lengen_utils.core.model import ConfigError, ModelConfig, Transformer, greedy_decode
from lengen_utils.core.model.encodings import RelativeScalarBias
from lengen_utils.core.problems import Problem
from lengen_utils.core.tasks import Task, TaskConfig

TASK = TaskConfig(op="*", format="cho", positions="coupled", multiplier_digits=2, max_digits=4, max_position=40,
                  pack=2)
MODEL = ModelConfig(n_layers=2, n_heads=2, d_model=16, d_ff=32, max_positions=41, relative_bias=True,
                    relative_bias_max_distance=3, relative_bias_uniform=True)


def test_multiplier_keys_get_their_slot_scalar_at_any_distance():
    module = RelativeScalarBias(MODEL)
    with torch.no_grad():
        module.bias.copy_(torch.arange(14.0).view(2, 7))
        module.uniform.copy_(torch.tensor([[0.0, 100.0, 200.0, 0, 0], [0.0, -1.0, -2.0, 0, 0]]))
    task = Task(replace(TASK, pack=1))
    batch = task.batch([Problem(4321, 56, "*")])
    ids, slots = batch.position_ids, batch.uniform_slots
    bias = module(torch.zeros(1, 2, ids.shape[1], 8), ids, ids, slots)
    tokens = batch.examples[0].tokens
    b_units = next(i for i, t in enumerate(tokens) if i > tokens.index("*") and slots[0, i] == 1)
    b_tens = next(i for i, t in enumerate(tokens) if slots[0, i] == 2)
    assert tokens[b_units] == "6" and tokens[b_tens] == "5"
    assert torch.all(bias[0, 0, :, b_units] == 100.0) and torch.all(bias[0, 1, :, b_tens] == -2.0)
    other = [j for j in range(len(tokens)) if slots[0, j] == 0]
    rel = module.offsets(ids, ids)[0]
    assert torch.equal(bias[0, 0][:, other], module.bias[0][rel][:, other])     # the rest: the distance bias


def test_packed_multiplication_batches_carry_slots_and_decode_with_the_cache():
    task = Task(TASK)
    batch = task.train_batch(np.random.default_rng(0), 3)
    assert batch.uniform_slots is not None and int((batch.uniform_slots > 0).sum(1).min()) == 4   # 2 problems x 2
    torch.manual_seed(0)
    model = Transformer(MODEL)
    test = task.batch(task.eval_problems(3, 4, seed=1))
    supervised = test.targets != IGNORE_INDEX
    cached = greedy_decode(model, test.tokens, test.position_ids, supervised, test.key_padding, test.uniform_slots)
    plain = greedy_decode(model, test.tokens, test.position_ids, supervised, test.key_padding, test.uniform_slots,
                          use_cache=False)
    assert torch.equal(cached, plain)


def test_uniform_needs_the_relative_bias():
    with pytest.raises(ConfigError, match="relative_bias_uniform=True .* needs relative_bias=True"):
        ModelConfig(relative_bias_uniform=True)

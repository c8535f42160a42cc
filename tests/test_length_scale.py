"""Scalable softmax (``ModelConfig.length_scale``): logits x s_h log(n), n = the keys a query sees."""
from __future__ import annotations

import math

import pytest
import torch

from lengen_utils.core.constants import IGNORE_INDEX
from lengen_utils.core.model import ConfigError, ModelConfig, Transformer, greedy_decode

from test_long_eval import assert_blocked_matches, mixed_batch, model


def scaled_attention(m: Transformer):
    """The first attention module that has the scalable softmax's s_h."""
    return next(mod for mod in m.modules() if getattr(mod, "length_scale", None) is not None)


def test_factor_is_s_times_log_of_the_keys_seen():
    attn = scaled_attention(model(encoding="none", relative_bias=True, length_scale=True))
    with torch.no_grad():
        attn.length_scale.copy_(torch.tensor([0.5, 2.0]))
    f = attn._length_factor(3, 7, 4, None, torch.device("cpu"))        # queries 4, 5, 6 of a decoder
    expected = torch.tensor([0.5, 2.0])[:, None] * torch.log(torch.tensor([5.0, 6.0, 7.0]))[None]
    torch.testing.assert_close(f[0], expected)


def test_initial_factor_is_one_at_64_keys():
    attn = scaled_attention(Transformer(ModelConfig(encoding="none", length_scale=True)))
    f = attn._length_factor(1, 64, 63, None, torch.device("cpu"))
    torch.testing.assert_close(f, torch.ones_like(f))


def test_scaled_logits_change_the_output_and_train():
    plain, scaled = model(encoding="none", relative_bias=True), model(encoding="none", relative_bias=True,
                                                                       length_scale=True)
    batch = mixed_batch("none")
    with torch.no_grad():
        assert not torch.allclose(plain(**batch.model_inputs()), scaled(**batch.model_inputs()))
    loss = torch.nn.functional.cross_entropy(scaled(**batch.model_inputs()).flatten(0, 1), batch.targets.flatten(),
                                             ignore_index=IGNORE_INDEX)
    loss.backward()
    grads = [mod.length_scale.grad for mod in scaled.modules() if getattr(mod, "length_scale", None) is not None]
    assert grads and all(g is not None and g.abs().sum() > 0 for g in grads)


@pytest.mark.parametrize("encoding, relative_bias", [("none", True), ("learned", False), ("alibi", False)])
def test_blocked_and_cached_passes_equal_the_full_pass(encoding, relative_bias):
    m = model(encoding=encoding, relative_bias=relative_bias, length_scale=True)
    batch = mixed_batch(encoding)
    assert_blocked_matches(m, batch)
    supervised = batch.targets != IGNORE_INDEX
    args = (batch.tokens, batch.position_ids, supervised, batch.key_padding, batch.uniform_slots)
    assert torch.equal(greedy_decode(m, *args), greedy_decode(m, *args, use_cache=False))
    assert torch.equal(greedy_decode(m, *args, block=3), greedy_decode(m, *args))


def test_encoder_counts_only_real_keys():
    attn = scaled_attention(model(causal=False, encoding="rpe", length_scale=True))
    keep = torch.tensor([[True, True, True, False], [True, True, True, True]])
    f = attn._length_factor(4, 4, 0, keep, torch.device("cpu"))
    s = attn.length_scale.detach()
    torch.testing.assert_close(f[0, :, 0], s * math.log(3.0))
    torch.testing.assert_close(f[1, :, 0], s * math.log(4.0))


def test_length_scale_must_be_a_bool():
    with pytest.raises(ConfigError, match="length_scale"):
        ModelConfig(length_scale="yes")

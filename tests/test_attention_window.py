"""ModelConfig.attention_window: keys within w IDs of the query, the multiplier's digits from anywhere."""
from __future__ import annotations

import pytest
import torch

from lengen_utils.core.constants import IGNORE_INDEX
from lengen_utils.core.model import ConfigError, ModelConfig, Transformer, greedy_decode
from lengen_utils.core.model.attention import SelfAttention

from test_long_eval import assert_blocked_matches, mixed_batch, model


def weights(cfg: ModelConfig, slots: torch.Tensor | None) -> torch.Tensor:
    torch.manual_seed(0)
    attn = SelfAttention(cfg)
    T = 10
    _, w = attn(torch.randn(1, T, cfg.d_model), torch.arange(T)[None], None, slots, return_weights=True)
    return w[0]


@pytest.mark.parametrize("width", [1, 3])
def test_encoder_sees_neighbours_and_the_multiplier_only(width):
    cfg = ModelConfig(causal=False, encoding="upe", upe_slots=1, attention_window=width, rpe_max_distance=12)
    slots = torch.zeros(1, 10, dtype=torch.long)
    slots[0, 0] = 1                                                     # token 0: the multiplier digit
    seen = weights(cfg, slots) > 0                                      # [H, T, T]
    i, j = torch.meshgrid(torch.arange(10), torch.arange(10), indexing="ij")
    expected = ((i - j).abs() <= width) | (j == 0)
    assert torch.equal(seen, expected.expand_as(seen))


def test_without_slots_the_window_is_plain_and_causal_in_a_decoder():
    seen = weights(ModelConfig(encoding="none", attention_window=2), None) > 0
    i, j = torch.meshgrid(torch.arange(10), torch.arange(10), indexing="ij")
    assert torch.equal(seen, ((i - j <= 2) & (j <= i)).expand_as(seen))


def test_blocked_and_cached_passes_equal_the_full_pass():
    m = model(encoding="none", relative_bias=True, attention_window=3)
    batch = mixed_batch("none")
    assert_blocked_matches(m, batch)
    supervised = batch.targets != IGNORE_INDEX
    args = (batch.tokens, batch.position_ids, supervised, batch.key_padding, batch.uniform_slots)
    assert torch.equal(greedy_decode(m, *args, block=3), greedy_decode(m, *args, use_cache=False))


def test_refused_with_two_id_channels_and_negative_widths():
    with pytest.raises(ConfigError, match="attention_window=2 measures one ID channel"):
        ModelConfig(encoding="none", position_channels=2, attention_window=2)
    with pytest.raises(ConfigError, match="attention_window"):
        ModelConfig(attention_window=-1)


def test_a_windowed_model_trains():
    m = Transformer(ModelConfig(encoding="none", relative_bias=True, attention_window=2))
    batch = mixed_batch("none")
    logits = m(**batch.model_inputs())
    loss = torch.nn.functional.cross_entropy(logits.flatten(0, 1), batch.targets.flatten(), ignore_index=IGNORE_INDEX)
    loss.backward()
    assert torch.isfinite(loss) and all(torch.isfinite(p.grad).all() for p in m.parameters() if p.grad is not None)

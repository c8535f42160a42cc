"""The Transformer: causality, relative invariance, every encoding learns, devices and dtypes."""
import numpy as np
import pytest
import torch

from lengen_utils.core.model import ENCODINGS, ConfigError, ModelConfig, Transformer
from lengen_utils.core.positions import PositionRangeError
from lengen_utils.core.tasks import Task, TaskConfig
from lengen_utils.core.train import TrainConfig, fit

torch.manual_seed(0)


def tiny(**kw) -> Transformer:
    base = dict(d_model=32, n_heads=2, d_ff=64, n_layers=2, max_positions=64)
    base.update(kw)
    return Transformer(ModelConfig(**base)).eval()


def random_inputs(B=3, T=12, vocab=15):
    tokens = torch.randint(1, vocab, (B, T))
    pos = torch.arange(T).expand(B, T).clone()
    return tokens, pos


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_decoder_is_causal(encoding):
    model = tiny(encoding=encoding, relative_bias=encoding == "learned")
    tokens, pos = random_inputs()
    slots = torch.zeros_like(tokens)
    slots[:, 1:3] = torch.tensor([1, 2])
    out = model(tokens, pos, uniform_slots=slots)
    i = 6
    changed = tokens.clone()
    changed[:, i + 1:] = torch.randint(1, 15, changed[:, i + 1:].shape)
    out2 = model(changed, pos, uniform_slots=slots)
    torch.testing.assert_close(out[:, : i + 1], out2[:, : i + 1])
    assert not torch.allclose(out[:, i + 1:], out2[:, i + 1:])


@pytest.mark.parametrize("encoding", ["rpe", "alibi", "rope", "none"])
def test_relative_encodings_ignore_a_shift_of_all_ids(encoding):
    model = tiny(encoding=encoding, causal=False, relative_bias=True)
    tokens, pos = random_inputs()
    _, w1 = model(tokens, pos, return_attention=True)
    _, w2 = model(tokens, pos + 17, return_attention=True)
    for a, b in zip(w1, w2):
        torch.testing.assert_close(a, b, atol=1e-5, rtol=1e-4)


def test_absolute_encoding_sees_a_shift():
    model = tiny(encoding="learned", causal=False)
    with torch.no_grad():
        model.position.table.weight.normal_()
    tokens, pos = random_inputs()
    _, w1 = model(tokens, pos, return_attention=True)
    _, w2 = model(tokens, pos + 17, return_attention=True)
    assert not torch.allclose(w1[0], w2[0], atol=1e-4)


def test_upe_gives_each_multiplier_digit_one_vector_for_all_queries():
    model = tiny(encoding="upe", causal=False, n_layers=1)
    with torch.no_grad():
        model.blocks[0].attn.biases[0].uniform.normal_()
    attn = model.blocks[0].attn.biases[0]
    T = 8
    q = torch.randn(1, 2, T, model.cfg.d_head)
    pos = torch.arange(T)[None]
    slots = torch.tensor([[1, 2, 0, 0, 0, 0, 0, 0]])
    bias = attn(q, pos, key_slots=slots)
    expected = (q @ attn.uniform.t() / model.cfg.d_head ** 0.5)[..., 1]   # c_1 for key 0
    torch.testing.assert_close(bias[0, :, 1:, 0], expected[0, :, 1:])
    # away from the multiplier, scores depend only on the distance (RPE)
    shifted = attn(q, pos + 5, key_slots=slots)
    torch.testing.assert_close(bias, shifted)


def test_sdpa_path_matches_explicit_softmax():
    model = tiny(encoding="rpe", relative_bias=True)
    tokens, pos = random_inputs()
    torch.testing.assert_close(model(tokens, pos), model(tokens, pos, return_attention=True)[0], atol=1e-5, rtol=1e-4)


def test_padding_does_not_change_real_positions():
    model = tiny(encoding="learned", causal=False)
    tokens, pos = random_inputs(B=1, T=8)
    keep = torch.ones_like(tokens, dtype=torch.bool)
    padded = torch.cat([tokens, torch.zeros(1, 4, dtype=torch.long)], 1)
    ppos = torch.cat([pos, torch.zeros(1, 4, dtype=torch.long)], 1)
    pkeep = torch.cat([keep, torch.zeros(1, 4, dtype=torch.bool)], 1)
    torch.testing.assert_close(model(tokens, pos, keep), model(padded, ppos, pkeep)[:, :8], atol=1e-5, rtol=1e-4)


def test_position_beyond_table_is_a_clear_error():
    model = tiny(max_positions=16)
    tokens, pos = random_inputs(T=20)
    with pytest.raises(PositionRangeError, match="IDs 0..15"):
        model(tokens, pos)


def test_bad_configs():
    with pytest.raises(ConfigError, match="unknown position encoding"):
        ModelConfig(encoding="kerple")
    with pytest.raises(ConfigError, match="divisible"):
        ModelConfig(d_model=30, n_heads=4)


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_every_encoding_learns(encoding):
    """Loss on a tiny addition task goes down for every encoding, encoder and decoder alike."""
    if encoding == "upe":
        task = Task(TaskConfig(op="*", format="sabbaghi", positions="consecutive", sampler="uniform",
                               max_digits=3, multiplier_digits=1, frame_width=4, random_start=False))
    elif encoding in ("rpe", "none"):
        task = Task(TaskConfig(format="sabbaghi", positions="consecutive", sampler="uniform", max_digits=3,
                               frame_width=4, random_start=False))
    else:
        task = Task(TaskConfig(format="cho", positions="coupled", max_digits=3, max_position=20))
    causal = task.config.format != "sabbaghi"
    torch.manual_seed(0)
    model = Transformer(ModelConfig(d_model=32, n_heads=2, d_ff=64, encoding=encoding, causal=causal, max_positions=24))
    result = fit(model, task, TrainConfig(steps=80, batch_size=32, lr=3e-3, warmup_steps=5), progress=False,
                 log_every=20)
    assert result.losses[-1] < 0.7 * result.losses[0], result.losses


def test_dtype_and_device_follow_the_model():
    model = tiny()
    tokens, pos = random_inputs()
    out = model.to(torch.float64)(tokens, pos)
    assert out.dtype == torch.float64
    assert model.device.type == "cpu"
    with torch.autocast("cpu", dtype=torch.bfloat16):
        assert model.to(torch.float32)(tokens, pos).dtype == torch.bfloat16


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_mixed_precision_forward_and_backward(encoding):
    """Under bf16 autocast (what CUDA training uses) every encoding runs, stays finite and backpropagates."""
    model = tiny(encoding=encoding, relative_bias=True).train()
    tokens, pos = random_inputs()
    slots = torch.zeros_like(tokens)
    slots[:, :2] = torch.tensor([1, 2])
    keep = torch.ones_like(tokens, dtype=torch.bool)
    keep[0, -3:] = False
    with torch.autocast("cpu", dtype=torch.bfloat16):
        logits = model(tokens, pos, keep, slots)
    assert logits.dtype == torch.bfloat16 and torch.isfinite(logits.float()).all()
    logits.float().sum().backward()
    assert all(p.grad is None or torch.isfinite(p.grad).all() for p in model.parameters())


# -- the fused attention path against the original always-masked one --------------------------------------
def _always_masked_attention(self, x, position_ids, key_padding=None, uniform_slots=None, return_weights=False,
                             cache=None, layer=0, number_ids=None):
    """The attention as first written: a float bias holding the causal and padding masks, always (no arithmetic
    heads: ``number_ids`` is accepted and unused, as the real forward ignores it without them)."""
    import torch.nn.functional as F
    B, T, _ = x.shape
    H, Dh = self.cfg.n_heads, self.cfg.d_head
    q, k, v = self.qkv(x).view(B, T, 3, H, Dh).permute(2, 0, 3, 1, 4)
    if self.rotary is not None:
        q, k = self.rotary.rotate(q, position_ids), self.rotary.rotate(k, position_ids)
    bias = None
    for module in self.biases:
        term = module(q, position_ids, position_ids, uniform_slots, 0)
        bias = term if bias is None else bias + term
    masked = None
    if self.cfg.causal:
        masked = torch.ones(T, T, dtype=torch.bool).triu(1)[None, None]
    if key_padding is not None:
        pad = ~key_padding[:, None, None, :]
        masked = pad if masked is None else masked | pad
    if masked is not None:
        neg = torch.zeros(masked.shape, dtype=q.dtype).masked_fill(masked, float("-inf"))
        bias = neg if bias is None else bias + neg
    y = F.scaled_dot_product_attention(q, k, v, attn_mask=bias)
    return self.out(y.transpose(1, 2).reshape(B, T, H * Dh)), None


def _padded_inputs(B=4, T=14, seed=0):
    g = torch.Generator().manual_seed(seed)
    tokens = torch.randint(1, 15, (B, T), generator=g)
    pos = torch.randint(0, 40, (B, T), generator=g)              # arbitrary IDs (coupled IDs repeat)
    lengths = torch.tensor([T, T - 3, T - 6, 5])[:B]
    keep = torch.arange(T)[None, :] < lengths[:, None]           # right padding
    slots = torch.zeros(B, T, dtype=torch.long)
    slots[:, 1:4] = torch.tensor([3, 2, 1])
    return tokens, pos, keep, slots


@pytest.mark.parametrize("causal", [True, False], ids=["decoder", "encoder"])
@pytest.mark.parametrize("relative_bias", [False, True], ids=["", "bias"])
@pytest.mark.parametrize("encoding", ENCODINGS)
def test_fused_path_matches_the_always_masked_attention(encoding, relative_bias, causal, monkeypatch):
    if encoding == "fire" and not causal:
        pytest.skip("FIRE is defined for decoders (ModelConfig refuses it in an encoder)")
    from lengen_utils.core.model.attention import SelfAttention
    torch.manual_seed(1)
    model = tiny(encoding=encoding, relative_bias=relative_bias, causal=causal)
    with torch.no_grad():
        for p in model.parameters():
            p.add_(0.3 * torch.randn_like(p))                       # away from the near-uniform init
    tokens, pos, keep, slots = _padded_inputs()
    slots = slots if encoding == "upe" else None
    new = model(tokens, pos, keep, slots)
    monkeypatch.setattr(SelfAttention, "forward", _always_masked_attention)
    old = model(tokens, pos, keep, slots)
    torch.testing.assert_close(new[keep], old[keep], atol=1e-5, rtol=1e-5)   # every real position
    if not causal:
        torch.testing.assert_close(new, old, atol=1e-5, rtol=1e-5)           # encoder: padding rows too


@pytest.mark.parametrize("encoding, expect_bias", [("learned", False), ("none", False), ("rope", False),
                                                   ("sinusoidal", False), ("rpe", True), ("alibi", True),
                                                   ("fire", True)])
def test_decoder_without_a_bias_uses_is_causal_and_no_mask(encoding, expect_bias, monkeypatch):
    import torch.nn.functional as F

    from lengen_utils.core.model import attention
    calls = []

    def spy(q, k, v, attn_mask=None, dropout_p=0.0, is_causal=False):
        calls.append((attn_mask, is_causal))
        return F.scaled_dot_product_attention(q, k, v, attn_mask=attn_mask, dropout_p=dropout_p, is_causal=is_causal)

    monkeypatch.setattr(attention, "F", type("F", (), {"scaled_dot_product_attention": staticmethod(spy)}))
    tokens, pos, keep, _ = _padded_inputs()
    tiny(encoding=encoding)(tokens, pos, keep)
    for mask, is_causal in calls:
        if expect_bias:
            assert not is_causal and mask is not None and mask.dtype.is_floating_point
        else:
            assert is_causal and mask is None                         # the flash-eligible call


def test_encoder_padding_mask_is_boolean_without_a_bias(monkeypatch):
    import torch.nn.functional as F

    from lengen_utils.core.model import attention
    calls = []

    def spy(q, k, v, attn_mask=None, dropout_p=0.0, is_causal=False):
        calls.append(attn_mask)
        return F.scaled_dot_product_attention(q, k, v, attn_mask=attn_mask, dropout_p=dropout_p, is_causal=is_causal)

    monkeypatch.setattr(attention, "F", type("F", (), {"scaled_dot_product_attention": staticmethod(spy)}))
    tokens, pos, keep, _ = _padded_inputs()
    tiny(encoding="learned", causal=False)(tokens, pos, keep)
    tiny(encoding="learned", causal=False)(tokens, pos)
    assert calls[0].dtype == torch.bool and calls[-1] is None


def test_decoder_rejects_left_padding():
    tokens, pos, keep, _ = _padded_inputs()
    with pytest.raises(ValueError, match="right padding"):
        tiny()(tokens, pos, keep.flip(1))

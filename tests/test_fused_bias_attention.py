"""The fused causal attention with a gathered relative bias (``core/model/fused_bias.py``) computes the math path's
function: the output and every gradient (q, k, v, the bias scalars, the scalable softmax's ``length_scale``) agree
with the reference (the gathered bias, scaled, masked and added to the scores; ``_math_attention``) in float64 and
float32, with and without the scalable softmax, with query blocks that do and do not divide the sequence, and in a
whole decoder with padding rows. The kernel engages only where it is exact (a decoder's training pass on the CPU with
a trainable relative bias, no cache, no dropout, no attention weights asked for, outside ``torch.func``); elsewhere
the model computes what it computed before.
"""
import pytest
import torch
from torch.func import functional_call, vmap
from torch.nn.attention import SDPBackend, sdpa_kernel

from lengen_utils.core.model import ModelConfig, Transformer
from lengen_utils.core.model import attention as attention_module
from lengen_utils.core.model import fused_bias
from lengen_utils.core.model.attention import _math_attention, forbidden_pairs
from lengen_utils.core.model.cache import KVCache
from lengen_utils.core.model.fused_bias import causal_bias_attention, query_blocks

NAMES = ["out", "dq", "dk", "dv", "dtable", "dscale"]


def _reference(q, k, v, table, rel, factor):
    """The model's math path: the bias gathered as ``RelativeScalarBias`` gathers it, q and bias times the factor."""
    bias = table.index_select(1, rel.reshape(-1)).view(table.shape[0], *rel.shape).permute(1, 0, 2, 3)
    if factor is not None:
        q, bias = q * factor[..., None], bias * factor[..., None]
    T = q.shape[2]
    return _math_attention(q, k, v, bias, forbidden_pairs(T, T, 0, True, None, q.device))


def _case(T: int, shared_ids: bool, seed: int) -> dict:
    """float64 inputs of one attention call: ``B = 3``, 4 heads of 16, a table of 17 scalars (clip 8)."""
    g = torch.Generator().manual_seed(seed)
    B, H, D, K = 3, 4, 16, 8
    ids = torch.randint(0, 3 * T, (1 if shared_ids else B, T), generator=g)
    return {"qkv": [torch.randn(B, H, T, D, dtype=torch.float64, generator=g) for _ in range(3)],
            "table": torch.randn(H, 2 * K + 1, dtype=torch.float64, generator=g) * 3,
            "scale": torch.rand(H, dtype=torch.float64, generator=g) + 0.2,
            "rel": (ids[:, None, :] - ids[:, :, None]).clamp(-K, K) + K,                  # [B or 1, T, T]
            "grad_out": torch.randn(B, H, T, D, dtype=torch.float64, generator=g)}


def _output_and_grads(case: dict, dtype: torch.dtype, scaled: bool, kernel: bool, block: int) -> list[torch.Tensor]:
    """The output and the gradients of q, k, v, the table (and the length scale), computed in ``dtype``."""
    q, k, v = (t.to(dtype, copy=True).requires_grad_() for t in case["qkv"])
    table, scale = (case[name].to(dtype, copy=True).requires_grad_() for name in ("table", "scale"))
    rel = case["rel"]
    T = q.shape[2]
    factor = scale[None, :, None] * torch.log(torch.arange(1, T + 1, dtype=dtype))[None, None] if scaled else None
    if kernel:
        out = causal_bias_attention(q, k, v, table, lambda start, end: rel[:, start:end, :end], factor, block=block)
    else:
        out = _reference(q, k, v, table, rel.expand(q.shape[0], T, T), factor)
    inputs = [q, k, v, table] + ([scale] if scaled else [])
    return [out.detach()] + list(torch.autograd.grad(out, inputs, case["grad_out"].to(dtype)))


def _error(a: torch.Tensor, truth: torch.Tensor) -> float:
    """Largest difference over the largest magnitude."""
    a, truth = a.detach().double(), truth.detach().double()
    return float((a - truth).abs().max() / truth.abs().max())


@pytest.mark.parametrize("scaled", [False, True], ids=["plain", "length_scale"])
@pytest.mark.parametrize("T,block", [(37, 10), (64, 128), (130, 64)])
@pytest.mark.parametrize("shared_ids", [False, True], ids=["ids_per_row", "ids_shared"])
def test_kernel_equals_the_math_path(scaled, T, block, shared_ids):
    """float64: the same numbers to 1e-10. float32: within 1e-5 of the float64 truth (relative to the largest entry)
    and no further from it than twice the math path's own float32 error (or 1e-6)."""
    case = _case(T, shared_ids, seed=T + 7 * block)
    truth = _output_and_grads(case, torch.float64, scaled, kernel=False, block=block)
    mine64 = _output_and_grads(case, torch.float64, scaled, kernel=True, block=block)
    mine32 = _output_and_grads(case, torch.float32, scaled, kernel=True, block=block)
    theirs32 = _output_and_grads(case, torch.float32, scaled, kernel=False, block=block)
    for name, exact, a32, b32, t in zip(NAMES, mine64, mine32, theirs32, truth):
        torch.testing.assert_close(exact, t, rtol=1e-10, atol=1e-12, msg=lambda m: f"{name} in float64: {m}")
        mine_error, their_error = _error(a32, t), _error(b32, t)
        assert mine_error <= 1e-5, f"{name} in float32: {mine_error:.2e} from the float64 truth"
        assert mine_error <= max(2 * their_error, 1e-6), (
            f"{name} in float32: {mine_error:.2e} from the truth, the math path {their_error:.2e}")


def test_query_blocks_cover_the_sequence():
    assert query_blocks(5, 128) == [(0, 5)]
    for T, block in [(462, 128), (130, 64), (37, 10), (1, 4)]:
        blocks = query_blocks(T, block)
        assert blocks[0][0] == 0 and blocks[-1][1] == T
        assert all(a[1] == b[0] for a, b in zip(blocks, blocks[1:]))
        assert all(0 < end - start <= block for start, end in blocks)


def _decoder(length_scale: bool, dtype=torch.float64, **extra) -> Transformer:
    cfg = ModelConfig(d_model=32, n_heads=4, d_ff=64, max_positions=200, relative_bias=True,
                      relative_bias_max_distance=8, relative_bias_scale=20.0, length_scale=length_scale, **extra)
    torch.manual_seed(3)
    model = Transformer(cfg).to(dtype).train()
    with torch.no_grad():
        for p in model.parameters():
            p.add_(torch.randn_like(p) * 0.1)
    return model


def _count_kernel_calls(monkeypatch) -> list:
    calls = []
    original = attention_module.causal_bias_attention

    def spy(*args, **kwargs):
        calls.append(True)
        return original(*args, **kwargs)

    monkeypatch.setattr(attention_module, "causal_bias_attention", spy)
    return calls


def _forward_and_grads(model, *inputs, **kwargs):
    out = model(*inputs, **kwargs)
    params = [p for p in model.parameters() if p.requires_grad]
    return [out] + list(torch.autograd.grad(out.square().sum(), params))


@pytest.mark.parametrize("dtype", [torch.float64, torch.float32])
@pytest.mark.parametrize("length_scale", [False, True], ids=["plain", "length_scale"])
@pytest.mark.parametrize("window", [0, 2], ids=["no_window", "window"])
def test_a_decoders_training_pass_takes_the_kernel_and_its_numbers(monkeypatch, dtype, length_scale, window):
    """The whole model with padding rows (right padding: rows that end early): the same logits and parameter
    gradients (the length scale's among them) with the kernel as with the math path; behind an attention window
    too (the flagship's, issue 51), whose hidden pairs the kernel sends to its -inf column."""
    model = _decoder(length_scale, dtype, attention_window=window)
    monkeypatch.setattr(fused_bias, "QUERY_BLOCK", 16)            # several blocks, one of them partial
    g = torch.Generator().manual_seed(0)
    tokens = torch.randint(0, model.cfg.vocab_size, (3, 45), generator=g)
    ids = torch.randint(0, 30 if window else 150, (3, 45), generator=g)   # with a window: a few keys in reach
    keep = torch.ones(3, 45, dtype=torch.bool)
    keep[1, 30:] = False
    keep[2, 12:] = False
    calls = _count_kernel_calls(monkeypatch)
    mine = _forward_and_grads(model, tokens, ids, keep)
    assert calls, "a decoder's training pass with a trainable relative bias on the CPU takes the kernel"
    monkeypatch.setattr(attention_module, "FUSED_BIAS_KERNEL", False)
    theirs = _forward_and_grads(model, tokens, ids, keep)
    assert len(calls) == 1, "with FUSED_BIAS_KERNEL off the math path runs"
    for a, b in zip(mine, theirs):
        if dtype == torch.float64:
            torch.testing.assert_close(a, b, rtol=1e-10, atol=1e-12)
        else:   # float sums in another order: within 1e-5 of the largest entry (tested against float64 above)
            assert _error(a, b) <= 1e-5


def _run_without_kernel_check(monkeypatch, model, run):
    """``run(model)`` takes the kernel nowhere and gives what it gives with the kernel switched off."""
    calls = _count_kernel_calls(monkeypatch)
    mine = run(model)
    assert not calls
    monkeypatch.setattr(attention_module, "FUSED_BIAS_KERNEL", False)
    for a, b in zip(mine, run(model)):
        assert torch.equal(a, b)
    monkeypatch.setattr(attention_module, "FUSED_BIAS_KERNEL", True)


def test_the_kernel_stays_out_where_it_does_not_apply(monkeypatch):
    g = torch.Generator().manual_seed(1)
    tokens = torch.randint(0, 20, (2, 12), generator=g)
    ids = torch.randint(0, 100, (2, 12), generator=g)
    model = _decoder(True)
    # evaluation without gradients (SDPA's fused kernel takes the bias) and attention weights asked for
    def evaluate(m):
        with torch.no_grad():
            return [m.eval()(tokens, ids)]
    _run_without_kernel_check(monkeypatch, model, evaluate)
    _run_without_kernel_check(monkeypatch, model, lambda m: [m.train()(tokens, ids, return_attention=True)[0]])

    def cached(m):   # incremental decoding with a KV cache, gradients on
        cache = KVCache(12)
        return [m.train()(tokens[:, :8], ids[:, :8], cache=cache), m(tokens[:, 8:], ids[:, 8:], cache=cache)]
    _run_without_kernel_check(monkeypatch, model, cached)
    # an encoder, and a decoder with dropout in training (fixed seed: the same mask twice)
    encoder = _decoder(True, causal=False)
    _run_without_kernel_check(monkeypatch, encoder, lambda m: _forward_and_grads(m, tokens, ids))

    def seeded(m):
        torch.manual_seed(0)
        return _forward_and_grads(m, tokens, ids)
    _run_without_kernel_check(monkeypatch, _decoder(True, dropout=0.1), seeded)
    # a window whose scalable softmax counts only the visible keys (the kernel's factor counts every earlier one)
    visible = _decoder(True, attention_window=2, length_scale_visible=True)
    _run_without_kernel_check(monkeypatch, visible, lambda m: _forward_and_grads(m, tokens, ids))
    # a frozen bias: no gradient to return, SDPA's fused kernel takes it
    frozen = _decoder(False)
    frozen.blocks[0].attn.biases[0].bias.requires_grad_(False)
    _run_without_kernel_check(monkeypatch, frozen, lambda m: _forward_and_grads(m, tokens, ids))


def test_the_kernel_stays_out_of_torch_func_transforms(monkeypatch):
    """The multi-seed trainer runs the blocks under ``vmap``: the kernel has no batching rule and stays out."""
    model = _decoder(True, torch.float32)
    block = model.blocks[0]
    params = {name: torch.stack([p.detach(), p.detach() * 1.01]).requires_grad_() for name, p in
              block.named_parameters()}
    x = torch.randn(2, 3, 10, model.cfg.d_model)
    ids = torch.randint(0, 100, (2, 3, 10))
    calls = _count_kernel_calls(monkeypatch)
    with sdpa_kernel(SDPBackend.MATH):   # as the multi-seed trainer runs a learned bias
        out = vmap(lambda p, x, i: functional_call(block, p, (x, i))[0])(params, x, ids)
    out.square().sum().backward()
    assert not calls and out.shape == x.shape

"""The CUDA path: forward/backward, a training step, cached decoding and checkpoints on a GPU.

Every test here is marked ``cuda`` and skipped on a machine without one; the logic they exercise is
shared with the CPU path, which tests/test_model.py and tests/test_decoding.py cover everywhere.
"""
import pytest
import torch

from lengen_utils.core.checkpoint import load_model, save_model
from lengen_utils.core.constants import IGNORE_INDEX
from lengen_utils.core.device import autocast
from lengen_utils.core.model import ENCODINGS, ModelConfig, Transformer, greedy_decode
from lengen_utils.core.problems import Problem
from lengen_utils.core.tasks import Task, TaskConfig
from lengen_utils.core.train import TrainConfig, fit

pytestmark = [pytest.mark.cuda,
              pytest.mark.skipif(not torch.cuda.is_available(), reason="needs an NVIDIA GPU (CUDA)")]
CUDA = torch.device("cuda")


def make(encoding: str, causal: bool = True, relative_bias: bool = False, seed: int = 0) -> Transformer:
    torch.manual_seed(seed)
    model = Transformer(ModelConfig(d_model=64, n_heads=2, d_ff=128, n_layers=2, max_positions=64,
                                    encoding=encoding, causal=causal, relative_bias=relative_bias)).eval()
    with torch.no_grad():
        for p in model.parameters():
            p.add_(0.3 * torch.randn_like(p))
    return model


def inputs(B: int = 4, T: int = 20):
    g = torch.Generator().manual_seed(0)
    tokens = torch.randint(1, 15, (B, T), generator=g)
    pos = torch.randint(0, 50, (B, T), generator=g)
    keep = torch.arange(T)[None, :] < torch.tensor([T, T - 4, 7, T - 1])[:B, None]
    slots = torch.zeros(B, T, dtype=torch.long)
    slots[:, 1:3] = torch.tensor([2, 1])
    return tokens, pos, keep, slots


def cuda_inputs(encoding: str):
    tokens, pos, keep, slots = inputs()
    return tokens.cuda(), pos.cuda(), keep.cuda(), slots.cuda() if encoding == "upe" else None


@pytest.mark.parametrize("encoding, causal", [(e, c) for e in ENCODINGS for c in (True, False)
                                              if c or e != "fire"],            # FIRE is defined for decoders
                         ids=lambda v: {True: "decoder", False: "encoder"}.get(v, v) if isinstance(v, bool) else v)
def test_forward_matches_the_cpu(encoding, causal):
    model = make(encoding, causal, relative_bias=encoding == "learned")
    tokens, pos, keep, slots = inputs()
    slots = slots if encoding == "upe" else None
    with torch.no_grad():
        ref = model(tokens, pos, keep, slots)
        out = model.cuda()(*cuda_inputs(encoding)).cpu()
    torch.testing.assert_close(out[keep], ref[keep], atol=2e-3, rtol=2e-3)   # TF32 matmuls on the GPU


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_bf16_forward_and_backward(encoding):
    model = make(encoding, relative_bias=True).cuda().train()
    tokens, pos, keep, slots = cuda_inputs(encoding)
    with autocast(CUDA):
        logits = model(tokens, pos, keep, slots)
    assert logits.dtype in (torch.bfloat16, torch.float16) and torch.isfinite(logits.float()).all()
    logits.float()[keep].logsumexp(-1).mean().backward()
    grads = [p.grad for p in model.parameters() if p.grad is not None]
    assert grads and all(torch.isfinite(g).all() for g in grads)


def test_flash_attention_runs_for_a_decoder_without_bias():
    """With no additive bias the decoder's call is flash-eligible: force the flash kernel and run it."""
    from torch.nn.attention import SDPBackend, sdpa_kernel
    if torch.cuda.get_device_capability() < (8, 0):
        pytest.skip("FlashAttention needs compute capability 8.0 or newer")
    model = make("learned").cuda().train()
    tokens, pos, keep, _ = cuda_inputs("learned")
    with sdpa_kernel([SDPBackend.FLASH_ATTENTION]), torch.autocast("cuda", dtype=torch.bfloat16):
        logits = model(tokens, pos, keep)
        logits.float().sum().backward()
    assert torch.isfinite(logits.float()).all()


@pytest.mark.parametrize("encoding", ["learned", "rpe", "rope", "alibi"])
def test_forward_does_not_synchronise_with_the_host(encoding):
    """The model's hot path reads no tensor values on the host (checks run on CPU inputs only)."""
    model = make(encoding, relative_bias=True).cuda()
    args = cuda_inputs(encoding)
    model(*args)                                         # warm up (lazy initialisation may sync)
    torch.cuda.synchronize()
    torch.cuda.set_sync_debug_mode("error")
    try:
        with torch.no_grad(), autocast(CUDA):
            model(*args)
    finally:
        torch.cuda.set_sync_debug_mode("default")


def test_a_training_step_on_the_gpu():
    task = Task(TaskConfig(format="cho", positions="coupled", max_digits=3, max_position=20))
    torch.manual_seed(0)
    model = Transformer(ModelConfig(d_model=32, n_heads=2, d_ff=64, max_positions=24, relative_bias=True)).cuda()
    result = fit(model, task, TrainConfig(steps=60, batch_size=64, lr=3e-3, warmup_steps=5), progress=False,
                 log_every=20)
    assert model.device.type == "cuda"
    assert all(torch.isfinite(torch.tensor(result.losses))) and result.losses[-1] < result.losses[0]


@pytest.mark.parametrize("encoding, relative_bias", [(e, False) for e in ENCODINGS] + [("learned", True)])
def test_cached_greedy_matches_full_recompute(encoding, relative_bias):
    if encoding == "upe":
        task = Task(TaskConfig(op="*", format="cho", positions="coupled", multiplier_digits=2, max_digits=8,
                               max_position=40, random_start=False))
        problems = [Problem(12345678, 97, "*"), Problem(3, 5, "*"), Problem(905, 40, "*")]
    else:
        task = Task(TaskConfig(format="cho", positions="coupled", max_digits=12, max_position=40))
        problems = [Problem(999999999999, 1), Problem(5, 7), Problem(123, 98765)]
    batch = task.batch(problems).to(CUDA)
    model = make(encoding, relative_bias=relative_bias).cuda()
    args = (batch.tokens, batch.position_ids, batch.targets != IGNORE_INDEX, batch.key_padding, batch.uniform_slots)
    cached, full = greedy_decode(model, *args), greedy_decode(model, *args, use_cache=False)
    assert torch.equal(cached, full)                                    # fp32: the same tokens
    with autocast(CUDA):                                                # bf16: runs, and almost always agrees
        cached16, full16 = greedy_decode(model, *args), greedy_decode(model, *args, use_cache=False)
    sup = args[2]
    assert (cached16[sup] == full16[sup]).float().mean() >= 0.9


def test_checkpoint_round_trip(tmp_path):
    model = make("rpe", relative_bias=True).cuda()
    tokens, pos, keep, _ = cuda_inputs("rpe")
    with torch.no_grad():
        ref = model(tokens, pos, keep)
    path = save_model(tmp_path / "m.safetensors", model, {"note": "cuda round trip"})
    back, meta = load_model(path, device="cuda")
    assert back.device.type == "cuda" and meta["note"] == "cuda round trip"
    with torch.no_grad():
        torch.testing.assert_close(back.eval()(tokens, pos, keep), ref)
    on_cpu, _ = load_model(path, device="cpu")                          # a GPU checkpoint loads on a CPU
    with torch.no_grad():
        out = on_cpu.eval()(tokens.cpu(), pos.cpu(), keep.cpu())
    torch.testing.assert_close(out[keep.cpu()], ref.cpu()[keep.cpu()], atol=2e-3, rtol=2e-3)

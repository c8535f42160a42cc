"""Incremental decoding with a KV cache: the same logits and the same greedy tokens as full recomputation,
for every encoding."""
import pytest
import torch

from lengen_utils.core.constants import IGNORE_INDEX
from lengen_utils.core.model import ENCODINGS, KVCache, ModelConfig, Transformer, greedy_decode
from lengen_utils.core.problems import Problem
from lengen_utils.core.tasks import Task, TaskConfig

VARIANTS = [(e, False) for e in ENCODINGS] + [("learned", True), ("rpe", True), ("none", True)]
NAMES = [e + ("+bias" if b else "") for e, b in VARIANTS]


def decoder(encoding: str, relative_bias: bool, seed: int = 0, **kw) -> Transformer:
    torch.manual_seed(seed)
    cfg = dict(d_model=32, n_heads=2, d_ff=64, n_layers=2, max_positions=48, encoding=encoding,
               relative_bias=relative_bias, rpe_max_distance=6, relative_bias_max_distance=5)
    cfg.update(kw)
    model = Transformer(ModelConfig(**cfg)).eval()
    with torch.no_grad():   # larger weights than the init: sharper, more varied argmaxes
        for p in model.parameters():
            p.add_(0.5 * torch.randn_like(p))
    return model


def cho_batch(encoding: str):
    """A right-padded batch of Cho-format problems of mixed lengths (UPE: N x 2 multiplication)."""
    if encoding == "upe":
        task = Task(TaskConfig(op="*", format="cho", positions="coupled", multiplier_digits=2, max_digits=8,
                               max_position=40, random_start=False))
        problems = [Problem(a, b, "*") for a, b in [(12345678, 97), (3, 5), (905, 40), (77, 8), (4000001, 99)]]
    else:
        task = Task(TaskConfig(format="cho", positions="coupled", max_digits=12, max_position=40))
        problems = [Problem(a, b) for a, b in [(999999999999, 1), (5, 7), (123, 98765), (0, 0), (31415926, 2718)]]
    return task.batch(problems)


@pytest.mark.parametrize("encoding, relative_bias", VARIANTS, ids=NAMES)
def test_cached_logits_match_a_full_pass(encoding, relative_bias):
    """Feed the sequence in chunks of 5, 1, 1, 3, ... positions: every chunk's logits equal the full pass."""
    model = decoder(encoding, relative_bias)
    batch = cho_batch(encoding)
    inputs = batch.model_inputs()
    with torch.no_grad():
        full = model(**inputs)
        T = batch.tokens.shape[1]
        cache, start, chunks = KVCache(T), 0, []
        for size in [5, 1, 1, 3, 2, 1] + [1] * T:
            end = min(start + size, T)
            if start == end:
                break
            part = {k: None if v is None else v[:, start:end] for k, v in inputs.items()}
            chunks.append(model(**part, cache=cache))
            start = end
    keep = batch.key_padding
    torch.testing.assert_close(torch.cat(chunks, 1)[keep], full[keep], atol=1e-4, rtol=1e-4)


@pytest.mark.parametrize("encoding, relative_bias", VARIANTS, ids=NAMES)
def test_greedy_with_cache_gives_the_same_tokens(encoding, relative_bias):
    model = decoder(encoding, relative_bias)
    batch = cho_batch(encoding)
    supervised = batch.targets != IGNORE_INDEX
    args = (batch.tokens, batch.position_ids, supervised, batch.key_padding, batch.uniform_slots)
    cached = greedy_decode(model, *args)
    full = greedy_decode(model, *args, use_cache=False)
    assert torch.equal(cached, full)
    assert ((cached >= 0) == supervised).all()                       # a prediction exactly where supervised
    assert len(set(cached[supervised].tolist())) > 1                  # the model does not output one constant


def _naive_greedy(model, batch):
    """Independent reference: one example at a time, appending the argmax to a growing prefix."""
    preds = torch.full_like(batch.tokens, -1)
    for b, ex in enumerate(batch.examples):
        sup = ex.supervised
        tokens = batch.tokens[b:b + 1, :sup[0] + 1].clone()
        pos = batch.position_ids[b:b + 1]
        slots = None if batch.uniform_slots is None else batch.uniform_slots[b:b + 1]
        for i in sup:
            n = tokens.shape[1]
            logits = model(tokens, pos[:, :n], None, None if slots is None else slots[:, :n])
            preds[b, i] = logits[0, -1].argmax()
            tokens = torch.cat([tokens, preds[b:b + 1, i:i + 1]], 1)
    return preds


@pytest.mark.parametrize("encoding", ["learned", "rpe", "upe", "rope"])
def test_greedy_matches_a_per_example_reference(encoding):
    model = decoder(encoding, relative_bias=encoding == "learned")
    batch = cho_batch(encoding)
    with torch.no_grad():
        reference = _naive_greedy(model, batch)
    supervised = batch.targets != IGNORE_INDEX
    out = greedy_decode(model, batch.tokens, batch.position_ids, supervised, batch.key_padding, batch.uniform_slots)
    assert torch.equal(out, reference)


def test_a_trained_model_decodes_the_same_with_and_without_the_cache():
    """150 steps of coupling: the greedy digits beat chance and are identical both ways."""
    from lengen_utils.core.train import TrainConfig, fit
    task = Task(TaskConfig(format="cho", positions="coupled", max_digits=3, max_position=20))
    torch.manual_seed(0)
    model = Transformer(ModelConfig(d_model=32, n_heads=2, d_ff=64, max_positions=24))
    fit(model, task, TrainConfig(steps=150, batch_size=32, lr=3e-3, warmup_steps=5), progress=False, log_every=50)
    batch = task.batch(task.eval_problems(3, 64))
    supervised = batch.targets != IGNORE_INDEX
    args = (batch.tokens, batch.position_ids, supervised, batch.key_padding)
    cached, full = greedy_decode(model, *args), greedy_decode(model, *args, use_cache=False)
    assert torch.equal(cached, full)
    assert (cached[supervised] == batch.targets[supervised]).float().mean() > 0.15   # chance: 1/11


def test_encoder_decodes_in_one_pass():
    torch.manual_seed(0)
    model = Transformer(ModelConfig(d_model=32, n_heads=2, d_ff=64, causal=False, encoding="rpe")).eval()
    task = Task(TaskConfig(format="sabbaghi", positions="consecutive", frame_width=6, max_digits=5))
    batch = task.batch([Problem(123, 4095), Problem(7, 8)])
    out = greedy_decode(model, batch.tokens, batch.position_ids, batch.targets != IGNORE_INDEX, batch.key_padding)
    with torch.no_grad():
        assert torch.equal(out, model(**batch.model_inputs()).argmax(-1))


def test_cache_errors_are_clear():
    model = decoder("learned", False)
    tokens = torch.randint(1, 15, (2, 6))
    pos = torch.arange(6).expand(2, 6)
    cache = KVCache(4)
    with pytest.raises(ValueError, match="holds 4 positions"):
        model(tokens, pos, cache=cache)
    encoder = Transformer(ModelConfig(d_model=32, n_heads=2, causal=False))
    with pytest.raises(ValueError, match="causal decoder"):
        encoder(tokens, pos, cache=KVCache(8))
    with pytest.raises(ValueError, match="positive capacity"):
        KVCache(0)


def test_nothing_supervised_returns_no_predictions():
    model = decoder("learned", False)
    tokens = torch.randint(1, 15, (2, 6))
    pos = torch.arange(6).expand(2, 6)
    out = greedy_decode(model, tokens, pos, torch.zeros(2, 6, dtype=torch.bool))
    assert (out == -1).all()

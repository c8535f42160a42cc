"""The faster training step computes what the plain one computed (the throughput work, docs/logs/flagship-log.md):

* batches drawn in a background thread (``Prefetcher``) or a worker process (``WorkerPrefetcher``) are the batches
  drawn in series, in the same order, and a run trains the same either way;
* the relative bias looked up with ``index_select`` equals advanced indexing ``table[:, rel]``, forward and
  gradient;
* the decoder's written-out math attention equals SDPA with the masked bias, forward and gradient;
* keeping freed memory in the process (glibc) is asked for once.
"""
import numpy as np
import pytest
import torch
import torch.nn.functional as F

from lengen_utils.core.model import ModelConfig, Transformer
from lengen_utils.core.model import attention as attention_module
from lengen_utils.core.model.encodings import RelativeScalarBias
from lengen_utils.core.tasks import Task
from lengen_utils.lab.zoo import get_recipe
from lengen_utils.core.train_runtime import Prefetcher

COUPLED_TASK = get_recipe("nb05-both").task      # notebook 05's coupled variant: 4 problems packed per sequence


def _all(batches: Prefetcher, n: int) -> list:
    items = []
    for _ in range(n):
        items.append(batches.take())
        batches.release()
    batches.close()
    return items


def test_prefetched_batches_are_the_serial_batches_in_order():
    task = Task(COUPLED_TASK)
    serial_rng, threaded_rng = np.random.default_rng(5), np.random.default_rng(5)
    serial = [task.train_batch(serial_rng, 4, progress=i / 6) for i in range(6)]
    threaded = _all(Prefetcher(lambda i: task.train_batch(threaded_rng, 4, progress=i / 6), 0, 6), 6)
    for a, b in zip(serial, threaded):
        for name in ("tokens", "targets", "position_ids", "key_padding"):
            assert torch.equal(getattr(a, name), getattr(b, name)), name
    assert serial_rng.bit_generator.state == threaded_rng.bit_generator.state


@pytest.mark.parametrize("kind", ["thread", "process"])
def test_prefetched_order_range_and_errors(kind):
    from lengen_utils.core.train_runtime import WorkerPrefetcher
    make = Prefetcher if kind == "thread" else WorkerPrefetcher
    assert _all(make(lambda i: i * i, 2, 6), 4) == [4, 9, 16, 25]
    empty = make(lambda i: i, 3, 3)
    with pytest.raises(StopIteration):
        empty.take()
    empty.close()

    def draw(i):
        if i == 2:
            raise ValueError("draw 2 failed")
        return i
    items = make(draw, 0, 5)
    assert items.take() == 0 and items.take() == 1
    with pytest.raises(ValueError, match="draw 2 failed"):
        items.take()
    items.close()


@pytest.mark.parametrize("channels", [1, 2])
def test_relative_bias_lookup_equals_advanced_indexing(channels):
    extra = {} if channels == 1 else {"position_channels": 2}
    cfg = ModelConfig(d_model=32, n_heads=4, d_ff=32, max_positions=40, relative_bias=True,
                      relative_bias_max_distance=3, relative_bias_scale=20.0, **extra)
    module = RelativeScalarBias(cfg)
    torch.nn.init.normal_(module.bias)
    torch.manual_seed(0)
    ids = torch.randint(0, 30, (3, 17) if channels == 1 else (3, 17, 2))
    q = torch.randn(3, 4, 17, 8)
    bias = module(q, ids)
    reference = (module.bias * module.scale)[:, module.offsets(ids, ids)].permute(1, 0, 2, 3)
    assert torch.equal(bias, reference)
    grad = torch.randn_like(bias)
    mine = torch.autograd.grad(bias, module.bias, grad)[0]
    theirs = torch.autograd.grad(reference, module.bias, grad)[0]
    torch.testing.assert_close(mine, theirs, rtol=1e-6, atol=1e-5)


def test_math_attention_equals_sdpa_with_the_masked_bias(monkeypatch):
    monkeypatch.setattr(attention_module, "FUSED_BIAS_KERNEL", False)     # the reference path, not the fused kernel
    cfg = ModelConfig(d_model=64, n_heads=4, d_ff=64, max_positions=65, relative_bias=True, relative_bias_scale=20.0)
    torch.manual_seed(1)
    model = Transformer(cfg).train()
    with torch.no_grad():
        for p in model.parameters():
            p.add_(torch.randn_like(p) * 0.1)
    tokens = torch.randint(0, cfg.vocab_size, (3, 40))
    ids = torch.randint(0, 60, (3, 40))

    def run():
        out = model(tokens, ids)
        return out, torch.autograd.grad(out.square().sum(), list(model.parameters()))

    called = []
    original = attention_module._math_attention

    def spy(*args):
        called.append(True)
        return original(*args)

    def sdpa(q, k, v, bias, masked):
        return F.scaled_dot_product_attention(q, k, v, attn_mask=bias.masked_fill(masked, float("-inf")))

    attention_module._math_attention = spy
    try:
        out, grads = run()
        attention_module._math_attention = sdpa
        ref_out, ref_grads = run()
    finally:
        attention_module._math_attention = original
    assert called, "a decoder with a trainable bias on the CPU takes the written-out path"
    torch.testing.assert_close(out, ref_out, rtol=0, atol=1e-6)
    for mine, theirs in zip(grads, ref_grads):
        torch.testing.assert_close(mine, theirs, rtol=1e-5, atol=1e-6)


def test_keep_freed_memory_is_idempotent_and_changes_no_number():
    from lengen_utils.core.train_runtime import keep_freed_memory
    first = keep_freed_memory()
    assert isinstance(first, bool) and keep_freed_memory() is first
    x = torch.arange(10.0)
    assert torch.equal(x * 2, torch.arange(0.0, 20.0, 2.0))


def test_prefetcher_waits_for_release_and_keeps_the_order():
    import threading

    from lengen_utils.core.train_runtime import Prefetcher
    started = []
    batches = Prefetcher(lambda i: started.append(i) or i, 0, 4)
    assert batches.take() == 0
    threading.Event().wait(0.05)
    assert started == [0], "the second draw waits for release()"
    batches.release()
    assert batches.take() == 1 and batches.take() == 2 and batches.take() == 3
    with pytest.raises(StopIteration):
        batches.take()
    batches.close()
    assert started == [0, 1, 2, 3]


def test_prefetcher_restores_the_switch_interval():
    import sys

    from lengen_utils.core.train_runtime import Prefetcher
    before = sys.getswitchinterval()
    batches = Prefetcher(lambda i: i, 0, 2)
    assert sys.getswitchinterval() < before
    batches.close()
    assert sys.getswitchinterval() == before


def test_worker_process_draws_the_serial_batches_in_order():
    from lengen_utils.core.train_runtime import WorkerPrefetcher
    task = Task(COUPLED_TASK)
    serial_rng, worker_rng = np.random.default_rng(5), np.random.default_rng(5)
    serial = [task.train_batch(serial_rng, 4, progress=i / 6) for i in range(6)]
    drawn = _all(WorkerPrefetcher(lambda i: (task.train_batch(worker_rng, 4, progress=i / 6).without_examples(),
                                             worker_rng.bit_generator.state), 0, 6), 6)
    for a, (b, _) in zip(serial, drawn):
        assert b.examples == []
        for name in ("tokens", "targets", "position_ids", "key_padding", "uniform_slots"):
            assert (getattr(a, name) is None and getattr(b, name) is None) or torch.equal(getattr(a, name),
                                                                                      getattr(b, name)), name
    assert drawn[-1][1] == serial_rng.bit_generator.state          # the worker's generator, sent back
    assert worker_rng.bit_generator.state == np.random.default_rng(5).bit_generator.state   # ours did not move


def test_worker_process_errors_that_do_not_pickle_and_death():
    import os

    from lengen_utils.core.train_runtime import WorkerPrefetcher

    class Local(Exception):      # does not pickle: its text comes back
        pass

    def local(i):
        raise Local("no pickle")
    items = WorkerPrefetcher(local, 0, 2)
    with pytest.raises(RuntimeError, match="Local in the batch worker: no pickle"):
        items.take()
    items.close()
    dying = WorkerPrefetcher(lambda i: os._exit(3), 0, 2)
    with pytest.raises(RuntimeError, match="exit code 3.*data_worker='thread'"):
        dying.take()
    dying.close()


def test_fit_trains_the_same_with_a_worker_process_or_a_thread():
    from lengen_utils.core.train import TrainConfig, fit
    cfg = TrainConfig(steps=6, batch_size=8, warmup_steps=1, seed=4)
    model_cfg = ModelConfig(d_model=16, n_heads=2, d_ff=32, max_positions=COUPLED_TASK.max_position + 1)
    runs = {}
    for mode in ("thread", "process"):
        torch.manual_seed(0)
        model = Transformer(model_cfg)
        runs[mode] = (fit(model, Task(COUPLED_TASK), cfg, progress=False, log_every=1, data_worker=mode).losses,
                      model.state_dict())
    assert runs["thread"][0] == runs["process"][0]
    for name, value in runs["thread"][1].items():
        assert torch.equal(value, runs["process"][1][name]), name


def test_data_worker_choice_and_refusals(monkeypatch):
    from lengen_utils.core.train import TrainConfig, fit
    from lengen_utils.core.train_runtime import data_worker_mode
    assert data_worker_mode("thread") == "thread" and data_worker_mode("process") == "process"
    monkeypatch.setenv("LENGEN_DATA_WORKER", "thread")
    assert data_worker_mode("auto") == "thread"
    monkeypatch.setenv("LENGEN_DATA_WORKER", "threads")
    with pytest.raises(ValueError, match="LENGEN_DATA_WORKER must be one of"):
        data_worker_mode("auto")
    with pytest.raises(ValueError, match="data_worker must be one of"):
        data_worker_mode("fork")
    from lengen_utils.core.config_checks import ConfigError
    with pytest.raises(ConfigError, match="data_worker must be one of"):
        fit(Transformer(ModelConfig(d_model=16, n_heads=2, d_ff=32)), Task(COUPLED_TASK), TrainConfig(steps=1),
            progress=False, data_worker="fork")

"""Training and decoding throughput of named model shapes: ``python -m lengen_utils.lab.throughput``.

Runs a few training steps (AdamW, cross-entropy, gradient clipping, bf16 autocast on CUDA, as
:func:`lengen_utils.core.train.fit` does) on batches drawn beforehand, then greedy decoding, on whatever
device is present, and prints tokens per second and achieved FLOP/s (``--json`` for a machine).

FLOPs are counted analytically from the config, matrix multiplies only (norms, softmax, GELU, the
optimizer and the embedding lookups are left out), on the padded batch the hardware really computes:

* ``N = n_layers * (4 d^2 + 2 d d_ff) + d * vocab``: the weights that multiply activations (q, k, v and
  output projections, the MLP, the read-out);
* forward = ``2 N B T`` + per layer ``4 B T^2 d`` (``Q K^T`` and ``A V``, 2 T^2 d each; the full
  ``T x T`` product, which is what SDPA computes even under a causal mask; the CPU kernel of a trainable relative
  bias, :mod:`~lengen_utils.core.model.fused_bias`, skips the keys that a whole query block may not see, 44% of
  these products at 462 tokens (eight blocks), and is still counted for the full product, so that the rate compares one
  model's steps across implementations) + for RPE/UPE ``2 B T (2K+1) d`` (queries against the relative key table);
* training = 3 x forward (the backward pass costs twice the forward): ``6 N B T + 12 L B T^2 d + ...``.

The same run measures the machine's fp32 matrix multiply (``1024 x 1024``, :func:`sgemm_rate`), the roof that
the step's FLOP/s are compared with, and the cost of drawing batches during training: the timed steps run once
on batches drawn beforehand (the step alone) and once on batches drawn as :func:`~lengen_utils.core.train.fit`
draws them (by a forked worker process or a background thread, :func:`~lengen_utils.core.train_runtime.prefetcher`;
``--data-worker``); the data-preparation share is how much longer the second takes.

Decoding throughput is answer tokens produced per second by :func:`evaluate_lengths` with
``greedy=True`` (an encoder predicts its answer in one pass), including batching and scoring.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass, replace

import numpy as np
import torch
import torch.nn.functional as F

from ..core.constants import IGNORE_INDEX
from ..core.device import autocast, device_problem, pick_device, set_cpu_threads
from ..core.evaluate import evaluate_lengths
from ..core.model import ModelConfig, Transformer
from ..core.task_config import TaskConfig
from ..core.tasks import Task
from ..core.train_runtime import DATA_WORKERS, data_worker_mode, keep_freed_memory, prefetcher
from .cli import nonnegative_int, positive_int
from .zoo import Recipe, get_recipe, variant_id, with_one_role, with_overrides
from .zoo.aliases import FLAGSHIP_COUPLED


@dataclass(frozen=True)
class Shape:
    """A named zoo recipe to measure (its model and task, at a paper's size where the overrides say so), and the
    measurement's plan; batch sizes count training sequences."""

    name: str
    description: str
    recipe: Recipe
    batch_size: int            # the recipe's batch (used on a GPU)
    cpu_batch_size: int        # a batch that keeps a CPU run to seconds
    decode_length: int         # operand length of the decoding measurement
    decode_n: int
    cpu_decode_n: int

    @property
    def model(self) -> ModelConfig:
        return self.recipe.model

    @property
    def task(self) -> TaskConfig:
        return self.recipe.task


def _recipe(recipe: Recipe, overrides: dict[str, object] | None = None) -> Recipe:
    """Zoo recipe ``recipe`` with typed overrides (the zoo's one override function), named for the shape."""
    return with_overrides(replace(recipe, id=variant_id(recipe.id, "shape")), overrides or {})


#: the one-minute flagship (the lab's row with the role ``flagship:one-minute``): a shape of its own, named by its id
MINUTE = with_one_role("flagship:one-minute")
MINUTE_SEQUENCES = MINUTE.train.batch_size   # sequences per step of the one-minute flagship

SHAPES: dict[str, Shape] = {s.name: s for s in (
    Shape("flagship", "the CPU flagship (zoo entry flagship-coupled): coupled decoder + relative bias + the sink, "
          "1 layer d 64, 4 problems packed per sequence, 1-10 digits, IDs to 128",
          _recipe(get_recipe(FLAGSHIP_COUPLED)),
          batch_size=32, cpu_batch_size=32, decode_length=10, decode_n=1000, cpu_decode_n=500),
    # the learner's retrain button (bench flagship-time): the flagship without its table, trained for time
    Shape(MINUTE.id, f"the one-minute flagship (zoo recipe {MINUTE.id}): no table, coupled relative bias + "
          "the sink + scalable softmax, 1 layer d 64, problems packed per sequence as the recipe packs them, 1-10 "
          "digits", _recipe(MINUTE),
          batch_size=MINUTE_SEQUENCES, cpu_batch_size=MINUTE_SEQUENCES, decode_length=10, decode_n=1000,
          cpu_decode_n=500),
    # plain coupling as published (recipe nb05-plain, role throughput:cho-1to30) at Cho et al.'s size
    Shape("cho-1to30", "Cho et al. Section 4 / App. A: coupled decoder, 1 layer d 512, 4 heads, d_ff 2048, "
          "1-30 digit operands, max_pos 202",
          _recipe(with_one_role("throughput:cho-1to30"), {"model.d_model": 512, "model.d_ff": 2048,
                  "model.max_positions": 203, "task.max_digits": 30, "task.max_position": 202}),
          batch_size=1000, cpu_batch_size=16, decode_length=30, decode_n=1000, cpu_decode_n=32),
    # notebook 03's RPE encoder (recipe nb03-rpe-l5, role throughput:sabbaghi-rpe-l50) in the paper's frame l = 50
    Shape("sabbaghi-rpe-l50", "Sabbaghi A2 frame: RPE encoder (the course's 2 layers, d 64) on <= 5 digits in a "
          "frame l = 50",
          _recipe(with_one_role("throughput:sabbaghi-rpe-l50"), {"task.frame_width": 50, "task.max_position": 102,
                  "model.rpe_max_distance": 101, "model.max_positions": 103}),
          batch_size=64, cpu_batch_size=64, decode_length=50, decode_n=1000, cpu_decode_n=200),
)}


def matmul_params(cfg: ModelConfig) -> int:
    """``N``: weights that multiply activations (projections, MLP, read-out), biases excluded."""
    d = cfg.d_model
    return cfg.n_layers * (4 * d * d + 2 * d * cfg.d_ff) + d * cfg.vocab_size


def forward_flops(cfg: ModelConfig, batch: int, seq_len: int) -> float:
    """Matrix-multiply FLOPs of one forward pass over a ``[batch, seq_len]`` padded batch."""
    d, T = cfg.d_model, seq_len
    flops = 2.0 * matmul_params(cfg) * batch * T + cfg.n_layers * 4.0 * batch * T * T * d
    if cfg.encoding in ("rpe", "upe"):
        flops += cfg.n_layers * 2.0 * batch * T * (2 * cfg.rpe_max_distance + 1) * d
    return flops


def train_flops(cfg: ModelConfig, batch: int, seq_len: int) -> float:
    """Forward + backward = 3 x forward."""
    return 3.0 * forward_flops(cfg, batch, seq_len)


def _sync(device: torch.device) -> None:
    if device.type == "cuda":
        torch.cuda.synchronize(device)


def sgemm_rate(device: torch.device, n: int = 1024, repeats: int = 10) -> float:
    """FLOP/s of an ``n x n`` fp32 matrix multiply on ``device`` (the median of ``repeats`` timed products)."""
    a, b = torch.randn(n, n, device=device), torch.randn(n, n, device=device)
    for _ in range(3):
        a @ b
    times = []
    for _ in range(repeats):
        _sync(device)
        t0 = time.perf_counter()
        a @ b
        _sync(device)
        times.append(time.perf_counter() - t0)
    return 2.0 * n ** 3 / float(np.median(times))


def measure_training(shape: Shape, steps: int, batch_size: int, device: torch.device, warmup: int = 3,
                     seed: int = 0, data_worker: str = "auto") -> dict:
    """Time ``steps`` optimizer steps after ``warmup`` untimed ones on batches drawn (and timed) first, and,
    in alternate blocks of 5, ``steps`` more on batches drawn as ``fit`` draws them (in a background thread
    while the step runs)."""
    task = Task(shape.task)
    rng = np.random.default_rng(seed)
    t0 = time.perf_counter()
    batches = [task.train_batch(rng, batch_size) for _ in range(warmup + steps)]
    data_s = (time.perf_counter() - t0) / len(batches)
    batches = [b.to(device) for b in batches]
    torch.manual_seed(seed)
    model = Transformer(shape.model).to(device).train()
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3, betas=(0.9, 0.98))
    losses = []

    def step(batch, before_backward=lambda: None) -> None:
        with autocast(device):
            logits = model(**batch.model_inputs())
        loss = F.cross_entropy(logits.float().flatten(0, 1), batch.targets.flatten(), ignore_index=IGNORE_INDEX)
        opt.zero_grad(set_to_none=True)
        before_backward()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        losses.append(loss.detach())

    for batch in batches[:warmup]:
        step(batch)
    # The live loop draws the same batches again (same seed), so both loops step on the same shapes; its first
    # `warmup` draws warm it up untimed (the first has nothing to overlap with; fit pays it once).
    live_rng = np.random.default_rng(seed)
    mode = data_worker_mode(data_worker)
    live = prefetcher(lambda i: task.train_batch(live_rng, batch_size).without_examples(), 0, warmup + steps, mode)
    for _ in range(warmup):
        step(live.take().to(device), live.release)
    live.settle()
    seconds = live_s = 0.0

    def live_block(n: int) -> None:
        for _ in range(n):
            step(live.take().to(device), live.release)
        live.settle()      # the draw released in the block's last step is the block's: it must not spill over

    for first in range(warmup, warmup + steps, 5):   # blocks of 5 steps, alternately: drift hits both alike
        block = batches[first:min(first + 5, warmup + steps)]
        seconds += _timed(lambda: [step(b) for b in block], device)
        live_s += _timed(lambda: live_block(len(block)), device)
    live.close()
    timed = batches[warmup:]
    padded = sum(b.tokens.numel() for b in timed)
    real = sum(int(b.key_padding.sum()) for b in timed)
    flops = sum(train_flops(shape.model, *b.tokens.shape) for b in timed)
    return {"steps": steps, "batch_size": batch_size, "seconds": seconds, "steps_per_s": steps / seconds,
            "mean_seq_len": padded / (steps * batch_size), "tokens_per_s": real / seconds,
            "padded_tokens_per_s": padded / seconds, "flops_per_step": flops / steps, "flop_per_s": flops / seconds,
            "data_ms_per_step": 1000 * data_s, "live_data_seconds": live_s,
            "data_share": live_s / seconds - 1.0, "data_worker": mode, "final_loss": float(losses[-1])}


_WORKER_TEXT = {"process": "worker process", "thread": "background thread"}


def _timed(work, device: torch.device) -> float:
    """Seconds that ``work()`` takes on ``device``."""
    _sync(device)
    t0 = time.perf_counter()
    work()
    _sync(device)
    return time.perf_counter() - t0


def measure_decoding(shape: Shape, n: int, device: torch.device, seed: int = 0) -> dict:
    """Greedy decoding of ``n`` fixed problems at ``shape.decode_length`` digits (untrained weights:
    the number of decoding steps does not depend on what the model predicts)."""
    task = Task(shape.task)
    torch.manual_seed(seed)
    model = Transformer(shape.model).to(device).eval()
    problems = task.eval_problems(shape.decode_length, n)
    answer_tokens = int((task.batch(problems).targets != IGNORE_INDEX).sum())
    evaluate_lengths(model, task, [shape.decode_length], n=min(n, 8), greedy=True)   # warm-up
    _sync(device)
    t0 = time.perf_counter()
    evaluate_lengths(model, task, [shape.decode_length], n=n, greedy=True)
    _sync(device)
    seconds = time.perf_counter() - t0
    return {"length": shape.decode_length, "problems": n, "answer_tokens": answer_tokens, "seconds": seconds,
            "tokens_per_s": answer_tokens / seconds, "problems_per_s": n / seconds,
            "mode": "greedy" if shape.model.causal else "one pass (encoder)"}


def run(config: str = "flagship", steps: int = 20, batch_size: int | None = None, device: str | None = None,
        decode_n: int | None = None, warmup: int = 3, data_worker: str = "auto") -> dict:
    """Measure one named shape; returns the JSON-ready record."""
    shape = SHAPES[config]
    dev = pick_device(device)
    keep_freed_memory()   # as fit does: the step reuses freed pages instead of faulting them in again
    on_gpu = dev.type == "cuda"
    batch = batch_size or (shape.batch_size if on_gpu else shape.cpu_batch_size)
    n = shape.decode_n if decode_n is None and on_gpu else shape.cpu_decode_n if decode_n is None else decode_n
    record = {"config": shape.name, "description": shape.description, "device": str(dev),
              "device_name": torch.cuda.get_device_name(dev) if on_gpu else "cpu",
              "threads": torch.get_num_threads(), "torch": torch.__version__,
              "params": sum(p.numel() for p in Transformer(shape.model).parameters()),
              "matmul_params": matmul_params(shape.model), "model": shape.model.to_dict(),
              "task": shape.task.to_dict(), "train": measure_training(shape, steps, batch, dev, warmup,
                                                                               data_worker=data_worker)}
    record["sgemm_flop_per_s"] = sgemm_rate(dev)
    record["sgemm_ratio"] = record["train"]["flop_per_s"] / record["sgemm_flop_per_s"]
    record["decode"] = measure_decoding(shape, n, dev) if n > 0 else None
    return record


def format_table(rec: dict) -> str:
    """The record as an aligned two-column table."""
    t, m = rec["train"], rec["model"]
    layers = f"{m['n_layers']} layer{'s' if m['n_layers'] > 1 else ''}"
    rows = [("config", f"{rec['config']} ({layers}, d {m['d_model']}, {m['n_heads']} heads, "
                       f"d_ff {m['d_ff']}, {'decoder' if m['causal'] else 'encoder'}, {m['encoding']})"),
            ("params", f"{rec['params']:,} ({rec['matmul_params']:,} in matmuls)"),
            ("device", f"{rec['device_name']} ({rec['device']}), {rec['threads']} CPU thread(s), torch {rec['torch']}"),
            ("train batch", f"{t['batch_size']} sequences x {t['mean_seq_len']:.0f} tokens (padded), "
                            f"{t['steps']} timed steps"),
            ("train steps/s", f"{t['steps_per_s']:.2f}"),
            ("train tokens/s", f"{t['tokens_per_s']:,.0f} real, {t['padded_tokens_per_s']:,.0f} padded"),
            ("train FLOP/s", f"{t['flop_per_s'] / 1e9:,.2f} GFLOP/s ({t['flops_per_step'] / 1e9:,.3f} GFLOP per step)"),
            ("fp32 matmul", f"{rec['sgemm_flop_per_s'] / 1e9:,.2f} GFLOP/s (1024 x 1024, this run): the step reaches "
                            f"{100 * rec['sgemm_ratio']:.0f}% of it"),
            ("data", f"{t['data_ms_per_step']:.1f} ms per batch to sample and encode (in series); drawn during "
                     f"training (in a {_WORKER_TEXT[t['data_worker']]}) it adds {100 * t['data_share']:+.1f}% to "
                     f"the step")]
    d = rec.get("decode")
    if d:
        rows += [("decode", f"{d['problems']} problems at {d['length']} digits, {d['mode']}, {d['seconds']:.2f} s"),
                 ("decode tokens/s", f"{d['tokens_per_s']:,.0f} ({d['problems_per_s']:,.1f} problems/s)")]
    width = max(len(k) for k, _ in rows)
    return "\n".join(f"{k:<{width}}  {v}" for k, v in rows)


class _ArgError(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # one line, exit 2 (raised to main)
        raise _ArgError(message)


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="python -m lengen_utils.lab.throughput", description=__doc__.split("\n")[0])
    p.add_argument("--config", default="flagship", help=f"named shape: {', '.join(SHAPES)}")
    p.add_argument("--steps", type=positive_int, default=20, help="timed training steps (default 20)")
    p.add_argument("--warmup", type=nonnegative_int, default=3, help="untimed steps first (default 3)")
    p.add_argument("--batch-size", type=positive_int, default=None, help="training sequences per step (default: the shape's)")
    p.add_argument("--decode-n", type=nonnegative_int, default=None, help="problems to decode; 0 skips decoding")
    p.add_argument("--device", default=None, help="cpu or cuda (default: cuda if present)")
    p.add_argument("--threads", type=positive_int, default=None, help="CPU threads (default: LENGEN_THREADS or all cores)")
    p.add_argument("--data-worker", default="auto", choices=DATA_WORKERS,
                   help="draw batches in a worker process, a background thread, or auto (as fit does: the worker "
                        "where fork exists and a second core is free)")
    p.add_argument("--json", action="store_true", help="print the record as JSON instead of a table")
    return p


def _validate(args: argparse.Namespace) -> str | None:
    if args.config not in SHAPES:
        return f"unknown config {args.config!r}; choose one of {', '.join(SHAPES)}"
    for name, low, high in (("steps", 1, 100_000), ("warmup", 0, 10_000), ("batch_size", 1, 65_536),
                            ("decode_n", 0, 1_000_000), ("threads", 1, 1024)):
        value = getattr(args, name)
        if value is not None and not low <= value <= high:
            return f"--{name.replace('_', '-')} must be in {low}..{high}, got {value}"
    return device_problem(args.device)


def main(argv: list[str] | None = None) -> int:
    """CLI entry point (also ``python -m lengen_utils.lab.bench throughput``); returns the exit status."""
    try:
        args = build_parser().parse_args(argv)
        problem = _validate(args)
    except _ArgError as exc:
        problem = str(exc)
    if problem:
        print(f"throughput: error: {problem}", file=sys.stderr)
        return 2
    set_cpu_threads(args.threads)
    rec = run(args.config, args.steps, args.batch_size, args.device, args.decode_n, args.warmup, args.data_worker)
    print(json.dumps(rec, indent=2) if args.json else format_table(rec))
    return 0


if __name__ == "__main__":
    sys.exit(main())

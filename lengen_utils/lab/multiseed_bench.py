"""The batched-seed benchmark: K sequential ``fit`` runs against one :func:`~lengen_utils.core.multiseed.fit_seeds` run.

``python -m lengen_utils.lab.multiseed_bench --k 4 [--device cuda] [--recipe ID]`` times both on the model and task of a
zoo recipe (default: notebook 05's coupled variant, ``nb05-both``: 1 layer, d 64, coupled IDs to 64 with the relative
bias, 4 problems of 1-10 digits packed per sequence). Measured figures: docs/scale.md and docs/logs/gpu-log.md.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import replace

import torch

from ..core.device import device_problem, pick_device, set_cpu_threads
from ..core.multiseed import batched_amp, fit_seeds, init_models
from ..core.tasks import Task
from ..core.train import TrainConfig, fit
from .cli import positive_int
from .zoo import get_recipe, with_one_role

#: the recipe timed by default: notebook 05's coupled variant (the flagship without the sink, IDs to 64), the row that
#: declares the role ``multiseed-bench``
BENCH_RECIPE = with_one_role("multiseed-bench").id


def benchmark(k: int = 4, steps: int = 30, batch_size: int = 32, recipe: str = BENCH_RECIPE,
              device: str | None = None) -> dict:
    """Wall and CPU time of K sequential ``fit`` runs vs one :func:`fit_seeds` run (both include data sampling), on
    the model and task of the zoo recipe ``recipe`` (its own budget is not used)."""
    spec = get_recipe(recipe)
    model_config, task_config = spec.model, spec.task
    dev = pick_device(device)
    train = TrainConfig(steps=steps, batch_size=batch_size, lr=1e-3, warmup_steps=max(1, steps // 10))
    train = replace(train, amp=batched_amp(model_config, train))      # both paths in the same precision
    task, seeds = Task(task_config), list(range(k))
    fit_seeds(model_config, task, replace(train, steps=2), seeds, device=dev)          # warm-up both paths
    fit(init_models(model_config, [0])[0].to(dev), task, replace(train, steps=2), progress=False)
    t0, c0 = time.perf_counter(), time.process_time()
    seq_loss = []
    for seed in seeds:
        model = init_models(model_config, [seed])[0].to(dev)
        seq_loss.append(fit(model, task, replace(train, seed=seed), progress=False, log_every=steps).losses[-1])
    sequential, sequential_cpu = time.perf_counter() - t0, time.process_time() - c0
    t0, c0 = time.perf_counter(), time.process_time()
    results = fit_seeds(model_config, task, train, seeds, device=dev, log_every=steps)
    batched, batched_cpu = time.perf_counter() - t0, time.process_time() - c0
    return {"config": spec.id, "k": k, "steps": steps, "batch_size": batch_size, "device": str(dev), "amp": train.amp,
            "threads": torch.get_num_threads(), "sequential_s": sequential, "batched_s": batched,
            "speedup": sequential / batched, "sequential_cpu_s": sequential_cpu, "batched_cpu_s": batched_cpu,
            "speedup_cpu_time": sequential_cpu / batched_cpu, "sequential_final_loss": seq_loss,
            "batched_final_loss": [r.losses[-1] for _, r in results]}


def main(argv: list[str] | None = None) -> int:
    """CLI: the speed-up of batched seeds over sequential fits."""
    p = argparse.ArgumentParser(prog="python -m lengen_utils.lab.multiseed_bench", description=benchmark.__doc__)
    p.add_argument("--k", type=positive_int, default=4, help="seeds (default 4)")
    p.add_argument("--recipe", default=BENCH_RECIPE, help=f"the zoo recipe whose model and task run (default {BENCH_RECIPE})")
    p.add_argument("--steps", type=positive_int, default=30, help="training steps of each run (default 30)")
    p.add_argument("--batch-size", type=positive_int, default=32, help="sequences of 4 packed problems per step (default 32)")
    p.add_argument("--device", default=None, help="cpu or cuda (default: cuda if present)")
    p.add_argument("--threads", type=positive_int, default=None, help="CPU threads (default: LENGEN_THREADS or all cores)")
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    if not 1 <= args.k <= 256 or not 1 <= args.steps <= 100_000 or args.batch_size < 1:
        print("multiseed_bench: error: need 1 <= --k <= 256, 1 <= --steps <= 100000 and --batch-size >= 1", file=sys.stderr)
        return 2
    if device_problem(args.device) or (args.threads is not None and args.threads < 1):
        print(f"multiseed_bench: error: {device_problem(args.device) or f'--threads must be >= 1, got {args.threads}'}",
              file=sys.stderr)
        return 2
    try:
        get_recipe(args.recipe)
    except KeyError as err:
        print(f"multiseed_bench: error: {err.args[0]}", file=sys.stderr)
        return 2
    set_cpu_threads(args.threads)
    r = benchmark(args.k, args.steps, args.batch_size, args.recipe, device=args.device)
    if args.json:
        print(json.dumps(r, indent=2))
    else:
        losses = ", ".join(f"{a:.3f}/{b:.3f}" for a, b in zip(r["sequential_final_loss"], r["batched_final_loss"]))
        print(f"{r['k']} seeds of {r['config']}, {r['steps']} steps x batch {r['batch_size']}, {r['device']}, "
              f"{r['threads']} thread(s)\n"
              f"                        wall s   CPU s\n"
              f"  sequential fit x {r['k']:<4} {r['sequential_s']:7.2f} {r['sequential_cpu_s']:7.2f}\n"
              f"  batched fit_seeds     {r['batched_s']:7.2f} {r['batched_cpu_s']:7.2f}\n"
              f"  speed-up              {r['speedup']:6.2f}x {r['speedup_cpu_time']:6.2f}x\n"
              f"  final loss per seed (sequential/batched): {losses}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

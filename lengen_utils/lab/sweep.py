"""Configs x seeds as Ray tasks: ``python -m lengen_utils.lab.sweep --entry NAME --seeds 0,1,2``.

Each run (a config and a seed, or with ``--group-seeds`` a config and all its seeds trained as one batched
model by :func:`lengen_utils.core.multiseed.fit_seeds`) is one task. Ray runs them on this machine
(``ray.init()``) or on an existing cluster (``--address``); ``--executor local`` runs them one after
another in this process, with the same expansion and the same results. Every finished run appends one
JSON line per seed to ``--out``: name, config, seed, device, exact match per length, training seconds.

Every grid point is checked before anything trains (``--dry-run`` included), with the checks ``fit`` and
the configs run: each config field's type and range, the model against the task, the eval lengths
against the task's position IDs, ``--group-seeds``'s limits, the device and the ``--out`` folder. The
seeds come from ``--seeds`` when given (it replaces each config's ``train.seed``), else from each config's
own ``train.seed`` (so ``--grid train.seed=0,1,2`` trains seeds 0, 1 and 2, recorded under one name, so
that their median is taken); setting both is refused.
:func:`read_results` and :func:`summary` turn that file into the median-over-seeds curves of the papers'
multi-seed figures. Ray is an optional extra: ``pip install -e .[sweep]``.

The grid's expansion and checks live in :mod:`.sweep_grid`; its names are re-exported here.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Iterable, Iterator

import torch

from ..core.constants import __version__
from ..core.device import device_problem, pick_device, set_cpu_threads
from .cli import UsageError, check_writable, nonnegative_number, positive_int, positive_number
from ..core.evaluate import evaluate_lengths
from ..analysis.generalization import median_and_range
from ..core.model import Transformer
from ..core.multiseed import fit_seeds
from .sweep_grid import (SECTIONS, SEED, SweepError, apply_overrides, expand, from_entry, from_recipe,
                         load_config, parse_seeds)
from ..core.tasks import Task
from .zoo import Recipe
from ..core.train import fit

__all__ = [
    "SECTIONS", "SEED", "SweepError", "apply_overrides", "expand", "from_entry", "from_recipe",
    "load_config", "parse_seeds", "run_spec", "run_local", "run_ray", "read_results", "summary", "format_summary",
    "build_parser", "main",
]


def run_spec(spec: Recipe, device: str | None = None, threads: int | None = None) -> list[dict]:
    """Train and evaluate one task (on whatever device is present); one record per seed."""
    if threads:
        set_cpu_threads(threads)
    dev = pick_device(device)
    task = Task(spec.task)
    if len(spec.seeds) == 1:
        torch.manual_seed(spec.seeds[0])
        model = Transformer(spec.model).to(dev)
        trained = [(model, fit(model, task, spec.train, progress=False))]
    else:
        trained = fit_seeds(spec.model, task, spec.train, spec.seeds, device=dev)
    records = []
    for seed, (model, result) in zip(spec.seeds, trained):
        t0 = time.perf_counter()
        res = evaluate_lengths(model, task, spec.eval_lengths, n=spec.eval_n)
        records.append({
            "name": spec.id, "seed": seed, "device": str(dev),
            "device_name": torch.cuda.get_device_name(dev) if dev.type == "cuda" else platform.processor() or "cpu",
            "config": {"task": spec.task.to_dict(), "model": spec.model.to_dict(),
                       "train": replace(spec.train, seed=seed).to_dict()},
            "metrics": {"exact_match": {str(k): r.exact_match for k, r in res.items()}, "eval_n": spec.eval_n,
                        "final_loss": result.losses[-1] if result.losses else None},
            "train_seconds": result.seconds, "eval_seconds": time.perf_counter() - t0,
            "batched_seeds": len(spec.seeds), "threads": torch.get_num_threads(), "host": platform.node(),
            "torch": torch.__version__, "lengen_utils": __version__,
            "finished": time.strftime("%Y-%m-%dT%H:%M:%S%z")})
    return records


def run_local(specs: list[Recipe], device: str | None = None, threads: int | None = None) -> Iterator[dict]:
    """The fallback executor: every task in this process, one after another."""
    for spec in specs:
        yield from run_spec(spec, device, threads)


def run_ray(specs: list[Recipe], address: str | None = None, num_cpus: int | None = None, cpus_per_task: float = 1,
            gpus_per_task: float = 0, device: str | None = None, threads: int | None = None) -> Iterator[dict]:
    """Every task as a Ray task, on this machine (``ray.init()``) or the cluster at ``address``;
    records come back as tasks finish."""
    try:
        import ray
    except ImportError as exc:
        raise SweepError("Ray is not installed: pip install -e .[sweep] (or run with --executor local)") from exc
    started = not ray.is_initialized()
    if started and address:
        ray.init(address=address, log_to_driver=False)
    elif started:
        _start_local_ray(ray, num_cpus)
    try:
        remote = ray.remote(num_cpus=cpus_per_task, num_gpus=gpus_per_task)(run_spec)
        pending = [remote.remote(spec, device, threads or max(1, int(cpus_per_task))) for spec in specs]
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            yield from ray.get(done[0])
    finally:
        if started:
            ray.shutdown()


def _start_local_ray(ray, num_cpus: int | None, attempts: int = 2) -> None:
    """``ray.init()`` on this machine; a busy machine can miss Ray's fixed 30 s start-up window, so
    the node's agent gets 2 minutes and a failed start is retried once."""
    for attempt in range(attempts):
        try:
            ray.init(num_cpus=num_cpus, include_dashboard=False, log_to_driver=False,
                     _system_config={"agent_register_timeout_ms": 120_000})
            return
        except Exception:  # Ray raises a bare Exception when its node starts too slowly
            ray.shutdown()
            if attempt == attempts - 1:
                raise


def read_results(path: str | Path) -> list[dict]:
    """The records of a results file (one JSON object per line)."""
    return [json.loads(line) for line in Path(path).read_text().splitlines() if line.strip()]


def summary(records: Iterable[dict]) -> dict[str, dict[int, tuple[float, float, float, int]]]:
    """``{name: {length: (median, min, max, seeds)}}`` of exact match over the seeds of each config
    (:func:`lengen_utils.analysis.generalization.median_and_range`, at the lengths every seed was tested at)."""
    curves: dict[str, list[dict]] = {}
    for r in records:
        curves.setdefault(r["name"], []).append(r["metrics"]["exact_match"])
    return {name: {k: (*stats, len(runs)) for k, stats in median_and_range(runs).items()}
            for name, runs in curves.items()}


def format_summary(records: Iterable[dict]) -> str:
    lines = []
    for name, lengths in summary(records).items():
        cells = "  ".join(f"{k}: {100 * med:5.1f} [{100 * lo:.0f}-{100 * hi:.0f}]"
                          for k, (med, lo, hi, _) in lengths.items())
        n = next(iter(lengths.values()))[3]
        lines.append(f"{name} ({n} seed{'s' if n > 1 else ''}), median EM % [min-max] by length:  {cells}")
    return "\n".join(lines)


def _check_run_args(args: argparse.Namespace) -> None:
    """The device, thread count and results file, refused before anything trains."""
    if args.threads is not None and args.threads < 1:
        raise SweepError(f"--threads must be a whole number >= 1, got {args.threads}")
    if args.device is not None and args.address:    # the cluster may have what this machine lacks: the name only
        try:
            torch.device(args.device)
        except (RuntimeError, TypeError):
            raise SweepError(f"--device {args.device!r} is not a device name; use cpu, cuda or cuda:N") from None
    elif device_problem(args.device):
        raise SweepError(f"--device: {device_problem(args.device)}")
    out = Path(args.out)
    if not out.parent.is_dir():
        raise SweepError(f"--out {out}: the folder {out.parent} does not exist; create it or name a results file "
                         f"in an existing folder")
    try:
        check_writable(out.parent, "--out folder")
    except UsageError as exc:
        raise SweepError(str(exc)) from None
    if out.is_dir() or (out.exists() and not os.access(out, os.W_OK)):
        raise SweepError(f"--out {out} is {'a folder' if out.is_dir() else 'a read-only file'}; "
                         f"name a writable results file, e.g. --out {out.parent / 'sweep-results.jsonl'}")


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):
        raise SweepError(message)


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="python -m lengen_utils.lab.sweep", description=__doc__.split("\n")[0])
    p.add_argument("--config", action="append", default=[], metavar="FILE", help="JSON sweep config (repeatable)")
    p.add_argument("--entry", action="append", default=[], metavar="NAME", help="zoo entry as base config (repeatable)")
    p.add_argument("--recipe", action="append", default=[], metavar="ID",
                   help="zoo recipe as base config, with its seeds unless --seeds is given (repeatable)")
    p.add_argument("--seeds", default=None, help="seeds, e.g. 0,1,2 or 0-9; replaces each config's train.seed "
                                                 "(default: each config's own train.seed)")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="override, e.g. train.steps=500")
    p.add_argument("--grid", action="append", default=[], metavar="KEY=V1,V2", help="sweep a field over values")
    p.add_argument("--group-seeds", action="store_true", help="train each config's seeds as one batched model")
    p.add_argument("--executor", choices=("auto", "ray", "local"), default="auto",
                   help="ray, local (this process), or auto: ray when installed (default)")
    p.add_argument("--address", default=None, help="an existing Ray cluster (default: start one on this machine)")
    p.add_argument("--num-cpus", type=positive_int, default=None, help="CPUs of the local Ray instance (default: all)")
    p.add_argument("--cpus-per-task", type=positive_number, default=1)
    p.add_argument("--gpus-per-task", type=nonnegative_number, default=0)
    p.add_argument("--device", default=None, help="cpu or cuda in each task (default: cuda if present)")
    p.add_argument("--threads", type=positive_int, default=None, help="torch threads per task (default: cpus-per-task)")
    p.add_argument("--out", default="sweep-results.jsonl", help="results file, appended (default sweep-results.jsonl)")
    p.add_argument("--dry-run", action="store_true", help="print the expanded tasks and stop")
    return p


def main(argv: list[str] | None = None) -> int:
    """CLI entry point; returns the exit status (2: bad arguments or config)."""
    try:
        args = build_parser().parse_args(argv)
        if not args.config and not args.entry and not args.recipe:
            raise SweepError("name at least one --config FILE, --entry NAME or --recipe ID")
        if args.cpus_per_task <= 0 or args.gpus_per_task < 0 or (args.num_cpus is not None and args.num_cpus < 1):
            raise SweepError("--cpus-per-task must be > 0, --gpus-per-task >= 0 and --num-cpus >= 1")
        _check_run_args(args)
        bases = ([c for f in args.config for c in load_config(f)] + [from_entry(n) for n in args.entry]
                 + [from_recipe(r) for r in args.recipe])
        seeds = parse_seeds(args.seeds) if args.seeds is not None else None
        specs = expand(bases, seeds, args.set, args.grid, args.group_seeds)
        executor = args.executor
        if executor == "auto":
            try:
                import ray  # noqa: F401
                executor = "ray"
            except ImportError:
                executor = "local"
                print("sweep: Ray is not installed (pip install -e .[sweep]); running tasks one by one here",
                      file=sys.stderr)
        if executor == "local" and args.address:
            raise SweepError("--address needs the ray executor")
    except SweepError as exc:
        print(f"sweep: error: {exc}", file=sys.stderr)
        return 2
    print(f"sweep: {len(specs)} task(s), {sum(len(s.seeds) for s in specs)} model(s), executor {executor}")
    if args.dry_run:
        for s in specs:
            print(f"  {s.id} seeds {','.join(map(str, s.seeds))}: {s.train.steps} steps x {s.train.batch_size}")
        return 0
    stream = (run_local(specs, args.device, args.threads) if executor == "local" else
              run_ray(specs, args.address, args.num_cpus, args.cpus_per_task, args.gpus_per_task, args.device,
                      args.threads))
    records = []
    try:
        with open(args.out, "a") as out:
            for rec in stream:
                out.write(json.dumps(rec) + "\n")
                out.flush()
                records.append(rec)
                print(f"  done {rec['name']} seed {rec['seed']} on {rec['device']}: {rec['train_seconds']:.1f} s")
    except SweepError as exc:
        print(f"sweep: error: {exc}", file=sys.stderr)
        return 2
    print(f"sweep: {len(records)} record(s) appended to {args.out}\n{format_summary(records)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Benchmarks: ``python -m lengen_utils.bench flagship``.

The flagship benchmark trains two small decoders on the CPU, on additions with 1-10 digit operands
in Cho et al.'s format ``$653+049=2070$``, with the same number of steps and the same batch size:

* ``coupled``: position coupling (Cho et al.) with our variant's additions (see :func:`coupled_recipe`);
* ``ape``: a plain absolute-position decoder (IDs 0, 1, 2, ... with no random start), whose learned
  table is big enough for 40-digit inputs; the rows past the trained length are simply untrained.

It prints the wall-clock training time of each and the exact match (EM, teacher-forced: every answer
digit and the closing ``$`` right) at 5-40 digits on fixed test sets. ``--json`` prints the same figures
as one JSON object; ``--out DIR`` saves both checkpoints (safetensors) and ``results.json``.
``--set model.d_model=128`` style overrides change the coupled recipe (``--set-ape`` the APE one),
which is how the recipe search in ``docs/flagship-log.md`` was run.
"""
from __future__ import annotations

import argparse
import json
import os
import shlex
import sys
import time
from dataclasses import dataclass, replace
from pathlib import Path

from .checkpoint import save_model
from .device import seed_everything, set_cpu_threads
from .evaluate import evaluate_lengths, exact_match_table
from .model import ModelConfig, Transformer
from .tasks import Task, TaskConfig
from .train import TrainConfig, fit

LENGTHS = (5, 10, 15, 20, 30, 40)
EVAL_SEED = 999
STEPS = 2000          # training steps of each model
BATCH = 128           # problems per training step (the coupled model packs them 4 to a sequence)


@dataclass(frozen=True)
class Recipe:
    """Everything that defines one trained model: data, architecture, optimisation."""

    name: str
    task: TaskConfig
    model: ModelConfig
    train: TrainConfig

    def to_dict(self) -> dict:
        return {"name": self.name, "task": self.task.to_dict(), "model": self.model.to_dict(),
                "train": self.train.to_dict()}


def coupled_recipe(steps: int = STEPS, batch_size: int = BATCH, seed: int = 0) -> Recipe:
    """The flagship coupled decoder: Cho et al.'s position coupling plus two departures.

    * Cho et al. (Section 3.1, Figure 2 IDs): format ``$653+049=2070$``, coupled IDs with a random start
      in training (IDs up to ``max_position`` = 64) and start 1 at evaluation, a learned absolute
      table looked up with those IDs, balanced sampling of 1-10 digit operands, a 1-layer 4-head
      decoder (here d_model 64 instead of 512).
    * Departure 1, coupled relative bias: every head also adds a learned scalar per clipped
      coupled-ID difference (clip 8) to its attention logits (the "coupled relative bias" of Cho et al.'s
      code, here *on top of* the coupled APE), stored x20 so that Adam grows it fast. It gives the
      "same ID" / "ID - 1" match a margin that does not depend on the input length.
    * Departure 2, packing: each training sequence holds ``pack`` = 4 problems, each with its own
      disjoint random range of coupled IDs, so that during training the answer digits must pick the
      right 2-3 tokens among ~140, as at 30-40 digits at test time. ``batch_size`` counts problems
      (``batch_size // pack`` sequences per step); evaluation is one problem per sequence.
    """
    pack = 4
    task = TaskConfig(op="+", format="cho", positions="coupled", sampler="balanced", min_digits=1,
                      max_digits=10, random_start=True, max_position=64, pack=pack)
    model = ModelConfig(d_model=64, n_layers=1, n_heads=4, d_ff=256, encoding="learned", max_positions=65,
                        relative_bias=True, relative_bias_max_distance=8, relative_bias_scale=20.0)
    train = TrainConfig(steps=steps, batch_size=max(1, batch_size // pack), lr=1e-3,
                        warmup_steps=min(100, steps // 10 + 1), seed=seed)
    return Recipe("coupled", task, model, train)


def ape_recipe(steps: int = STEPS, batch_size: int = BATCH, seed: int = 0, max_length: int = max(LENGTHS)) -> Recipe:
    """The baseline: learned absolute positions 0, 1, 2, ... (no random start, no coupling).

    The table has a row for every position of a ``max_length``-digit problem so that long inputs can be
    fed at all; training (1-10 digits, at most 35 tokens) only ever reaches the first 35 rows.
    """
    tokens = 2 * max_length + (max_length + 1) + 4       # $ a + b = answer $
    task = TaskConfig(op="+", format="cho", positions="consecutive", sampler="balanced", min_digits=1,
                      max_digits=10, random_start=False, max_position=tokens - 1)
    base = coupled_recipe(steps, batch_size, seed)
    # 2 layers: with one, an answer digit cannot know where '=' is, hence which absolute positions hold
    # its operand digits (1 layer: 0% at 10 digits). lr 3e-3 and weight decay 0.1 were the best of the
    # screened settings (docs/flagship-log.md).
    model = replace(base.model, n_layers=2, encoding="learned", relative_bias=False, max_positions=tokens)
    train = replace(base.train, batch_size=batch_size, lr=3e-3, weight_decay=0.1)
    return Recipe("ape", task, model, train)


def _parse_value(text: str):
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


def apply_overrides(recipe: Recipe, overrides: list[str]) -> Recipe:
    """Apply ``section.field=value`` overrides (section: task, model or train; value parsed as JSON)."""
    for item in overrides:
        key, sep, value = item.partition("=")
        section, dot, field = key.partition(".")
        if not sep or not dot or section not in ("task", "model", "train"):
            raise ValueError(f"bad override {item!r}; write e.g. model.d_model=128 or train.lr=0.003")
        part = getattr(recipe, section)
        if field not in part.to_dict():
            raise ValueError(f"{section} has no field {field!r}; fields: {sorted(part.to_dict())}")
        val = _parse_value(value)
        if field == "betas":
            val = tuple(val)
        recipe = replace(recipe, **{section: replace(part, **{field: val})})
    return recipe


def train_and_evaluate(recipe: Recipe, lengths=LENGTHS, n_eval: int = 1000, eval_seed: int = EVAL_SEED,
                       progress: bool = True) -> tuple[Transformer, dict]:
    """Train ``recipe`` from scratch on the CPU, then measure EM per operand length.

    Returns the model and ``{"train_seconds", "steps", "em": {length: accuracy}, "recipe"}``.
    """
    task = Task(recipe.task)
    seed_everything(recipe.train.seed)        # the initialisation too, not only fit()'s data and steps
    model = Transformer(recipe.model)
    result = fit(model, task, recipe.train, progress=progress, desc=f"training {recipe.name}")
    t0 = time.perf_counter()
    em = exact_match_table(evaluate_lengths(model, task, lengths, n=n_eval, seed=eval_seed, progress=progress))
    return model, {"train_seconds": round(result.seconds, 2), "steps": result.steps,
                   "final_loss": result.losses[-1] if result.losses else None,
                   "eval_seconds": round(time.perf_counter() - t0, 2),
                   "em": {str(k): v for k, v in em.items()}, "n_parameters": model.num_parameters(),
                   "recipe": recipe.to_dict()}


def format_table(results: dict, lengths=LENGTHS) -> str:
    """A plain-text table: one row per model, training seconds then EM (%) per length."""
    head = f"{'model':<10}{'train s':>9}" + "".join(f"{f'{n} dig':>9}" for n in lengths)
    rows = [head, "-" * len(head)]
    for name in ("coupled", "ape"):
        if name in results:
            r = results[name]
            rows.append(f"{name:<10}{r['train_seconds']:>9.1f}"
                        + "".join(f"{100 * r['em'][str(n)]:>8.1f}%" for n in lengths))
    return "\n".join(rows)


def _load() -> list[float] | None:
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except (AttributeError, OSError):
        return None


def flagship(steps: int | None = None, batch_size: int | None = None, seed: int = 0, quick: bool = False,
             n_eval: int | None = None, lengths=LENGTHS, models=("coupled", "ape"), overrides=(),
             ape_overrides=(), out: str | Path | None = None, threads: int | None = None,
             progress: bool = True, command: str | None = None) -> dict:
    """Run the flagship benchmark; returns the JSON-ready results (and saves them with ``out``)."""
    threads = set_cpu_threads(threads)
    if quick:
        steps, batch_size, n_eval = steps or 20, batch_size or 16, n_eval or 20
    steps, batch_size = steps or STEPS, batch_size or BATCH
    coupled = apply_overrides(coupled_recipe(steps, batch_size, seed), list(overrides))
    if not any(o.startswith("train.batch_size=") for o in overrides):   # keep `batch_size` problems per step
        coupled = replace(coupled, train=replace(coupled.train, batch_size=max(1, batch_size // coupled.task.pack)))
    recipes = {"coupled": coupled,
               "ape": apply_overrides(ape_recipe(steps, batch_size, seed, max(lengths)), list(ape_overrides))}
    n_eval = n_eval or 1000
    command = command or "python -m lengen_utils.bench " + " ".join(shlex.quote(a) for a in sys.argv[1:])
    results: dict = {"benchmark": "flagship", "command": command,
                     "config": {"steps": steps, "batch_size": batch_size, "seed": seed, "n_eval": n_eval,
                                "eval_seed": EVAL_SEED, "lengths": list(lengths), "trained_digits": [1, 10],
                                "threads": threads, "load_before": _load(), "device": "cpu", "quick": quick}}
    trained = {}
    for name in models:
        model, res = train_and_evaluate(recipes[name], lengths, n_eval, EVAL_SEED, progress)
        results[name] = res
        trained[name] = model
    results["config"]["load_after"] = _load()
    if out is not None:
        out = Path(out)
        for name, model in trained.items():
            meta = {"benchmark": "flagship", "name": name, "task_config": recipes[name].task.to_dict(),
                    "train_config": recipes[name].train.to_dict(), "seed": seed,
                    "metrics": {k: results[name][k] for k in ("train_seconds", "steps", "em", "final_loss")},
                    "n_eval": n_eval, "eval_seed": EVAL_SEED, "command": command}
            save_model(out / f"{name}.safetensors", model, meta)
        out.mkdir(parents=True, exist_ok=True)
        (out / "results.json").write_text(json.dumps(results, indent=2) + "\n")
        record_flagship(out)
    return results


def record_flagship(out: str | Path) -> None:
    """Record the checkpoints under ``out`` (with their sha256) in the zoo manifest one level up, as
    ``flagship-coupled`` and ``flagship-ape``, so that they are checked like every other asset."""
    from .checkpoint import file_sha256
    from .zoo import record_in_manifest

    out = Path(out)
    results = json.loads((out / "results.json").read_text())
    for name in ("coupled", "ape"):
        path = out / f"{name}.safetensors"
        if name not in results or not path.is_file():
            continue
        recipe = results[name]["recipe"]
        record_in_manifest(f"flagship-{name}", {
            "command": results["command"], "description": f"flagship benchmark, {name} decoder",
            "seed": results["config"]["seed"], "task": recipe["task"], "model": recipe["model"],
            "train": recipe["train"], "metrics": {"em": results[name]["em"], "eval_n": results["config"]["n_eval"]},
            "train_seconds": results[name]["train_seconds"], "file": f"{out.name}/{path.name}",
            "sha256": file_sha256(path)}, assets=out.parent)


def load_flagship(name: str = "coupled", assets: str | Path | None = None):
    """The cached flagship model (``coupled`` or ``ape``) and its evaluation task (see :func:`zoo.load`)."""
    from .zoo import load

    return load(f"flagship-{name}", assets=Path(assets) if assets else None)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m lengen_utils.bench", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="benchmark", required=True)
    f = sub.add_parser("flagship", help="coupled vs plain APE decoder: train on 1-10 digits, test to 40")
    f.add_argument("--json", action="store_true", help="print one JSON object instead of the table")
    f.add_argument("--quick", action="store_true", help="tiny budget (20 steps, 20 test problems) for tests")
    f.add_argument("--seed", type=int, default=0, help="model and data seed (the test sets are fixed)")
    f.add_argument("--steps", type=int, default=None, help=f"training steps of each model (default {STEPS})")
    f.add_argument("--batch-size", type=int, default=None, help=f"training problems per step (default {BATCH})")
    f.add_argument("--n-eval", type=int, default=None, help="test problems per length (default 1000)")
    f.add_argument("--lengths", type=str, default=None, help="comma-separated operand lengths to test")
    f.add_argument("--only", choices=("coupled", "ape"), default=None, help="train just one of the two")
    f.add_argument("--set", dest="overrides", action="append", default=[], metavar="SECTION.FIELD=VALUE",
                   help="override the coupled recipe, e.g. --set model.d_model=128 (repeatable)")
    f.add_argument("--set-ape", dest="ape_overrides", action="append", default=[], metavar="SECTION.FIELD=VALUE",
                   help="override the APE recipe")
    f.add_argument("--threads", type=int, default=None, help="CPU threads (default: every core we may use)")
    f.add_argument("--out", type=str, default=None, help="save coupled/ape .safetensors and results.json here")
    f.add_argument("--no-progress", action="store_true", help="hide the progress bars")
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``python -m lengen_utils.bench`` (and the ``lengen-bench`` script)."""
    args = build_parser().parse_args(argv)
    lengths = tuple(int(x) for x in args.lengths.split(",")) if args.lengths else LENGTHS
    argv_used = sys.argv[1:] if argv is None else argv
    results = flagship(steps=args.steps, batch_size=args.batch_size, seed=args.seed, quick=args.quick,
                       n_eval=args.n_eval, lengths=lengths,
                       models=(args.only,) if args.only else ("coupled", "ape"), overrides=args.overrides,
                       ape_overrides=args.ape_overrides, out=args.out, threads=args.threads,
                       progress=not args.no_progress and not args.json,
                       command="python -m lengen_utils.bench " + " ".join(shlex.quote(a) for a in argv_used))
    if args.json:
        print(json.dumps(results))
    else:
        cfg = results["config"]
        print(f"flagship: {cfg['steps']} steps x batch {cfg['batch_size']}, seed {cfg['seed']}, "
              f"{cfg['n_eval']} test problems per length, {cfg['threads']} CPU threads, "
              f"load {cfg['load_before']} -> {cfg['load_after']}")
        print(format_table(results, lengths))
        if args.out:
            print(f"saved to {args.out}/")
    return 0


if __name__ == "__main__":
    sys.exit(main())

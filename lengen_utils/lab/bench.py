"""Benchmarks: ``python -m lengen_utils.lab.bench flagship`` (and ``... bench throughput``, which runs
:mod:`lengen_utils.lab.throughput` with the arguments that follow; ``... bench long-eval``, the seconds and
peak memory of evaluating 100-1000 digit additions, :mod:`lengen_utils.lab.long_eval`, likewise; and
``... bench flagship-time [--seeds 5] [--json]``, the
wall-clock seconds that each seed of the one-minute flagship takes to learn 1000-digit addition, with its reach,
:mod:`lengen_utils.lab.flagship_time`; ``... bench leaderboard [--tag nb05] [--json]``, which prints the median and range over seeds per method
and length of built zoo entries, and their generalizable length: :mod:`lengen_utils.lab.leaderboard`).

The flagship benchmark trains the zoo's two flagship recipes (:mod:`lengen_utils.lab.zoo.flagship`) on the
CPU, on additions with 1-10 digit operands in Cho et al.'s format ``$653+049=2070$``, with the same
number of problems per step, each with the budget it needs to master 1-10 digits:

* ``coupled``: position coupling (Cho et al.) with our variant's additions (zoo entry ``flagship-coupled``):
  1 layer, 2,000 steps (about 3 minutes on one core);
* ``ape``: a plain absolute-position decoder (IDs 0, 1, 2, ... with no random start), whose learned
  table places problems up to 40-digit operands (zoo entry ``flagship-ape``): 3 layers, 10,000 steps
  (about 20 minutes on one core).

Each model is tested at the lengths its position table can place; a length past it is skipped and
reported (``-`` in the table, ``skipped_lengths`` in the JSON), and a model that can place none of them
is refused before training.

It prints the wall-clock training time of each and the exact match (EM, teacher-forced: every answer
digit and the closing ``$`` right) at 5-100 digits on fixed test sets. ``--steps`` sets both models' steps
(default: each recipe's own). ``--json`` prints the same figures as one JSON object; ``--out DIR`` saves
both checkpoints (safetensors) and ``results.json`` in DIR and nowhere else. ``--set model.d_model=128``
style overrides change the coupled recipe (``--set-ape`` the APE one), which is how the recipe search in
``docs/logs/flagship-log.md`` was run. The bench only trains,
evaluates and prints: the committed flagship models are zoo entries, rebuilt with
``python -m lengen_utils.lab.zoo train flagship-coupled flagship-ape``.

A comparison of lengths is fair only between models that master their trained range (the leaderboard's rule,
:mod:`lengen_utils.lab.leaderboard`): when one misses it (exact match at most 95% at a tested length of 1-10
digits; on this 2-core machine with its default threads the APE baseline once reached 11% at 10 digits),
the bench prints one line saying
the comparison is void and why, and under ``--json`` exits with status 3 (``VOID_COMPARISON``), the JSON's
``comparison`` giving the same reason. This is the only bench that trains methods live and compares them.

Every argument is checked before training (one-line error, exit status 2).

The recipes at a budget, their ``--set`` overrides and the preflight live in :mod:`.bench_recipes`.
"""
from __future__ import annotations

import json
import os
import shlex
import sys
import time
from pathlib import Path

from .bench_recipes import flagship_recipes, preflight
from ..core.checkpoint import save_model
from ..core.config_checks import require_int, require_ints
from .cli import (INTERRUPTED, RUN_ERROR, USAGE_ERROR, OneLineParser, UsageError, check_writable, fail, fraction,
                  int_list, nonnegative_int, positive_int, threads_from_env)
from ..core.constants import EVAL_SEED
from ..core.device import set_cpu_threads
from ..core.evaluate import evaluate_lengths, exact_match_table
from ..analysis.generalization import THRESHOLD
from .leaderboard import DEFAULT_TAG, format_leaderboard, leaderboard
from .flagship_time import main as flagship_time_main
from .nxm_grid import main as nxm_grid_main
from .long_eval import main as long_eval_main
from ..core.model import Transformer
from ..core.tasks import Task
from .throughput import main as throughput_main
from ..core.train import fit
from .zoo import ZooEntry, with_overrides
from .zoo.flagship import APE_STEPS, BATCH, EVAL_N, LENGTHS, STEPS, ape_recipe, flagship_recipe

PROG = "python -m lengen_utils.lab.bench"
MODELS = ("coupled", "ape")
TRAINED_DIGITS = 10          # both recipes train on 1-10 digit operands
VOID_COMPARISON = 3          # exit status under --json when a model misses mastery of its trained range

__all__ = [
    "PROG", "MODELS", "TRAINED_DIGITS", "VOID_COMPARISON", "void_reason", "with_overrides", "flagship_recipes",
    "flagship_recipe", "ape_recipe", "preflight",
    "train_and_evaluate", "format_table", "prepare", "run", "flagship", "build_parser", "main",
]


def train_and_evaluate(recipe: ZooEntry, lengths=LENGTHS, n_eval: int = EVAL_N, eval_seed: int = EVAL_SEED,
                       progress: bool = True, label: str | None = None) -> tuple[Transformer, dict]:
    """Train ``recipe`` from its seed on the CPU, then measure EM per operand length.

    Returns the model and ``{"train_seconds", "steps", "em": {length: accuracy}, "recipe", ...}``.
    """
    label = label or recipe.name
    task = Task(recipe.task)
    model = recipe.build()                    # seeds the initialisation with the recipe's seed
    result = fit(model, task, recipe.train, progress=progress, desc=f"training {label}")
    t0 = time.perf_counter()
    em = exact_match_table(evaluate_lengths(model, task, lengths, n=n_eval, seed=eval_seed, progress=progress))
    return model, {"train_seconds": round(result.seconds, 2), "steps": result.steps,
                   "final_loss": result.losses[-1] if result.losses else None,
                   "eval_seconds": round(time.perf_counter() - t0, 2),
                   "em": {str(k): v for k, v in em.items()}, "n_parameters": model.num_parameters(),
                   "recipe": {"name": label, **recipe.configs()}}


def format_table(results: dict, lengths=LENGTHS) -> str:
    """A plain-text table: one row per model, training seconds then EM (%) per length."""
    head = f"{'model':<10}{'train s':>9}" + "".join(f"{f'{n} dig':>9}" for n in lengths)
    rows = [head, "-" * len(head)]
    for name in MODELS:
        if name in results:
            r = results[name]
            rows.append(f"{name:<10}{r['train_seconds']:>9.1f}"
                        + "".join(f"{100 * r['em'][str(n)]:>8.1f}%" if str(n) in r["em"] else f"{'-':>9}"
                                  for n in lengths))
    skipped = [f"{name}: {', '.join(map(str, results[name]['skipped_lengths']))} digits"
               for name in MODELS if results.get(name, {}).get("skipped_lengths")]
    if skipped:
        rows.append("- : past the model's position table, not tested (" + "; ".join(skipped) + ")")
    return "\n".join(rows)


def void_reason(results: dict, threshold: float = THRESHOLD, trained_digits: int = TRAINED_DIGITS) -> str | None:
    """Why the leaderboard of live-trained ``results`` compares nothing, or None when it is fair.

    Mastery as the leaderboard defines it (:mod:`lengen_utils.lab.leaderboard`): exact match above ``threshold``
    at every tested length inside the trained range 1-``trained_digits``. A comparison of lengths is void when a
    model misses it, or when no tested length lies inside that range (mastery was not measured). One model
    alone (``--only``) is no comparison: None."""
    trained = [name for name in MODELS if name in results]
    if len(trained) < 2:
        return None
    missed = []
    for name in trained:
        inside = {int(n): v for n, v in results[name]["em"].items() if int(n) <= trained_digits}
        if not inside:
            return (f"comparison void: no tested length inside the trained range 1-{trained_digits} digits, so "
                    f"mastery was not measured (add {trained_digits} to --lengths)")
        below = [f"{100 * v:.1f}% at {n} digits" for n, v in sorted(inside.items()) if not v > threshold]
        if below:
            missed.append(f"{name} ({', '.join(below)})")
    if not missed:
        return None
    return (f"comparison void: {'; '.join(missed)} did not master the trained range 1-{trained_digits} digits "
            f"(mastery: exact match > {threshold:.0%} at every tested length inside it)")


def _load() -> list[float] | None:
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except (AttributeError, OSError):
        return None


def _positive(name: str, value) -> None:
    if value is not None and (not isinstance(value, int) or isinstance(value, bool) or value < 1):
        raise ValueError(f"{name} must be a positive integer (>= 1), got {value!r}")


def prepare(steps: int | None = None, batch_size: int | None = None, seed: int = 0, quick: bool = False,
            n_eval: int | None = None, lengths=LENGTHS, models=MODELS, overrides=(), ape_overrides=(),
            out: str | Path | None = None, threads: int | None = None, progress: bool = True,
            command: str | None = None) -> dict:
    """Check every argument of :func:`flagship`, build the recipes and feed one problem per length through
    each model; returns the run's plan. Raises ``ValueError`` (nothing has trained, nothing is written)."""
    for name, value in (("steps", steps), ("batch_size", batch_size), ("n_eval", n_eval), ("threads", threads)):
        _positive(name, value)
    seed = require_int(seed, "seed", error=ValueError)
    lengths = require_ints(lengths, "lengths", error=ValueError)
    if not lengths:
        raise ValueError("lengths is empty; give at least one operand length >= 1")
    for n in lengths:
        _positive("every test length", n)
    if not models or any(m not in MODELS for m in models):
        raise ValueError(f"models must be a non-empty subset of {MODELS}, got {tuple(models)}")
    if quick:
        steps, batch_size, n_eval = steps or 20, batch_size or 16, n_eval or 20
    batch_size, n_eval = batch_size or BATCH, n_eval or EVAL_N
    recipes = flagship_recipes(steps, batch_size, seed, overrides, ape_overrides)
    placed = {}
    for name in models:
        try:
            placed[name] = preflight(recipes[name], lengths)
        except (ValueError, TypeError, RuntimeError) as err:
            raise ValueError(f"the {name} model cannot run this benchmark: {err}") from None
    if out is not None:
        out = check_writable(out, "--out folder")
    steps = {m: recipes[m].train.steps for m in models}
    return {"steps": steps, "batch_size": batch_size, "seed": seed, "quick": quick, "n_eval": n_eval,
            "lengths": lengths, "placed": placed, "recipes": {m: recipes[m] for m in models}, "out": out,
            "threads": threads, "progress": progress,
            "command": command or PROG + " " + " ".join(shlex.quote(a) for a in sys.argv[1:])}


def run(plan: dict) -> dict:
    """Train and evaluate the models of a :func:`prepare`d plan; save them under ``plan["out"]`` if set."""
    threads = set_cpu_threads(plan["threads"])
    n_eval, command, out = plan["n_eval"], plan["command"], plan["out"]
    results: dict = {"benchmark": "flagship", "command": command,
                     "config": {"steps": plan["steps"], "batch_size": plan["batch_size"], "seed": plan["seed"],
                                "n_eval": n_eval, "eval_seed": EVAL_SEED, "lengths": list(plan["lengths"]),
                                "trained_digits": [1, 10], "threads": threads, "load_before": _load(),
                                "device": "cpu", "quick": plan["quick"]}}
    trained = {}
    for name, recipe in plan["recipes"].items():
        placed = plan["placed"][name]
        model, res = train_and_evaluate(recipe, placed, n_eval, EVAL_SEED, plan["progress"], label=name)
        res["skipped_lengths"] = [n for n in plan["lengths"] if n not in placed]
        results[name] = res
        trained[name] = model
    results["config"]["load_after"] = _load()
    void = void_reason(results)
    results["comparison"] = {"void": void is not None, "reason": void}
    if out is not None:
        for name, model in trained.items():
            recipe = plan["recipes"][name]
            meta = {"benchmark": "flagship", "name": name, "task_config": recipe.task.to_dict(),
                    "train_config": recipe.train.to_dict(), "seed": recipe.seed,
                    "metrics": {k: results[name][k] for k in ("train_seconds", "steps", "em", "final_loss")},
                    "n_eval": n_eval, "eval_seed": EVAL_SEED, "command": command}
            save_model(out / f"{name}.safetensors", model, meta)
        tmp = out / ".results.json.tmp"
        tmp.write_text(json.dumps(results, indent=2) + "\n")
        os.replace(tmp, out / "results.json")
    return results


def flagship(**kwargs) -> dict:
    """Run the flagship benchmark (arguments of :func:`prepare`); returns the JSON-ready results and
    saves them with ``out``. Every argument is checked before training; a bad value raises ``ValueError``."""
    return run(prepare(**kwargs))


def build_parser() -> OneLineParser:
    parser = OneLineParser(prog=PROG, description="Benchmarks: flagship (coupled vs plain APE decoder, trained on "
                                                  f"1-10 digits, tested to {max(LENGTHS)}), leaderboard and "
                                                  "throughput.")
    sub = parser.add_subparsers(dest="benchmark", required=True, parser_class=OneLineParser)
    f = sub.add_parser("flagship", help=f"coupled vs plain APE decoder: train on 1-10 digits, test to {max(LENGTHS)}")
    f.add_argument("--json", action="store_true", help="print one JSON object instead of the table")
    f.add_argument("--quick", action="store_true", help="tiny budget (20 steps, 20 test problems) for tests")
    f.add_argument("--seed", type=nonnegative_int, default=0, help="model and data seed (the test sets are fixed)")
    f.add_argument("--steps", type=positive_int, default=None,
                   help=f"training steps of both models (default: {STEPS} coupled, {APE_STEPS} APE)")
    f.add_argument("--batch-size", type=positive_int, default=None,
                   help=f"training problems per step (default {BATCH})")
    f.add_argument("--n-eval", type=positive_int, default=None, help=f"test problems per length (default {EVAL_N})")
    f.add_argument("--lengths", type=str, default=None,
                   help="comma-separated operand lengths to test (default " + ",".join(map(str, LENGTHS)) + ")")
    f.add_argument("--only", choices=MODELS, default=None, help="train just one of the two")
    f.add_argument("--set", dest="overrides", action="append", default=[], metavar="SECTION.FIELD=VALUE",
                   help="override the coupled recipe, e.g. --set model.d_model=128 (repeatable)")
    f.add_argument("--set-ape", dest="ape_overrides", action="append", default=[], metavar="SECTION.FIELD=VALUE",
                   help="override the APE recipe")
    f.add_argument("--threads", type=positive_int, default=None,
                   help="CPU threads (default: $LENGEN_THREADS, else every core we may use)")
    f.add_argument("--out", type=str, default=None, help="save coupled/ape .safetensors and results.json here")
    f.add_argument("--no-progress", action="store_true", help="hide the progress bars")
    b = sub.add_parser("leaderboard", help="method x length table (median [min-max] over seeds) of built zoo "
                                           "entries of a tag, with the generalizable length")
    b.add_argument("--tag", default=DEFAULT_TAG, help=f"zoo tag whose entries to compare (default {DEFAULT_TAG})")
    b.add_argument("--threshold", type=fraction, default=THRESHOLD,
                   help=f"median EM a length must exceed to count as generalized (default {THRESHOLD})")
    b.add_argument("--json", action="store_true", help="print one JSON object instead of the table")
    sub.add_parser("throughput", add_help=False,
                   help="training and decoding throughput (same as python -m lengen_utils.lab.throughput; "
                        "its arguments follow)")
    sub.add_parser("flagship-time", add_help=False,
                   help="seconds to train the flagship to 1000-digit addition, per seed, and its reach "
                        "(python -m lengen_utils.lab.flagship_time; its arguments follow)")
    sub.add_parser("nxm-grid", add_help=False,
                   help="N x M multiplication: exact match over a grid of operand lengths, per seed of a notebook 09 "
                        "recipe, with its targets (python -m lengen_utils.lab.nxm_grid; its arguments follow)")
    sub.add_parser("long-eval", add_help=False,
                   help="seconds and peak memory of evaluating 100-1000 digit additions (python -m "
                        "lengen_utils.lab.long_eval; its arguments follow)")
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``python -m lengen_utils.lab.bench`` (and the ``lengen-bench`` script)."""
    argv_used = sys.argv[1:] if argv is None else list(argv)
    if argv_used[:1] == ["throughput"]:
        return throughput_main(argv_used[1:])
    if argv_used[:1] == ["long-eval"]:
        return long_eval_main(argv_used[1:])
    if argv_used[:1] == ["flagship-time"]:
        return flagship_time_main(argv_used[1:])
    if argv_used[:1] == ["nxm-grid"]:
        return nxm_grid_main(argv_used[1:])
    args = build_parser().parse_args(argv_used)
    if args.benchmark == "leaderboard":
        try:
            board = leaderboard(args.tag, threshold=args.threshold)
        except (KeyError, ValueError) as err:        # ZooError is a KeyError
            return fail(PROG, err, USAGE_ERROR)
        print(json.dumps(board) if args.json else format_leaderboard(board))
        return 0
    try:
        threads = args.threads or threads_from_env()
        lengths = int_list(args.lengths, "--lengths") if args.lengths is not None else LENGTHS
        options = dict(steps=args.steps, batch_size=args.batch_size, seed=args.seed, quick=args.quick,
                       n_eval=args.n_eval, lengths=lengths, models=(args.only,) if args.only else MODELS,
                       overrides=args.overrides, ape_overrides=args.ape_overrides, out=args.out,
                       threads=threads, progress=not args.no_progress and not args.json,
                       command=PROG + " " + " ".join(shlex.quote(a) for a in argv_used))
        plan = prepare(**options)
    except (UsageError, ValueError) as err:
        return fail(PROG, err, USAGE_ERROR)
    try:
        results = run(plan)
    except KeyboardInterrupt:
        return fail(PROG, "interrupted", INTERRUPTED)
    except OSError as err:
        return fail(PROG, err, RUN_ERROR)
    void = results["comparison"]["reason"]
    if args.json:
        print(json.dumps(results))
        return VOID_COMPARISON if void else 0
    else:
        cfg = results["config"]
        steps = ", ".join(f"{m} {n:,}" for m, n in cfg["steps"].items())
        print(f"flagship: steps {steps} x batch {cfg['batch_size']}, seed {cfg['seed']}, "
              f"{cfg['n_eval']} test problems per length, {cfg['threads']} CPU threads, "
              f"load {cfg['load_before']} -> {cfg['load_after']}")
        print(format_table(results, lengths))
        if void:
            print(void)
        if args.out:
            print(f"saved to {args.out}/")
    return 0


if __name__ == "__main__":
    sys.exit(main())

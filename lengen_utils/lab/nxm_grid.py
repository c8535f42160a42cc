"""N x M multiplication over a grid of operand lengths: ``python -m lengen_utils.lab.bench nxm-grid``.

It loads the built seeds of a recipe of notebook 09 (default ``nb09-local``: the fused-row scratchpad behind the row
and lookup windows), tests each on
the same fixed problems of every ``(N, M)`` cell (``--n`` per cell, 200 by default), and prints the median exact
match per cell with the worst seed's beside it, each seed's training time, threads and size (from the manifest), and
the issue's targets, each computed from what ran:

* trained on N, M <= 10, the median exact match is >= 95% on every cell up to 20 x 20;
* stretch: median >= 90% at 30 x 30;
* each seed trained in <= 60 minutes on at most 2 CPU threads;
* the model has <= 6 layers and <= 1M parameters.

Exact match needs the whole scratchpad right (:mod:`lengen_utils.analysis.nxm_measures`): the final checkpoint of each seed,
no selection. ``--json`` prints one JSON object; ``--out FILE`` also writes it to FILE. Nothing is trained here: the
models are zoo entries (``python -m lengen_utils.lab.zoo train nb09-fused-s0`` ...).
"""
from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path

import numpy as np

from ..analysis.nxm_measures import evaluate_cell
from ..core.config_checks import ConfigError
from ..core.device import set_cpu_threads
from .cli import INTERRUPTED, USAGE_ERROR, OneLineParser, UsageError, fail, int_list, nonnegative_int, positive_int
from .zoo import REPO_ROOT, ZooError, entry, load, manifest_record, recipe_entries, with_one_role

PROG = "python -m lengen_utils.lab.bench nxm-grid"
#: the recipe tested by default: notebook 09's row that declares the role ``nxm-grid``
RECIPE = with_one_role("nxm-grid").id
GRID = tuple(range(1, 21))           # every cell up to 20 x 20
STRETCH = 30
N_PER_CELL = 200
TARGET_GRID, TARGET_STRETCH = 0.95, 0.90
TARGET_MINUTES, TARGET_THREADS, TARGET_LAYERS, TARGET_PARAMETERS = 60.0, 2, 6, 1_000_000
#: where the course keeps the record that notebook 09 reads
RECORD = REPO_ROOT / "docs" / "logs" / "nxm-grid.json"
BENCH = "python -m lengen_utils.lab.bench nxm-grid --out docs/logs/nxm-grid.json"


def grid_result(recipe: str = RECIPE, lengths=GRID, stretch: int | None = STRETCH, n: int = N_PER_CELL,
                progress: bool = False) -> dict:
    """Every built seed of ``recipe`` on every cell of ``lengths x lengths`` (and the square ``stretch``); the
    medians, the worst seed and the targets (see the module docstring)."""
    seeds = recipe_entries(recipe, built_only=True)
    if not seeds:
        every = " ".join(recipe_entries(recipe).values())
        raise UsageError(f"no seed of {recipe!r} is built; build them with python -m lengen_utils.lab.zoo train {every}"
                         if every else f"no recipe {recipe!r} has seeds in the catalog (notebook 09's: {RECIPE})")
    cells = [(a, b) for a in lengths for b in lengths] + ([(stretch, stretch)] if stretch else [])
    runs = []
    for seed, name in seeds.items():
        model, task = load(name)
        too_long = [c for c in cells if max(c) > task.longest_operand()]
        if too_long:
            raise UsageError(f"cells {too_long[:3]} are past {name}'s IDs (at most {task.longest_operand()} digits)")
        start = time.perf_counter()
        scores = {}
        for a, b in cells:
            cell = evaluate_cell(model, task, a, b, n)
            scores[f"{a}x{b}"] = {"em": cell.exact_match, "token_accuracy": cell.token_accuracy}
            if progress:
                print(f"  {name} {a}x{b}: {100 * cell.exact_match:.1f}%", file=sys.stderr, flush=True)
        record = manifest_record(name)
        runs.append({"seed": seed, "entry": name, "sha256": record["sha256"], "train_seconds": record["train_seconds"],
                     "threads": record["threads"], "device": record["device"],
                     "n_parameters": record["n_parameters"], "n_layers": entry(name).model.n_layers,
                     "eval_seconds": round(time.perf_counter() - start, 1), "cells": scores})
    return {"benchmark": "nxm-grid", "recipe": recipe, "n": n, "lengths": list(lengths), "stretch": stretch,
            "trained": [entry(seeds[min(seeds)]).task.min_digits, entry(seeds[min(seeds)]).task.max_digits],
            "seeds": runs, "summary": summarize(runs, lengths, stretch)}


def summarize(runs: list[dict], lengths, stretch: int | None) -> dict:
    """Median and worst seed per cell, and each target's verdict on what ran (None: not run)."""
    keys = list(runs[0]["cells"])
    median = {k: statistics.median(r["cells"][k]["em"] for r in runs) for k in keys}
    worst = {k: min(r["cells"][k]["em"] for r in runs) for k in keys}
    tokens = {k: statistics.median(r["cells"][k]["token_accuracy"] for r in runs) for k in keys}
    grid_keys = [f"{a}x{b}" for a in lengths for b in lengths if a <= 20 and b <= 20]
    # the lowest median; among ties the lowest worst seed, then the largest cell (all at 100%: the corner)
    weakest = (min(grid_keys, key=lambda k: (median[k], worst[k], -int(k.split("x")[0]) * int(k.split("x")[1])))
               if grid_keys else None)
    stretch_key = f"{stretch}x{stretch}" if stretch else None
    targets = {
        f"median >= {TARGET_GRID:.0%} on every cell up to 20 x 20 (weakest {weakest})":
            median[weakest] >= TARGET_GRID if weakest and max(lengths) >= 20 else None,
        f"stretch: median >= {TARGET_STRETCH:.0%} at 30 x 30":
            median[stretch_key] >= TARGET_STRETCH if stretch == STRETCH else None,
        f"each seed trained in <= {TARGET_MINUTES:g} min on <= {TARGET_THREADS} CPU threads":
            all(r["train_seconds"] <= 60 * TARGET_MINUTES and r["threads"] <= TARGET_THREADS and r["device"] == "cpu"
                for r in runs),
        f"<= {TARGET_LAYERS} layers and <= {TARGET_PARAMETERS:,} parameters":
            all(r["n_layers"] <= TARGET_LAYERS and r["n_parameters"] <= TARGET_PARAMETERS for r in runs),
    }
    return {"median_em": median, "worst_em": worst, "median_token_accuracy": tokens, "weakest_cell": weakest,
            "targets": targets}


def read_record(path: Path = RECORD) -> dict:
    """The benchmark's recorded grid; refused when it is missing or when a seed's model is not the one built now."""
    if not Path(path).is_file():
        raise FileNotFoundError(f"no recorded grid at {path}; record it with {BENCH}")
    result = json.loads(Path(path).read_text())
    for run in result["seeds"]:
        built = manifest_record(run["entry"])["sha256"]
        if run.get("sha256") != built:
            raise ValueError(f"the recorded grid tested another build of {run['entry']} (sha256 "
                             f"{str(run.get('sha256'))[:12]}..., built now {built[:12]}...); record it again with {BENCH}")
    return result


def median_matrix(result: dict, key: str = "median_em") -> np.ndarray:
    """``[N, M]`` medians over seeds of the recorded grid (rows: the multiplicand's digits)."""
    lengths = result["lengths"]
    return np.array([[result["summary"][key][f"{a}x{b}"] for b in lengths] for a in lengths])


def reach_rows(result: dict) -> dict[str, dict[str, object]]:
    """The target cells: 2x and 3x the trained length in both operands, with median and worst seed."""
    top, summary = result["trained"][1], result["summary"]
    rows = {}
    for factor, target in ((2, TARGET_GRID), (3, TARGET_STRETCH)):
        key = f"{factor * top}x{factor * top}"
        if key in summary["median_em"]:
            rows[f"{key} ({factor}x in both)"] = {
                "median": summary["median_em"][key], "worst seed": summary["worst_em"][key],
                "median token accuracy": f"{100 * summary['median_token_accuracy'][key]:.3f}%", "target": target}
    return rows


def format_grid(result: dict) -> str:
    """The grid of medians (rows: N, the multiplicand's digits; columns: M), then the seeds and the targets."""
    summary, lengths = result["summary"], result["lengths"]
    lo, hi = result["trained"]
    lines = [f"nxm-grid: {result['recipe']}, {len(result['seeds'])} seed(s), trained on N, M in {lo}..{hi}; "
             f"median exact match % over seeds, {result['n']} problems per cell (whole scratchpad right)",
             "   N\\M" + "".join(f"{b:>6}" for b in lengths)]
    for a in lengths:
        lines.append(f"{a:>6}" + "".join(f"{100 * summary['median_em'][f'{a}x{b}']:>6.1f}" for b in lengths))
    if result["stretch"]:
        key = f"{result['stretch']}x{result['stretch']}"
        lines.append(f"{key}: median {100 * summary['median_em'][key]:.1f}%, worst seed "
                     f"{100 * summary['worst_em'][key]:.1f}%, median token accuracy "
                     f"{100 * summary['median_token_accuracy'][key]:.3f}%")
    weakest = summary["weakest_cell"]
    lines.append(f"weakest cell {weakest}: median {100 * summary['median_em'][weakest]:.1f}%, worst seed "
                 f"{100 * summary['worst_em'][weakest]:.1f}%")
    for r in result["seeds"]:
        lines.append(f"  seed {r['seed']} ({r['entry']}): trained {r['train_seconds'] / 60:.1f} min on {r['threads']} "
                     f"{r['device']} thread(s), {r['n_layers']} layers, {r['n_parameters']:,} parameters; grid "
                     f"tested in {r['eval_seconds']:.0f} s")
    for target, held in summary["targets"].items():
        lines.append(f"  {'not run' if held is None else 'met' if held else 'MISSED':>7}: {target}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``python -m lengen_utils.lab.bench nxm-grid``."""
    parser = OneLineParser(prog=PROG, description="N x M multiplication: exact match over a grid of operand lengths")
    parser.add_argument("--recipe", default=RECIPE, help=f"the recipe whose built seeds to test (default {RECIPE})")
    parser.add_argument("--lengths", type=str, default=None,
                        help="comma-separated operand lengths of the grid, for N and M (default 1..20)")
    parser.add_argument("--stretch", type=nonnegative_int, default=STRETCH,
                        help=f"also test this square (default {STRETCH}; 0: no)")
    parser.add_argument("--n", type=positive_int, default=N_PER_CELL, help=f"problems per cell (default {N_PER_CELL})")
    parser.add_argument("--threads", type=positive_int, default=1, help="CPU threads (default 1)")
    parser.add_argument("--progress", action="store_true", help="print each cell as it is tested (stderr)")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of the table")
    parser.add_argument("--out", type=str, default=None, help="also write the JSON object to this file")
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    try:
        lengths = tuple(int_list(args.lengths, "--lengths")) if args.lengths is not None else GRID
        set_cpu_threads(args.threads)
        result = grid_result(args.recipe, lengths, args.stretch or None, args.n, args.progress)
    except (UsageError, ConfigError, ZooError, ValueError) as err:
        return fail(PROG, err, USAGE_ERROR)
    except KeyboardInterrupt:
        return fail(PROG, "interrupted", INTERRUPTED)
    if args.out:
        Path(args.out).write_text(json.dumps(result, indent=1) + "\n")
    print(json.dumps(result) if args.json else format_grid(result))
    return 0


__all__ = ["BENCH", "PROG", "RECIPE", "RECORD", "format_grid", "grid_result", "main", "median_matrix", "reach_rows",
           "read_record", "summarize"]

if __name__ == "__main__":
    sys.exit(main())

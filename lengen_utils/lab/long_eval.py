"""What evaluating long inputs costs: ``python -m lengen_utils.lab.bench long-eval`` (or ``python -m
lengen_utils.lab.long_eval``).

An untrained decoder of the flagship's shape (:func:`lengen_utils.lab.zoo.flagship.flagship_recipe`: 1 layer,
4 heads, d_model 64, relative bias clipped at 8) with ``encoding='none'`` (no learned table to outgrow) and
coupled IDs up to ``--max-position`` (3100: operands up to about 3000 digits) evaluates ``--n`` fixed
problems per operand length with :func:`~lengen_utils.core.evaluate.evaluate_length` (teacher-forced, or greedy
with ``--greedy``), on the CPU threads of ``--threads`` (default ``$LENGEN_THREADS``, else every core).

It prints one row per length: tokens per sequence, the batch size the memory rule picks
(:func:`~lengen_utils.core.model.blocked.rows_within_budget`), wall-clock seconds, and the process's peak RSS
so far (lengths run in increasing order, so a row's figure bounds that length's peak). The accuracy of an
untrained model means nothing and is not shown. ``--json`` prints one JSON object instead.
"""
from __future__ import annotations

import json
import resource
import sys
import time
from dataclasses import replace

import torch

from .cli import USAGE_ERROR, OneLineParser, UsageError, fail, int_list, positive_int, threads_from_env
from ..core.constants import EVAL_SEED
from ..core.device import set_cpu_threads
from ..core.evaluate import evaluate_length
from ..core.model import Transformer
from ..core.model.blocked import QUERY_BLOCK, rows_within_budget
from ..core.tasks import Task
from .zoo.flagship import flagship_recipe

PROG = "python -m lengen_utils.lab.bench long-eval"
LENGTHS = (100, 300, 1000)
N = 200
MAX_POSITION = 3100
BATCH = 500                      # evaluate_length's default batch size, before the memory rule


def peak_rss_mb() -> float:
    """This process's peak resident memory so far, in MB (Linux reports KiB, macOS bytes)."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1 << 20) if sys.platform == "darwin" else peak / 1024


def long_eval(lengths=LENGTHS, n: int = N, greedy: bool = False, max_position: int = MAX_POSITION,
              seed: int = 0) -> dict:
    """Time :func:`~lengen_utils.core.evaluate.evaluate_length` of ``n`` problems per length with an untrained
    flagship-shaped model; returns ``{"config": ..., "rows": [{length, tokens, batch, seconds, peak_rss_mb}]}``.
    A length whose problems need IDs past ``max_position`` raises ``ValueError`` before anything runs."""
    recipe = flagship_recipe()
    try:
        task = Task(replace(recipe.task, max_position=max_position))
    except ValueError as err:                # the flagship's own training problems do not fit the IDs
        raise ValueError(f"--max-position {max_position} is too small even for the flagship's task ({err}); "
                         f"give a larger --max-position (default {MAX_POSITION})") from None
    cfg = replace(recipe.model, encoding="none")
    lengths = sorted(lengths)
    if lengths[-1] > task.longest_operand():
        raise ValueError(f"{lengths[-1]}-digit operands need IDs past --max-position {max_position} "
                         f"(it places at most {task.longest_operand()} digits)")
    torch.manual_seed(seed)
    model = Transformer(cfg).eval()
    config = {"model": "flagship shape, encoding none, untrained", "n": n, "greedy": greedy,
              "max_position": max_position, "query_block": QUERY_BLOCK, "threads": torch.get_num_threads(),
              "baseline_rss_mb": round(peak_rss_mb(), 1)}
    rows = []
    for length in lengths:
        tokens = task.batch(task.eval_problems(length, 1, EVAL_SEED)).tokens.shape[1]
        start = time.perf_counter()
        evaluate_length(model, task, length, n=n, batch_size=BATCH, greedy=greedy)
        rows.append({"length": length, "tokens": tokens, "batch": rows_within_budget(cfg, tokens, min(n, BATCH)),
                     "seconds": round(time.perf_counter() - start, 2), "peak_rss_mb": round(peak_rss_mb(), 1)})
    return {"benchmark": "long-eval", "config": config, "rows": rows}


def format_long_eval(result: dict) -> str:
    """A plain-text table of :func:`long_eval`'s rows."""
    cfg = result["config"]
    mode = "greedy" if cfg["greedy"] else "teacher-forced"
    head = f"{'digits':>7}{'tokens':>8}{'problems':>10}{'batch':>7}{'seconds':>9}{'peak RSS MB':>13}"
    lines = [f"long-eval: {cfg['model']}, {mode}, {cfg['threads']} thread(s), query block {cfg['query_block']}, "
             f"RSS before evaluating {cfg['baseline_rss_mb']} MB", head, "-" * len(head)]
    for r in result["rows"]:
        lines.append(f"{r['length']:>7}{r['tokens']:>8}{cfg['n']:>10}{r['batch']:>7}{r['seconds']:>9.2f}"
                     f"{r['peak_rss_mb']:>13.1f}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``python -m lengen_utils.lab.bench long-eval``."""
    parser = OneLineParser(prog=PROG, description="seconds and peak memory of evaluating long additions with an "
                                                  "untrained flagship-shaped decoder")
    parser.add_argument("--lengths", type=str, default=None,
                        help="comma-separated operand lengths (default " + ",".join(map(str, LENGTHS)) + ")")
    parser.add_argument("--n", type=positive_int, default=N, help=f"problems per length (default {N})")
    parser.add_argument("--greedy", action="store_true", help="greedy decoding instead of teacher forcing")
    parser.add_argument("--max-position", type=positive_int, default=MAX_POSITION,
                        help=f"largest coupled ID (default {MAX_POSITION})")
    parser.add_argument("--threads", type=positive_int, default=None,
                        help="CPU threads (default: $LENGEN_THREADS, else every core we may use)")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of the table")
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    try:
        set_cpu_threads(args.threads or threads_from_env())
        lengths = int_list(args.lengths, "--lengths") if args.lengths is not None else LENGTHS
        result = long_eval(lengths, args.n, args.greedy, args.max_position)
    except (UsageError, ValueError) as err:
        return fail(PROG, err, USAGE_ERROR)
    print(json.dumps(result) if args.json else format_long_eval(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Exact match of a cached coupled model at one operand length, under several evaluation starts.

Cho et al. evaluate coupled models with the IDs starting at 1; training draws the start at random. This probe
asks whether a model's length generalization depends on that choice:

    python scripts/eval_start_probe.py nb05-len10-s0 60 [--starts 1,2,3,5,10,30] [--n 300]

It loads the zoo entry, evaluates ``n`` fresh problems (seed 2024) at the length for each start whose IDs
still fit the table, and prints one line per start. Used for docs/logs/flagship-log.md.
"""
from __future__ import annotations

import argparse

import torch

from lengen_utils.lab import zoo
from lengen_utils.core.evaluate import evaluate_lengths
from lengen_utils.core.positions import COUPLED_SCHEMES, PositionRangeError


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("name", help="a built zoo entry with coupled position IDs")
    p.add_argument("length", type=int, help="operand length (digits)")
    p.add_argument("--starts", default="1,2,3,5,10,30", help="comma-separated evaluation starts")
    p.add_argument("--n", type=int, default=300, help="test problems per start")
    args = p.parse_args()
    torch.set_num_threads(1)
    model, task = zoo.load(args.name)
    if task.config.positions not in COUPLED_SCHEMES:
        p.error(f"{args.name} uses {task.config.positions!r} IDs; this probe is for coupled ones")
    for start in (int(s) for s in args.starts.split(",")):
        try:
            res = evaluate_lengths(model, task.at_start(start), [args.length], n=args.n, seed=2024)
        except PositionRangeError as err:             # the library names the IDs needed and the table's limit
            print(f"start {start}: skipped, {err}")
            continue
        print(f"{args.name} at {args.length} digits, start {start}: exact match "
              f"{100 * res[args.length].exact_match:.1f}%", flush=True)


if __name__ == "__main__":
    main()

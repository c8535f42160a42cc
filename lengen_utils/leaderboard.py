"""The leaderboard of a group of zoo entries (``python -m lengen_utils.bench leaderboard [--tag nb05]``).

It reads the manifest (no model is loaded, nothing is trained): the catalog's entries with the tag that
are built, grouped by method (the entry name without its ``-sN`` seed suffix, so ``nb05-plain-s0``,
``nb05-plain-s1``, ... are the seeds of method ``nb05-plain``). For each method and tested operand length
it gives the median exact match over the seeds and their range (Cho et al.'s Figure 1 shows the same
median and band), and the generalizable length (:mod:`lengen_utils.generalization`).
"""
from __future__ import annotations

import re
from pathlib import Path

from .generalization import THRESHOLD, generalizable_length, median_and_range
from .zoo import catalog, read_manifest
from .zoo.manifest import check_record, manifest_path

DEFAULT_TAG = "nb05"
_SEED = re.compile(r"^(?P<method>.+)-s(?P<seed>\d+)$")


def split_seed(name: str) -> tuple[str, int | None]:
    """``"nb05-plain-s2"`` -> ``("nb05-plain", 2)``; a name without ``-sN`` is its own method (seed None)."""
    match = _SEED.match(name)
    return (match["method"], int(match["seed"])) if match else (name, None)


def leaderboard(tag: str = DEFAULT_TAG, assets: Path | None = None, threshold: float = THRESHOLD) -> dict:
    """The leaderboard of the entries tagged ``tag``, as a JSON-ready dict::

        {"tag", "threshold", "missing": [entries not built],
         "methods": {method: {"seeds": [...], "entries": [...], "train_seconds": [...],
                              "lengths": {length: {"median", "min", "max"}}, "generalizable_length": int}}}

    Raises ``ValueError`` when no catalog entry has the tag."""
    names = [name for name, e in catalog().items() if tag in e.tags]     # in catalog order
    if not names:
        known = sorted({t for e in catalog().values() for t in e.tags})
        raise ValueError(f"no zoo entry is tagged {tag!r}; tags: {', '.join(known)}")
    manifest = read_manifest(assets)
    where = manifest_path(assets)
    groups: dict[str, list[tuple[int | None, str, dict]]] = {}
    missing = []
    for name in names:
        if name not in manifest:
            missing.append(name)
            continue
        method, seed = split_seed(name)
        groups.setdefault(method, []).append((seed, name, check_record(name, manifest[name], where)))
    methods = {}
    for method, runs in groups.items():
        runs.sort(key=lambda r: (r[0] is None, r[0] or 0, r[1]))
        curves = {name: record["metrics"]["em"] for _, name, record in runs}
        spread = median_and_range(curves)
        methods[method] = {
            "seeds": [seed for seed, _, _ in runs], "entries": [name for _, name, _ in runs],
            "train_seconds": [record.get("train_seconds") for _, _, record in runs],
            "lengths": {n: {"median": m, "min": lo, "max": hi} for n, (m, lo, hi) in spread.items()},
            "generalizable_length": generalizable_length(curves, threshold),
        }
    return {"tag": tag, "threshold": threshold, "methods": methods, "missing": missing}


def format_leaderboard(board: dict) -> str:
    """Plain text: one row per method, median EM (%) and [min-max] per length, then the generalizable length."""
    methods = board["methods"]
    lengths = sorted({n for m in methods.values() for n in m["lengths"]})
    width = 20
    head = f"{'method':<18}{'seeds':>6}" + "".join(f"{f'{n} dig':>{width}}" for n in lengths) + f"{'gen. length':>13}"
    rows = [f"leaderboard {board['tag']}: median exact match over seeds [min-max], %; generalizable length = "
            f"largest tested length with median > {100 * board['threshold']:g}%", head, "-" * len(head)]
    for method, m in methods.items():
        cells = []
        for n in lengths:
            cell = m["lengths"].get(n)
            text = "-" if cell is None else (f"{100 * cell['median']:.1f} "
                                             f"[{100 * cell['min']:.1f}-{100 * cell['max']:.1f}]")
            cells.append(f"{text:>{width}}")
        rows.append(f"{method:<18}{len(m['seeds']):>6}" + "".join(cells) + f"{m['generalizable_length']:>13}")
    if not methods:
        rows.append("(no entry of this tag is built)")
    if board["missing"]:
        rows.append(f"not built ({len(board['missing'])}): {', '.join(board['missing'])}")
    return "\n".join(rows)

"""The leaderboard of a group of zoo entries (``python -m lengen_utils.lab.bench leaderboard [--tag nb05]``).

It reads the manifest (no model is loaded, nothing is trained): the catalog's entries with the tag that
are built, retired with their records kept (``assets/retired.json``), or recorded without their weights
(``assets/records.json``, the record-only GPU runs), grouped by method (the entry's recipe,
:attr:`ZooEntry.recipe`: ``nb05-plain-s0``, ``nb05-plain-s1``, ... are the seeds of method ``nb05-plain``). For each method and tested operand length
it gives the median exact match over the seeds and their range (Cho et al.'s Figure 1 shows the same
median and band), and the generalizable length (:mod:`lengen_utils.analysis.generalization`).

A comparison of lengths is fair only between models that master their trained lengths: each method also
gets its training budget (layers, steps, problems per step, seconds) and ``mastered``, whether its median
exceeds the threshold at every tested length inside the trained range. A method that is not mastered has
no generalizable length to compare (the table says "not mastered" instead).
"""
from __future__ import annotations

import statistics
from pathlib import Path

from ..analysis.generalization import THRESHOLD, generalizable_length, median_and_range
from .zoo import catalog
from .zoo.records import read_measured

DEFAULT_TAG = "nb05"


def leaderboard(tag: str = DEFAULT_TAG, assets: Path | None = None, threshold: float = THRESHOLD) -> dict:
    """The leaderboard of the entries tagged ``tag``, as a JSON-ready dict::

        {"tag", "threshold", "missing": [entries not built],
         "methods": {method: {"seeds": [...], "entries": [...], "train_seconds": [...], "checkpoint",
                              "lengths": {length: {"median", "min", "max"}}, "generalizable_length": int}}}

    Raises ``ValueError`` when no catalog entry has the tag."""
    names = [name for name, e in catalog().items() if tag in e.tags]     # in catalog order
    if not names:
        known = sorted({t for e in catalog().values() for t in e.tags})
        raise ValueError(f"no zoo entry is tagged {tag!r}; tags: {', '.join(known)}")
    measured = read_measured(assets)                # stored, retired, or measured on a GPU without weights
    groups: dict[str, list[tuple[int | None, str, dict]]] = {}
    missing = []
    for name in names:
        if name not in measured:
            missing.append(name)
            continue
        record = measured[name]
        e = catalog()[name]
        seed = e.seed if e.seeded else None         # a recipe of one unseeded entry lists its seed as None
        groups.setdefault(e.recipe, []).append((seed, name, record))
    methods = {}
    for method, runs in groups.items():
        runs.sort(key=lambda r: (r[0] is None, r[0] or 0, r[1]))
        selected = all("selection" in record for _, _, record in runs)
        methods[method] = _method(runs, {name: record["metrics"]["em"] for _, name, record in runs}, threshold,
                                  "selected" if selected else "final")
        if selected:     # the papers' protocol: the best checkpoint on longer lengths; the last one beside it
            methods[f"{method} (final)"] = _method(
                runs, {name: record["selection"]["final_metrics"]["em"] for _, name, record in runs}, threshold,
                "final")
    return {"tag": tag, "threshold": threshold, "methods": methods, "missing": missing}


def _method(runs: list[tuple[int | None, str, dict]], curves: dict[str, dict], threshold: float,
            checkpoint: str) -> dict:
    """One row of the board: the seeds' curves summarised (median, range, generalizable length) with the budget.
    ``checkpoint`` says which checkpoint the curves measure: "final" (the last step) or "selected" (the best on
    the validation lengths, the papers' protocol)."""
    spread = median_and_range(curves)
    entry = catalog()[runs[0][1]]
    trained = entry.task.max_digits
    inside = [m for n, (m, _, _) in spread.items() if n <= trained]
    spent = budget(entry)
    reached = [record["stopped"]["step"] for _, _, record in runs if record.get("stopped")]
    if reached:                 # a run cut short by its time bound (zoo train --max-seconds): the steps it made
        spent = {**spent, "steps": int(statistics.median(reached)), "planned_steps": spent["steps"]}
    return {
        "seeds": [seed for seed, _, _ in runs], "entries": [name for _, name, _ in runs],
        "train_seconds": [record.get("train_seconds") for _, _, record in runs],
        "budget": spent, "trained_digits": trained, "checkpoint": checkpoint,
        "mastered": bool(inside) and all(m > threshold for m in inside),
        "lengths": {n: {"median": m, "min": lo, "max": hi} for n, (m, lo, hi) in spread.items()},
        "generalizable_length": generalizable_length(curves, threshold),
    }


def budget(entry) -> dict:
    """What a zoo entry spends on training: depth, width, steps and problems per step (packed ones count)."""
    m, t = entry.model, entry.train
    return {"layers": m.n_layers, "heads": m.n_heads, "d_model": m.d_model, "steps": t.steps,
            "problems_per_step": t.batch_size * entry.task.pack}


def budget_text(b: dict) -> str:
    """``{"layers": 3, "steps": 4000, "problems_per_step": 128, ...}`` -> ``"3L x 4000 x 128"``."""
    return f"{b['layers']}L x {b['steps']} x {b['problems_per_step']}"


def leaderboard_rows(board: dict, labels: dict[str, str] | None = None,
                     unit: str = "dig") -> dict[str, dict[str, str]]:
    """The board as table rows for a notebook: ``{label: {"budget", "train s", "5 dig", ..., "gen. length"}}``,
    each cell a string ("median [min-max]" in %). ``labels`` maps method names to row labels and picks the
    rows (default: every method, under its own name); ``unit`` names the length in the column titles ("dig",
    or "wide" for the board widths of the minesweeper task)."""
    labels = labels or {m: m for m in board["methods"]}
    selects = any(m["checkpoint"] == "selected" for m in board["methods"].values())   # a "checkpoint" column then
    rows = {}
    for method, label in labels.items():
        m = board["methods"][method]
        seconds = [x for x in m["train_seconds"] if x is not None]
        row = {"seeds": str(len(m["seeds"])), **({"checkpoint": m["checkpoint"]} if selects else {}),
               "budget": budget_text(m["budget"]), "train s": f"{min(seconds):.0f}–{max(seconds):.0f}" if seconds else "-"}
        for n, c in m["lengths"].items():
            row[f"{n} {unit}"] = f"{100 * c['median']:.1f} [{100 * c['min']:.1f}–{100 * c['max']:.1f}]"
        row["gen. length"] = str(m["generalizable_length"]) if m["mastered"] else "not mastered"
        rows[label] = row
    return rows


def median_bands(board: dict, labels: dict[str, str]) -> dict[str, dict[int, tuple[float, float, float]]]:
    """``{label: {length: (median, min, max)}}`` of the named methods, as :func:`lengen_utils.course.plots.median_band`
    draws them."""
    return {label: {n: (c["median"], c["min"], c["max"]) for n, c in board["methods"][method]["lengths"].items()}
            for method, label in labels.items()}


def format_leaderboard(board: dict) -> str:
    """Plain text: one row per method, median EM (%) and [min-max] per length, then the generalizable length."""
    methods = board["methods"]
    lengths = sorted({n for m in methods.values() for n in m["lengths"]})
    width = 20
    names = {method: method + (" (selected)" if m["checkpoint"] == "selected" else "") for method, m in methods.items()}
    name_width = max([18] + [len(n) + 2 for n in names.values()])
    head = (f"{'method':<{name_width}}{'seeds':>6}{'budget':>19}{'train s':>9}"
            + "".join(f"{f'{n} dig':>{width}}" for n in lengths) + f"{'gen. length':>15}")
    rows = [f"leaderboard {board['tag']}: median exact match over seeds [min-max], %; generalizable length = "
            f"largest tested length with median > {100 * board['threshold']:g}%, only for methods that master "
            f"their trained lengths; budget = layers x steps x problems per step, train s = median", head,
            "-" * len(head)]
    for method, m in methods.items():
        cells = []
        for n in lengths:
            cell = m["lengths"].get(n)
            text = "-" if cell is None else (f"{100 * cell['median']:.1f} "
                                             f"[{100 * cell['min']:.1f}-{100 * cell['max']:.1f}]")
            cells.append(f"{text:>{width}}")
        seconds = [x for x in m["train_seconds"] if x is not None]
        secs = f"{statistics.median(seconds):.0f}" if seconds else "-"
        gen = m["generalizable_length"] if m["mastered"] else "not mastered"
        spent = budget_text(m["budget"])
        rows.append(f"{names[method]:<{name_width}}{len(m['seeds']):>6}{spent:>19}{secs:>9}" + "".join(cells) + f"{gen:>15}")
    if not methods:
        rows.append("(no entry of this tag is built)")
    if board["missing"]:
        rows.append(f"not built ({len(board['missing'])}): {', '.join(board['missing'])}")
    return "\n".join(rows)

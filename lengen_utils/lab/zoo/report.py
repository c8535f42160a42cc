"""Markdown tables of zoo entries, rendered from the manifest, and the README blocks built from them.

The README's result tables are not typed: each sits between ``<!-- zoo-table NAME ... -->`` and
``<!-- /zoo-table -->`` and is rewritten by ``python -m lengen_utils.lab.zoo table --readme README.md``;
a test fails when a block no longer matches the manifest.
"""
from __future__ import annotations

import re
from pathlib import Path

from .catalog import entry
from .store import entry_record

BLOCK = re.compile(r"(<!-- zoo-table (?P<names>[^>]*?) -->\n)(?P<body>.*?)(<!-- /zoo-table -->)", re.S)


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def markdown_table(names: list[str]) -> str:
    """One row per entry: parameters, training time and device, exact match at each tested length."""
    records = {n: entry_record(n) for n in names}      # a retired entry's record stays readable
    lengths = sorted({int(k) for r in records.values() for k in r["metrics"]["em"]})
    head = ["entry", "parameters", "train s (threads)"] + [f"{k} digits" for k in lengths]
    rows = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for name, rec in records.items():
        em = {int(k): v for k, v in rec["metrics"]["em"].items()}
        where = rec.get("device") or "cpu"
        threads = rec.get("threads")
        cost = f"{rec.get('train_seconds')} ({threads} on {where})" if threads else f"{rec.get('train_seconds')}"
        cells = [f"`{name}`", f"{rec.get('n_parameters', '?'):,}" if rec.get("n_parameters") else "?", cost]
        cells += [_pct(em[k]) if k in em else "" for k in lengths]
        rows.append("| " + " | ".join(cells) + " |")
    n = {rec["metrics"].get("eval_n") for rec in records.values()}
    note = (f"\n{'/'.join(str(x) for x in sorted(n))} test problems per length, both operands exactly that long; "
            f"rebuild with `{entry(names[0]).command.replace(' train ', ' train --replace ', 1)}`"
            + (" (and likewise for the others)." if len(names) > 1 else "."))
    return "\n".join(rows) + "\n" + note + "\n"


def render_readme(text: str) -> str:
    """``text`` with every zoo-table block regenerated from the manifest."""
    return BLOCK.sub(lambda m: m.group(1) + markdown_table(m.group("names").split()) + m.group(4), text)


def update_readme(path: str | Path) -> bool:
    """Rewrite the blocks of the file at ``path``; returns whether anything changed."""
    path = Path(path)
    old = path.read_text()
    new = render_readme(old)
    if new != old:
        path.write_text(new)
    return new != old

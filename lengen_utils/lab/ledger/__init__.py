"""The claims ledger: every claim the course makes about a paper, one typed record, its verdict computed from data.

The records' types and the computations are in :mod:`.model` (the paper's number, the course's target, the measure,
the result from the manifest and records, the departures, the verdict in four classes); the claims are data in
:mod:`.claims`. Here: :func:`ledger` computes them all (or one notebook's), :func:`notebook_summary` renders a
notebook's claims table and summary verdicts in one call, and
``python -m lengen_utils.lab.ledger table --readme README.md`` writes the course-wide table between the README's
markers (``--check`` fails when it is stale).
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Sequence

from ..papers import PAPER_SETUPS, departures_table, read_path, reference_additions, to_markdown
from ..zoo import get_recipe
from .claims import CLAIMS
from .model import CLASSES, Entry, _fraction, _what, evaluate, paper_text


def ledger(notebook: str | None = None) -> list[Entry]:
    """Every claim of :data:`CLAIMS` computed (only those of ``notebook``, e.g. ``"05"``, when given)."""
    chosen = [c for c in CLAIMS if notebook is None or c.notebook == notebook]
    if not chosen:
        raise KeyError(f"no claim of notebook {notebook!r}; notebooks: {sorted({c.notebook for c in CLAIMS})}")
    return [evaluate(c) for c in chosen]


# == rendering ======================================================================================================
def rows(entries: Sequence[Entry]) -> list[dict[str, str]]:
    """One dict of strings per claim: paper, where, claim, paper's number, ours, seeds, problems per length,
    target, departures count and verdict."""
    out = []
    for e in entries:
        c, r = e.claim, e.result
        ours = "-" if r is None else f"{r} ({_what(c)}, {r.checkpoint})"
        if c.target is not None:
            target = f"{c.target.set_by}: {_fraction(c.target.value)} ({c.target.why})"
        else:
            target = "the paper's" if c.number.stated else "the course's reading of the paper's words"
        out.append({"id": c.id, "paper": c.paper, "where": c.where, "claim": c.statement,
                    "paper's number": paper_text(c), "ours": ours,
                    "seeds": "-" if r is None else ", ".join(map(str, r.seeds)),
                    "problems per length": "-" if r is None else f"{r.n_per_length:,}",
                    "recipe": "-" if c.measure is None else c.recipe,
                    "target": target, "departures": str(len(e.departures)),
                    "departures named": ", ".join(e.departures) or "none", "verdict": e.verdict.text})
    return out


README_COLUMNS = ("paper", "where", "claim", "verdict", "ours", "paper's number", "departures")
NOTEBOOK_COLUMNS = ("where", "claim", "recipe", "ours", "paper's number", "target", "departures", "verdict")


def table(entries: Sequence[Entry], columns: Sequence[str] = README_COLUMNS) -> str:
    """The entries as a Markdown table of ``columns``."""
    return to_markdown(rows(entries), columns)


def counts(entries: Sequence[Entry]) -> dict[str, int]:
    """How many claims fall in each verdict class."""
    return {cls: sum(e.verdict.cls == cls for e in entries) for cls in CLASSES}


def departures_rows(entry: Entry) -> list[dict[str, str]]:
    """The departures table of one claim's recipe: the compared rows that differ from the paper's setup or that the
    paper does not state (:func:`~lengen_utils.lab.papers.departures_table`), then the course's additions (config
    fields no row compares, switched on) and the departures labelled by hand."""
    c = entry.claim
    if c.measure is None:
        return []
    rows = departures_table(c.recipe, c.setup, only_departures=True) if c.setup else []
    recipe = get_recipe(c.recipe)
    compared = {r["field"] for r in rows}
    rows += [{"field": path, "paper": "off (not in the paper's setup)", "source": "the course's addition",
              "ours": str(read_path(recipe, path)), "status": "differs", "note": ""}
             for path in reference_additions(recipe) if path not in compared]
    rows += [{"field": "(labelled)", "paper": "-", "source": "by hand", "ours": "-", "status": "differs",
              "note": label} for label in c.labelled]
    return rows


def departures_md(entry: Entry) -> str:
    """One claim's departures table, folded (an HTML ``<details>`` block that Jupyter and the book open on a click)."""
    c = entry.claim
    rows = departures_rows(entry)
    if not rows:
        return ""
    against = PAPER_SETUPS[c.setup].paper if c.setup else "the claim's source (no field-by-field setup)"
    versus = f", {c.versus}'s included" if c.measure.versus else ""
    return (f"<details><summary>{c.id}: {c.recipe} against {against} ({len(entry.departures)} "
            f"departures{versus}; rows the paper does not state are listed too)</summary>\n\n{to_markdown(rows)}"
            "\n\n</details>")


def notebook_summary(notebook: str, with_departures: bool = True) -> str:
    """One notebook's claims table and its summary verdicts, as Markdown (a notebook shows it with ``show_text``),
    then each claim's departures table, folded."""
    entries = ledger(notebook)
    tally = ", ".join(f"{n} {cls}" for cls, n in counts(entries).items() if n)
    lines = [f"**Claims of notebook {notebook}, from the ledger** ({len(entries)} claims: {tally}). Each verdict is "
             "computed from the records: reproduced only at the paper's threshold, with the paper's recipe only "
             "when nothing departs from it.", "", table(entries, NOTEBOOK_COLUMNS)]
    if with_departures:
        folded = [d for d in map(departures_md, entries) if d]
        lines += ["", "**Departures, claim by claim** (click to open):", "", *folded]
    return "\n".join(lines)


BEGIN, END = "<!-- ledger:begin -->", "<!-- ledger:end -->"


def course_table() -> str:
    """The course-wide reproduction table (README and book): one row per claim, with the tally of classes."""
    entries = ledger()
    tally = "; ".join(f"{cls}: {n}" for cls, n in counts(entries).items())
    return (f"Generated by `python -m lengen_utils.lab.ledger table --readme README.md` from the claims ledger "
            f"(`lengen_utils/lab/ledger/claims.py`) and the zoo's records; {len(entries)} claims ({tally}). "
            "\"Departures\" counts the fields where our recipe differs from the paper's setup.\n\n"
            + table(entries))


def replace_between_markers(text: str, body: str) -> str:
    """``text`` with the part between :data:`BEGIN` and :data:`END` replaced by ``body``."""
    if text.count(BEGIN) != 1 or text.count(END) != 1 or text.index(BEGIN) > text.index(END):
        raise ValueError(f"expected one {BEGIN} ... {END} pair in the file")
    head, rest = text.split(BEGIN)
    _, tail = rest.split(END)
    return f"{head}{BEGIN}\n{body}\n{END}{tail}"


def main(argv: Sequence[str] | None = None) -> int:
    """``table [--readme README.md]``: print the course-wide table, or write it between the README's markers;
    ``--check`` fails (exit 1) when the file is stale instead of writing it."""
    parser = argparse.ArgumentParser(prog="python -m lengen_utils.lab.ledger", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    t = sub.add_parser("table", help="the course-wide reproduction table")
    t.add_argument("--readme", type=Path, help="write it between the markers of this file")
    t.add_argument("--check", action="store_true", help="only check that the file is current")
    args = parser.parse_args(argv)
    body = course_table()
    if args.readme is None:
        print(body)
        return 0
    if not args.readme.is_file():
        print(f"error: {args.readme} is not a file", file=sys.stderr)
        return 2
    old = args.readme.read_text()
    try:
        new = replace_between_markers(old, body)
    except ValueError as err:
        print(f"error: {args.readme}: {err}", file=sys.stderr)
        return 2
    if args.check:
        if new != old:
            print(f"{args.readme} is stale: run python -m lengen_utils.lab.ledger table --readme {args.readme}",
                  file=sys.stderr)
            return 1
        return 0
    args.readme.write_text(new)
    print(f"wrote the reproduction table ({len(ledger())} claims) into {args.readme}")
    return 0


__all__ = ["BEGIN", "CLAIMS", "END", "NOTEBOOK_COLUMNS", "README_COLUMNS", "counts", "course_table", "departures_md",
           "departures_rows", "ledger", "main", "notebook_summary", "replace_between_markers", "rows", "table"]

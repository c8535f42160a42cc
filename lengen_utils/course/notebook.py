"""What the first code cell of every notebook calls: one look, one seed, one device report.

``FAST`` is the course's single fast-mode switch: set ``LENGEN_FAST=1`` in the environment and the
notebooks evaluate fewer problems when they compute something live (cached zoo results are used
either way). Nothing else reads the environment.

Prose rule: no measured number is typed into a markdown cell. A notebook writes such sentences with
``show_md(template, **values)``, whose values come from the zoo manifest or from a result computed in
the notebook; ``{x:pct}`` formats a fraction as a percentage the same way everywhere (``pct``).
Numbers quoted from a paper stay typed, labelled as the paper's (``(paper: 0.998)``);
``tests/test_notebook_policy.py`` enforces both.
"""
from __future__ import annotations

import math
import os
import re
import string

from ..core.config_checks import require_int
from ..core.device import describe_environment, seed_everything, set_cpu_threads
from .plots import use_course_style

FAST: bool = os.environ.get("LENGEN_FAST", "0") not in ("", "0", "false", "False")


def setup(seed: int = 0, quiet: bool = False) -> dict:
    """Seed everything, use every core, apply the course plot style; returns the environment. A ``seed`` that
    is not an int raises ``ValueError`` naming its type, before anything is changed."""
    seed = require_int(seed, "seed", error=ValueError)
    set_cpu_threads()
    seed_everything(seed)
    use_course_style()
    info = describe_environment()
    info["fast_mode"] = FAST
    if not quiet:
        print(" | ".join(f"{k}: {v}" for k, v in info.items()))
    return info


def n_eval(full: int, fast: int | None = None) -> int:
    """Number of test problems to use live: ``full`` normally, ``fast`` (default full // 5) in fast mode."""
    return (fast if fast is not None else max(1, full // 5)) if FAST else full


def check(answer, expected, *, hint: str = "") -> bool | None:
    """Check an exercise answer: prints what is right or wrong and returns True/False (None when the
    answer is still the placeholder ``...`` or ``None``, so an untouched exercise cell still runs)."""
    if answer is ... or answer is None:
        print("Not attempted yet: replace the ... with your answer and run the cell again.")
        return None
    def norm(x):                  # sequences (arrays and tensors too) compare as lists; numpy scalars as numbers
        if hasattr(x, "tolist") and not isinstance(x, (str, bytes)):
            x = x.tolist()
        return list(x) if isinstance(x, (tuple, list, range)) else x

    answer_n, expected_n = norm(answer), norm(expected)
    numbers = all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in (answer_n, expected_n))
    try:
        right = (math.isclose(answer_n, expected_n, rel_tol=1e-6, abs_tol=1e-12) if numbers
                 else bool(answer_n == expected_n))
    except (TypeError, ValueError):           # an answer that cannot be compared is a wrong one, said in one line
        right = False
    if right:
        print("Correct!")
        return True
    print(f"Not quite: you gave {answer!r}." + (f" Hint: {hint}" if hint else ""))
    return False


def pct(x: float, digits: int = 1) -> str:
    """A fraction in [0, 1] as a percentage with ``digits`` decimals: ``pct(0.9575) == '95.8%'``."""
    return f"{100 * float(x):.{digits}f}%"


def duration(seconds: float) -> str:
    """A measured time for prose: ``'58 s'`` below two minutes, else ``'4.9 minutes'``."""
    seconds = float(seconds)
    return f"{seconds:.0f} s" if seconds < 120 else f"{seconds / 60:.1f} minutes"


class _ProseFormatter(string.Formatter):
    """``str.format`` plus the specs ``pct`` / ``pctN`` (percentage, N decimals, default 1) and ``dur``."""

    def format_field(self, value, format_spec: str) -> str:
        m = re.fullmatch(r"pct(\d?)", format_spec)
        if m:
            return pct(value, int(m.group(1) or 1))
        if format_spec == "dur":
            return duration(value)
        return super().format_field(value, format_spec)


def render_md(template: str, **values) -> str:
    """The Markdown text of ``template`` filled with ``values`` (``str.format`` syntax, including
    ``{em[20]:pct}`` for an item and ``{t:dur}`` for seconds). A missing value raises ``KeyError``."""
    return _ProseFormatter().format(template, **values)


def show_md(template: str, **values) -> None:
    """Display prose whose numbers come from data: ``show_md("RPE reaches {em[20]:pct} at 20 digits",
    em=zoo.metrics("nb03-rpe-l5"))``. Prints the text outside Jupyter."""
    text = render_md(template, **values)
    try:
        from IPython.display import Markdown, display

        display(Markdown(text))
    except ImportError:  # pragma: no cover
        print(text)


def show_text(text: str) -> None:
    """Display Markdown that a package function already rendered from data (a section's prose)."""
    try:
        from IPython.display import Markdown, display

        display(Markdown(text))
    except ImportError:  # pragma: no cover
        print(text)


def table(rows: dict, columns: list[str] | None = None, *, percent: bool = True, digits: int = 1):
    """A small comparison table for notebooks: ``rows[label] = {column: value}`` (or one value per
    row). Floats in [0, 1] are shown as percentages; a ``(median, min, max)`` triple of fractions as
    ``median [min–max]`` in % (the leaderboards' layout); strings are shown as they are. Returns an
    ``IPython.display.Markdown`` object (plain text outside Jupyter)."""
    rows = {k: (v if isinstance(v, dict) else {"value": v}) for k, v in rows.items()}
    columns = columns or list(dict.fromkeys(c for v in rows.values() for c in v))

    def fmt(x) -> str:
        if x is None:
            return "–"
        if isinstance(x, str):
            return x
        if isinstance(x, tuple) and len(x) == 3:
            return "{:.1f} [{:.1f}–{:.1f}]".format(*(100 * float(v) for v in x))
        if percent and isinstance(x, float) and 0 <= x <= 1:
            return f"{100 * x:.{digits}f}%"
        return f"{x:.{digits}f}" if isinstance(x, float) else str(x)

    lines = ["| | " + " | ".join(columns) + " |", "|---|" + "---|" * len(columns)]
    lines += [f"| {label} | " + " | ".join(fmt(v.get(c)) for c in columns) + " |" for label, v in rows.items()]
    text = "\n".join(lines)
    try:
        from IPython.display import Markdown

        return Markdown(text)
    except ImportError:  # pragma: no cover
        return text

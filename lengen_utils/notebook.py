"""What the first code cell of every notebook calls: one look, one seed, one device report.

``FAST`` is the course's single fast-mode switch: set ``LENGEN_FAST=1`` in the environment and the
notebooks evaluate fewer problems when they compute something live (cached zoo results are used
either way). Nothing else reads the environment.
"""
from __future__ import annotations

import os

from .device import describe_environment, seed_everything, set_cpu_threads

FAST: bool = os.environ.get("LENGEN_FAST", "0") not in ("", "0", "false", "False")


def setup(seed: int = 0, quiet: bool = False) -> dict:
    """Seed everything, use every core, apply the course plot style; returns the environment."""
    from .plots import use_course_style

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
    norm = (lambda x: list(x) if isinstance(x, (tuple, list, range)) else x)
    import math

    numbers = all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in (answer, expected))
    if (math.isclose(answer, expected, rel_tol=1e-6, abs_tol=1e-12) if numbers else norm(answer) == norm(expected)):
        print("Correct!")
        return True
    print(f"Not quite: you gave {answer!r}." + (f" Hint: {hint}" if hint else ""))
    return False


def table(rows: dict, columns: list[str] | None = None, *, percent: bool = True, digits: int = 1):
    """A small comparison table for notebooks: ``rows[label] = {column: value}`` (or one value per
    row). Floats in [0, 1] are shown as percentages; strings are shown as they are. Returns an
    ``IPython.display.Markdown`` object (plain text outside Jupyter)."""
    rows = {k: (v if isinstance(v, dict) else {"value": v}) for k, v in rows.items()}
    columns = columns or list(dict.fromkeys(c for v in rows.values() for c in v))

    def fmt(x) -> str:
        if x is None:
            return "–"
        if isinstance(x, str):
            return x
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

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

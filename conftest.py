"""What a plain ``pytest --nbval notebooks/`` needs, so that it passes on any machine without further flags.

nbval compares each cell's fresh outputs with the committed ones. Some outputs legitimately vary from machine to
machine (the setup cell's torch build, device and CPU threads; a live timing): ``tests/nbval_sanitize.cfg`` masks
them, and this file makes it nbval's default, as if ``--nbval-sanitize-with tests/nbval_sanitize.cfg`` were given
(an explicit ``--nbval-sanitize-with`` wins). Likewise the notebooks run in this Python's kernel, where the package
is installed, as with ``--nbval-current-env``, unless ``--nbval-kernel-name`` names another kernel.
(At the repository's root so that any invocation from inside it loads it; it imports nothing heavy.)
"""
from __future__ import annotations

from pathlib import Path

import pytest

SANITIZE = Path(__file__).resolve().parent / "tests" / "nbval_sanitize.cfg"


@pytest.hookimpl(trylast=True)
def pytest_configure(config: pytest.Config) -> None:
    option = config.option
    if not hasattr(option, "nbval_sanitize_with"):          # nbval is not installed: nothing to set
        return
    if option.nbval_sanitize_with is None and not getattr(option, "sanitize_with", None):
        option.nbval_sanitize_with = str(SANITIZE)
    if not option.nbval_current_env and not option.nbval_kernel_name and not getattr(option, "current_env", False):
        option.nbval_current_env = True

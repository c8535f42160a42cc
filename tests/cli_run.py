"""Test helper: run a command line's ``main(argv)`` in-process and return its exit code and stderr."""
from __future__ import annotations

from typing import Callable


def run_cli(main: Callable[[list[str]], int], argv: list[str], capsys) -> tuple[int, str]:
    try:
        code = main(argv)
    except SystemExit as stop:           # argparse refusals
        code = stop.code
    return code, capsys.readouterr().err

"""What the command lines share: argument checks that run before any training, and one-line errors.

A bad argument, environment variable or output folder stops ``bench`` and ``zoo`` before they train,
with one line on stderr that names the problem and the limit, and exit status 2 (argparse's own
status for usage errors). Nothing here imports the rest of the library (course layer).
"""
from __future__ import annotations

import argparse
import math
import os
import sys
import tempfile
from pathlib import Path
from typing import NoReturn

USAGE_ERROR = 2    # exit status of a refused argument, as argparse uses
RUN_ERROR = 1      # exit status of a failure after the arguments were accepted
INTERRUPTED = 130  # exit status after Ctrl-C, as a shell reports SIGINT


class UsageError(ValueError):
    """An argument, environment variable or output folder refused before anything runs."""


class OneLineParser(argparse.ArgumentParser):
    """An ``ArgumentParser`` whose errors are one line (``prog: error: ...``) and exit with status 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(USAGE_ERROR, f"{self.prog}: error: {message}\n")


def _number(text: str, kind: type, bounds: str, ok) -> int | float:
    """``text`` read as ``kind`` (int or a finite float) and checked by ``ok``; otherwise an argparse error that
    names the bounds (``must be a number of seconds > 0, got '-5'``)."""
    try:
        value = kind(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be {bounds}, got {text!r}") from None
    if kind is float and not math.isfinite(value) or not ok(value):
        raise argparse.ArgumentTypeError(f"must be {bounds}, got {text}")
    return value


def positive_int(text: str) -> int:
    """argparse type: an integer >= 1."""
    return _number(text, int, "a positive integer (>= 1)", lambda v: v >= 1)


def nonnegative_int(text: str) -> int:
    """argparse type: an integer >= 0 (a seed, a count that may be zero)."""
    return _number(text, int, "an integer >= 0", lambda v: v >= 0)


def positive_number(text: str) -> float:
    """argparse type: a finite number > 0 (seconds, a share of a CPU)."""
    return _number(text, float, "a finite number > 0", lambda v: v > 0)


def nonnegative_number(text: str) -> float:
    """argparse type: a finite number >= 0."""
    return _number(text, float, "a finite number >= 0", lambda v: v >= 0)


def fraction(text: str) -> float:
    """argparse type: a number in [0, 1]."""
    return _number(text, float, "a number between 0 and 1", lambda v: 0.0 <= v <= 1.0)


#: The argparse types of numeric options: each names its bounds when it refuses (tests/test_trust_round4.py checks
#: that every numeric option of every command line uses one of them, never a bare ``int`` or ``float``)
BOUNDED_TYPES = (positive_int, nonnegative_int, positive_number, nonnegative_number, fraction)


def int_list(text: str, name: str = "--lengths", minimum: int = 1) -> tuple[int, ...]:
    """``"5,10,20"`` -> ``(5, 10, 20)``; every item an integer >= ``minimum``."""
    items = [t.strip() for t in text.split(",")]
    out = []
    for item in items:
        try:
            value = int(item)
        except ValueError:
            raise UsageError(f"{name}: {item!r} is not an integer; write comma-separated integers, "
                             f"e.g. {name} 5,10,20") from None
        if value < minimum:
            raise UsageError(f"{name}: every length must be >= {minimum}, got {value}")
        out.append(value)
    return tuple(out)


def threads_from_env(var: str = "LENGEN_THREADS") -> int | None:
    """The thread count in ``$LENGEN_THREADS`` (None when unset); refuses anything but an integer >= 1."""
    text = os.environ.get(var)
    if text is None or text.strip() == "":
        return None
    try:
        value = int(text)
    except ValueError:
        raise UsageError(f"{var} must be a positive integer (CPU threads), got {text!r}") from None
    if value < 1:
        raise UsageError(f"{var} must be a positive integer (CPU threads, >= 1), got {value}")
    return value


def check_writable(folder: str | os.PathLike, what: str = "output folder") -> Path:
    """Create ``folder`` if needed and prove that a file can be written in it (before training, not after)."""
    folder = Path(folder)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".write-test-"):
            pass
    except OSError as err:
        raise UsageError(f"cannot write to the {what} {folder} ({err.strerror or err}); "
                         f"choose a writable folder") from None
    return folder


def fail(prog: str, message: object, status: int) -> int:
    """Print ``prog: error: message`` on one line to stderr; returns ``status`` for ``main``."""
    text = " ".join(str(message).split("\n"))
    print(f"{prog}: error: {text}", file=sys.stderr)
    return status

"""The course's claim checks: a claim that the live numbers do not support fails with a teaching message.

A notebook section checks its claims with one call, e.g. ``minesweeper.check_next_cell(live)``, which
raises :class:`ClaimFailed` saying what the course expected, what it measured, and what that would mean:
``"our recipe should keep >= 85% at width 14 (1.5 x the widest training board); got 61.0%. ..."``.
"""
from __future__ import annotations


class ClaimFailed(AssertionError):
    """A claim of the course that the live numbers do not support."""


def claim(holds: bool, expected: str, got: str, meaning: str = "") -> None:
    """Raise :class:`ClaimFailed` unless ``holds``: "``expected``; got ``got``. ``meaning``"."""
    if not holds:
        raise ClaimFailed(f"{expected}; got {got}." + (f" {meaning}" if meaning else ""))


__all__ = ["ClaimFailed", "claim"]

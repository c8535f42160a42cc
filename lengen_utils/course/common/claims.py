"""The course's claim checks: every check prints its claim, its target, the measured value and the verdict.

A notebook section checks its claims with one call, e.g. ``minesweeper.check_next_cell(live)``. On a pass each
claim prints one line, so the reader sees what was checked against which target, and what was measured::

    check met: our recipe should keep >= 85% at width 14 (1.5 x the widest training board); measured 97.0%.

On a failure it raises :class:`ClaimFailed` saying what the course expected, what it measured, and what that would
mean: ``"our recipe should keep >= 85% at width 14 ...; got 61.0%. ..."``. ``target`` names whose target it is when
that is not obvious from ``expected`` ("the course's target; the paper's: about 90%").
"""
from __future__ import annotations


class ClaimFailed(AssertionError):
    """A claim of the course that the live numbers do not support."""


def claim(holds: bool, expected: str, got: str, meaning: str = "", *, target: str = "") -> None:
    """Print "check met: ``expected`` (``target``); measured ``got``." when ``holds``; else raise
    :class:`ClaimFailed`: "``expected`` (``target``); got ``got``. ``meaning``"."""
    whose = f" ({target})" if target else ""
    if not holds:
        raise ClaimFailed(f"{expected}{whose}; got {got}." + (f" {meaning}" if meaning else ""))
    print(f"check met: {expected}{whose}; measured {got}.")


__all__ = ["ClaimFailed", "claim"]

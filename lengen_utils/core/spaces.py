"""Random spaces (Shen et al. 2023, "Positional description matters"; thesis Section 3.4): blanks between digits.

The thesis: "even without architectural changes, simply adding empty spaces to the input sequence can boost
out-of-distribution accuracy for task lengths near to those encountered during training". Here a *gap* is
the place between two adjacent digits of one operand; in training each gap of ``a`` and ``b`` gets one
blank token (:data:`~lengen_utils.core.formats.BLANK`, shown ``␣``) with probability ``p``, drawn apart::

    p = 0:      $653+049=2070$
    p = 0.5:    $6␣53+0␣4␣9=2070$          (one draw)

The answer is never spaced (it is what the model writes), and neither is a test problem: the blanks move
every later token to a later absolute position in training, so the learned table sees each digit at many
distances from ``=``, while the test input is the plain one. This is the data-side cousin of random-start
APE (Cho et al.) and of Ruoss et al.'s randomized positions, which draw the IDs instead of the text: there
the whole sequence shifts (or its IDs are an ordered random subset), here the digits spread apart.

Blanks have role ``blank``, no significance and no target. Only consecutive position IDs number them (each
blank takes the next ID); coupled and Abacus IDs number tokens by significance, which a blank does not have,
and the task refuses that pair (:func:`spaces_config_problem`).
"""
from __future__ import annotations

import math

import numpy as np

from .formats import BLANK, Example, FormatSpec

BLANK_ROLE = "blank"
_SPACED_ROLES = ("a", "b")

__all__ = ["BLANK_ROLE", "add_spaces", "spaces_config_problem", "most_blanks"]


def most_blanks(width_a: int, width_b: int) -> int:
    """The most blanks two operands of these widths can get: one per gap, ``width - 1`` gaps each."""
    return max(0, width_a - 1) + max(0, width_b - 1)


def spaces_config_problem(spaces: float, spec: FormatSpec, positions: str, op: str) -> str | None:
    """Why a task cannot draw random spaces with probability ``spaces`` per gap (``None``: it can)."""
    if isinstance(spaces, bool) or not isinstance(spaces, (int, float)) or not math.isfinite(spaces) \
            or not 0 <= spaces <= 1:
        return f"TaskConfig.spaces must be a probability in [0, 1] (a blank per gap between digits), got {spaces!r}"
    if spaces == 0:
        return None
    if spec.layout != "decoder" or spec.index_hints:
        return (f"spaces={spaces}: random spaces are implemented for decoder formats without index hints (the "
                f"encoder's frame fixes every digit's place; a hint already sits between two digits), not "
                f"format={spec.name!r}; use spaces=0")
    if positions != "consecutive":
        return (f"spaces={spaces} needs positions='consecutive': a blank has no significance, so coupled and "
                f"Abacus IDs have no number for it (and would hide the blanks from the position encoding); got "
                f"positions={positions!r}")
    if op != "+":
        return f"spaces={spaces}: random spaces are implemented for addition, not op={op!r}; use spaces=0"
    return None


def add_spaces(example: Example, rng: np.random.Generator, p: float) -> Example:
    """``example`` with a blank in each gap between two adjacent operand digits, each with probability ``p``."""
    if p == 0:
        return example
    if not example.causal:
        raise ValueError(f"random spaces are implemented for decoder formats, not {example.format_name!r}")
    tokens, targets, roles, sig = [], [], [], []
    n = len(example)
    for i in range(n):
        if i and example.roles[i] in _SPACED_ROLES and example.roles[i - 1] == example.roles[i] \
                and rng.random() < p:
            tokens.append(BLANK), targets.append(None), roles.append(BLANK_ROLE), sig.append(None)
        tokens.append(example.tokens[i]), targets.append(example.targets[i])
        roles.append(example.roles[i]), sig.append(example.significance[i])
    return Example(tuple(tokens), tuple(targets), tuple(roles), tuple(sig), example.problem, example.format_name,
                   example.causal, example.answer_width)

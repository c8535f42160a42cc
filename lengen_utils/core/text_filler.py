"""Text around the numbers (Sabbaghi et al. Section 3.3, Figures 6 and 7): filler tokens and frame IDs.

Sabbaghi et al. put "up to 20 random tokens before, between, and following the two integers" of the
addition format (eq. 3.1) and read "the answer ... from the output of the position of the second
integer", as before. Here, for ``l = 4``::

    without text:          · · 1 2 + · 3 4 5              (eq. 3.1; the answer is read at "+ · 3 4 5")
    with filler_max = 3:   what · · 1 2 so the + · 3 4 5 is

The three gaps (before ``a``, between ``a`` and ``+``, after ``b``) each get ``0..filler_max`` words drawn
uniformly from :data:`~lengen_utils.core.formats.TEXT_TOKENS`. ``+`` stays next to ``b`` because the top
answer digit (the carry out, significance ``l``) is read at ``+``: the ``l + 1`` answer positions stay one
block, so Sabbaghi's read-out is unchanged. Filler tokens have role ``"text"``, no significance and no
target.

**The number frame.** A token belongs to the numbers when it is one of the ``2l + 1`` tokens of eq. 3.1:
the digits, Sabbaghi's ``pad`` (pads belong to the frame: they are the number's leading places, and the
answer is supervised on them) and the ``+`` (where the carry-out digit is read). Its *frame ID* is its
position in the text-free frame, counted from 1; text gets 0:

    frame ID of a's place of significance s   = l - s
    frame ID of "+"                            = l + 1
    frame ID of b's place of significance s   = 2l + 1 - s

so for two number tokens, ``frame_id(j) - frame_id(i)`` is minus their **significance difference**, plus
``l + 1`` when ``j`` is in ``b`` and ``i`` in ``a`` (minus it in the other direction). It does not depend on
how much text lies between them: this is the index of the arithmetic heads' relative vectors
(:mod:`lengen_utils.core.model.arithmetic_heads`), "the same positional vector is always incorporated to the
interaction of the positions of the least significant digits for both integers, and so on for other
positions in spite of their variable distance in the input sequence" (Section 3.3).

Evaluation sets get their filler from a generator seeded by the problem itself (:func:`filler_rng`), so
a test set is the same text every time, whatever the batch size.
"""
from __future__ import annotations

import numpy as np

from .formats import PAD, TEXT_TOKENS, Example, get_format
from .problems import Problem

TEXT_ROLE = "text"
FILLER_SEED = 20240303      # seeds each evaluation problem's filler together with the problem's numbers
_FRAME_ROLES = ("a", "b", "op")

__all__ = ["TEXT_ROLE", "FILLER_SEED", "add_filler", "filler_rng", "filler_config_problem", "filled_length",
           "number_significance", "frame_ids"]


def filled_length(frame_width: int, filler_max: int) -> int:
    """Longest filled addition input: the ``2l + 1`` frame tokens plus three full gaps."""
    return 2 * frame_width + 1 + 3 * filler_max


def filler_config_problem(fmt: str, op: str, positions: str, frame_width: int | None, filler_max: int,
                          max_position: int) -> str | None:
    """Why a task cannot carry ``filler_max`` filler tokens per gap (``None``: it can).

    Filler text is implemented for addition in Sabbaghi's encoder format with consecutive (raw) position
    IDs, which the APE heads read; the longest filled input must fit the IDs ``0..max_position``."""
    if filler_max == 0:
        return None
    if get_format(fmt).layout != "encoder" or op != "+":
        return (f"filler_max={filler_max}: filler text is implemented for addition in the sabbaghi format "
                f"(Sabbaghi Section 3.3), not format={fmt!r} with op={op!r}; use filler_max=0")
    if positions != "consecutive":
        return (f"filler_max={filler_max} needs positions='consecutive' (the APE heads read raw positions), "
                f"got positions={positions!r}")
    longest = filled_length(frame_width, filler_max)
    if longest - 1 > max_position:
        most = (max_position - 2 * frame_width) // 3
        return (f"filler_max={filler_max}: the longest filled input has {longest} tokens (2l+1 = "
                f"{2 * frame_width + 1} plus 3 x {filler_max}) and needs position IDs up to {longest - 1}, but the "
                f"IDs stop at max_position={max_position}; use filler_max <= {most} or max_position >= {longest - 1}")
    return None


def filler_rng(problem: Problem) -> np.random.Generator:
    """The generator of an evaluation problem's filler: fixed by the problem, so test sets never change."""
    return np.random.default_rng([FILLER_SEED, problem.a, problem.b, ord(problem.op)])


def add_filler(example: Example, rng: np.random.Generator, filler_max: int) -> Example:
    """``example`` (a Sabbaghi addition) with ``0..filler_max`` random words before ``a``, between ``a`` and
    ``+`` and after ``b``. ``filler_max = 0`` returns it unchanged."""
    if filler_max == 0:
        return example
    if example.causal or example.problem.op != "+" or "op" not in example.roles:
        raise ValueError(f"filler text is implemented for Sabbaghi additions, not {example.format_name!r} "
                         f"with op={example.problem.op!r}")
    op_at = example.roles.index("op")
    cut = (0, op_at, len(example))                     # before a, between a and "+", after b
    counts = rng.integers(0, filler_max + 1, size=3)
    tokens, targets, roles, sig = [], [], [], []
    start = 0
    for gap, (at, n) in enumerate(zip(cut, counts)):
        tokens += example.tokens[start:at]
        targets += example.targets[start:at]
        roles += example.roles[start:at]
        sig += example.significance[start:at]
        start = at
        words = rng.integers(0, len(TEXT_TOKENS), size=int(n))
        tokens += [TEXT_TOKENS[w] for w in words]
        targets += [None] * int(n)
        roles += [TEXT_ROLE] * int(n)
        sig += [None] * int(n)
    return Example(tuple(tokens), tuple(targets), tuple(roles), tuple(sig), example.problem, example.format_name,
                   example.causal, example.answer_width)


def number_significance(example: Example) -> list[int | None]:
    """Per token, the power of ten it stands for within its number (digits and ``pad`` alike), or ``None``
    for a token that is not a place of a number (``+``, text)."""
    return [s if role in ("a", "b") and s is not None else None
            for role, s in zip(example.roles, example.significance)]


def frame_ids(example: Example) -> list[int]:
    """Per token, its position (from 1) in the text-free frame of eq. 3.1, or 0 for text (see the module
    docstring: the arithmetic heads' relative index). Without text these are ``1, 2, ..., 2l + 1``."""
    if example.causal:
        raise ValueError(f"frame IDs are defined for Sabbaghi's encoder format, not {example.format_name!r}")
    ids, k = [], 0
    for tok, role in zip(example.tokens, example.roles):
        if role in _FRAME_ROLES:
            k += 1
            ids.append(k)
        else:
            if role != TEXT_ROLE or tok == PAD:
                raise ValueError(f"token {tok!r} with role {role!r} is neither in the number frame nor text")
            ids.append(0)
    return ids

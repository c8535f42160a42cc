"""Cho, Cha, Bhojanapalli and Yun's N x M scratchpad (arXiv 2410.15787) and its three channels of coupled IDs.

The faithful rung of notebook 09: the paper's format and position IDs, written from its description and its
public repository's data layout (``HanseulJo/position-coupling``, read, not copied). With ``A`` of ``N`` digits and
``B = b_M ... b_1`` of ``M`` digits:

* the operands as written, most significant digit first: ``$ A * B =``;
* the **partial products** ``P_k = A * b_k`` (k = 1..M), each zero-padded to ``N + 1`` digits and reversed (least
  significant digit first), joined by ``+``;
* ``=``, then the **running sums** ``S_k = P_1 + 10 P_2 + ... + 10**(k-1) P_k``, each padded to ``N + M`` digits and
  reversed, joined by ``>``; ``S_M`` is the product; the closing ``$``.

::

    $ 12 * 34 = 840 + 630 = 8400 > 8040 $        12 x 34 = 408: P_1 = 48, P_2 = 36; S_1 = 48, S_2 = 408

**IDs** (three channels; 0 means "not in this channel"; each channel has its own start, drawn at random in training,
1 at evaluation, as the paper's ``randomize``):

* **digits** (channel 0): the multiplicand digit of significance ``t`` gets ``s + 1 + t``; in every partial
  product, the separator before it (``=`` or ``+``) gets ``s`` and its digit ``t`` gets ``s + 1 + t``; the
  multiplier, ``*`` and the running sums get 0. A partial-product digit shares its ID with the multiplicand digit
  it multiplies.
* **operands** (channel 1): the multiplier digit ``b_k`` gets ``s + k - 1``; every token of ``P_k`` and of ``S_k``
  (with the separator before it) gets ``s + k - 1``; the multiplicand and ``*`` get 0. A row shares its ID with
  the multiplier digit that made it.
* **sums** (channel 2): a running sum's separator gets ``s`` and its digit ``t`` gets ``s + 1 + t``; digit ``t`` of
  ``P_k`` gets ``s + k + t`` (its separator ``s + k - 1``): the ID of the running-sum digit of the same power of ten.
  The operands get 0.

``$`` and ``*`` get 0 in every channel except where listed. The three channels are read by one learned table
each, summed into the input (the paper's absolute embedding of coupled IDs), or by a relative bias over them.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from ..example import Example
from ..positions import PositionRangeError
from ..problems import num_digits
from ..vocab import BOS_EOS, SUM_SEPARATOR

CHO_CHANNELS = ("digits", "operands", "sums")
#: The paper's IDs, and ours with the operands' ends marked (``mark_ends`` of :func:`cho_layout`).
CHO_SCHEMES = ("cho_coupled", "cho_ends")


class Slot(NamedTuple):
    """One token of the layout: what it is, and its (digits, operands, sums) IDs before the starts are added
    (``None``: the channel does not number this token; it reads 0)."""

    token: str
    role: str
    significance: int | None
    ids: tuple[int | None, int | None, int | None]


def partial_products(a: int, b: int) -> list[int]:
    """``[A * b_1, ..., A * b_M]``, the multiplier read from its least significant digit."""
    return [a * int(d) for d in reversed(str(b))]


def running_sums(a: int, b: int) -> list[int]:
    """``[S_1, ..., S_M]``: ``S_k`` adds ``10**(k-1) * A * b_k`` to ``S_{k-1}``; ``S_M`` is the product."""
    sums, total = [], 0
    for k, p in enumerate(partial_products(a, b)):
        total += p * 10 ** k
        sums.append(total)
    return sums


def _reversed_digits(value: int, width: int) -> str:
    return str(value).zfill(width)[::-1]


def cho_layout(a: int, b: int, mark_ends: bool = False) -> list[Slot]:
    """Every token of ``a * b`` in Cho et al.'s scratchpad, with its role, significance and unshifted IDs (the
    starts are added by :class:`ChoPositions`). ``mark_ends`` (ours, not the paper's): the opening ``$`` gets the
    digits ID one past the multiplicand's top digit, and ``*`` the operands ID one past the multiplier's top digit,
    so where each operand ends is a lookup at a fixed offset."""
    n, m = num_digits(a), num_digits(b)
    none = (None, None, None)
    slots = [Slot(BOS_EOS, "bos", None, (1 + n, None, None) if mark_ends else none)]
    slots += [Slot(d, "a", t, (1 + t, None, None)) for t, d in zip(range(n - 1, -1, -1), str(a))]
    slots.append(Slot("*", "op", None, (None, m, None) if mark_ends else none))
    slots += [Slot(d, "b", j, (None, j, None)) for j, d in zip(range(m - 1, -1, -1), str(b))]
    for k, p in enumerate(partial_products(a, b)):           # k = 0..M-1: P_{k+1}
        slots.append(Slot("=" if k == 0 else "+", "eq" if k == 0 else "sep", None, (0, k, k)))
        slots += [Slot(d, "answer", k + t, (1 + t, k, k + 1 + t)) for t, d in enumerate(_reversed_digits(p, n + 1))]
    for k, s in enumerate(running_sums(a, b)):
        slots.append(Slot("=" if k == 0 else SUM_SEPARATOR, "sep", None, (None, k, 0)))
        slots += [Slot(d, "answer", t, (None, k, 1 + t)) for t, d in enumerate(_reversed_digits(s, n + m))]
    slots.append(Slot(BOS_EOS, "eos", None, none))
    return slots


def encode_cho(problem, format_name: str = "cho_scratchpad") -> Example:
    """``$ a * b = P_1 + ... + P_M = S_1 > ... > S_M $``; supervised: everything after the first ``=``."""
    slots = cho_layout(problem.a, problem.b)
    tokens = tuple(s.token for s in slots)
    eq = next(i for i, s in enumerate(slots) if s.role == "eq")
    targets: list[str | None] = [None] * eq + list(tokens[eq + 1:]) + [None]
    return Example(tokens, tuple(targets), tuple(s.role for s in slots), tuple(s.significance for s in slots),
                   problem, format_name, causal=True,
                   answer_width=num_digits(problem.a) + num_digits(problem.b))


@dataclass(frozen=True)
class ChoPositions:
    """Cho et al.'s three channels: ``assign`` returns one ``(digits, operands, sums)`` triple per token.

    Each channel's start is drawn uniformly in training (``random_start``) so that the IDs it adds reach
    ``max_position``, and is ``eval_start`` (1, the paper's) at evaluation."""

    name: str = "cho_coupled"
    random_start: bool = False
    max_position: int = 64
    eval_start: int = 1

    def __post_init__(self) -> None:
        if self.name not in CHO_SCHEMES:
            raise ValueError(f"ChoPositions numbers the schemes {CHO_SCHEMES}, not {self.name!r}")
        if self.max_position < 3:
            raise ValueError(f"max_position must be >= 3 (a 1 x 1 product needs sums IDs up to 3), "
                             f"got {self.max_position}")

    @property
    def default_start(self) -> int:
        return self.eval_start

    @property
    def mark_ends(self) -> bool:
        """``cho_ends``: the operands' ends get IDs (:func:`cho_layout`)."""
        return self.name == "cho_ends"

    def spans(self, n_digits: int, m_digits: int) -> tuple[int, int, int]:
        """How far above its start each channel's IDs reach for an ``n_digits x m_digits`` product."""
        return n_digits + 1, m_digits - (0 if self.mark_ends else 1), n_digits + m_digits

    def longest_square(self) -> int:
        """The widest ``L x L`` product whose IDs fit ``max_position`` at the evaluation start."""
        return max(0, (self.max_position - self.default_start) // 2)

    def check_fits(self, n_digits: int, m_digits: int, starts: tuple[int, ...] | None = None) -> None:
        """Refuse a product whose IDs would pass ``max_position``, naming the channel, the operand and the limit."""
        starts = (self.default_start,) * 3 if starts is None else tuple(starts)
        for channel, span, start, operand in zip(CHO_CHANNELS, self.spans(n_digits, m_digits), starts,
                                                 ("multiplicand", "multiplier", "two operands together")):
            if start + span > self.max_position:
                raise PositionRangeError(
                    f"a {n_digits}-digit x {m_digits}-digit product needs {channel} IDs up to {start + span} (its "
                    f"{operand} sets them), but the IDs stop at max_position={self.max_position}; use shorter "
                    f"operands, or a task with TaskConfig(max_position={start + span}) or more")

    def starts(self, example: Example, rng: np.random.Generator | None = None) -> tuple[int, int, int]:
        """The three starts: drawn with ``rng`` and ``random_start`` (training), else ``eval_start``."""
        n, m = num_digits(example.problem.a), num_digits(example.problem.b)
        if rng is None or not self.random_start:
            return (self.default_start,) * 3
        self.check_fits(n, m)
        return tuple(int(rng.integers(self.default_start, self.max_position - span + 1))
                     for span in self.spans(n, m))

    def assign(self, example: Example, rng: np.random.Generator | None = None,
               start: tuple[int, ...] | None = None) -> list[tuple[int, int, int]]:
        starts = self.starts(example, rng) if start is None else tuple(start)
        self.check_fits(num_digits(example.problem.a), num_digits(example.problem.b), starts)
        return cho_ids(example, starts, self.mark_ends)


def cho_ids(example: Example, starts: tuple[int, ...] = (1, 1, 1),
            mark_ends: bool = False) -> list[tuple[int, int, int]]:
    """The (digits, operands, sums) IDs of a Cho-format example: the layout's IDs plus each channel's start, and 0
    where a channel does not number the token (see the module docstring)."""
    return [tuple(0 if i is None else i + s for i, s in zip(slot.ids, starts))
            for slot in cho_layout(example.problem.a, example.problem.b, mark_ends)]


__all__ = ["CHO_CHANNELS", "CHO_SCHEMES", "ChoPositions", "Slot", "cho_ids", "cho_layout", "encode_cho", "partial_products",
           "running_sums"]

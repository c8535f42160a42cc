"""Position-ID schemes: which integer each token's position embedding is looked up with.

* ``consecutive``: 0, 1, 2, ... (plain APE), optionally from a random start (random-start APE).
* ``coupled``: Cho et al. Section 3.1 and Figure 2. Digits of equal significance share an ID across
  the operands and the answer; IDs grow towards the *least* significant digit, so the units digits
  hold the top digit ID, and ``+`` (or ``*``) and ``=`` share the ID one past it (next to the units
  digit they follow in the text); ``$`` (BOS/EOS) gets 0. We follow the paper's Figure 2 (their v1
  code): with start s and answer width W, a digit of significance k gets ``s + W - 1 - k`` and the
  operators get ``s + W``. For ``$653+049=2070$`` at s = 5 this is ``0 6 7 8 9 6 7 8 9 8 7 6 5 0``. The same rule is
  Cho's N x 2 multiplication coupling (Section 6.1). The start is random in training and fixed (1)
  at evaluation.
* ``coupled_sink``: our departure for the final carry. Cho's IDs, except that ``$`` moves with the start:
  it gets the start itself and every other ID is one higher, so ``$`` always sits one below the lowest digit
  ID, in the slot where the final carry (the answer digit of significance L, whose own ID holds no operand
  digit) looks for the digits "one below" it. At the evaluation start 0 the IDs are exactly Cho's at start
  1 (``$`` 0, the final carry 1); in training the random start moves ``$`` with the digits instead of leaving
  it at 0, far from them. For ``$653+049=2070$`` at s = 4: ``4 6 7 8 9 6 7 8 9 8 7 6 5 4``.
* ``abacus``: McLeish et al.: every number is indexed from its *least significant* digit, 1, 2, 3, ...
  (a digit of significance k gets ``k + 1``), whichever way the format writes it; 0 for every other
  token; plus one random offset in training. McLeish et al. write all numbers reversed and count from
  the left, which is the same thing; here the operands run most significant first and (in ``cho`` and
  ``reversed``) the answer least significant first, so counting from the left of each run of digits
  would give the answer's units digit the ID of the operands' top digit. For ``$653+049=2070$`` the
  IDs are ``0 3 2 1 0 3 2 1 0 1 2 3 4 0``: the units digits ``3``, ``9`` and ``2`` all get 1.
* ``abacus_eq``: our departure for the units digit (notebook 08). Abacus IDs, except that ``=`` moves with
  the offset: it gets the offset itself, one below the units digits. ``=`` is the query that writes the units
  digit; with ``=`` at 0 a random offset leaves it no ID relation to the digits it must read, while every other
  answer digit is written from the digit one ID below it. For ``$653+049=2070$`` at offset 4:
  ``0 7 6 5 0 7 6 5 4 5 6 7 8 0``.

**Scratchpads, sub-tasks and blanks** (:mod:`~lengen_utils.core.formats`, :mod:`~lengen_utils.core.spaces`): every
scheme numbers a scratchpad step's tokens (the aligned pair and the carry of column ``k``) like the answer
digit of column ``k``: consecutive IDs by place in the text, coupled IDs ``s + W - 1 - k`` (so a column's four
tokens share one ID), Abacus ``k + 1``. A sub-task's outputs (alignment, digit-wise sum, carries) are answer
digits of significance ``k`` and are numbered as such. A random blank has no significance: consecutive IDs
give it its place in the text; coupled and Abacus IDs have no number for it and refuse it.

A scheme is a small frozen dataclass; :meth:`PositionScheme.assign` turns an
:class:`~lengen_utils.core.formats.Example` into a list of IDs.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .formats import DIGITS, Example, FormatError, encode
from .problems import Problem, num_digits

SCHEMES = ("consecutive", "coupled", "coupled_sink", "abacus", "abacus_eq")
COUPLED_SCHEMES = ("coupled", "coupled_sink")   # IDs by significance: problems can be packed in disjoint ID ranges
# roles whose digits belong to a number or to a scratchpad's column (not hints or operators)
_NUMBER_ROLES = ("a", "b", "answer", "pair_a", "pair_b", "carry")
_DOLLAR_ROLES = frozenset({"bos", "eos"})
_OPERATOR_ROLES = frozenset({"op", "eq"})
_UNNUMBERED_ROLES = frozenset({"blank"})   # random spaces: no significance, numbered by consecutive IDs only


class PositionRangeError(ValueError):
    """Position IDs beyond the model's table: the input is longer than the model can place."""


@dataclass(frozen=True)
class PositionScheme:
    """How to number positions.

    ``random_start``: draw the start (or the Abacus offset) uniformly in training so that every row of
    the embedding table up to ``max_position`` gets trained (Cho's max_pos). ``eval_start`` is the
    fixed start used at evaluation.
    """

    name: str = "consecutive"
    random_start: bool = False
    max_position: int = 64
    eval_start: int | None = None

    def __post_init__(self) -> None:
        if self.name not in SCHEMES:
            raise ValueError(f"unknown position scheme {self.name!r}; choose one of {SCHEMES}")
        if self.max_position < 1:
            raise ValueError(f"max_position must be positive, got {self.max_position}")

    @property
    def default_start(self) -> int:
        if self.eval_start is not None:
            return self.eval_start
        return 1 if self.name == "coupled" else 0

    @property
    def shifts_with_start(self) -> bool:
        """Whether every ID moves with the start (``assign(e, start=s) == assign(e, start=0) + s``): true where no
        token keeps a fixed ID (Cho's coupling keeps ``$`` at 0, Abacus its non-digits)."""
        return self.name in ("consecutive", "coupled_sink")

    def span(self, example: Example) -> int:
        """Largest ID this example needs at start 0 (before the start is added)."""
        return max(self.assign(example, start=0))

    def assign(self, example: Example, rng: np.random.Generator | None = None, start: int | None = None) -> list[int]:
        """IDs for ``example``. With ``rng`` and ``random_start`` the start is drawn, else fixed."""
        if start is None:
            if rng is not None and self.random_start:
                free = self.max_position - self._extent(example)
                if free < self.default_start:
                    raise PositionRangeError(self._too_long(example))
                start = int(rng.integers(self.default_start, free + 1))
            else:
                start = self.default_start
        ids = _ASSIGNERS[self.name](example, start)
        if max(ids) > self.max_position:
            raise PositionRangeError(self._too_long(example, max(ids)))
        return ids

    def ids_needed(self, width: int, op: str = "+", format_name: str = "cho", *, multiplier_digits: int | None = None,
                   frame_width: int | None = None, pack: int = 1) -> int:
        """The largest position ID that ``pack`` problems with ``width``-digit operands need, side by side from
        the evaluation start, each in its own block of IDs (as packed training places them): the smallest
        ``max_position`` that places them. The widest such problem is all nines; for multiplication the
        multiplier has ``multiplier_digits`` digits (``None``: ``width``, as at evaluation)."""
        if op == "*" and multiplier_digits is not None:
            b_digits = multiplier_digits
        else:
            b_digits, multiplier_digits = width, None
        example = encode(Problem(10**width - 1, 10**b_digits - 1, op), format_name, frame_width=frame_width,
                         multiplier_digits=multiplier_digits)
        return self.default_start + pack * (self._extent(example) + 1) - 1

    def longest_operand(self, op: str = "+", format_name: str = "cho", *, multiplier_digits: int | None = None,
                        frame_width: int | None = None, pack: int = 1) -> int:
        """The widest operand (digits) whose problems get position IDs within ``max_position`` at the evaluation
        start (:meth:`ids_needed`); 0 if none does. A width the format cannot write (wider than the frame or
        the index hints) does not fit. Every scheme gives a ``w``-digit problem an ID of at least ``w``, so
        the answer is at most ``max_position``; the IDs needed grow with the width, so a bisection finds it."""
        def fits(width: int) -> bool:
            try:
                return self.ids_needed(width, op, format_name, multiplier_digits=multiplier_digits,
                                       frame_width=frame_width, pack=pack) <= self.max_position
            except FormatError:
                return False

        low, high = 0, self.max_position           # fits(low) holds; every width above high fails
        while low < high:
            mid = (low + high + 1) // 2
            low, high = (mid, high) if fits(mid) else (low, mid - 1)
        return low

    def _extent(self, example: Example) -> int:
        return max(_ASSIGNERS[self.name](example, 0))

    def _too_long(self, example: Example, needed: int | None = None) -> str:
        needed = needed if needed is not None else self._extent(example) + self.default_start
        p = example.problem
        shape = f"{num_digits(p.a)}-digit {p.op} {num_digits(p.b)}-digit problem"
        return (f"a {shape} needs position IDs up to {needed} under the {self.name!r} scheme, but the "
                f"task's IDs stop at max_position={self.max_position}; use shorter operands, or a task with "
                f"TaskConfig(max_position={needed}) or more (a model with a learned position table, "
                f"encoding='learned', then needs max_positions={needed + 1} or more; other encodings have no table)")


def consecutive_ids(example: Example, start: int = 0) -> list[int]:
    return [start + i for i in range(len(example))]


def coupled_ids(example: Example, start: int = 1) -> list[int]:
    """Cho et al.'s coupling (Figure 2): equal significance, equal ID; the units digits hold the top digit
    ID and the operators ``+``/``*`` and ``=`` sit one past it."""
    return _coupled(example, start, dollar_id=0)


def coupled_sink_ids(example: Example, start: int = 0) -> list[int]:
    """Cho's coupled IDs with ``$`` as the final carry's sink: ``$`` gets ``start``, every other token its
    coupled ID from ``start + 1`` (so at start 0 these are Cho's IDs at start 1)."""
    return _coupled(example, start + 1, dollar_id=start)


def _coupled(example: Example, start: int, dollar_id: int) -> list[int]:
    """Coupled IDs from ``start`` (digits by significance, ``+``/``*``/``=`` one past the top), ``$`` at ``dollar_id``."""
    _refuse_blanks(example, "coupled")
    top = start + example.answer_width
    return [dollar_id if role in _DOLLAR_ROLES else top if role in _OPERATOR_ROLES else top - 1 - s
            for role, s in zip(example.roles, example.significance)]


def abacus_ids(example: Example, start: int = 0) -> list[int]:
    """McLeish et al.'s Abacus: every number indexed from its least significant digit.

    A digit of significance k (units: k = 0) gets ``start + k + 1``, in the operands and in the answer
    alike, whether the format writes the number forwards or reversed; every other token (``$``, ``+``,
    ``=``, Sabbaghi's ``pad``, index hints) gets 0.
    """
    _refuse_blanks(example, "abacus")
    return [start + s + 1 if s is not None and role in _NUMBER_ROLES and tok in DIGITS else 0
            for tok, role, s in zip(example.tokens, example.roles, example.significance)]


def abacus_eq_ids(example: Example, start: int = 0) -> list[int]:
    """Abacus IDs with ``=`` at the offset itself, one below the units digits (``start + 1``): the query that
    writes the units digit then reads the digits one ID above it, as every later answer digit does."""
    return [start if role == "eq" else i for role, i in zip(example.roles, abacus_ids(example, start))]


def _refuse_blanks(example: Example, scheme: str) -> None:
    """Blanks (random spaces) have no significance, so a scheme that numbers by significance cannot place them."""
    if not _UNNUMBERED_ROLES.isdisjoint(example.roles):
        raise FormatError(f"the {scheme!r} scheme numbers tokens by significance and a random blank has none; "
                          f"random spaces need positions='consecutive'")



_ASSIGNERS = {"consecutive": consecutive_ids, "coupled": coupled_ids, "coupled_sink": coupled_sink_ids,
              "abacus": abacus_ids, "abacus_eq": abacus_eq_ids}


def uniform_slots(example: Example) -> list[int]:
    """Sabbaghi's UPE slots (eq. 3.3): which uniform vector c_r each token's key uses (0: none, RPE).

    Slots are numbered by **significance**: the multiplier digit of significance k (units: k = 0) gets
    slot ``r = k + 1``, every other token 0. We chose significance over order in the text because the
    multiplier of eq. 3.2 is not padded: with text order the ``7`` of ``7 x ...`` and the ``5`` of
    ``56 x ...`` would share c_1 although one is a units digit and the other a tens digit, so a vector
    would not mean one role of the parallel algorithm (Figure 3a: digit k of the multiplier shifts its
    partial product by k places). By significance, c_1 always holds the units digit, c_2 the tens, ...;
    this is what fixing the multiplier's width (zero-padding it to k digits) would give, without the
    extra pad tokens. For ``56 x 4297`` in the frame the slots are ``2 1 0 0 ... 0``.
    """
    if example.problem.op != "*":
        return [0] * len(example)
    return [s + 1 if role == "b" and tok in DIGITS and s is not None else 0
            for tok, role, s in zip(example.tokens, example.roles, example.significance)]


__all__ = ["PositionScheme", "PositionRangeError", "SCHEMES", "COUPLED_SCHEMES", "consecutive_ids", "coupled_ids",
           "coupled_sink_ids", "abacus_ids", "abacus_eq_ids", "uniform_slots"]

"""Arithmetic problems and the samplers that draw them.

A :class:`Problem` is one instance of the task, ``a <op> b``. The samplers implement the training
distributions used in the papers:

* :func:`sample_uniform` draws each operand uniformly below ``10**l`` (Sabbaghi et al.: the seen
  domain D_s is all pairs with lengths at most l_s, sampled uniformly).
* :func:`sample_exact_length` draws operands with exactly ``l`` digits (the test sets of Cho et al.).
* :func:`sample_balanced` first draws a length uniformly in ``1..max_digits`` and then a number of that
  length (Cho et al. Section 4, "balanced sampling" after Nogueira et al.).

Every sampler takes a :class:`numpy.random.Generator` so that results are reproducible from a seed.
Numbers are Python ints, so 200-digit operands are exact.
"""
from __future__ import annotations

import sys
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

import numpy as np

from .config_checks import require_int

Operation = Literal["+", "*"]
OPERATIONS: tuple[str, ...] = ("+", "*")


class ProblemError(ValueError):
    """An operand or operation the course's tasks do not cover."""


def max_str_digits() -> int:
    """Python's limit on digits converted between int and str (``sys.get_int_max_str_digits``; 0: none)."""
    get = getattr(sys, "get_int_max_str_digits", None)
    return int(get()) if get else 0


@lru_cache(maxsize=4)
def _ten_to(power: int) -> int:
    return 10**power


def _check_printable(value: int, what: str) -> None:
    """Refuse an int too long for Python to write in decimal (every format writes its digits)."""
    limit = max_str_digits()
    if limit and value.bit_length() > 3 * limit and value >= _ten_to(limit):
        raise ProblemError(f"{what} has more than {limit} digits, Python's limit for int-string conversion "
                           f"(sys.get_int_max_str_digits()); the course's tasks use far shorter numbers")


@dataclass(frozen=True)
class Problem:
    """One arithmetic instance ``a <op> b``, with non-negative integer operands."""

    a: int
    b: int
    op: Operation = "+"

    def __post_init__(self) -> None:
        for name, value in (("a", self.a), ("b", self.b)):
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
                raise ProblemError(f"operand {name}={value!r} must be an integer, got {type(value).__name__}")
            if value < 0:
                raise ProblemError(f"operand {name}={value} is negative; only non-negative integers are supported")
        if self.op not in OPERATIONS:
            raise ProblemError(f"unknown operation {self.op!r}; expected one of {OPERATIONS}")
        object.__setattr__(self, "a", int(self.a))
        object.__setattr__(self, "b", int(self.b))
        _check_printable(self.a, "operand a")
        _check_printable(self.b, "operand b")
        _check_printable(self.answer, f"the answer of this {self.op} problem")

    @property
    def answer(self) -> int:
        return self.a + self.b if self.op == "+" else self.a * self.b

    @classmethod
    def parse(cls, a: str | int, b: str | int, op: Operation = "+") -> "Problem":
        """Build a problem from user input, rejecting anything that is not a string of digits."""
        return cls(parse_operand(a, "a"), parse_operand(b, "b"), op)

    def __str__(self) -> str:
        return f"{self.a}{self.op}{self.b}={self.answer}"


def parse_operand(value: str | int, name: str = "operand") -> int:
    """Turn ``'00123'`` or ``123`` into an int; a sign, a space or any non-digit is a clear error."""
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        if value < 0:
            raise ProblemError(f"{name}={value} is negative; only non-negative integers are supported")
        _check_printable(int(value), name)
        return int(value)
    if not isinstance(value, str):
        raise ProblemError(f"{name} must be a string of digits 0-9 or a non-negative int, got "
                           f"{type(value).__name__} {value!r}")
    shown = repr(value) if len(value) <= 40 else f"{value[:20]!r}...({len(value)} characters)"
    if value.startswith("-") and value[1:].isdigit():
        raise ProblemError(f"{name}={shown} is negative; only non-negative integers are supported")
    if not value or not all(ch in "0123456789" for ch in value):
        bad = next((ch for ch in value if ch not in "0123456789"), "")
        what = f"the character {bad!r}" if bad else "nothing"
        raise ProblemError(f"{name}={shown} is not a non-negative integer: it contains {what}; use digits 0-9 only")
    limit = max_str_digits()
    if limit and len(value) > limit:
        raise ProblemError(f"{name} has {len(value)} digits, more than {limit}, Python's limit for int-string "
                           f"conversion (sys.get_int_max_str_digits()); the course's tasks use far shorter numbers")
    return int(value)


def num_digits(n: int) -> int:
    """Number of decimal digits of a non-negative integer (``num_digits(0) == 1``)."""
    return len(str(n))


def _check_length(length: int, name: str = "length") -> None:
    require_int(length, name, error=ProblemError, expected="a positive whole number of digits (an int >= 1)")
    if length < 1:
        raise ProblemError(f"{name} must be a positive whole number of digits (>= 1), got {length!r}")
    limit = max_str_digits()
    if limit and length > limit:
        raise ProblemError(f"{name}={length} digits exceeds {limit}, Python's limit for int-string conversion "
                           f"(sys.get_int_max_str_digits())")


def _check_count(n: int) -> None:
    require_int(n, "the number of problems n", error=ProblemError, expected="a whole number >= 0 (an int)")
    if n < 0:
        raise ProblemError(f"the number of problems n must be a whole number >= 0, got {n!r}")


def _uniform_below(rng: np.random.Generator, bound: int) -> int:
    """An integer uniform on [0, bound) for bounds far beyond 64 bits."""
    if bound <= 2**62:
        return int(rng.integers(0, bound))
    n_bits = bound.bit_length()
    while True:  # rejection sampling over whole 32-bit words
        words = rng.integers(0, 2**32, size=(n_bits + 31) // 32, dtype=np.uint64)
        value = 0
        for w in words:
            value = (value << 32) | int(w)
        value >>= len(words) * 32 - n_bits
        if value < bound:
            return value


def random_number_below(rng: np.random.Generator, bound: int) -> int:
    """Public wrapper: uniform integer in ``[0, bound)`` (exact for any size)."""
    if isinstance(bound, bool) or not isinstance(bound, (int, np.integer)) or bound < 1:
        raise ProblemError(f"bound must be a whole number >= 1, got {bound!r}")
    return _uniform_below(rng, int(bound))


def random_number_with_digits(rng: np.random.Generator, length: int) -> int:
    """Uniform number with exactly ``length`` digits (for length 1: uniform over 0-9, as in Cho et al.)."""
    _check_length(length)
    if length == 1:
        return int(rng.integers(0, 10))
    low = 10 ** (length - 1)
    return low + _uniform_below(rng, 9 * low)


def random_multiplier(rng: np.random.Generator, digits: int, exact: bool = False) -> int:
    """A multiplier of ``digits`` digits: uniform below ``10**digits`` (leading zeros allowed, Cho's N x 2),
    or with ``exact`` a number of exactly that many digits and no leading zero (1..9 for one digit, as
    Sabbaghi et al. draw it, Appendix C.4)."""
    _check_length(digits, "multiplier_digits")
    if not exact:
        return _uniform_below(rng, 10**digits)
    low = 10 ** (digits - 1)
    return low + _uniform_below(rng, 10**digits - low)


def sample_uniform(rng: np.random.Generator, max_digits: int, n: int, op: Operation = "+",
                   multiplier_digits: int | None = None, multiplier_exact: bool = False) -> list[Problem]:
    """``n`` problems with each operand uniform on ``[0, 10**max_digits)``.

    For multiplication, ``multiplier_digits`` fixes the width of the multiplier ``b`` (uniform below
    ``10**multiplier_digits``); ``a`` is the multiplicand.
    """
    _check_length(max_digits, "max_digits")
    _check_count(n)
    b_digits = max_digits if multiplier_digits is None else multiplier_digits
    _check_length(b_digits, "multiplier_digits")
    exact = multiplier_exact and op == "*" and multiplier_digits is not None
    return [Problem(_uniform_below(rng, 10**max_digits), random_multiplier(rng, b_digits, exact), op)
            for _ in range(n)]


def sample_exact_length(rng: np.random.Generator, length: int, n: int, op: Operation = "+",
                        multiplier_digits: int | None = None, multiplier_exact: bool = False) -> list[Problem]:
    """``n`` problems whose operands have exactly ``length`` digits (``b`` has ``multiplier_digits``;
    a 1-digit multiplier is 0..9 unless ``multiplier_exact``, then 1..9)."""
    _check_length(length)
    _check_count(n)
    b_digits = length if multiplier_digits is None else multiplier_digits
    _check_length(b_digits, "multiplier_digits")
    if multiplier_exact and op == "*" and multiplier_digits is not None:
        return [Problem(random_number_with_digits(rng, length), random_multiplier(rng, b_digits, True), op)
                for _ in range(n)]
    return [Problem(random_number_with_digits(rng, length), random_number_with_digits(rng, b_digits), op)
            for _ in range(n)]


def sample_balanced(rng: np.random.Generator, max_digits: int, n: int, op: Operation = "+",
                    multiplier_digits: int | None = None, min_digits: int = 1,
                    multiplier_exact: bool = False) -> list[Problem]:
    """Cho et al.'s balanced sampling: per operand, a length uniform in ``min_digits..max_digits``, then a number.

    For multiplication the multiplier ``b`` is uniform below ``10**multiplier_digits`` (leading zeros
    allowed, as in Cho et al.'s N x 2 task), or with ``multiplier_exact`` has exactly that many digits.
    """
    _check_length(max_digits, "max_digits")
    _check_length(min_digits, "min_digits")
    _check_count(n)
    if multiplier_digits is not None:
        _check_length(multiplier_digits, "multiplier_digits")
    if min_digits > max_digits:
        raise ProblemError(f"min_digits={min_digits} exceeds max_digits={max_digits}")

    def draw() -> int:
        return random_number_with_digits(rng, int(rng.integers(min_digits, max_digits + 1)))

    if op == "*" and multiplier_digits is not None:
        return [Problem(draw(), random_multiplier(rng, multiplier_digits, multiplier_exact), op) for _ in range(n)]
    return [Problem(draw(), draw(), op) for _ in range(n)]


def shift_with_zeros(problem: Problem, shift: int) -> Problem:
    """Sabbaghi's augmentation (A3, M3): append ``shift`` zeros. For addition both operands move (the
    sum gains the same zeros); for multiplication only the multiplicand ``a`` does."""
    if isinstance(shift, bool) or not isinstance(shift, (int, np.integer)) or shift < 0:
        raise ProblemError(f"shift must be a whole number of zeros >= 0, got {shift!r}")
    scale = 10**shift
    if problem.op == "+":
        return Problem(problem.a * scale, problem.b * scale, "+")
    return Problem(problem.a * scale, problem.b, "*")

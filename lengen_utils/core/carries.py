"""Complexity of one arithmetic sample: cascades of carries (addition), carry levels (multiplication).

Sabbaghi et al., Section 4, define the *complexity* of a sample as its maximum dependency length: how
many positions must be read to compute one output digit. For addition the dependency on earlier
positions comes from carries, and the paper quantifies it by the **cascade** of carries: a position
whose digit sum is >= 10 *generates* a carry regardless of everything below it, a position whose digit
sum is <= 8 *kills* any incoming carry, and a position whose digit sum is exactly 9 *propagates* the
carry it receives. "This is the number of consecutive indices which sum to 9 that are triggered by a
carry, leading to a cascade effect." (Section 4, C2). For a single-digit multiplier the complexity is
the number of carry levels of the parallel multiplication algorithm (Figure 3a, Appendix C.4).

Vocabulary, for a digit position ``i`` (0 = least significant) with digit sum ``s_i = a_i + b_i``:

* generate (G): ``s_i >= 10``; propagate (P): ``s_i == 9``; kill (K): ``s_i <= 8``.
* a *cascade* is a generating position followed (towards the more significant side) by a maximal run of
  ``k >= 0`` propagating positions; its *length* is ``k + 1`` (see :func:`cascade_length`).

This module holds the per-sample measures (problems layer: it imports only :mod:`~lengen_utils.core.problems`);
the samplers by complexity are in :mod:`lengen_utils.core.complexity`, the exact distributions in
:mod:`lengen_utils.analysis.complexity`, and exact match grouped by complexity in :mod:`lengen_utils.core.evaluate`.
"""
from __future__ import annotations

from typing import Sequence

import numpy as np

from .problems import ProblemError, num_digits

__all__ = [
    "GENERATE", "PROPAGATE", "KILL", "CLASSES", "PAIRS_BY_CLASS", "PAIR_COUNTS", "classify",
    "digit_sums", "carry_propagation_levels", "cascade_length", "longest_carry_run",
    "cascade_lengths_from_sums", "carry_runs_from_sums", "multiplication_levels", "column_carries",
    "column_products",
    "MEASURES",
]

# Classes of a digit sum, in the order used by every table of the complexity modules.
GENERATE, PROPAGATE, KILL = 0, 1, 2
CLASSES = (GENERATE, PROPAGATE, KILL)


def classify(value: int) -> int:
    """Generate (>= 10), propagate (== 9) or kill (<= 8) for a column value whose carry-out is 0 or 1."""
    return GENERATE if value >= 10 else PROPAGATE if value == 9 else KILL


#: The 100 digit pairs (x, y), grouped by the class of x + y: 45 generate, 10 propagate, 45 kill.
PAIRS_BY_CLASS: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    tuple((x, y) for x in range(10) for y in range(10) if classify(x + y) == cls) for cls in CLASSES
)
PAIR_COUNTS: tuple[int, int, int] = tuple(len(p) for p in PAIRS_BY_CLASS)  # (45, 10, 45)


def check_non_negative(value: int, name: str) -> int:
    """``value`` as an int; :class:`ProblemError` unless it is a non-negative integer (bools refused)."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 0:
        raise ProblemError(f"{name} must be a non-negative integer, got {value!r}")
    return int(value)


def check_positive(value: int, name: str) -> int:
    """``value`` as an int; :class:`ProblemError` unless it is an integer >= 1 (bools refused)."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
        raise ProblemError(f"{name} must be a positive integer, got {value!r}")
    return int(value)


def _digits(n: int, length: int) -> list[int]:
    """The ``length`` least significant digits of ``n``, least significant first."""
    text = str(n).rjust(length, "0")
    return [int(ch) for ch in reversed(text)]


# ---------------------------------------------------------------------------------------------------
# One sample
# ---------------------------------------------------------------------------------------------------


def digit_sums(a: int, b: int, length: int | None = None) -> list[int]:
    """Column sums ``a_i + b_i`` (least significant first) over ``length`` positions.

    ``length`` defaults to the number of digits of the longer operand; a smaller value is an error.
    """
    a = check_non_negative(a, "a")
    b = check_non_negative(b, "b")
    needed = max(num_digits(a), num_digits(b))
    if length is None:
        length = needed
    length = check_positive(length, "length")
    if length < needed:
        raise ProblemError(f"length={length} is shorter than the operands ({needed} digits)")
    return [x + y for x, y in zip(_digits(a, length), _digits(b, length))]


def carry_propagation_levels(column_values: Sequence[int]) -> int:
    """Number of levels of the parallel carry algorithm (Figures 1 and 3a) on the given columns.

    ``column_values`` holds one non-negative value per position, least significant first (the digit
    sums of an addition, or the digit-wise products of a multiplication). One *level* replaces every
    position's value ``v_i`` by ``v_i mod 10 + floor(v_{i-1} / 10)`` simultaneously (``v_{-1} = 0``),
    the positions above the last one starting at 0. The result is the number of levels applied until
    every position holds a single digit; 0 if all values are already digits.
    """
    values = [check_non_negative(v, "column value") for v in column_values]
    levels = 0
    while any(v >= 10 for v in values):
        if values[-1] >= 10:
            values.append(0)
        carries = [0] + [v // 10 for v in values[:-1]]
        values = [v % 10 + c for v, c in zip(values, carries)]
        levels += 1
    return levels


def cascade_length(a: int, b: int, length: int | None = None) -> int:
    """Complexity of the sum ``a + b``: the length of its longest cascade of carries (Sabbaghi, Sec. 4).

    Definition implemented. Label each position ``i`` by its digit sum ``s_i = a_i + b_i``: generate
    (``s_i >= 10``), propagate (``s_i == 9``) or kill (``s_i <= 8``). A *cascade* is a generating
    position followed, towards the more significant side, by a maximal run of ``k >= 0`` propagating
    positions; the paper's "consecutive indices which sum to 9 that are triggered by a carry". Its
    length is ``k + 1``: **the triggering (generating) position is counted**. A run of 9-sums that is
    not preceded by a generating position (e.g. at the least significant end, or after a kill) carries
    nothing and is not a cascade. The per-sample complexity is the **maximum** length over all cascades
    of the sum, and 0 when no position generates a carry. A generating position directly above a
    cascade starts a new cascade (its carry-out no longer depends on what lies below).

    Why ``k + 1`` and not ``k``: counting the trigger reproduces Appendix C.4. With operands uniform
    below ``10**5`` it gives P(complexity = 4) = 8.55e-4 (paper: "roughly 8.3e-4") and 5-digit training
    data reaching cascades "of length up to 5"; with 50 digits, P(complexity <= 4) = 0.99793 (paper:
    0.998). Counting only the 9-sums gives 4.5e-5 and 0.99980 instead, and a maximum of 4 at 5 digits.
    It also matches the Figure 1 example, where "carries cascade for three stages, from the first to the
    fourth position" (a generating first position and two 9-sums: length 3, the carry landing at the
    fourth). The remaining 3% gap to 8.3e-4 is consistent with sampling noise (the paper plots
    histograms of "randomly sampled" sums).
    The reading is also the dependency length of the text: the output digit just above a cascade of
    length ``k + 1`` needs the ``k + 1`` positions below it, and it equals the number of levels of the
    parallel addition algorithm of Figure 1 (:func:`carry_propagation_levels` of the digit sums).

    ``length`` (default: digits of the longer operand) is the number of positions; padding with leading
    zeros never changes the value (0 + 0 kills), so it only validates that the operands fit.

    Examples: ``1999 + 1`` has sums (10, 9, 9, 1), cascade 3; ``55 + 55`` has two generating positions
    in a row, cascade 1 (but :func:`longest_carry_run` 2); ``9 + 90`` has 9-sums and no carry, cascade 0.
    """
    best = run = 0
    for s in digit_sums(a, b, length):
        cls = classify(s)
        run = 1 if cls == GENERATE else (run + 1 if cls == PROPAGATE and run > 0 else 0)
        best = max(best, run)
    return best


def longest_carry_run(a: int, b: int) -> int:
    """Longest run of consecutive positions that emit a carry in ``a + b`` (Sabbaghi C1, Figure 8b).

    Position ``i`` emits a carry when ``a_i + b_i + carry_in >= 10``. Unlike :func:`cascade_length`,
    independent generating positions in a row count here (``55 + 55``: run 2, cascade 1); the paper
    shows this "consecutive carries" measure does not track difficulty. Always >= the cascade length.
    """
    best = run = carry = 0
    for s in digit_sums(a, b):
        carry = 1 if s + carry >= 10 else 0
        run = run + 1 if carry else 0
        best = max(best, run)
    return best


def cascade_lengths_from_sums(sums: np.ndarray) -> np.ndarray:
    """Vectorised :func:`cascade_length` for an integer array of digit sums, shape (n, positions)."""
    sums = np.asarray(sums)
    run = np.zeros(sums.shape[0], dtype=np.int64)
    best = np.zeros(sums.shape[0], dtype=np.int64)
    for i in range(sums.shape[1]):
        s = sums[:, i]
        run = np.where(s >= 10, 1, np.where((s == 9) & (run > 0), run + 1, 0))
        np.maximum(best, run, out=best)
    return best



def carry_runs_from_sums(sums: np.ndarray) -> np.ndarray:
    """Vectorised :func:`longest_carry_run` for an integer array of digit sums, shape (n, positions)."""
    sums = np.asarray(sums)
    carry = np.zeros(sums.shape[0], dtype=np.int64)
    run = np.zeros(sums.shape[0], dtype=np.int64)
    best = np.zeros(sums.shape[0], dtype=np.int64)
    for i in range(sums.shape[1]):
        carry = (sums[:, i] + carry >= 10).astype(np.int64)
        run = np.where(carry == 1, run + 1, 0)
        np.maximum(best, run, out=best)
    return best



# ---------------------------------------------------------------------------------------------------
# Single-digit multiplier (Appendix C.4, Figure 14)
# ---------------------------------------------------------------------------------------------------


def check_multiplier_digit(d: int) -> int:
    d = check_non_negative(d, "multiplier_digit")
    if d > 9:
        raise ProblemError(f"multiplier_digit must be a single digit 0-9, got {d}")
    return d


def multiplication_levels(multiplier_digit: int, multiplicand: int) -> int:
    """Complexity of ``multiplier_digit * multiplicand``: carry levels of the parallel algorithm (Fig. 3a).

    Definition implemented. Level 0 (the digit-wise products) writes ``v_i = d * x_i`` at every position
    of the multiplicand ``x`` (least significant first), with an empty position above. Each following
    level propagates all carries in parallel: ``v_i <- v_i mod 10 + floor(v_{i-1} / 10)``. The result is
    the number of propagation levels until every position holds a single digit; **the product step is
    not counted** (0 when no product reaches 10, e.g. ``1 * x`` or ``2 * 1234``). Appendix C.4 says the
    maximum dependency length "is equal to the total number of levels in Figure 3a. By the last level,
    every position's value will be a single digit."

    This convention reproduces Figure 14 exactly: with the multiplier uniform on 1..9 and a multiplicand
    uniform below ``10**5``, P(levels = 4) = 0.0019 (paper: 1.9e-3); counting the product step as a level
    would give 0.0344 for the same event. With a 20-digit multiplicand, P(levels <= 4) = 0.99840
    (paper: 99.8%).

    Structure (used by :func:`multiplication_levels_distribution`): after the first level every column
    holds ``u_i = (d x_i mod 10) + floor(d x_{i-1} / 10) <= 9 + 8 = 17``, so later carries are 0 or 1
    and the remaining levels are those of an addition whose column sums are ``u``; hence the result is
    ``0`` if no ``d x_i >= 10``, otherwise ``1 +`` the longest cascade of ``u`` (same cascade definition
    as :func:`cascade_length`). Example: ``9 * 119``: products (81, 9, 9), then (1, 17, 9), (1, 7, 10),
    (1, 7, 0, 1): 3 levels.
    """
    d = check_multiplier_digit(multiplier_digit)
    x = check_non_negative(multiplicand, "multiplicand")
    return carry_propagation_levels([d * int(ch) for ch in reversed(str(x))])



MEASURES = {"cascade": cascade_length, "carry_run": longest_carry_run}
"""The two complexity measures of Section 4: the cascade of carries (C2) and the longest run of
consecutive carries (C1)."""


def column_carries(a: int, b: int, width: int) -> list[int]:
    """The carry *into* each column ``s = 0..width-1`` of the schoolbook product ``a x b`` (column method).

    Column ``s`` adds the products ``a_i b_r`` with ``i + r = s`` and the carry it receives; it writes that total
    mod 10 and passes ``floor(total / 10)`` on: ``c_0 = 0``, ``c_{s+1} = floor((sum_{i+r=s} a_i b_r + c_s) / 10)``.
    For a ``k``-digit multiplier a column holds at most ``k`` products, so ``c_s <= 9k - 1`` (26 for ``k = 3``).
    Example: ``column_carries(99, 99, 4) == [0, 8, 17, 9]`` (columns 81, 162 + 8, 81 + 17, 0 + 9 -> 9801).
    This is the long-range part of each answer digit: the digit is (column sum + carry) mod 10, where the column
    sum reads at most ``k`` products and the carry everything below it.
    """
    a = check_non_negative(a, "a")
    b = check_non_negative(b, "b")
    width = check_non_negative(width, "width")
    xs, ys = _digits(a, num_digits(a)), _digits(b, num_digits(b))
    carries, carry = [], 0
    for s in range(width):
        carries.append(carry)
        column = sum(xs[i] * ys[s - i] for i in range(max(0, s - len(ys) + 1), min(s, len(xs) - 1) + 1))
        carry = (column + carry) // 10
    return carries


def column_products(a: int, b: int, width: int, k: int) -> list[list[int]]:
    """The ``k`` digit products of each column ``s = 0..width-1`` of ``a x b``: ``[a_s b_0, a_{s-1} b_1, ...,
    a_{s-k+1} b_{k-1}]``, a missing digit counting as 0. Column ``s`` of the answer is
    ``(sum of these + column_carries(a, b, width)[s]) mod 10``.
    Example: ``column_products(47, 36, 3, 2) == [[42, 0], [24, 21], [0, 12]]`` (7 x 6, 4 x 6 and 7 x 3, 4 x 3)."""
    a = check_non_negative(a, "a")
    b = check_non_negative(b, "b")
    width = check_non_negative(width, "width")
    k = check_positive(k, "k")
    xs, ys = _digits(a, num_digits(a)), _digits(b, num_digits(b))
    digit = lambda ds, i: ds[i] if 0 <= i < len(ds) else 0   # noqa: E731
    return [[digit(xs, s - r) * digit(ys, r) for r in range(k)] for s in range(width)]

"""The fused-row scratchpad for N x M multiplication: each row adds one more partial product.

With ``A`` of ``N`` digits and ``B = b_M ... b_2 b_1`` of ``M`` digits, row ``k`` holds ``U_k``, the running product
``A * (b_k ... b_1)`` with its ``k - 1`` lowest digits (final since the row before) dropped:

    U_0 = 0,        U_k = U_{k-1} // 10 + A * b_k        (k = 1..M)

Every ``U_k`` has at most ``N + 1`` digits (``U_{k-1} // 10 < 10**N`` and ``A * b_k <= 9 * A``), so every row is
written with exactly ``N + 1`` digits, least significant first. Digit ``t`` of row ``k`` stands for the power
``10**(k - 1 + t)`` of the product; the product is the lowest digit of rows 1..M-1 followed by the whole row M. The
sequence is Cho et al.'s prompt, then the rows, ``+`` before each row after the first::

    $ 12 * 34 = 000 + 840 + 040 $          12 x 34 = 408: U_1 = 48 (840), U_2 = 4 + 36 = 40 (040)

Why this shape (``../shared/notes/multiplication-anchors.md``, "fused rows"): each row digit is a bounded local
computation, an N x 1 product with an addend. Digit ``t + 1`` of row ``k`` is
``(U_{k-1}[t + 2] + a_{t+1} b_k + c) mod 10``, where the carry ``c`` follows from the digit just written and the
column below it. So the model reads six tokens, at fixed offsets in the three ID channels of :mod:`.positions`,
whatever ``N`` and ``M`` are. Row 0 (zeros) gives row 1 a row above it, so every row is computed the same way.
An exact match needs every token of every row right; :func:`decode_product` reads the product back.
"""
from __future__ import annotations

from ..example import Example
from ..problems import Problem, ProblemError, num_digits
from ..vocab import BOS_EOS, FormatError, render
from .cho import encode_cho

#: The N x M formats (kept apart from :data:`~lengen_utils.core.formats.FORMATS`): ours, and Cho et al.'s
#: partial products then running sums (:mod:`.cho`).
NXM_FORMATS = ("fused_rows", "cho_scratchpad")
ROW_SEPARATOR = "+"


def fused_rows(a: int, b: int) -> list[int]:
    """``[U_0, U_1, ..., U_M]`` of ``a x b`` (see the module docstring); ``U_M`` and the lowest digits give the product."""
    rows, multiplier = [0], [int(d) for d in reversed(str(b))]
    for digit in multiplier:
        rows.append(rows[-1] // 10 + a * digit)
    return rows


def scratchpad_tokens(a: int, b: int) -> list[list[str]]:
    """The rows as digit tokens, least significant first, each ``N + 1`` digits wide."""
    width = num_digits(a) + 1
    return [list(str(u).zfill(width))[::-1] for u in fused_rows(a, b)]


def encode_nxm(problem: Problem, format_name: str = "fused_rows") -> Example:
    """Write ``problem`` (``a * b``) as ``$ a * b = U_0 + U_1 ... + U_M $`` (operands most significant digit first),
    or in Cho et al.'s scratchpad (``format_name="cho_scratchpad"``, :func:`.cho.encode_cho`).

    Roles: ``bos``, ``a``, ``op``, ``b``, ``eq``, ``answer`` (a row digit), ``sep`` (the ``+`` before a row),
    ``eos``. Significance: the power of ten a digit stands for (an operand digit's own; a row digit's place in the
    product; ``None`` for row 0, whose zeros stand for nothing). Supervised: everything after ``=``."""
    if format_name not in NXM_FORMATS:
        raise FormatError(f"unknown N x M format {format_name!r}; choose one of {NXM_FORMATS}")
    if not isinstance(problem, Problem) or problem.op != "*":
        raise FormatError(f"encode_nxm writes a multiplication Problem(a, b, '*'), got {problem!r}")
    if format_name == "cho_scratchpad":
        return encode_cho(problem, format_name)
    a, b = problem.a, problem.b
    tokens, roles, sig = [BOS_EOS], ["bos"], [None]
    for place, d in zip(range(num_digits(a) - 1, -1, -1), str(a)):
        tokens.append(d), roles.append("a"), sig.append(place)
    tokens.append("*"), roles.append("op"), sig.append(None)
    for place, d in zip(range(num_digits(b) - 1, -1, -1), str(b)):
        tokens.append(d), roles.append("b"), sig.append(place)
    tokens.append("="), roles.append("eq"), sig.append(None)
    eq = len(tokens) - 1
    for k, row in enumerate(scratchpad_tokens(a, b)):
        if k:
            tokens.append(ROW_SEPARATOR), roles.append("sep"), sig.append(None)
        for t, d in enumerate(row):
            tokens.append(d), roles.append("answer"), sig.append(k - 1 + t if k else None)
    tokens.append(BOS_EOS), roles.append("eos"), sig.append(None)
    targets: list[str | None] = [None] * eq + tokens[eq + 1:] + [None]
    return Example(tuple(tokens), tuple(targets), tuple(roles), tuple(sig), problem, format_name,
                   causal=True, answer_width=num_digits(a) + num_digits(b))


def decode_product(example: Example, predicted: list[str | None] | None = None) -> int:
    """The product read back from the rows: digit ``j`` is the last row's digit of significance ``j`` (in Cho et
    al.'s format the last running sum, which holds every significance).

    ``predicted[i]`` is what a model produced at position i (the example's own targets by default); a prediction
    that is not a scratchpad of digits raises :class:`~lengen_utils.core.vocab.FormatError`."""
    source = example.targets if predicted is None else predicted
    if len(source) != len(example):
        raise FormatError(f"predicted has {len(source)} symbols; the example has {len(example)} positions")
    digits: dict[int, str] = {}
    for i in example.supervised:
        nxt = i + 1
        if nxt < len(example) and example.roles[nxt] == "answer" and example.significance[nxt] is not None:
            symbol = source[i]
            if symbol is None or symbol not in "0123456789" or len(symbol) != 1:
                raise FormatError(f"not a digit at position {nxt}: {render([symbol])!r}")
            digits[example.significance[nxt]] = symbol     # a later row overwrites: the final digit of that place
    return int("".join(digits[s] for s in sorted(digits, reverse=True)))


def check_operands(a: int, b: int) -> Problem:
    """``Problem(a, b, '*')``, refusing what is not a pair of non-negative integers (one line, no traceback)."""
    try:
        return Problem(a, b, "*")
    except ProblemError as err:
        raise FormatError(str(err)) from None


__all__ = ["NXM_FORMATS", "ROW_SEPARATOR", "fused_rows", "scratchpad_tokens", "encode_nxm", "decode_product",
           "check_operands"]

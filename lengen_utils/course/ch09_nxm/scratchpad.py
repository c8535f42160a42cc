"""Notebook 09, sections 1-3: why N x M is harder than N x 2, the fused-row scratchpad, and where each row digit finds
what it reads in the three ID channels.

* :func:`error_budget`: how small the per-token error must be for an exact match of a whole scratchpad (errors
  compound over its tokens);
* :func:`products_per_digit`: without a scratchpad, how many digit products one answer digit sums (it grows with
  ``min(N, M)``: the dependency Sabbaghi et al.'s complexity view counts);
* :func:`lookup_offsets` and :func:`check_fixed_offsets`: the (row, column, level) offsets from the token that
  writes a row digit to each token it needs, measured on the encoded examples: the same few offsets at every size.
"""
from __future__ import annotations

from ...core.nxm import encode_nxm, row_ids
from ...core.problems import Problem
from ..common.claims import claim
from ..common.paper_claims import ClaimRow


def supervised_tokens(n_digits: int, m_digits: int) -> int:
    """Tokens the model writes for an ``n_digits x m_digits`` product (rows 0..M, separators, the closing ``$``)."""
    example = encode_nxm(Problem(10 ** (n_digits - 1), 10 ** (m_digits - 1), "*"))
    return len(example.supervised)


def error_budget(n_digits: int, m_digits: int, exact_match: float = 0.95) -> float:
    """The per-token error rate at which independent errors leave ``exact_match`` of the products whole."""
    return 1 - exact_match ** (1 / supervised_tokens(n_digits, m_digits))


def products_per_digit(n_digits: int, m_digits: int) -> list[int]:
    """Without a scratchpad: the number of digit products ``a_i b_j`` (``i + j = s``) that answer digit ``s`` sums."""
    return [sum(1 for i in range(n_digits) if 0 <= s - i < m_digits) for s in range(n_digits + m_digits - 1)]


def lookup_offsets(n_digits: int, m_digits: int) -> dict[str, set[tuple[int, int, int]]]:
    """For every token that writes a digit of rows 1..M, the offset (row, column, level) from its IDs to the IDs of
    each token the digit needs: the row above (same column and one to the right of the digit written), the
    multiplicand's digits (same column and the next), the row's multiplier digit. Returns the set of offsets seen per
    lookup, over the whole product ``(10**N - 1) x (10**M - 1)``; a row-offset to the multiplicand is ``-k`` and to
    the multiplier digit the column offset is ``-t``, so those two are reported clipped at 3, as the model's
    relative bias sees them."""
    example = encode_nxm(Problem(10 ** n_digits - 1, 10 ** m_digits - 1, "*"))
    ids = row_ids(example)
    where = {(role, ident) for role, ident in zip(example.roles, ids)}
    seen: dict[str, set[tuple[int, int, int]]] = {"row above, next column": set(), "row above, two columns on": set(),
                                                   "multiplicand, same column": set(), "multiplicand, next column": set(),
                                                   "the row's multiplier digit": set()}
    clip = lambda d: max(-3, min(3, d))  # noqa: E731
    for i in example.supervised[:-1]:
        row, col, level = ids[i]
        if level != 2 or row == 0 or example.roles[i + 1] != "answer":
            continue
        wanted = {"row above, next column": ("answer", (row - 1, col + 1, 2)),
                  "row above, two columns on": ("answer", (row - 1, col + 2, 2)),
                  "multiplicand, same column": ("a", (0, col, 0)), "multiplicand, next column": ("a", (0, col + 1, 0)),
                  "the row's multiplier digit": ("b", (row, 0, 1))}
        for name, (role, target) in wanted.items():
            if (role, target) in where:
                seen[name].add((clip(target[0] - row), clip(target[1] - col), target[2] - level))
    return seen


def check_fixed_offsets(sizes: list[tuple[int, int]]) -> list[ClaimRow]:
    """Every lookup sits at the same (clipped) offsets at every size: those seen at the largest size are those seen
    within the trained range."""
    offsets = {size: lookup_offsets(*size) for size in sizes}
    small, large = offsets[min(sizes)], offsets[max(sizes)]
    new = {name: sorted(large[name] - small[name]) for name in large if large[name] - small[name]}
    claim(not new, f"every lookup of a row digit at {max(sizes)} sits at an offset already used at {min(sizes)}",
          f"new offsets {new}", "A lookup at an offset never trained would have to be guessed.")
    return [ClaimRow("each row digit reads its inputs at fixed ID offsets", "(our format)",
                     f"{sum(len(v) for v in large.values())} offsets at {max(sizes)[0]}x{max(sizes)[1]}, all seen at "
                     f"{min(sizes)[0]}x{min(sizes)[1]}", "encoded examples, clipped at 3")]


__all__ = ["check_fixed_offsets", "error_budget", "lookup_offsets", "products_per_digit", "supervised_tokens"]

"""Solutions of notebook 02's coding exercises (try them first)."""
from __future__ import annotations


def digit_positions(k: int, l: int) -> list[int]:
    a = list(range(l - k, l))                    # a is left-padded: its k digits end just before `+` (ID l)
    b = list(range(2 * l - k + 1, 2 * l + 1))    # b's frame is IDs l+1 .. 2l, and its digits end at 2l
    return a + b


def unseen_positions(k: int, trained: int, l: int) -> list[int]:
    seen = set(digit_positions(trained, l))      # shorter training operands use a subset of these IDs
    return [i for i in digit_positions(k, l) if i not in seen]


def p_both_short(max_digits: int = 5, below: int = 100) -> float:
    # a and b uniform below 10**max_digits, independent: each is below `below` with probability below / 10**max_digits
    return (below / 10**max_digits) ** 2

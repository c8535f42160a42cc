"""Solutions of notebook 04's coding exercises (``reveal(solutions.which_vector)`` shows one collapsed)."""
from __future__ import annotations


def which_vector(i: int, j: int, ids: list[int], slots: list[int]) -> str:
    # eq. 3.3: a key that is the multiplier digit of slot r > 0 gives every *other* query the uniform vector c_r;
    # every other pair (a token looking at itself included) uses RPE's p_(j - i), key minus query
    if slots[j] > 0 and i != j:
        return f"c_{{{slots[j]}}}"
    return f"p_{{{ids[j] - ids[i]}}}"


def sabbaghi_frame(multiplier: int, multiplicand: int, l: int) -> tuple[list[str], list]:
    # eq. 3.2: the multiplier unpadded, '*', then the multiplicand right-aligned in a frame of l positions
    mult = list(str(multiplier))
    digits = list(str(multiplicand))
    tokens = mult + ["*"] + ["pad"] * (l - len(digits)) + digits
    # the answer is read at the last l + k positions, left-padded with 'pad', units digit last
    width = l + len(mult)
    answer = list(str(multiplier * multiplicand))
    targets = [None] * (len(tokens) - width) + ["pad"] * (width - len(answer)) + answer
    return tokens, targets

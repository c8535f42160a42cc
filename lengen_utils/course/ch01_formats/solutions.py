"""Solutions of notebook 01's coding exercises (try them first)."""
from __future__ import annotations


def cho_format(a: int, b: int) -> str:
    width = max(len(str(a)), len(str(b)))                # both operands zero-padded to the longer one
    answer = str(a + b).zfill(width + 1)[::-1]           # one digit more (the final carry), then reversed
    return f"${str(a).zfill(width)}+{str(b).zfill(width)}={answer}$"


def abacus_ids(text: str) -> list[int]:
    body = text.strip("$")
    a, rest = body.split("+")
    b, answer = rest.split("=")
    operand = lambda digits: [len(digits) - i for i in range(len(digits))]   # units digit (the last) gets 1
    # `$`, `+`, `=` get 0; the answer is written units first, so its IDs count up from 1
    return [0] + operand(a) + [0] + operand(b) + [0] + [i + 1 for i in range(len(answer))] + [0]

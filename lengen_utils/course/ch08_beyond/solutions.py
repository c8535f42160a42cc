"""Solutions of notebook 08's coding exercises (try them first)."""
from __future__ import annotations


def scratchpad(a: int, b: int) -> str:
    width = max(len(str(a)), len(str(b)))            # Cho's prompt: both operands zero-padded to one width
    steps, carry = [], 0
    for k in range(width + 1):                         # units first, and one more column for the final carry
        x, y = a // 10**k % 10, b // 10**k % 10        # the aligned pair (0 past an operand's last digit)
        total = x + y + carry
        steps.append(f"{x}{y}{carry}{total % 10}")     # the step (pair, carry IN), then the answer digit
        carry = total // 10                            # the carry into the next column
    return f"${str(a).zfill(width)}+{str(b).zfill(width)}=" + "".join(steps) + "$"


def subtask_target(a: int, b: int, target: str) -> str:
    if target not in ("align", "modsum", "carries"):
        raise ValueError(f"unknown target {target!r}; choose align, modsum or carries")
    width = max(len(str(a)), len(str(b))) + 1          # one column more than the longer operand has digits
    out, carry = [], 0
    for k in range(width):                             # units first
        x, y = a // 10**k % 10, b // 10**k % 10
        if target == "align":
            out.append(f"{x}{y}")                      # the aligned pair, the digit of a first
        elif target == "modsum":
            out.append(str((x + y) % 10))              # the digit-wise sum without the carry
        else:
            out.append(str(carry))                     # the carry INTO the column (0 for the units)
        carry = (x + y + carry) // 10
    return "".join(out)

"""Solutions of notebook 05's coding exercises (try them first)."""
from __future__ import annotations


def coupled_ids(tokens: str, start: int) -> list[int]:
    """Cho's coupled IDs of ``$a+b=answer$`` (operands zero-padded, answer reversed) from ``start``."""
    a, rest = tokens.strip("$").split("+")
    b, answer = rest.split("=")
    top = start + len(answer)                      # the answer has the most digits: W = L + 1
    operand = lambda digits: [top - len(digits) + i for i in range(len(digits))]   # units digit: top - 1
    answer_ids = [top - 1 - k for k in range(len(answer))]                        # reversed: units first
    return [0, *operand(a), top, *operand(b), top, *answer_ids, 0]


def sink_ids(tokens: str, start: int) -> list[int]:
    """The ``coupled_sink`` IDs: ``$`` at the start, everything else coupled from start + 1."""
    ids = coupled_ids(tokens, start + 1)
    return [start, *ids[1:-1], start]


def coupled_bias(ids, row):
    K = (len(row) - 1) // 2
    # one scalar per clipped ID difference (key minus query): digits of equal significance share an ID, so the
    # pairs the sum needs get the same scalar at every length
    return [[row[max(-K, min(K, j - i)) + K] for j in ids] for i in ids]


def scalable_weight(margin, n, s):
    import math

    # every logit times s log n: the right key is s * margin * log n above each of the n - 1 others
    return 1.0 / (1.0 + (n - 1) * math.exp(-s * margin * math.log(n)))

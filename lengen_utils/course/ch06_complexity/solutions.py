"""Solutions of notebook 06's coding exercises (try them first)."""
from __future__ import annotations

from fractions import Fraction


def cascade_length(a: int, b: int) -> int:
    width = max(len(str(a)), len(str(b)))
    a_digits, b_digits = str(a).zfill(width), str(b).zfill(width)     # pad the shorter operand with zeros
    best = run = 0
    for x, y in zip(reversed(a_digits), reversed(b_digits)):           # units first: the carry travels up
        s = int(x) + int(y)
        if s >= 10:
            run = 1                      # generate: a new cascade starts, and its trigger counts
        elif s == 9 and run > 0:
            run += 1                     # propagate: the carry from below runs through this column
        else:
            run = 0                      # kill, or a 9-sum with no carry below it
        best = max(best, run)
    return best


def cascade_distribution(l: int) -> list[Fraction]:
    # columns are independent: of the 100 digit pairs, 45 generate, 10 propagate (sum 9), 45 kill
    counts = {(0, 0): 1}                 # (current cascade, longest so far) -> number of digit-pair sequences
    for _ in range(l):                   # one column at a time, units first
        new: dict[tuple[int, int], int] = {}
        for (run, best), n in counts.items():
            for pairs, nxt in ((45, 1), (10, run + 1 if run > 0 else 0), (45, 0)):
                key = (nxt, max(best, nxt))
                new[key] = new.get(key, 0) + n * pairs
        counts = new
    dist = [Fraction(0)] * (l + 1)
    for (_, best), n in counts.items():
        dist[best] += Fraction(n, 100**l)
    return dist


def sums_for_cascades(wanted: int, digits: int, length: int) -> float:
    # on average `wanted` sums with a cascade of `length` need wanted / P(cascade = length) uniform sums
    return wanted / float(cascade_distribution(digits)[length])

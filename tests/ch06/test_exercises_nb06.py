"""Notebook 06's coding exercises, checked three ways: the solution passes, the stub is not attempted, and
planted mistakes fail with the message that names them."""
from __future__ import annotations

from fractions import Fraction

from lengen_utils.analysis import complexity as C
from lengen_utils.course.ch06_complexity import exercises as nb06, solutions
from lengen_utils.course.common.exercises import NOT_ATTEMPTED, PASSED, failure, stub


def cascade_variant(*, lone_nines=False, restart=True, units_first=True, pad=True):
    """The solution with one convention changed: each keyword plants one classic mistake."""
    def fn(a, b):
        da, db = str(a), str(b)
        if pad:
            width = max(len(da), len(db))
            da, db = da.zfill(width), db.zfill(width)
        pairs = zip(reversed(da), reversed(db)) if units_first else zip(da.zfill(len(db)), db.zfill(len(da)))
        best = run = 0
        for x, y in pairs:
            s = int(x) + int(y)
            if s >= 10:
                run = run + 1 if (run and not restart) else 1
            elif s == 9 and (run > 0 or lone_nines):
                run += 1
            else:
                run = 0
            best = max(best, run)
        return best
    return fn


def test_the_edge_sums_show_the_convention():
    assert [C.cascade_length(a, b) for a, b in nb06.EDGE_SUMS[3:9]] == [3, 1, 0, 4, 2, 5]


def test_cascade_length():
    check = nb06.check_cascade_length
    assert check(solutions.cascade_length, quiet=True).status == PASSED
    assert check(cascade_variant(), quiet=True).status == PASSED
    assert check(stub, quiet=True).status == NOT_ATTEMPTED
    only_nines = lambda a, b: max(solutions.cascade_length(a, b) - 1, 0)       # the 9-sums after the trigger
    assert "Off by one: count the generating column" in failure(check, only_nines)
    assert "A run of 9-sums with no carry below it carries nothing" in failure(check, cascade_variant(lone_nines=True))
    assert "counts consecutive carries (C1) instead" in failure(check, lambda a, b: C.longest_carry_run(a, b))
    assert "A generating column starts a new cascade of 1" in failure(check, cascade_variant(restart=False))
    assert "Pad the shorter operand with zeros" in failure(check, cascade_variant(pad=False))
    assert "walk the columns least significant first" in failure(check, cascade_variant(units_first=False))
    assert "Return an int" in failure(check, lambda a, b: str(solutions.cascade_length(a, b)))
    assert failure(check, lambda a, b: 7) == "0 + 0 (digit sums, units first: [0]) has cascade length 0; you gave 7"


def distribution_variant(weights=(45, 10, 45), *, lone_nines=False, restart=True, longest=True):
    """A DP with one planted mistake; ``weights`` are the generate / propagate / kill pair counts."""
    def fn(l):
        counts = {(0, 0): 1}
        for _ in range(l):
            new = {}
            for (run, best), n in counts.items():
                g = run + 1 if (run and not restart) else 1
                p = run + 1 if (run or lone_nines) else 0
                for pairs, nxt in zip(weights, (g, p, 0)):
                    key = (nxt, max(best, nxt))
                    new[key] = new.get(key, 0) + n * pairs
            counts = new
        dist = [Fraction(0)] * (l + 1)
        for (run, best), n in counts.items():
            dist[best if longest else run] += Fraction(n, 100**l)
        return dist
    return fn


def test_cascade_distribution():
    check = nb06.check_cascade_distribution
    assert check(solutions.cascade_distribution, quiet=True).status == PASSED
    assert check(lambda l: [float(x) for x in solutions.cascade_distribution(l)], quiet=True).status == PASSED
    assert check(lambda l: C.cascade_length_distribution(l), quiet=True).status == PASSED
    assert check(stub, quiet=True).status == NOT_ATTEMPTED
    def only_nines(l):                                   # P(k + 1) reported as P(k): the trigger not counted
        d = solutions.cascade_distribution(l)
        return [d[0] + d[1]] + d[2:] + [Fraction(0)]
    assert "Off by one: you count only the 9-sums" in failure(check, only_nines)
    assert "A 9-sum with no carry below it carries nothing" in failure(check, distribution_variant(lone_nines=True))
    assert "starts a new cascade of 1" in failure(check, distribution_variant(restart=False))
    assert "should sum to 1, yours sum to 0.9" in failure(check, distribution_variant((45, 0, 45)))
    assert "P(0) = 55/100" in failure(check, distribution_variant((50, 10, 40)))
    assert "the LONGEST cascade" in failure(check, distribution_variant(longest=False))
    assert "Return l + 1 = 2 probabilities" in failure(check, lambda l: solutions.cascade_distribution(l)[1:])

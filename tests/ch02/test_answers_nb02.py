"""The expected answers of notebook 02's check() exercises come from its solutions module: checked here."""
import math
import random

from lengen_utils.course.ch02_ape import solutions


def test_p_both_short_is_the_chance_that_both_uniform_operands_are_short():
    assert math.isclose(solutions.p_both_short(2, 10), 0.01)
    rng = random.Random(0)                               # and by sampling: 2-digit operands below 30
    hits = sum(rng.randrange(100) < 30 and rng.randrange(100) < 30 for _ in range(20000))
    assert abs(hits / 20000 - solutions.p_both_short(2, 30)) < 0.01

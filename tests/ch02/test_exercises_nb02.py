"""Notebook 02's coding exercises, checked three ways: the solution passes, the stub is not attempted, and
planted mistakes fail with the message that names them."""
from __future__ import annotations

from lengen_utils.course.ch02_ape import exercises as nb02, solutions
from lengen_utils.course.common.exercises import NOT_ATTEMPTED, PASSED, failure, stub


def test_the_library_reference_matches_the_frame():
    assert nb02.library_digit_positions(3, 6) == [3, 4, 5, 10, 11, 12]   # `+` at 6, b's frame 7..12
    assert nb02.library_unseen_positions(6, 5, 20) == [14, 35]
    assert nb02.library_unseen_positions(4, 5, 20) == []


def test_digit_positions():
    check = nb02.check_digit_positions
    assert check(solutions.digit_positions, quiet=True).status == PASSED
    assert check(stub, quiet=True).status == NOT_ATTEMPTED
    a_late = lambda k, l: list(range(l - k + 1, l + 1)) + list(range(2 * l - k + 1, 2 * l + 1))
    assert "ID l = 6 is the `+`" in failure(check, a_late)
    a_early = lambda k, l: list(range(l - k - 1, l - 1)) + list(range(2 * l - k + 1, 2 * l + 1))
    assert "The start of a's digits is off by one" in failure(check, a_early)
    b_late = lambda k, l: list(range(l - k, l)) + list(range(2 * l - k + 2, 2 * l + 2))
    assert "The start of b's digits is off by one" in failure(check, b_late)
    b_right_padded = lambda k, l: list(range(l - k, l)) + list(range(l + 1, l + 1 + k))
    assert "b is left-padded too" in failure(check, b_right_padded)
    assert "Two 1-digit operands have 2 digits" in failure(check, lambda k, l: list(range(l - k, l)))
    assert "as a list of ints" in failure(check, lambda k, l: "17 18")


def test_unseen_positions():
    check = nb02.check_unseen_positions
    assert check(solutions.unseen_positions, quiet=True).status == PASSED
    assert check(stub, quiet=True).status == NOT_ATTEMPTED
    seen_too_short = lambda k, t, l: [i for i in solutions.digit_positions(k, l)
                                      if i not in solutions.digit_positions(t - 1, l)]
    assert "these IDs were seen" in failure(check, seen_too_short)
    seen_too_long = lambda k, t, l: [i for i in solutions.digit_positions(k, l)
                                     if i not in solutions.digit_positions(t + 1, l)]
    assert "The boundary is off by one" in failure(check, seen_too_long)
    only_a = lambda k, t, l: [i for i in solutions.unseen_positions(k, t, l) if i < l]
    assert "b's frame counts too" in failure(check, only_a)
    assert "these IDs were seen in training" in failure(check, lambda k, t, l: solutions.digit_positions(k, l))
    test_only_long = lambda k, t, l: solutions.digit_positions(k, l)[:1] if k <= t else solutions.unseen_positions(k, t, l)
    assert "the answer is empty" in failure(check, test_only_long)

"""Notebook 05's exercises: the solutions pass, untouched stubs are not attempted, and planted mistakes fail
with the message that names them."""
from lengen_utils.course.ch05_coupling import exercises as nb05, solutions
from lengen_utils.course.common.exercises import NOT_ATTEMPTED, PASSED, failure


def stub(tokens, start):
    raise NotImplementedError


def test_solutions_pass():
    assert nb05.check_coupled_ids(solutions.coupled_ids, quiet=True).status == PASSED
    assert nb05.check_sink_ids(solutions.sink_ids, quiet=True).status == PASSED


def test_stubs_are_not_attempted():
    assert nb05.check_coupled_ids(stub, quiet=True).status == NOT_ATTEMPTED
    assert nb05.check_sink_ids(stub, quiet=True).status == NOT_ATTEMPTED


def test_coupled_mistakes_are_named():
    off_by_one = lambda t, s: [i + 1 if c.isdigit() else i for i, c in zip(solutions.coupled_ids(t, s), t)]
    assert "off by one" in failure(nb05.check_coupled_ids, off_by_one)

    def reversed_group(t, s):
        ids = solutions.coupled_ids(t, s)
        digits = [i for i, c in zip(ids, t) if c.isdigit()]
        top, low = max(digits), min(digits)
        return [top + low - i if c.isdigit() else i for i, c in zip(ids, t)]
    assert "wrong way round" in failure(nb05.check_coupled_ids, reversed_group)
    dollar_at_start = lambda t, s: [s, *solutions.coupled_ids(t, s)[1:-1], s]
    assert "`$` gets 0" in failure(nb05.check_coupled_ids, dollar_at_start)
    operators_low = lambda t, s: [s - 1 if c in "+=" else i for i, c in zip(solutions.coupled_ids(t, s), t)]
    assert "one past the top digit ID" in failure(nb05.check_coupled_ids, operators_low)
    assert "one int per token" in failure(nb05.check_coupled_ids, lambda t, s: "0 1 2")


def test_sink_mistakes_are_named():
    not_shifted = lambda t, s: [s, *solutions.coupled_ids(t, s)[1:-1], s]
    assert "counted from start + 1" in failure(nb05.check_sink_ids, not_shifted)
    sink_at_zero = lambda t, s: [0, *solutions.coupled_ids(t, s + 1)[1:-1], 0]
    assert "the sink moves with the start" in failure(nb05.check_sink_ids, sink_at_zero)

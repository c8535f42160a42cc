"""Notebook 01's coding exercises, checked three ways: the solution passes, the stub is not attempted, and
planted mistakes fail with the message that names them."""
from __future__ import annotations

from lengen_utils.course.ch01_formats import exercises as nb01, solutions
from lengen_utils.course.common.exercises import NOT_ATTEMPTED, PASSED, failure, stub


def test_the_library_reference():
    assert nb01.library_cho(653, 49) == "$653+049=2070$" and nb01.library_cho(9, 1) == "$9+1=01$"
    assert nb01.library_abacus(653, 49) == [0, 3, 2, 1, 0, 3, 2, 1, 0, 1, 2, 3, 4, 0]


def pad(a, b):
    w = max(len(str(a)), len(str(b)))
    return str(a).zfill(w), str(b).zfill(w), str(a + b).zfill(w + 1)


def test_cho_format():
    check = nb01.check_cho_format
    assert check(solutions.cho_format, quiet=True).status == PASSED
    assert check(stub, quiet=True).status == NOT_ATTEMPTED
    not_reversed = lambda a, b: "${}+{}={}$".format(*pad(a, b))
    assert "The answer is written reversed" in failure(check, not_reversed)
    no_operand_pad = lambda a, b: f"${a}+{b}={pad(a, b)[2][::-1]}$"
    assert "Zero-pad both operands" in failure(check, no_operand_pad)
    no_carry_digit = lambda a, b: f"${pad(a, b)[0]}+{pad(a, b)[1]}={str(a + b)[::-1]}$"
    assert "one digit more" in failure(check, no_carry_digit)
    all_reversed = lambda a, b: "${}+{}={}$".format(*(s[::-1] for s in pad(a, b)))
    assert "Only the answer is reversed" in failure(check, all_reversed)
    assert "opens and closes with `$`" in failure(check, lambda a, b: solutions.cho_format(a, b).strip("$"))
    assert "as a string" in failure(check, lambda a, b: list(solutions.cho_format(a, b)))


def test_abacus_ids():
    check = nb01.check_abacus_ids
    assert check(solutions.abacus_ids, quiet=True).status == PASSED
    assert check(stub, quiet=True).status == NOT_ATTEMPTED
    from_zero = lambda t: [max(i - 1, 0) if c.isdigit() else 0 for i, c in zip(solutions.abacus_ids(t), t)]
    assert "The units digit gets 1, not 0" in failure(check, from_zero)

    def answer_not_reversed(t):
        ids, eq = solutions.abacus_ids(t), t.index("=")
        return ids[:eq + 1] + ids[eq + 1:-1][::-1] + [0]
    assert "The answer is written reversed, units digit first" in failure(check, answer_not_reversed)

    def operands_from_the_left(t):
        ids, plus, eq = solutions.abacus_ids(t), t.index("+"), t.index("=")
        return [0] + list(range(1, plus)) + [0] + list(range(1, eq - plus)) + ids[eq:]
    assert "indexed from its least significant digit" in failure(check, operands_from_the_left)
    assert "gets 0" in failure(check, lambda t: [i or 5 for i in solutions.abacus_ids(t)])
    assert "One ID per character" in failure(check, lambda t: solutions.abacus_ids(t)[1:-1])

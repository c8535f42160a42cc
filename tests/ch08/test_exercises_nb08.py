"""Notebook 08's coding exercises, checked three ways: the solutions pass, the stubs are not attempted, and
planted mistakes fail with the message that names them (one message, no traceback)."""
from __future__ import annotations

import pytest

from lengen_utils.course.ch08_beyond import exercises as nb08, solutions
from lengen_utils.course.common.exercises import NOT_ATTEMPTED, PASSED, failure, stub
from lengen_utils.core.formats import encode, render_columns
from lengen_utils.core.problems import Problem


def scratchpad_variant(*, units_first=True, carry_in=True, step_first=True, a_first=True, add_carry=True,
                       final_column=True, pad=True, pad_prompt=True, dollars=True, spaces=False):
    """The scratchpad solution with one convention changed: each keyword plants one classic mistake."""
    def fn(a, b):
        width = max(len(str(a)), len(str(b)))
        pairs = list(zip(reversed(str(a).zfill(width) if pad else str(a)), reversed(str(b).zfill(width) if pad else
                                                                                    str(b))))  # zip: the shorter
        steps, carry = [], 0
        for x, y in [(int(x), int(y)) for x, y in pairs] + ([(0, 0)] if final_column else []):
            total = x + y + carry
            c = carry if carry_in else total // 10
            digit = total % 10 if add_carry else (x + y) % 10
            pair = f"{x}{y}" if a_first else f"{y}{x}"
            steps.append(f"{pair}{c}{digit}" if step_first else f"{digit}{pair}{c}")
            carry = total // 10
        if not units_first:
            steps.reverse()
        prompt = f"{str(a).zfill(width)}+{str(b).zfill(width)}=" if pad_prompt else f"{a}+{b}="
        text = prompt + (" " if spaces else "").join(steps)
        return f"${text}$" if dollars else text
    return fn


def test_the_library_strings():
    assert nb08.scratchpad_text(653, 49) == "$653+049=3902541060170000$"
    assert [nb08.subtask_text(653, 49, t) for t in nb08.SUBTASKS] == ["39546000", "2960", "0110"]
    for t in nb08.SUBTASKS:                          # the sub-task text is the answer part of the encoded example
        assert encode(Problem(70, 8), f"cho_{t}").text() == f"$70+08={nb08.subtask_text(70, 8, t)}$"


def test_scratchpad():
    check = nb08.check_scratchpad
    assert check(solutions.scratchpad, quiet=True).status == PASSED
    assert check(scratchpad_variant(), quiet=True).status == PASSED
    assert check(stub, quiet=True).status == NOT_ATTEMPTED
    assert "least significant first" in failure(check, scratchpad_variant(units_first=False))
    assert "the carry IN" in failure(check, scratchpad_variant(carry_in=False))
    assert "BEFORE its answer digit" in failure(check, scratchpad_variant(step_first=False))
    assert "(a_k, b_k), the digit of a first" in failure(check, scratchpad_variant(a_first=False))
    assert "The answer digit adds the carry in" in failure(check, scratchpad_variant(add_carry=False))
    assert "One column more than the longer operand" in failure(check, scratchpad_variant(final_column=False))
    assert "Pad the shorter operand with zeros" in failure(check, scratchpad_variant(pad=False))
    assert "Zero-pad the operands to the same width in the prompt" in failure(
        check, scratchpad_variant(pad_prompt=False))
    assert "End with $" in failure(check, lambda a, b: solutions.scratchpad(a, b)[:-1])
    assert "The prompt is '$0+0='" in failure(check, scratchpad_variant(dollars=False))
    assert "without spaces" in failure(check, scratchpad_variant(spaces=True))
    assert "Return a str" in failure(check, lambda a, b: list(solutions.scratchpad(a, b)))
    # two mistakes at once: no single name fits, so the message shows the right string by column
    both = failure(check, scratchpad_variant(units_first=False, carry_in=False))
    assert "Each column is a_k b_k c_k s_k" in both        # 5 + 5 is the first sum where they differ from the truth
    assert repr(render_columns(encode(Problem(5, 5), "cho_scratchpad"))) in both and "you gave '$5+5=" in both


def subtask_variant(*, units_first=True, carry_in=True, add_carry=False, a_first=True, final_column=True, pad=True,
                    mirror=False, prompt=False, only=None):
    """The sub-task solution with one planted mistake; ``only`` answers that target and no other."""
    def fn(a, b, target):
        if only is not None and target != only:
            raise NotImplementedError
        width = max(len(str(a)), len(str(b)))
        da, db = (str(a).zfill(width), str(b).zfill(width)) if pad else (str(a), str(b))
        out, carry = [], 0
        for x, y in [(int(x), int(y)) for x, y in zip(da[::-1], db[::-1])] + ([(0, 0)] if final_column else []):
            total = x + y + carry
            if target == "align":
                out.append(f"{x}{y}" if a_first else f"{y}{x}")
            elif target == "modsum":
                out.append(str(total % 10 if add_carry else (x + y) % 10))
            else:
                out.append(str(carry if carry_in else total // 10))
            carry = total // 10
        text = "".join(out[::-1] if not units_first else out)
        text = text[::-1] if mirror else text
        return solutions.scratchpad(a, b).split("=")[0] + f"={text}$" if prompt else text
    return fn


def test_subtask_target():
    check = nb08.check_subtask_target
    assert check(solutions.subtask_target, quiet=True).status == PASSED
    assert check(subtask_variant(), quiet=True).status == PASSED
    assert check(stub, quiet=True).status == NOT_ATTEMPTED
    assert check(subtask_variant(only="modsum"), quiet=True).status == NOT_ATTEMPTED     # align comes first
    assert "answers 'align' but not 'modsum' yet" in failure(check, subtask_variant(only="align"))
    msb = failure(check, subtask_variant(units_first=False))
    assert "least significant first" in msb and "target 'align'" in msb
    assert "reversed the whole string" in failure(check, subtask_variant(mirror=True))
    assert "(a_k, b_k), the digit of a first" in failure(check, subtask_variant(a_first=False))
    carry_out = failure(check, subtask_variant(carry_in=False))
    assert "carry INTO each column" in carry_out and "target 'carries'" in carry_out
    assert "leaves the carries out" in failure(check, subtask_variant(add_carry=True))
    assert "One column more than the longer operand" in failure(check, subtask_variant(final_column=False))
    assert "Pad the shorter operand with zeros" in failure(check, subtask_variant(pad=False))
    assert "Return only the answer" in failure(check, subtask_variant(prompt=True))
    assert "Return a str" in failure(check, lambda a, b, t: int(solutions.subtask_target(a, b, t)))
    assert "without spaces" in failure(check, lambda a, b, t: " ".join(solutions.subtask_target(a, b, t)))
    assert "Write 1 digit per column" in failure(check, lambda a, b, t: solutions.subtask_target(a, b, t) + (
        "0" if t == "modsum" else ""))


@pytest.mark.parametrize("check, fn", [
    (nb08.check_scratchpad, scratchpad_variant(units_first=False)),
    (nb08.check_scratchpad, lambda a, b: 1 / 0),
    (nb08.check_subtask_target, subtask_variant(carry_in=False)),
    (nb08.check_subtask_target, lambda a, b, t: {}[t]),
])
def test_a_failure_prints_one_message_and_no_traceback(check, fn, capsys):
    result = check(fn)
    out = capsys.readouterr()
    assert out.out.strip() == str(result) and "Not yet right" in out.out
    assert "Traceback" not in out.out + out.err and out.err == ""

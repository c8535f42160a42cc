"""The exercise machinery (lengen_utils.course.common.exercises): a checker reports an untouched stub as not attempted,
passes a right answer, and names the mistake of a wrong one, without raising. The notebooks' own checkers
are tested in tests/chXX/test_exercises_nbXX.py, each three ways: solution, stub, planted mistakes; and all of them
on answers of the wrong type in tests/test_exercises_validation.py."""
import re

import pytest

from lengen_utils.course.common.exercises import FAILED, NOT_ATTEMPTED, PASSED, attempt, exercise, expect, reveal


@exercise("Reverse the digits")
def check_reverse(fn) -> int:
    cases = ["0", "7", "120", "007", "98765"]
    for s in cases:
        got = attempt(fn, s)
        expect(len(got) == len(s), f"keep the zeros: {s!r} reversed is {s[::-1]!r}, you gave {got!r}")
        expect(got == s[::-1], f"{s!r} reversed is {s[::-1]!r}, you gave {got!r}")
    return len(cases)


def stub(s):
    raise NotImplementedError


def test_outcomes(capsys):
    assert check_reverse(stub).status == NOT_ATTEMPTED
    assert "Not attempted yet" in capsys.readouterr().out
    assert check_reverse(lambda s: s[::-1]).status == PASSED
    wrong = check_reverse(lambda s: s[::-1].lstrip("0") or "0", quiet=True)
    assert wrong.status == FAILED and "keep the zeros" in wrong.message
    crash = check_reverse(lambda s: int(s) / 0, quiet=True)
    assert crash.status == FAILED and "ZeroDivisionError" in crash.message and "'0'" in crash.message


def test_a_non_function_is_refused():
    with pytest.raises(TypeError, match="pass your function itself"):
        check_reverse("123")


def test_reveal_prints_the_source_collapsed(capsys):
    reveal(stub)
    out = capsys.readouterr().out
    assert "NotImplementedError" in out or "HTML" in out


def test_reveal_refuses_a_name_with_one_message():
    with pytest.raises(TypeError, match=re.escape("reveal takes the function itself, not its name: "
                                                  "reveal(solutions.coupled_ids), not "
                                                  "reveal('solutions.coupled_ids')")) as info:
        reveal("solutions.coupled_ids")
    assert info.value.__context__ is None
    with pytest.raises(TypeError, match=r"reveal takes a solution function, e.g. reveal\(solutions.coupled_ids\); "
                                        r"you gave an int: 3$") as info:
        reveal(3)
    assert info.value.__suppress_context__, "one message: not inspect's own as well"


def test_solutions_sit_beside_each_notebooks_exercises():
    from lengen_utils.course.ch05_coupling import solutions
    assert callable(solutions.coupled_ids)


def test_every_notebook_01_to_08_has_two_coding_exercises():
    """Each of notebooks 01-08 has at least two checked coding exercises (a check_* call on a stub)."""
    import json
    import re
    from pathlib import Path
    for path in sorted((Path(__file__).resolve().parent.parent / "notebooks").glob("0[1-8]_*.ipynb")):
        code = "".join("".join(c["source"]) for c in json.loads(path.read_text())["cells"] if c["cell_type"] == "code")
        checks = set(re.findall(r"\.(check_\w+)\((\w+)\)", code))
        stubs = {name for _, name in checks if re.search(rf"def {name}\(.*?raise NotImplementedError", code, re.S)}
        assert len(stubs) >= 2, f"{path.name}: coding exercises with a stub and a checker: {sorted(stubs)}"

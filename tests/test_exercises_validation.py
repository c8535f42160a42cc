"""Every exercise checker validates the learner's answer before judging it: an answer of the wrong type or shape
fails with one teaching message ("Return <what was expected>; you gave <what came back>"), never a TypeError from
inside the checker. The checkers are discovered from the chapters' modules (``ch01_formats.exercises`` ...), so a new
one is tested as soon as it exists, and must get a case of its own in ``WRONG_ANSWERS``."""
from __future__ import annotations

import importlib
import importlib.util
import pkgutil
import re
from fractions import Fraction
from typing import Callable

import numpy as np
import pytest

from lengen_utils.analysis.complexity import cascade_length_distribution
import lengen_utils.course as course
from lengen_utils.course.common.exercises import (FAILED, ExerciseFailed, expect_answer, failure, is_array, is_int,
                                                  is_number)


def discover_checkers() -> dict[str, Callable]:
    """``{"nb05.check_coupled_ids": checker}`` for every ``check_*`` defined in a chapter's exercise module
    (``course/ch05_coupling/exercises.py`` is notebook 05's)."""
    found = {}
    for info in pkgutil.iter_modules(course.__path__):
        chapter = re.fullmatch(r"ch(\d\d)_\w+", info.name)
        if chapter and importlib.util.find_spec(f"{course.__name__}.{info.name}.exercises"):
            module = importlib.import_module(f"{course.__name__}.{info.name}.exercises")
            found.update({f"nb{chapter.group(1)}.{name}": obj for name, obj in vars(module).items()
                          if name.startswith("check_") and getattr(obj, "__module__", None) == module.__name__})
    return found


CHECKERS = discover_checkers()


def test_the_checkers_are_all_found():
    modules = {name.split(".")[0] for name in CHECKERS}
    assert modules == {f"nb{i:02d}" for i in range(1, 10)} and len(CHECKERS) >= 16
    assert all(hasattr(check, "title") for check in CHECKERS.values()), "every check_* is an @exercise"


def constant(value):
    """A learner's function that returns ``value`` whatever it is given."""
    return lambda *args, **kwargs: value


@pytest.mark.parametrize("name", sorted(CHECKERS))
@pytest.mark.parametrize("wrong, shown", [(None, "you gave None"), ({"answer": 1}, "you gave a dict: {'answer': 1}"),
                                          (1j, "you gave a complex: 1j")])
def test_every_checker_answers_a_wrong_type_with_one_message(name, wrong, shown, capsys):
    result = CHECKERS[name](constant(wrong))
    out = capsys.readouterr()
    assert result.status == FAILED and result.message.startswith("Return ") and shown in result.message
    assert out.out.strip() == str(result) and out.err == "" and "Traceback" not in out.out


def shifted(l: int) -> list:
    """The distribution of the cascade length minus one: a right-typed mistake that the checker looks into further."""
    p = cascade_length_distribution(l, exact=True)
    return [p[0] + p[1]] + list(p[2:]) + [0]


def on(case, wrong, right):
    """Answer ``wrong`` on the input ``case`` (the args tuple) and ``right(*args)`` on every other one."""
    return lambda *args: wrong if args == case else right(*args)


#: for each checker, learner functions that return a wrong type or shape (the ones that crashed a checker before
#: first), each with words its message must hold; a type that is wrong on one input only is found in the
#: checkers' second looks (their diagnoses) too
WRONG_ANSWERS: dict[str, list[tuple[Callable, str]]] = {
    "nb01.check_cho_format": [(lambda a, b: list(f"${a}+{b}="), "as a string, e.g. '$653+049=2070$'; you gave a list"),
                              (constant(np.zeros((2, 2))), "you gave a numpy array of shape (2, 2)")],
    "nb01.check_abacus_ids": [(lambda text: " ".join("0" * len(text)), "Return a list of ints, one per character; you "
                                                                        "gave a str"),
                              (lambda text: [[0] * len(text)], "you gave a list: [[0, 0,")],
    "nb02.check_digit_positions": [(lambda k, l: [str(i) for i in range(l - k, l)], "as a list of ints, e.g. [17, 18, "
                                                                                     "19]; you gave a list: ['5']")],
    "nb02.check_unseen_positions": [(constant(17), "as a list of ints, e.g. [17, 18, 19]; you gave an int: 17 (for "
                                                   "k=6, trained=5, l=20)")],
    "nb03.check_clipped_distances": [(lambda q, k, K: [0] * len(k), "Return a matrix of numbers"),
                                     (lambda q, k, K: [[str(i) for i in k] for _ in q], "you gave a list: [['0'"),
                                     (lambda q, k, K: [[0] * len(k)] * len(q) + [[0]], "you gave a list: [[0, 0], "
                                                                                       "[0]]")],
    "nb03.check_generalizable_length": [(constant([10]), "Return a length, an int; you gave a list: [10]"),
                                        (constant(10.0), "you gave a float: 10.0")],
    "nb04.check_which_vector": [(constant(np.zeros((2, 2))), "Return a label such as 'p_{-3}' or 'c_{1}'; you gave a "
                                                             "numpy array of shape (2, 2)"),
                                (lambda i, j, ids, slots: (i, j), "you gave a tuple: (0, 0) (for query 0 and key 0"),
                                (lambda i, j, ids, slots: f"p_{ids[j] - ids[i]}", "you gave a str: 'p_0'")],
    "nb04.check_frame": [(constant((1, 2)), "Return a pair (tokens, targets)"),
                         (lambda b, a, l: (list(str(b)), None), "you gave a tuple: (['7'], None)"),
                         (lambda b, a, l: [list(str(b)), []], "you gave a list: [['7'], []]"),
                         (lambda b, a, l: ([int(d) for d in str(b)], []), "a list of str")],
    "nb05.check_coupled_ids": [(lambda tokens, start: [str(i) for i in range(len(tokens))], "Return one int per "
                                                                                            "token, as a list")],
    "nb03.check_shaw_scores": [(lambda q, k, t, qi, ki: "scores", "Return a matrix of numbers, one row per query; "
                                                                  "you gave a str")],
    "nb05.check_coupled_bias": [(lambda ids, row: [1.0] * len(ids), "Return a matrix of numbers, one row per query; "
                                                                    "you gave a list")],
    "nb05.check_scalable_weight": [(lambda m, n, s: [m], "Return a number, the weight; you gave a list")],
    "nb05.check_sink_ids": [(lambda tokens, start: dict.fromkeys(tokens, start), "you gave a dict: {'$': 1")],
    "nb06.check_cascade_length": [(constant(np.zeros((2, 2))), "Return an int, the length of the longest cascade; "
                                                               "you gave a numpy array of shape (2, 2)"),
                                  (constant(True), "you gave a bool: True"),
                                  (on((99999, 1), np.zeros(2), constant(7)), "you gave a numpy array of shape (2,): "
                                                                            "array([0., 0.]) (for 99999 + 1)")],
    "nb06.check_cascade_distribution": [(lambda l: [None] * (l + 1), "Return l + 1 = 2 probabilities"),
                                        (lambda l: ["0.5"] * (l + 1), "you gave a list: ['0.5', '0.5']"),
                                        (lambda l: [[0.5]] * (l + 1), "you gave a list: [[0.5], [0.5]]"),
                                        (on((3,), "0.5", shifted), "you gave a str: '0.5' (for l = 3)")],
    "nb07.check_position_loss": [(lambda A, v, t, a, b: np.zeros((len(A), len(A))), "Return one loss per position, "
                                  "an array of shape (5,); you gave a numpy array of shape (5, 5)"),
                                 (lambda A, v, t, a, b: ["0.1"] * len(A), "you gave a list: ['0.1',")],
    "nb07.check_nope_bound": [(constant((667, 2025)), "Return the exact match as a number, e.g. Fraction(667, 2025); "
                                                      "you gave a tuple: (667, 2025)"),
                              (constant("32.9%"), "you gave a str: '32.9%'")],
    "nb08.check_scratchpad": [(constant(np.zeros((2, 2))), "Return a str such as '$653+049=3902541060170000$'; you "
                                                           "gave a numpy array of shape (2, 2)"),
                              (on((999, 1), None, lambda a, b: f"${a}+{b}=$"), "you gave None (for 999 + 1)")],
    "nb08.check_subtask_target": [(constant(np.zeros((2, 2))), "Return a str of digits, units first"),
                                  (lambda a, b, t: [0, 1], "you gave a list: [0, 1] (for 0 + 0, target 'align')"),
                                  (on((999, 1, "align"), 42, constant("0")), "you gave an int: 42 (for 999 + 1, "
                                                                             "target 'align')")],
    "nb09.check_fused_rows": [(constant("0 48 40"), "Return a list of ints, the rows U_0 ... U_M; you gave a str"),
                              (constant([0, 48.0, 40]), "you gave a list: [0, 48.0, 40] (for 12 x 34)")],
}


def test_every_checker_has_its_own_wrong_answers():
    assert set(WRONG_ANSWERS) == set(CHECKERS), "add a wrong-typed answer for each new checker to WRONG_ANSWERS"


@pytest.mark.parametrize("name, fn, words", [(name, fn, words) for name, cases in WRONG_ANSWERS.items()
                                             for fn, words in cases])
def test_a_wrong_type_or_shape_is_named(name, fn, words):
    assert words in failure(CHECKERS[name], fn)


def test_expect_answer_names_what_was_expected_and_what_came_back():
    assert expect_answer(7, is_int, "an int") == 7
    with pytest.raises(ExerciseFailed, match=re.escape("Return an array; you gave a list: [1] (for n = 1).")):
        expect_answer([1], lambda x: x.shape == (1,), "an array", "for n = 1")      # the check's own error: invalid
    with pytest.raises(ExerciseFailed, match="you gave None. Does your function end with `return`"):
        expect_answer(None, is_number, "a number")
    with pytest.raises(ExerciseFailed, match=r"you gave a str: 'x{78}…\.$"):
        expect_answer("x" * 500, is_int, "an int")


def test_the_shared_type_checks():
    assert is_int(3) and is_int(np.int64(3)) and not is_int(True) and not is_int(3.0)
    assert is_number(Fraction(1, 3)) and is_number(np.float32(0.5)) and not is_number(np.bool_(True))
    assert not is_number("0.5") and not is_number(1j)
    assert is_array([[1, 2], [3, 4]], 2) and is_array(np.zeros((2, 3)), 2) and is_array([[Fraction(1, 2)]], 2)
    assert not is_array(np.zeros(3), 2) and not is_array([[1, 2], [3]], 2) and not is_array([["1"]], 2)
    assert not is_array([[True]], 2) and not is_array("12", 1) and not is_array({1: 2}, 1)


@pytest.mark.parametrize("name", sorted(CHECKERS))
@pytest.mark.parametrize("extreme", [10**5000, "7" * 10**6, [0] * 10**6], ids=["10**5000", "a million characters",
                                                                              "a million items"])
def test_every_checker_judges_an_extreme_answer_in_a_short_message(name, extreme, capsys):
    """An int with no ``str`` (more than 4,300 digits) must not crash the checker's own comparisons, and a huge
    answer must not be echoed whole: one failure, a bounded message, no traceback."""
    result = CHECKERS[name](constant(extreme))
    out = capsys.readouterr()
    assert result.status == FAILED and len(result.message) <= 1000, (result.status, len(result.message))
    assert out.out.strip() == str(result) and out.err == "" and "Traceback" not in out.out

"""Coding exercises: the learner completes a stub, and a checker compares it with the library's own
implementation on random and edge inputs, naming the mistake when there is one.

In a notebook an exercise is three cells::

    def coupled_ids(problem):                    # the stub: the learner writes the body
        raise NotImplementedError
    exercises05.check_coupled_ids(coupled_ids)   # "not attempted yet" while the stub is untouched
    reveal(solutions.coupled_ids)                # the solution, collapsed until the learner opens it

A checker is a function ``check_x(fn) -> int`` (the number of cases it tried) decorated with
:func:`exercise`; inside, it calls the learner's code through :func:`attempt` and states each expectation
with :func:`expect`, whose message names the mistake ("the start is off by one: ..."). Before it judges an answer,
a checker validates its type and shape with :func:`expect_answer` ("Return a str ...; you gave a list: [...]"), so
that no answer of the wrong type trips the checker's own comparisons into a TypeError. The decorator turns
the outcome into an :class:`ExerciseResult` and prints it; a wrong answer does not raise, so a learner sees one
message and no traceback, and an untouched stub passes under nbval.

Checkers live in each notebook's chapter folder (``course/ch01_formats/exercises.py`` ...), beside its solutions
(``course/ch01_formats/solutions.py``); this module is the machinery they share.
"""
from __future__ import annotations

import functools
import html
import inspect
import numbers
from dataclasses import dataclass
from typing import Callable, TypeVar

import numpy as np

T = TypeVar("T")

PASSED, NOT_ATTEMPTED, FAILED = "passed", "not attempted", "failed"


class ExerciseFailed(AssertionError):
    """A learner's answer that disagrees with the library; the message names the mistake."""


class _NotAttempted(Exception):
    """The stub still raises NotImplementedError."""


@dataclass(frozen=True)
class ExerciseResult:
    """What a checker found: ``status`` (passed / not attempted / failed) and the message shown."""
    title: str
    status: str
    message: str

    @property
    def passed(self) -> bool:
        return self.status == PASSED

    def _ipython_display_(self) -> None:
        """Show nothing more in a notebook: the checker has printed the message already."""

    def __str__(self) -> str:
        mark = {PASSED: "Correct", NOT_ATTEMPTED: "Not attempted yet", FAILED: "Not yet right"}[self.status]
        return f"{self.title}: {mark}. {self.message}"


def attempt(fn: Callable, *args, **kwargs):
    """Call the learner's function; an untouched stub (NotImplementedError) means "not attempted", and any
    other error becomes a failure that names the input."""
    try:
        return fn(*args, **kwargs)
    except NotImplementedError:
        raise _NotAttempted from None
    except ExerciseFailed:
        raise
    except Exception as error:      # the learner's code crashed: say on what, not where in our checker
        shown = ", ".join([_short(a) for a in args] + [f"{k}={_short(v)}" for k, v in kwargs.items()])
        raise ExerciseFailed(f"your function raised {type(error).__name__}: {bounded(_text(error), 200)} "
                             f"(called with {shown})") from None


#: The longest message a checker prints: a learner's huge answer (a million characters) is quoted in part
MESSAGE_LIMIT = 600


def bounded(text: str, limit: int = MESSAGE_LIMIT) -> str:
    """``text``, or its start and end with how much was cut when it is longer than ``limit`` characters."""
    if len(text) <= limit:
        return text
    keep = max(limit - 40, 20)
    return f"{text[:keep * 2 // 3]} … [{len(text) - keep:,} characters cut] … {text[-(keep // 3):]}"


def _text(value: object) -> str:
    """``str(value)``, or its type when even that fails (an int of more than 4,300 digits has no ``str``)."""
    try:
        return str(value)
    except Exception:
        return f"<a {type(value).__name__} that cannot be printed>"


def _short(value: object) -> str:
    try:
        return bounded(repr(value), 80)
    except Exception:                   # repr(10**5000) raises: say what it is
        return f"<a {type(value).__name__} that cannot be printed>"


def expect(holds: bool, message: str) -> None:
    """Fail the exercise with ``message`` (which names the mistake) unless ``holds``."""
    if not holds:
        raise ExerciseFailed(message)


#: how a message names the types whose class name reads badly
_TYPE_NAMES = {"ndarray": "numpy array", "Tensor": "torch tensor"}


def described(value: object) -> str:
    """How a message names a learner's value: its type, its shape when it has one, and a short repr
    (``"a list: [1, 2]"``, ``"a numpy array of shape (2, 2): array([[0., 0.], [0., 0.]])"``, ``"None"``)."""
    if value is None:
        return "None"
    name = _TYPE_NAMES.get(type(value).__name__, type(value).__name__)
    shape = getattr(value, "shape", None)
    kind = ("an " if name[:1].lower() in "aeiou" else "a ") + name
    if isinstance(shape, tuple) and shape:
        kind += f" of shape {tuple(shape)}"
    try:
        text = " ".join(repr(value).split())
    except Exception:                   # a learner's object whose repr fails: its type is enough
        return kind
    return f"{kind}: {text if len(text) <= 80 else text[:79] + '…'}"


def expect_answer(got: T, valid: Callable[[T], bool], expected: str, where: str = "") -> T:
    """Validate a learner's answer before judging it: fail with one message naming what was ``expected`` and what
    came back ("Return a str such as '$9+1=01$'; you gave a list: [...] (for 9 + 1)") unless ``valid(got)``;
    else return ``got``. ``valid`` may assume nothing of ``got``: an error inside it counts as invalid."""
    try:
        ok = bool(valid(got))
    except Exception:
        ok = False
    forgot = " Does your function end with `return` and its answer?" if got is None else ""
    expect(ok, f"Return {expected}; you gave {described(got)}" + (f" ({where})." if where else ".") + forgot)
    return got


def is_int(x: object) -> bool:
    """An int (a numpy integer too), not a bool."""
    return isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_))


def is_number(x: object) -> bool:
    """A real number (int, float, Fraction, a numpy scalar), not a bool."""
    return isinstance(x, numbers.Real) and not isinstance(x, (bool, np.bool_))


def is_int_list(x: object, types: tuple[type, ...] = (list, tuple)) -> bool:
    """A list (or another of ``types``) of ints."""
    return isinstance(x, types) and all(is_int(i) for i in x)


def is_array(x: object, ndim: int) -> bool:
    """Numbers (Fractions too) in ``ndim`` dimensions: (nested) lists, a numpy array or a tensor, with no str,
    bool or ragged rows."""
    if isinstance(x, (str, bytes, dict, set)):
        return False
    try:
        array = np.asarray(x)
    except Exception:                   # ragged rows, a tensor that needs grad, ...
        return False
    numeric = array.dtype.kind in "iuf" or (array.dtype == object and all(map(is_number, array.flat)))
    return array.ndim == ndim and numeric


def exercise(title: str) -> Callable[[Callable[[Callable], int]], Callable[[Callable], ExerciseResult]]:
    """Decorate a checker ``check(fn) -> cases tried`` so that it prints and returns an :class:`ExerciseResult`."""
    def wrap(check: Callable[[Callable], int]) -> Callable[[Callable], ExerciseResult]:
        @functools.wraps(check)
        def run(fn: Callable, quiet: bool = False) -> ExerciseResult:
            if not callable(fn):
                raise TypeError(f"{title}: pass your function itself (e.g. check(my_function)), not {fn!r}")
            try:
                cases = check(fn)
            except _NotAttempted:
                result = ExerciseResult(title, NOT_ATTEMPTED, "Replace `raise NotImplementedError` with your code "
                                                              "and run both cells again.")
            except ExerciseFailed as failure:
                result = ExerciseResult(title, FAILED, bounded(_text(failure)))
            except Exception as error:  # the checker's own work on an extreme answer (10**5000 has no str): judged
                result = ExerciseResult(title, FAILED, bounded(
                    f"Your answer could not be checked: comparing it raised {type(error).__name__}: "
                    f"{bounded(_text(error), 200)}. Return a value of the kind the exercise asks for, of a "
                    f"sensible size."))
            else:
                result = ExerciseResult(title, PASSED, f"It agrees with the library on {cases} cases, random and "
                                                       f"edge ones.")
            if not quiet:
                print(result)
            return result
        run.title = title
        return run
    return wrap


def reveal(solution: Callable) -> None:
    """Show a solution's source, collapsed until the learner clicks it (plain text outside a notebook). It takes the
    function itself, ``reveal(solutions.coupled_ids)``; a name or another value is refused with one message."""
    if isinstance(solution, str):
        raise TypeError(f"reveal takes the function itself, not its name: reveal({solution}), not "
                        f"reveal({solution!r})")
    try:
        source = inspect.getsource(solution)
    except TypeError:                   # inspect's own message ("module, class, method, ... expected") teaches nothing
        raise TypeError(f"reveal takes a solution function, e.g. reveal(solutions.coupled_ids); you gave "
                        f"{described(solution)}") from None
    try:
        from IPython.display import HTML, display
    except ImportError:                                   # pragma: no cover - IPython comes with Jupyter
        print(source)
        return
    display(HTML(f"<details><summary><b>Solution</b> (click to show)</summary>"
                 f"<pre>{html.escape(source)}</pre></details>"))


def stub(*args, **kwargs):
    """An untouched stub, for testing a checker: it raises NotImplementedError as the notebook's stubs do."""
    raise NotImplementedError


def failure(check: Callable, fn: Callable) -> str:
    """The message with which ``check`` fails ``fn``, for testing that a planted mistake is named; raises
    AssertionError when ``check`` does not fail it."""
    result = check(fn, quiet=True)
    if result.status != FAILED:
        raise AssertionError(f"{result.title}: expected a failure, got {result.status}: {result.message}")
    return result.message


__all__ = ["PASSED", "NOT_ATTEMPTED", "FAILED", "MESSAGE_LIMIT", "ExerciseFailed", "ExerciseResult", "attempt", "bounded",
           "described",
           "exercise", "expect", "expect_answer", "failure", "is_array", "is_int", "is_int_list", "is_number",
           "reveal", "stub"]

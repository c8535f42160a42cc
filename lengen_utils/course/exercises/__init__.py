"""Coding exercises: the learner completes a stub, and a checker compares it with the library's own
implementation on random and edge inputs, naming the mistake when there is one.

In a notebook an exercise is three cells::

    def coupled_ids(problem):                  # the stub: the learner writes the body
        raise NotImplementedError
    nb05.check_coupled_ids(coupled_ids)        # "not attempted yet" while the stub is untouched
    reveal(solutions.nb05.coupled_ids)         # the solution, collapsed until the learner opens it

A checker is a function ``check_x(fn) -> int`` (the number of cases it tried) decorated with
:func:`exercise`; inside, it calls the learner's code through :func:`attempt` and states each expectation
with :func:`expect`, whose message names the mistake ("the start is off by one: ..."). The decorator turns
the outcome into an :class:`ExerciseResult` and prints it; a wrong answer does not raise, so a learner sees one
message and no traceback, and an untouched stub passes under nbval.

Checkers live in one module per notebook (``exercises.nb01`` ...), solutions in ``exercises.solutions``.
"""
from __future__ import annotations

import functools
import html
import inspect
from dataclasses import dataclass
from typing import Callable

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
        shown = ", ".join([repr(a) for a in args] + [f"{k}={v!r}" for k, v in kwargs.items()])
        raise ExerciseFailed(f"your function raised {type(error).__name__}: {error} (called with {shown})") from None


def expect(holds: bool, message: str) -> None:
    """Fail the exercise with ``message`` (which names the mistake) unless ``holds``."""
    if not holds:
        raise ExerciseFailed(message)


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
                result = ExerciseResult(title, FAILED, str(failure))
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
    """Show a solution's source, collapsed until the learner clicks it (plain text outside a notebook)."""
    source = inspect.getsource(solution)
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


__all__ = ["PASSED", "NOT_ATTEMPTED", "FAILED", "ExerciseFailed", "ExerciseResult", "attempt", "expect",
           "exercise", "failure", "reveal", "stub"]

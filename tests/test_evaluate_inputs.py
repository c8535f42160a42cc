"""Bad inputs to evaluation get a clear EvaluationError (a ValueError) before any model call, naming the
problem and the limit."""
from __future__ import annotations

import numpy as np
import pytest
import torch

from lengen_utils.core.evaluate import evaluate_length, evaluate_lengths, predict
from lengen_utils.analysis.complexity import exact_match_by_complexity, exact_match_per_problem
from lengen_utils.core.evaluate import EvaluationError, evaluate_problems
from lengen_utils.core.model import ModelConfig, Transformer
from lengen_utils.core.problems import Problem
from lengen_utils.core.tasks import Task, TaskConfig

TASK = TaskConfig(format="cho", positions="coupled", max_digits=3, max_position=16)


@pytest.fixture(scope="module")
def model() -> Transformer:
    torch.manual_seed(0)
    return Transformer(ModelConfig(d_model=16, n_heads=2, d_ff=32, n_layers=1, max_positions=32))


@pytest.fixture(scope="module")
def task() -> Task:
    return Task(TASK)


# (call, expected message pattern): each names what is wrong and the limit
BAD_CALLS = {
    "fractional length": (lambda m, t: evaluate_lengths(m, t, [2.7], n=5), r"length.*integer >= 1.*2\.7"),
    "whole float length": (lambda m, t: evaluate_lengths(m, t, [3.0], n=5), r"length.*integer >= 1.*3\.0"),
    "length zero": (lambda m, t: evaluate_lengths(m, t, [0], n=5), r"length.*integer >= 1, got 0"),
    "negative length": (lambda m, t: evaluate_lengths(m, t, [2, -1], n=5), r"length.*integer >= 1, got -1"),
    "string length": (lambda m, t: evaluate_lengths(m, t, ["3"], n=5), r"length.*integer >= 1.*'3'"),
    "bool length": (lambda m, t: evaluate_lengths(m, t, [True], n=5), r"length.*integer >= 1.*True"),
    "lengths not a list": (lambda m, t: evaluate_lengths(m, t, 3, n=5), r"lengths must be a list of integers >= 1"),
    "lengths a string": (lambda m, t: evaluate_lengths(m, t, "12", n=5), r"lengths must be a list of integers >= 1"),
    "no lengths": (lambda m, t: evaluate_lengths(m, t, [], n=5), r"lengths is empty.*integer >= 1"),
    "single fractional length": (lambda m, t: evaluate_length(m, t, 2.5, n=5), r"length.*integer >= 1.*2\.5"),
    "zero problems per length": (lambda m, t: evaluate_lengths(m, t, [2], n=0), r"n \(problems per length\).*>= 1, got 0"),
    "batch_size zero (lengths)": (lambda m, t: evaluate_lengths(m, t, [2], n=5, batch_size=0),
                                  r"batch_size must be an integer >= 1, got 0"),
    "batch_size negative": (lambda m, t: evaluate_length(m, t, 2, n=5, batch_size=-4), r"batch_size.*>= 1, got -4"),
    "batch_size fractional": (lambda m, t: evaluate_length(m, t, 2, n=5, batch_size=2.5), r"batch_size.*>= 1.*2\.5"),
    "predict no problems": (lambda m, t: predict(m, t, []), r"predict needs at least one problem"),
    "predict a bare Problem": (lambda m, t: predict(m, t, Problem(1, 2)), r"list of problems.*single Problem"),
    "predict a tuple item": (lambda m, t: predict(m, t, [Problem(1, 2), (3, 4)]), r"Problem objects; item 1 is \(3, 4\)"),
    "predict batch_size zero": (lambda m, t: predict(m, t, [Problem(1, 2)], batch_size=0),
                                r"batch_size must be an integer >= 1, got 0"),
    "evaluate_problems empty": (lambda m, t: evaluate_problems(m, t, []), r"evaluate_problems needs at least one"),
    "evaluate_problems batch_size zero": (lambda m, t: evaluate_problems(m, t, [Problem(1, 2)], batch_size=0),
                                          r"batch_size must be an integer >= 1, got 0"),
    "per-problem EM empty": (lambda m, t: exact_match_per_problem(m, t, []), r"exact_match_per_problem needs at least"),
    "per-problem EM batch_size zero": (lambda m, t: exact_match_per_problem(m, t, [Problem(1, 2)], batch_size=0),
                                       r"batch_size must be an integer >= 1, got 0"),
    "unknown complexity measure": (lambda m, t: exact_match_by_complexity(m, t, [Problem(1, 2)], "digits"),
                                   r"unknown complexity measure 'digits'; choose one of \['carry_run', 'cascade'\]"),
}


@pytest.mark.parametrize("name", list(BAD_CALLS))
def test_bad_evaluation_input_is_a_clear_error(name, model, task, monkeypatch):
    call, message = BAD_CALLS[name]
    calls = []
    monkeypatch.setattr(model, "forward", lambda *a, **k: calls.append(1))  # any model call would be recorded
    with pytest.raises(EvaluationError, match=message):
        call(model, task)
    assert not calls, "the input must be refused before the model runs"
    assert issubclass(EvaluationError, ValueError)


def test_valid_inputs_still_run(model, task):
    res = evaluate_lengths(model, task, [np.int64(1), 2], n=6, batch_size=4)
    assert set(res) == {1, 2} and all(r.n == 6 for r in res.values())
    answers = predict(model, task, [Problem(1, 2), Problem(3, 4), Problem(5, 6)], batch_size=2)
    assert len(answers) == 3 and all(a is None or isinstance(a, int) for a in answers)

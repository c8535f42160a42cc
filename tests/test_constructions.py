"""Cho Theorem 5.1 by hand: the constructed 1-layer, 2-head decoder adds long numbers exactly."""
import numpy as np
import pytest
import torch

from lengen_utils.analysis.constructions import adder_config, build_coupled_adder, max_operand_digits
from lengen_utils.core.evaluate import evaluate_length, greedy_predictions, score
from lengen_utils.core.positions import PositionRangeError
from lengen_utils.core.problems import Problem
from lengen_utils.core.tasks import Task, TaskConfig


def eval_task(n_bits: int) -> Task:
    return Task(TaskConfig(format="cho", positions="coupled", random_start=False, max_position=2**n_bits - 1))


@pytest.fixture(scope="module")
def adder():
    return build_coupled_adder(7)


def test_shape_is_one_layer_two_heads(adder):
    assert adder.cfg.n_layers == 1 and adder.cfg.n_heads == 2
    assert adder.cfg.d_model == 2 * 7 + 18 == adder_config(7).d_model


def test_adds_1000_random_100_digit_numbers(adder):
    """All 1,000 right, teacher-forced; greedy decoding checked on a subset (the two agree per example:
    tests/test_train_eval.py; full greedy decoding of 1,000 x 102 steps takes minutes on a CPU)."""
    task = eval_task(7)
    problems = task.eval_problems(100, 1000, seed=2024)
    assert evaluate_length(adder, task, 100, n=1000, seed=2024).exact_match == 1.0
    batch = task.batch(problems[:40])
    em, _ = score(batch, greedy_predictions(adder, batch))
    assert em.all()


@pytest.mark.parametrize("length", [1, 2, 7, 50])
def test_every_length_up_to_the_limit(adder, length):
    assert evaluate_length(adder, eval_task(7), length, n=300).exact_match == 1.0


def test_longest_length_for_its_embedding_size(adder):
    limit = max_operand_digits(7)
    assert limit == 125
    assert evaluate_length(adder, eval_task(7), limit, n=200).exact_match == 1.0
    with pytest.raises(PositionRangeError, match="max_position=127"):
        eval_task(7).batch([Problem(10**limit, 1)])   # one digit more does not fit the table


def test_hard_carry_chains(adder):
    task = eval_task(7)
    cases = [Problem(10**60 - 1, 1), Problem(5 * 10**40 - 1, 5 * 10**40 + 1), Problem(0, 0), Problem(99, 99)]
    batch = task.batch(cases)
    em, _ = score(batch, greedy_predictions(adder, batch))
    assert em.all()


def test_attention_is_coupled(adder):
    """Head 1 reads the digits one ID below the query, head 2 the digits at the query's own ID."""
    task = eval_task(7)
    batch = task.batch([Problem(653, 49)])
    _, weights = adder(**batch.model_inputs(), return_attention=True)
    w = weights[0][0]                   # [heads, T, T]
    ids = batch.position_ids[0]
    eq = 8                              # '=' in $653+049=2070$
    top = torch.topk(w[0, eq], 2).indices
    assert set(ids[top].tolist()) == {int(ids[eq]) - 1}
    assert w[0, eq, top].sum() > 0.99

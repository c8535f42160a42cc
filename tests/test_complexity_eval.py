"""Tests for test sets and exact match grouped by complexity (Sabbaghi Figure 8; lengen_utils.core.complexity
and lengen_utils.core.evaluate, re-exported by lengen_utils.analysis.complexity) and for the complexity samplers wired
into TaskConfig.sampler."""
from __future__ import annotations

import numpy as np
import pytest
import torch

from lengen_utils.core.carries import carry_runs_from_sums
from lengen_utils.analysis.complexity import (
    GroupResult,
    carry_run_test_sets,
    cascade_length,
    cascade_test_sets,
    evaluate_by_carry_run,
    evaluate_by_cascade_length,
    exact_match_by_complexity,
    exact_match_per_problem,
    longest_carry_run,
    sample_by_carry_run,
)
from lengen_utils.core.model import ModelConfig, Transformer
from lengen_utils.core.problems import ProblemError
from lengen_utils.core.tasks import SAMPLERS, Task, TaskConfig


def test_vectorised_carry_run_matches_the_scalar_definition():
    rng = np.random.default_rng(0)
    a = rng.integers(0, 10, size=(2000, 7))
    b = rng.integers(0, 10, size=(2000, 7))
    runs = carry_runs_from_sums(a + b)
    for i in range(0, 2000, 37):
        x = int("".join(map(str, a[i][::-1])))
        y = int("".join(map(str, b[i][::-1])))
        assert runs[i] == longest_carry_run(x, y)


@pytest.mark.parametrize("run", [0, 1, 3, 6])
def test_sample_by_carry_run_hits_the_level(run):
    probs = sample_by_carry_run(np.random.default_rng(run), 12, run, 50)
    assert len(probs) == 50
    assert all(longest_carry_run(p.a, p.b) == run for p in probs)
    assert all(p.a < 10**12 and p.b < 10**12 for p in probs)


def test_sample_by_carry_run_is_uniform_within_the_level():
    """At 1 digit, run 1 means a + b >= 10: the 45 such pairs should come out equally often."""
    probs = sample_by_carry_run(np.random.default_rng(1), 1, 1, 9000)
    counts = {}
    for p in probs:
        counts[(p.a, p.b)] = counts.get((p.a, p.b), 0) + 1
    assert len(counts) == 45
    assert max(counts.values()) < 2 * min(counts.values())


def test_sample_by_carry_run_errors():
    with pytest.raises(ProblemError, match=r"longest carry run 6: feasible longest carry runs are 0\.\.5"):
        sample_by_carry_run(np.random.default_rng(0), 5, 6, 1)
    with pytest.raises(ProblemError, match="only"):
        sample_by_carry_run(np.random.default_rng(0), 20, 20, 5, max_draws=5000)


def test_test_sets_are_fixed_and_on_level():
    a = cascade_test_sets(10, [1, 4], 20, seed=3)
    b = cascade_test_sets(10, [1, 4], 20, seed=3)
    assert a == b and set(a) == {1, 4}
    assert all(cascade_length(p.a, p.b) == 4 for p in a[4])
    runs = carry_run_test_sets(10, [2, 5], 20, seed=3)
    assert all(longest_carry_run(p.a, p.b) == 5 for p in runs[5])
    assert runs == carry_run_test_sets(10, [2, 5], 20, seed=3)


class Oracle(torch.nn.Module):
    """A stand-in 'model' that answers every problem right except where a rule says otherwise:
    it returns logits that put all mass on the true targets (or on a wrong token)."""

    def __init__(self, wrong=lambda p: False):
        super().__init__()
        self.cfg = ModelConfig(causal=False)
        self.dummy = torch.nn.Parameter(torch.zeros(1))
        self.wrong = wrong
        self.batch = None

    @property
    def device(self):
        return self.dummy.device

    def forward(self, tokens, position_ids, key_padding=None, uniform_slots=None, number_ids=None):
        logits = torch.zeros(*tokens.shape, 80)
        tgt = self.batch.targets.clamp(min=0)
        logits.scatter_(-1, tgt[..., None], 1.0)
        for b, ex in enumerate(self.batch.examples):
            if self.wrong(ex.problem):
                logits[b] = 0
                logits[b, :, 1] = 1.0          # the digit '0' everywhere: wrong somewhere
        return logits


@pytest.fixture()
def sabbaghi_task():
    return Task(TaskConfig(format="sabbaghi", positions="consecutive", sampler="uniform", max_digits=5,
                           frame_width=12, random_start=False, max_position=30))


def _with_batches(model, task):
    original = task.batch

    def batch(problems, rng=None):
        out = original(problems, rng)
        model.batch = out
        return out
    task.batch = batch
    return task


def test_grouped_exact_match_with_an_oracle(sabbaghi_task):
    model = Oracle(wrong=lambda p: cascade_length(p.a, p.b) >= 3)
    task = _with_batches(model, sabbaghi_task)
    sets = cascade_test_sets(10, [1, 2, 3, 4], 30)
    res = evaluate_by_cascade_length(model, task, 10, [1, 2, 3, 4], n=30)
    assert {k: r.exact_match for k, r in res.items()} == {1: 1.0, 2: 1.0, 3: 0.0, 4: 0.0}
    assert res[2].n == 30 and res[4].mean_cascade == 4.0 and isinstance(res[1], GroupResult)
    flat = [p for probs in sets.values() for p in probs]
    em = exact_match_per_problem(model, task, flat, batch_size=7)
    assert em.dtype == bool and em.sum() == 60
    grouped = exact_match_by_complexity(model, task, flat, "cascade")
    assert grouped[3].exact_match == 0.0 and grouped[1].exact_match == 1.0
    by_run = evaluate_by_carry_run(model, task, 10, [0, 5], n=20)
    assert by_run[0].exact_match == 1.0 and by_run[5].mean_carry_run == 5.0
    with pytest.raises(ValueError, match="unknown complexity measure"):
        exact_match_by_complexity(model, task, flat, "digits")


def test_real_model_runs_through_the_helpers(sabbaghi_task):
    torch.manual_seed(0)
    model = Transformer(ModelConfig(d_model=16, n_heads=2, d_ff=32, causal=False, encoding="rpe", rpe_max_distance=13))
    res = evaluate_by_cascade_length(model, sabbaghi_task, 8, [0, 2], n=10)
    assert set(res) == {0, 2} and all(0.0 <= r.exact_match <= 1.0 for r in res.values())
    assert res[0].stderr >= 0.0


# -- the C3 samplers as TaskConfig.sampler --------------------------------------------------------
def test_complexity_samplers_are_registered():
    assert "uniform_complexity" in SAMPLERS and "mixed_complexity" in SAMPLERS


def test_uniform_complexity_sampler_spreads_the_levels():
    task = Task(TaskConfig(format="sabbaghi", positions="consecutive", sampler="uniform_complexity", max_digits=5,
                           frame_width=8, random_start=False, max_position=20))
    probs = task.sample_train_problems(np.random.default_rng(0), 3000)
    levels = np.bincount([cascade_length(p.a, p.b) for p in probs], minlength=6)
    assert all(p.a < 10**5 and p.b < 10**5 for p in probs)
    assert levels.min() > 400                     # about 500 per level 0..5
    batch = task.train_batch(np.random.default_rng(1), 16)
    assert batch.tokens.shape[0] == 16


def test_mixed_complexity_sampler_is_between_the_two():
    mk = lambda s: Task(TaskConfig(format="cho", positions="coupled", sampler=s, max_digits=5, max_position=16))  # noqa: E731
    share = {}
    for s in ("uniform", "mixed_complexity", "uniform_complexity"):
        probs = mk(s).sample_train_problems(np.random.default_rng(0), 3000)
        share[s] = np.mean([cascade_length(p.a, p.b) >= 3 for p in probs])
    assert share["uniform"] < 0.05 < share["mixed_complexity"] < share["uniform_complexity"]
    assert abs(share["mixed_complexity"] - (share["uniform"] + share["uniform_complexity"]) / 2) < 0.04


def test_complexity_samplers_refuse_multiplication():
    # refused when the config is built (ConfigError is a ValueError), before any sampling
    with pytest.raises(ValueError, match="addition only"):
        TaskConfig(op="*", format="cho", positions="coupled", sampler="uniform_complexity", max_digits=4,
                   multiplier_digits=1, max_position=16)


def test_complexity_reexports_the_layered_modules():
    """The notebooks' ``from lengen_utils.analysis import complexity as C`` sees the very objects of each layer."""
    import lengen_utils.core.carries as carries
    import lengen_utils.analysis.complexity as C
    import lengen_utils.core.complexity as sampling
    import lengen_utils.core.evaluate as evaluate

    assert C.cascade_length is carries.cascade_length and C.multiplication_levels is carries.multiplication_levels
    assert C.sample_by_cascade_length is sampling.sample_by_cascade_length
    assert C.GroupResult is evaluate.GroupResult and C.evaluate_by_carry_run is evaluate.evaluate_by_carry_run
    assert all(hasattr(C, name) for name in C.__all__)

"""Curricula (short to long, easy to hard by carry cascade): the schedule, the problems each stage draws, the
exact cascade-capped sampler, and the task's refusals."""
from collections import Counter

import numpy as np
import pytest

from lengen_utils.core.carries import cascade_length
from lengen_utils.core.complexity import sample_with_cascade_at_most
from lengen_utils.core.curriculum import curriculum_cap, stage
from lengen_utils.core.problems import ProblemError, num_digits
from lengen_utils.core.tasks import ConfigError, Task, TaskConfig
from lengen_utils.core.train import TrainConfig, fit

BASE = dict(format="cho", positions="coupled", max_digits=10, max_position=64)


def longest(p):
    return max(num_digits(p.a), num_digits(p.b))


def test_stages_split_the_ramp_evenly():
    assert [stage(p, 0.5, 10) for p in (0, 0.049, 0.05, 0.25, 0.4999)] == [0, 0, 1, 5, 9]
    assert stage(0.5, 0.5, 10) is None and stage(1.0, 0.5, 10) is None
    assert stage(0.999, 1.0, 4) == 3
    with pytest.raises(ValueError, match="progress"):
        stage(1.5, 0.5, 10)


def test_length_schedule_of_a_1_to_10_digit_task():
    caps = [curriculum_cap("length", step / 1000, 0.5, 1, 10) for step in range(1000)]
    # 50 steps at each cap 1..10, then the task's own sampler (None) for the second half
    assert Counter(caps) == {**{k: 50 for k in range(1, 11)}, None: 500}
    assert caps == sorted(caps[:500]) + [None] * 500
    assert curriculum_cap("length", 0.3, 0.5, 3, 6) == 5          # 4 stages: 3, 4, 5, 6
    assert curriculum_cap("none", 0.0, 0.5, 1, 10) is None


def test_cascade_schedule_of_a_1_to_10_digit_task():
    caps = [curriculum_cap("cascade", step / 1100, 0.5, 1, 10) for step in range(1100)]
    assert Counter(caps) == {**{k: 50 for k in range(0, 11)}, None: 550}


@pytest.mark.parametrize("progress", [0.0, 0.12, 0.3, 0.45])
def test_length_curriculum_draws_within_its_cap(progress):
    task = Task(TaskConfig(**BASE, curriculum="length"))
    cap = curriculum_cap("length", progress, 0.5, 1, 10)
    problems = task.sample_train_problems(np.random.default_rng(0), 400, progress)
    lengths = Counter(longest(p) for p in problems)
    assert max(lengths) == cap and min(lengths) >= 1


@pytest.mark.parametrize("progress", [0.0, 0.05, 0.1, 0.2])
def test_cascade_curriculum_draws_within_its_cap(progress):
    task = Task(TaskConfig(**BASE, curriculum="cascade"))
    cap = curriculum_cap("cascade", progress, 0.5, 1, 10)
    problems = task.sample_train_problems(np.random.default_rng(0), 400, progress)
    cascades = Counter(cascade_length(p.a, p.b) for p in problems)
    assert max(cascades) <= cap
    if cap <= 2:                               # low caps are common enough to be reached in 400 draws
        assert max(cascades) == cap
    assert max(longest(p) for p in problems) == 10


def test_after_the_ramp_the_task_draws_as_without_a_curriculum():
    plain = Task(TaskConfig(**BASE))
    curriculum = Task(TaskConfig(**BASE, curriculum="cascade", curriculum_fraction=0.25))
    a = plain.sample_train_problems(np.random.default_rng(3), 50)
    b = curriculum.sample_train_problems(np.random.default_rng(3), 50, progress=0.25)
    assert a == b


MULTIPLY = dict(op="*", format="sabbaghi", positions="consecutive", max_digits=5, multiplier_digits=3,
                multiplier_exact=True, frame_width=12, max_position=17)


def test_multiplier_schedule_ramps_the_multiplier_width():
    caps = [curriculum_cap("multiplier", step / 600, 0.5, 1, 5, multiplier_digits=3) for step in range(600)]
    assert Counter(caps) == {1: 100, 2: 100, 3: 100, None: 300}
    assert caps[:300] == sorted(caps[:300])
    with pytest.raises(ValueError, match="pass multiplier_digits"):
        curriculum_cap("multiplier", 0.1, 0.5, 1, 5)


@pytest.mark.parametrize("progress, width", [(0.0, 1), (0.2, 2), (0.4, 3), (0.7, 3)])
def test_multiplier_curriculum_draws_exact_multiplier_widths(progress, width):
    task = Task(TaskConfig(**MULTIPLY, curriculum="multiplier"))
    problems = task.sample_train_problems(np.random.default_rng(0), 300, progress)
    assert {num_digits(p.b) for p in problems} == {width}
    assert {num_digits(p.a) for p in problems} == {1, 2, 3, 4, 5}     # the multiplicand keeps its sampler


def test_the_training_loop_passes_the_progress():
    task = Task(TaskConfig(format="cho", positions="coupled", max_digits=4, max_position=16, curriculum="length"))
    from lengen_utils.core.model import ModelConfig, Transformer
    seen = []
    original = task.train_batch

    def spy(rng, batch_size, progress=None):
        seen.append(progress)
        return original(rng, batch_size, progress)

    task.train_batch = spy
    fit(Transformer(ModelConfig(d_model=16, n_heads=2, d_ff=32, max_positions=17)), task,
        TrainConfig(steps=8, batch_size=4, warmup_steps=1), progress=False,
        data_worker="thread")     # the spy records in this process (a worker process would record in its own copy)
    assert seen == [s / 8 for s in range(8)]
    with pytest.raises(ConfigError, match="pass progress=step/steps"):
        original(np.random.default_rng(0), 4)


def test_cascade_cap_sampler_is_the_uniform_distribution_below_the_cap():
    """Two-digit sums: the sampler's levels follow the counts of all 10^4 pairs with cascade <= cap."""
    counts = Counter(cascade_length(a, b) for a in range(100) for b in range(100))
    rng = np.random.default_rng(0)
    for cap in (0, 1, 2):
        drawn = sample_with_cascade_at_most(rng, 2, cap, 4000)
        got = Counter(cascade_length(p.a, p.b) for p in drawn)
        assert max(got) == cap and all(p.a < 100 and p.b < 100 for p in drawn)
        total = sum(counts[j] for j in range(cap + 1))
        for j in range(cap + 1):                # within 4 standard deviations of the exact share
            share = counts[j] / total
            assert abs(got[j] / 4000 - share) < 4 * (share * (1 - share) / 4000) ** 0.5 + 1e-9
    with pytest.raises(ProblemError, match="cascade cap"):
        sample_with_cascade_at_most(rng, 2, 3, 1)


@pytest.mark.parametrize("changes, message", [
    (dict(curriculum="reverse"), "unknown curriculum"),
    (dict(curriculum="length", curriculum_fraction=0), "share of training in \\(0, 1\\]"),
    (dict(curriculum="length", curriculum_fraction=1.5), "share of training"),
    (dict(curriculum="length", curriculum_fraction=float("nan")), "share of training"),
    (dict(curriculum_fraction=0.3), "curriculum is 'none'"),
    (dict(curriculum="length", min_digits=10), "nothing to hold back"),
    (dict(curriculum="cascade", sampler="uniform_complexity"), "draws by complexity itself"),
    (dict(curriculum="cascade", op="*", multiplier_digits=2), "orders sums by their carries"),
    (dict(curriculum="multiplier"), "needs op='\\*' and multiplier_digits >= 2"),
    (dict(curriculum="multiplier", op="*", multiplier_digits=1), "multiplier_digits >= 2"),
])
def test_task_refusals(changes, message):
    with pytest.raises(ConfigError, match=message):
        TaskConfig(**{**BASE, **changes})


def test_minesweeper_leaves_the_arithmetic_options_alone():
    with pytest.raises(ConfigError, match="arithmetic options"):
        TaskConfig(task="minesweeper", format="minesweeper", positions="coupled2d", min_digits=3, max_digits=5,
                   max_position=12, curriculum="length")

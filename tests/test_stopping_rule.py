"""The stopping rule (``TrainConfig.stop_lengths``): training ends once ``stop_patience`` validations in a row get
every sum at the trained lengths right, never reads an untrained length, and a stopped run stays stopped when
resumed."""
from __future__ import annotations

import pytest
import torch

from lengen_utils.core.config_checks import ConfigError
from lengen_utils.core.constants import STOP_SEED
from lengen_utils.core.evaluate import evaluate_length
from lengen_utils.core.model import ModelConfig, Transformer
from lengen_utils.core.tasks import Task, TaskConfig
from lengen_utils.core.train import TrainConfig, fit

# a coupled decoder on 1-2 digit sums: masters them within a few hundred steps on one thread
TASK = TaskConfig(format="cho", positions="coupled", max_digits=2, max_position=12)
MODEL = ModelConfig(d_model=32, n_heads=2, d_ff=64, max_positions=13)
RULE = dict(stop_lengths=(2,), stop_n=50, stop_every=25)
PLANNED = 1000


def _model() -> Transformer:
    torch.manual_seed(0)
    return Transformer(MODEL)


def test_the_rule_needs_lengths_and_interval_together():
    with pytest.raises(ConfigError, match="stop_every > 0 and stop_lengths together"):
        TrainConfig(stop_every=10)
    with pytest.raises(ConfigError, match="stop_every > 0 and stop_lengths together"):
        TrainConfig(stop_lengths=(5,))
    with pytest.raises(ConfigError, match="stop_lengths"):
        TrainConfig(stop_lengths=("10",), stop_every=5)
    assert TrainConfig(stop_lengths=[1, 2], stop_every=5).stop_lengths == (1, 2)


def test_the_rule_refuses_untrained_lengths():
    cfg = TrainConfig(steps=10, batch_size=8, stop_lengths=(2, 5), stop_every=5)
    with pytest.raises(ConfigError, match=r"\[5\] lie outside the trained lengths 1\.\.2.*select_lengths"):
        fit(_model(), Task(TASK), cfg, progress=False)


def test_training_stops_at_the_first_validation_with_every_sum_right():
    task = Task(TASK)
    model = _model()
    result = fit(model, task, TrainConfig(steps=PLANNED, batch_size=64, lr=3e-3, warmup_steps=20, **RULE),
                 progress=False, log_every=25)
    rule = result.mastery
    assert rule.stopped_step == result.steps < PLANNED
    assert rule.steps == list(range(25, result.steps + 1, 25))
    assert rule.curve[2][-1] == 1.0 and all(em < 1.0 for em in rule.curve[2][:-1])
    assert len(result.losses) == result.steps // 25          # the loss log ends where training ended
    assert evaluate_length(model, task, 2, n=50, seed=STOP_SEED).exact_match == 1.0   # the model it stopped at
    assert rule.record()["stopped_step"] == result.steps and rule.record()["seed"] == STOP_SEED


def test_patience_waits_for_that_many_perfect_validations_in_a_row():
    task = Task(TASK)
    once = fit(_model(), task, TrainConfig(steps=PLANNED, batch_size=64, lr=3e-3, warmup_steps=20, **RULE),
               progress=False, log_every=25)
    rule = dict(RULE, stop_patience=3)
    thrice = fit(_model(), task, TrainConfig(steps=PLANNED, batch_size=64, lr=3e-3, warmup_steps=20, **rule),
                 progress=False, log_every=25).mastery
    assert thrice.stopped_step >= once.steps + 50             # two more validations at least
    assert thrice.curve[2][-3:] == [1.0, 1.0, 1.0] and thrice.streak == 3
    with pytest.raises(ConfigError, match="stop_patience"):
        TrainConfig(stop_patience=0)


def test_without_the_rule_every_planned_step_runs():
    result = fit(_model(), Task(TASK), TrainConfig(steps=60, batch_size=16), progress=False)
    assert result.steps == 60 and result.mastery is None


def test_a_stopped_run_stays_stopped_when_resumed(tmp_path):
    task = Task(TASK)
    cfg = TrainConfig(steps=PLANNED, batch_size=64, lr=3e-3, warmup_steps=20, **RULE)
    model = _model()
    state = tmp_path / "state.pt"
    first = fit(model, task, cfg, progress=False, log_every=25, state_path=state)
    weights = {k: v.clone() for k, v in model.state_dict().items()}
    again = fit(model, task, cfg, progress=False, log_every=25, state_path=state, resume=True)
    assert again.steps == 0 and again.mastery.stopped_step == first.steps
    assert all(torch.equal(weights[k], v) for k, v in model.state_dict().items())

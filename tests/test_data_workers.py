"""Batches drawn by several worker processes: a run with per-step data seeding gets the same batches, and so the
same weights, from any number of workers; a run drawn from one random stream refuses more than one."""
from __future__ import annotations

import pytest
import torch

from lengen_utils.core.config_checks import ConfigError
from lengen_utils.core.model import ModelConfig, Transformer
from lengen_utils.core.tasks import Task, TaskConfig
from lengen_utils.core.train import TrainConfig, fit

TASK = TaskConfig(format="cho", positions="coupled", max_digits=3, max_position=16)
MODEL = ModelConfig(d_model=16, n_heads=2, d_ff=32, n_layers=1, max_positions=17)


def run(seeding: str, workers: int | None, steps: int = 12, **kw):
    torch.manual_seed(0)
    model = Transformer(MODEL)
    cfg = TrainConfig(steps=steps, batch_size=8, lr=3e-3, warmup_steps=2, data_seeding=seeding)
    result = fit(model, Task(TASK), cfg, progress=False, log_every=4, data_workers=workers, **kw)
    return model, result


def same_weights(a, b) -> bool:
    return all(torch.equal(x, y) for x, y in zip(a.state_dict().values(), b.state_dict().values()))


def test_per_step_batches_do_not_depend_on_the_number_of_workers():
    one, r1 = run("per_step", 1, data_worker="thread")
    three, r3 = run("per_step", 3)
    assert r1.losses == r3.losses and same_weights(one, three)


def test_per_step_data_is_another_stream_than_the_default():
    stream, rs = run("stream", 1, data_worker="thread")
    per_step, rp = run("per_step", 1, data_worker="thread")
    assert rs.losses != rp.losses


def test_a_stream_run_refuses_several_workers(monkeypatch):
    with pytest.raises(ConfigError, match="per_step"):
        run("stream", 2)
    monkeypatch.setenv("LENGEN_DATA_WORKERS", "4")           # the variable applies to per-step runs only
    run("stream", None, steps=2, data_worker="thread")
    monkeypatch.setenv("LENGEN_DATA_WORKERS", "many")
    with pytest.raises(ConfigError, match="LENGEN_DATA_WORKERS"):
        run("per_step", None, steps=2)


def test_an_unknown_seeding_is_refused():
    with pytest.raises(ConfigError, match="data_seeding"):
        TrainConfig(data_seeding="random")


def test_a_per_step_run_resumes_exactly_with_two_workers(tmp_path):
    whole, r = run("per_step", 2)
    state = tmp_path / "state.pt"

    def crash(step, loss):
        if step == 8:
            raise KeyboardInterrupt

    cfg = TrainConfig(steps=12, batch_size=8, lr=3e-3, warmup_steps=2, data_seeding="per_step")
    torch.manual_seed(0)
    with pytest.raises(KeyboardInterrupt):
        fit(Transformer(MODEL), Task(TASK), cfg, progress=False, log_every=4, data_workers=2, state_path=state,
            save_every=4, callback=crash)
    torch.manual_seed(123)
    resumed = Transformer(MODEL)
    result = fit(resumed, Task(TASK), cfg, progress=False, log_every=4, data_workers=2, state_path=state, resume=True)
    assert result.losses == r.losses and same_weights(whole, resumed)

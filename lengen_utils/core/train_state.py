"""Resuming a run: what its saved training state must match (:func:`check_resumable`), and the data generator's
state in a form torch's ``weights_only`` loader accepts. Used by :func:`~lengen_utils.core.train.fit`."""
from __future__ import annotations

from pathlib import Path

import numpy as np

from .checkpoint import CheckpointError
from .model import Transformer
from .tasks import Task
from .train_config import TrainConfig


def check_resumable(state: dict, model: Transformer, task: Task, cfg: TrainConfig, log_every: int | None,
                    state_path: str | Path = "the training state") -> int:
    """Refuse a training state saved by another run; returns the ``log_every`` to continue with.

    A run is its model config, task config, TrainConfig and loss-log interval: resuming with any of
    them changed would give a trajectory that no uninterrupted run produces.
    """
    fix = "resume with the same settings, or pass resume=False to start fresh"
    saved_train = state.get("train_config")
    if saved_train is not None:
        _refuse_differences(state_path, "TrainConfig", TrainConfig.from_dict(saved_train).to_dict(), cfg.to_dict(), fix)
    for label, mine in (("ModelConfig", model.cfg.to_dict()), ("TaskConfig", task.config.to_dict())):
        key = "model_config" if label == "ModelConfig" else "task_config"
        if state.get(key) is not None:
            _refuse_differences(state_path, label, state[key], mine, fix)
    saved_log = state.get("log_every")
    if saved_log is not None and log_every is not None and log_every != saved_log:
        raise CheckpointError(f"the training state at {state_path} logged the loss every {saved_log} steps, "
                              f"this run every {log_every}: the loss log would not match; {fix}")
    step = state.get("step")
    if not isinstance(step, int) or not 0 <= step <= cfg.steps:
        raise CheckpointError(f"the training state at {state_path} is at step {step!r}, outside 0..steps={cfg.steps}")
    return log_every if log_every is not None else saved_log


def _refuse_differences(path, label: str, saved: dict, mine: dict, fix: str) -> None:
    diffs = [f"{k}={saved.get(k)!r} there, {mine.get(k)!r} here" for k in sorted(set(saved) | set(mine), key=str)
             if _plain(saved.get(k)) != _plain(mine.get(k))]
    if diffs:
        raise CheckpointError(f"the training state at {path} is from another run ({label} differs: "
                              f"{'; '.join(diffs)}); {fix}")


def _plain(value):
    return list(value) if isinstance(value, tuple) else value


def _rng_state(rng: np.random.Generator, state: dict | None = None) -> dict:
    # torch's weights_only loader accepts plain containers of str/int: store the big ints as strings
    st = rng.bit_generator.state if state is None else state
    return {"bit_generator": st["bit_generator"], "state": {k: str(v) for k, v in st["state"].items()},
            "has_uint32": st["has_uint32"], "uinteger": st["uinteger"]}


def _restore_rng_state(saved: dict) -> dict:
    return {"bit_generator": saved["bit_generator"], "state": {k: int(v) for k, v in saved["state"].items()},
            "has_uint32": saved["has_uint32"], "uinteger": saved["uinteger"]}

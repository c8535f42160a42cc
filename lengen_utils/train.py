"""The training loop: AdamW, linear warm-up then cosine decay, gradient clipping, progress bar.

``fit`` draws fresh problems every step (the data are infinite; position starts are redrawn every
time), runs on whatever device the model is on with bf16 autocast on CUDA, and can save and resume
its full state.
"""
from __future__ import annotations

import math
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Callable

import numpy as np
import torch
import torch.nn.functional as F

from .checkpoint import load_training_state, save_training_state
from .device import autocast, seed_everything
from .model import Transformer
from .tasks import Task


@dataclass(frozen=True)
class TrainConfig:
    steps: int = 2000
    batch_size: int = 128
    lr: float = 1e-3
    weight_decay: float = 0.0
    warmup_steps: int = 100
    min_lr_ratio: float = 0.1          # cosine decays to lr * min_lr_ratio
    grad_clip: float = 1.0
    betas: tuple[float, float] = (0.9, 0.98)
    seed: int = 0
    amp: bool = True                   # bf16 autocast on CUDA only

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict) -> "TrainConfig":
        data = dict(data)
        if "betas" in data:
            data["betas"] = tuple(data["betas"])
        return cls(**data)


@dataclass
class TrainResult:
    steps: int
    seconds: float
    losses: list[float] = field(default_factory=list)   # mean loss per logged window
    log_every: int = 50


def lr_at(step: int, cfg: TrainConfig) -> float:
    """Linear warm-up to ``lr``, then cosine decay to ``lr * min_lr_ratio`` at ``cfg.steps``."""
    if step < cfg.warmup_steps:
        return cfg.lr * (step + 1) / cfg.warmup_steps
    progress = (step - cfg.warmup_steps) / max(1, cfg.steps - cfg.warmup_steps)
    cosine = 0.5 * (1 + math.cos(math.pi * min(progress, 1.0)))
    return cfg.lr * (cfg.min_lr_ratio + (1 - cfg.min_lr_ratio) * cosine)


def loss_on(model: Transformer, batch) -> torch.Tensor:
    logits = model(**batch.model_inputs())
    return F.cross_entropy(logits.float().flatten(0, 1), batch.targets.flatten(), ignore_index=-100)


def fit(model: Transformer, task: Task, cfg: TrainConfig, *, progress: bool = True, log_every: int = 50,
        state_path: str | Path | None = None, resume: bool = False, save_every: int = 0,
        callback: Callable[[int, float], None] | None = None, desc: str = "training") -> TrainResult:
    """Train ``model`` on ``task`` for ``cfg.steps`` steps; returns losses and wall-clock time.

    With ``state_path`` the optimizer, step and RNG are saved every ``save_every`` steps and at the
    end; ``resume=True`` continues from that file. ``callback(step, loss)`` runs every ``log_every``.
    """
    from tqdm.auto import tqdm

    device = model.device
    rng = seed_everything(cfg.seed)
    decay = [p for n, p in model.named_parameters() if p.dim() >= 2 and "position" not in n]
    no_decay = [p for n, p in model.named_parameters() if not (p.dim() >= 2 and "position" not in n)]
    opt = torch.optim.AdamW([{"params": decay, "weight_decay": cfg.weight_decay},
                             {"params": no_decay, "weight_decay": 0.0}], lr=cfg.lr, betas=cfg.betas)
    start, losses = 0, []
    if resume and state_path is not None and Path(state_path).exists():
        state = load_training_state(state_path)
        model.load_state_dict(state["model"])
        opt.load_state_dict(state["optimizer"])
        start, losses = int(state["step"]), list(state["losses"])
        rng.bit_generator.state = _restore_rng_state(state["rng"])
        torch.set_rng_state(state["torch_rng"])

    def snapshot(step: int) -> None:
        if state_path is not None:
            save_training_state(state_path, {"model": model.state_dict(), "optimizer": opt.state_dict(),
                                             "step": step, "losses": losses, "rng": _rng_state(rng),
                                             "torch_rng": torch.get_rng_state(), "train_config": cfg.to_dict()})

    model.train()
    t0 = time.perf_counter()
    window: list[float] = []
    bar = tqdm(range(start, cfg.steps), desc=desc, disable=not progress, initial=start, total=cfg.steps)
    for step in bar:
        for group in opt.param_groups:
            group["lr"] = lr_at(step, cfg)
        batch = task.train_batch(rng, cfg.batch_size).to(device)
        with autocast(device, cfg.amp):
            loss = loss_on(model, batch)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        if cfg.grad_clip:
            torch.nn.utils.clip_grad_norm_(model.parameters(), cfg.grad_clip)
        opt.step()
        window.append(loss.item())
        logged = len(window) == log_every or step == cfg.steps - 1
        if logged:
            losses.append(float(np.mean(window)))
            bar.set_postfix(loss=f"{losses[-1]:.4f}")
            window = []
        if save_every and (step + 1) % save_every == 0:
            snapshot(step + 1)
        if logged and callback is not None:
            callback(step + 1, losses[-1])
    seconds = time.perf_counter() - t0
    snapshot(cfg.steps)
    model.eval()
    return TrainResult(cfg.steps - start, seconds, losses, log_every)


def _rng_state(rng: np.random.Generator) -> dict:
    # torch's weights_only loader accepts plain containers of str/int: store the big ints as strings
    st = rng.bit_generator.state
    return {"bit_generator": st["bit_generator"], "state": {k: str(v) for k, v in st["state"].items()},
            "has_uint32": st["has_uint32"], "uinteger": st["uinteger"]}


def _restore_rng_state(saved: dict) -> dict:
    return {"bit_generator": saved["bit_generator"], "state": {k: int(v) for k, v in saved["state"].items()},
            "has_uint32": saved["has_uint32"], "uinteger": saved["uinteger"]}

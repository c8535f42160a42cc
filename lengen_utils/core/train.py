"""The training loop: AdamW, linear warm-up then cosine decay, gradient clipping, progress bar.

``fit`` draws fresh problems every step (the data are infinite; position starts are redrawn every
time), runs on whatever device the model is on with bf16 autocast on CUDA, and can save and resume
its full state. The next batches are drawn while the current step runs, by a forked worker process or a
background thread (:func:`~lengen_utils.core.train_runtime.prefetcher`, ``fit(data_worker=...)``): the same generator
draws the same batches in the same order, so the run is the same either way.
Freed memory stays in the process (:func:`keep_freed_memory`), so a step reuses the pages of the one before.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import numpy as np
import torch
import torch.nn.functional as F

from .checkpoint import CheckpointError, error_summary, load_training_state, save_training_state
from .compatibility import check_compatible
from .config_checks import ConfigError, check_int
from .constants import IGNORE_INDEX, SELECT_SEED, STOP_SEED
from .device import autocast, seed_everything
from .evaluate import evaluate_lengths
from .model import Transformer
from .tasks import Task
from .train_config import TrainConfig
from .train_state import _restore_rng_state, _rng_state, check_resumable
from .train_runtime import DATA_WORKERS, data_worker_count, keep_freed_memory, prefetcher


LOG_EVERY = 50    # steps per logged loss (and per training callback) unless fit is told otherwise


@dataclass
class TrainResult:
    steps: int
    seconds: float
    losses: list[float] = field(default_factory=list)   # mean loss per logged window
    log_every: int = LOG_EVERY
    selection: "Selection | None" = None                 # with TrainConfig.select_every: the validation curve
    mastery: "Mastery | None" = None                     # with TrainConfig.stop_every: the stopping rule's curve


@dataclass
class Selection:
    """Checkpoint selection as Sabbaghi et al. and Cho et al. report it: every ``every`` steps, the exact match on a
    small fixed validation set of (longer) lengths; the checkpoint with the best mean is kept (the earliest of
    equals). This peeks at lengths the model never trained on: the papers do it, and a result that uses it says so.
    ``state`` holds the selected weights (on the CPU); ``curve[length]`` the exact match at each of ``steps``."""

    lengths: tuple[int, ...]
    n: int
    every: int
    seed: int
    steps: list[int] = field(default_factory=list)
    curve: dict[int, list[float]] = field(default_factory=dict)
    selected_step: int | None = None
    best: float = -1.0
    state: dict | None = None

    def saved(self) -> dict:
        """What a training state keeps of it (weights included), for :meth:`restore` after a resume."""
        return {"steps": self.steps, "curve": self.curve, "selected_step": self.selected_step, "best": self.best,
                "state": self.state}

    def restore(self, saved: dict) -> None:
        """Continue from :meth:`saved`."""
        self.steps, self.selected_step = list(saved["steps"]), saved["selected_step"]
        self.curve = {int(k): list(v) for k, v in saved["curve"].items()}
        self.best, self.state = float(saved["best"]), saved["state"]

    def record(self) -> dict:
        """The curve and the choice, as a manifest records them (no weights)."""
        return {"lengths": list(self.lengths), "n": self.n, "every": self.every, "seed": self.seed,
                "steps": list(self.steps), "em": {str(k): list(v) for k, v in self.curve.items()},
                "selected_step": self.selected_step, "selected_mean_em": round(self.best, 4)}


def _record_validation(model: Transformer, task: Task, lengths: tuple[int, ...], n: int, seed: int, step: int,
                       steps: list[int], curve: dict[int, list[float]]) -> list[float]:
    """Exact match at ``lengths`` on ``n`` fixed problems (``seed``) in eval mode, the model's mode restored; ``step``
    appended to ``steps`` and each rounded exact match to ``curve[length]``. Returns the exact matches, unrounded."""
    was_training = model.training
    model.eval()
    results = evaluate_lengths(model, task, lengths, n=n, seed=seed)
    model.train(was_training)
    steps.append(step)
    ems = [results[k].exact_match for k in lengths]
    for k, em in zip(lengths, ems):
        curve.setdefault(k, []).append(round(em, 4))
    return ems


@dataclass
class Mastery:
    """The stopping rule: every ``every`` steps, the exact match on a small fixed validation set (seed ``STOP_SEED``)
    of *trained* lengths; training stops once ``patience`` validations in a row score 100% at every length. Unlike
    :class:`Selection` it never looks past the trained range, so a model it stops is not chosen on the test lengths.
    ``curve[length]`` holds the exact match at each of ``steps``; ``stopped_step`` the step it stopped at (None:
    every planned step ran)."""

    lengths: tuple[int, ...]
    n: int
    every: int
    patience: int = 1
    steps: list[int] = field(default_factory=list)
    curve: dict[int, list[float]] = field(default_factory=dict)
    streak: int = 0                    # validations in a row, up to the last, with every sum right
    stopped_step: int | None = None

    def saved(self) -> dict:
        """What a training state keeps of it, for :meth:`restore` after a resume."""
        return {"steps": self.steps, "curve": self.curve, "streak": self.streak, "stopped_step": self.stopped_step}

    def restore(self, saved: dict) -> None:
        """Continue from :meth:`saved`."""
        self.steps, self.stopped_step = list(saved["steps"]), saved["stopped_step"]
        self.streak = int(saved["streak"])
        self.curve = {int(k): list(v) for k, v in saved["curve"].items()}

    def record(self) -> dict:
        """The curve and the stop, as a manifest records them."""
        return {"lengths": list(self.lengths), "n": self.n, "every": self.every, "patience": self.patience,
                "seed": STOP_SEED, "steps": list(self.steps), "em": {str(k): list(v) for k, v in self.curve.items()},
                "stopped_step": self.stopped_step,
                "rule": f"stop after {self.patience} validation(s) in a row with 100% exact match at every trained "
                        f"length validated"}

    def mastered(self, model: Transformer, task: Task, step: int) -> bool:
        """Validate at ``step``; True (and ``stopped_step`` set) when this is the ``patience``-th validation in a row
        with every length at 100%."""
        ems = _record_validation(model, task, self.lengths, self.n, STOP_SEED, step, self.steps, self.curve)
        self.streak = self.streak + 1 if all(em == 1.0 for em in ems) else 0
        if self.streak >= self.patience:
            self.stopped_step = step
        return self.stopped_step is not None


def check_stop_lengths(cfg: TrainConfig, task: Task) -> None:
    """Refuse a stopping rule that validates lengths outside the trained range: that would pick the model on test
    lengths (the papers' checkpoint selection, ``select_lengths``, which a result must label as such)."""
    low, high = task.config.min_digits, task.config.max_digits
    outside = [k for k in cfg.stop_lengths if not low <= k <= high]
    if outside:
        raise ConfigError(f"TrainConfig.stop_lengths {outside} lie outside the trained lengths {low}..{high}: the "
                          f"stopping rule reads trained lengths only; a rule on longer lengths is checkpoint "
                          f"selection (select_lengths, the papers' protocol)")


def check_lengths_fit(lengths: tuple[int, ...], task: Task, field_name: str) -> None:
    """Refuse test or validation ``lengths`` that the task's position IDs cannot place (past
    ``task.longest_operand()``), naming ``field_name`` and the limit: known before training, not at the first
    validation after it. (A board task's widths are bounded per ID channel by its own config check.)"""
    if not lengths or task.config.task != "arithmetic":
        return
    top = task.longest_operand()
    too_long = sorted({k for k in lengths if k > top})
    if too_long:
        c = task.config
        raise ConfigError(f"{field_name} {too_long} exceed the longest operand this task can test: {top} digits "
                          f"(position IDs up to max_position={c.max_position} under {c.positions!r}); use lengths "
                          f"<= {top}, or a larger TaskConfig.max_position (and ModelConfig.max_positions)")


def check_training_plan(model_config, task: Task, cfg: TrainConfig) -> None:
    """Everything a run's configs must satisfy together, checked before the first step (:func:`fit` and ``zoo
    train`` call it): the model fits the task (:func:`check_compatible`), the stopping rule validates trained lengths,
    and checkpoint selection validates lengths the task can place."""
    check_compatible(model_config, task.config)
    if not isinstance(cfg, TrainConfig):
        raise ConfigError(f"fit needs a TrainConfig, got {type(cfg).__name__}; use TrainConfig.from_dict for a dict")
    check_stop_lengths(cfg, task)
    check_lengths_fit(cfg.select_lengths, task, "TrainConfig.select_lengths")


def _validate(model: Transformer, task: Task, selection: Selection, step: int) -> None:
    """Measure the validation lengths at ``step`` and keep the weights if their mean exact match is the best yet."""
    ems = _record_validation(model, task, selection.lengths, selection.n, selection.seed, step, selection.steps,
                             selection.curve)
    mean = float(np.mean(ems))
    if mean > selection.best:
        selection.best, selection.selected_step = mean, step
        selection.state = {k: v.detach().to("cpu", copy=True) for k, v in model.state_dict().items()}


def lr_at(step: int, cfg: TrainConfig) -> float:
    """Linear warm-up to ``lr``, then cosine decay to ``lr * min_lr_ratio`` at ``cfg.steps``."""
    if step < cfg.warmup_steps:
        return cfg.lr * (step + 1) / cfg.warmup_steps
    progress = (step - cfg.warmup_steps) / max(1, cfg.steps - cfg.warmup_steps)
    cosine = 0.5 * (1 + math.cos(math.pi * min(progress, 1.0)))
    return cfg.lr * (cfg.min_lr_ratio + (1 - cfg.min_lr_ratio) * cosine)


def loss_on(model: Transformer, batch) -> torch.Tensor:
    """Cross-entropy of the answer tokens; with column targets (``TaskConfig.carry_targets``, ``product_targets``)
    plus, at equal weight each, that of the carry head on each answer column's incoming carry and that of the
    product heads on its digit products."""
    inputs = batch.model_inputs(digits=model.cfg.reads_digits)
    if batch.carry_targets is None and batch.product_targets is None:
        logits = model(**inputs)
        return _cross_entropy(logits, batch.targets)
    logits, hidden = model(**inputs, return_hidden=True)
    carry, products = model.column_logits(hidden)
    loss = _cross_entropy(logits, batch.targets)
    if batch.carry_targets is not None:
        loss = loss + _cross_entropy(carry, batch.carry_targets)
    if batch.product_targets is not None:
        loss = loss + _cross_entropy(products.flatten(1, 2), batch.product_targets.flatten(1, 2))
    return loss


def _cross_entropy(logits: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
    """Mean cross-entropy over the supervised entries of ``targets`` ``[B, N]`` (``IGNORE_INDEX`` elsewhere)."""
    return F.cross_entropy(logits.float().flatten(0, 1), targets.flatten(), ignore_index=IGNORE_INDEX)


def fit(model: Transformer, task: Task, cfg: TrainConfig, *, progress: bool = True, log_every: int | None = None,
        state_path: str | Path | None = None, resume: bool = False, save_every: int = 0,
        callback: Callable[[int, float], None] | None = None, desc: str = "training",
        data_worker: str = "auto", data_workers: int | None = None,
        max_seconds: float | None = None) -> TrainResult:
    """Train ``model`` on ``task`` for ``cfg.steps`` steps; returns losses and wall-clock time.

    The model and task configs are checked against each other first (:func:`check_compatible`).
    With ``state_path`` the optimizer, step, RNG and the unfinished loss window are saved every
    ``save_every`` steps and at the end; ``resume=True`` continues from that file, which must exist and
    come from the same run (same model, task and TrainConfig): a resumed run logs exactly the losses of an
    uninterrupted one. ``resume=False`` starts fresh (and overwrites the file). ``callback(step, loss)``
    runs every ``log_every`` steps (default 50, or the saved run's value when resuming). ``data_worker`` draws the
    batches in a forked worker process ("process"), a background thread ("thread") or, "auto", the worker where
    ``fork`` exists and a second core is free (:func:`~lengen_utils.core.train_runtime.data_worker_mode`; the environment
    variable ``LENGEN_DATA_WORKER`` overrides "auto"). The batches, and so the run, are the same either way.
    ``data_workers`` > 1 draws them in that many worker processes, which needs ``cfg.data_seeding="per_step"``
    (each batch its own generator); ``None`` reads ``LENGEN_DATA_WORKERS`` for such a run, and is 1 otherwise.
    With ``cfg.select_every`` (the papers' checkpoint selection) the result's ``selection`` holds the validation curve
    and the selected weights; the model itself is left at its final step. With ``cfg.stop_every`` (the stopping rule,
    :class:`Mastery`) training stops once ``cfg.stop_patience`` validations in a row score 100% at every length of
    ``cfg.stop_lengths``, which must be trained lengths; the result's ``mastery`` holds the curve and ``steps`` the step it stopped at. ``max_seconds`` stops training at the first
    logged step past that many seconds (a bounded run on a lent machine): the result's ``steps`` then says how far it
    got, and the schedule is the planned one, cut short.
    """
    from tqdm.auto import tqdm

    check_training_plan(model.cfg, task, cfg)
    check_int("fit", "save_every", save_every, minimum=0)
    if max_seconds is not None and (isinstance(max_seconds, bool) or not isinstance(max_seconds, (int, float))
                                    or not max_seconds > 0):
        raise ConfigError(f"fit's max_seconds must be a number of seconds > 0, got {max_seconds!r}")
    if log_every is not None:
        check_int("fit", "log_every", log_every)
    if data_worker not in DATA_WORKERS:
        raise ConfigError(f"fit's data_worker must be one of {DATA_WORKERS}, got {data_worker!r}")
    try:
        workers = data_worker_count(data_workers, per_step=cfg.data_seeding == "per_step")
    except ValueError as err:
        raise ConfigError(f"fit: {err}") from None
    state = None
    if resume:
        if state_path is None:
            raise ConfigError("resume=True needs state_path, the training state to continue from")
        state = load_training_state(state_path)
        log_every = check_resumable(state, model, task, cfg, log_every, state_path)
    log_every = log_every or LOG_EVERY

    device = model.device
    keep_freed_memory()
    rng = seed_everything(cfg.seed)
    decay = [p for n, p in model.named_parameters() if p.dim() >= 2 and "position" not in n]
    no_decay = [p for n, p in model.named_parameters() if not (p.dim() >= 2 and "position" not in n)]
    opt = torch.optim.AdamW([{"params": decay, "weight_decay": cfg.weight_decay},
                             {"params": no_decay, "weight_decay": 0.0}], lr=cfg.lr, betas=cfg.betas)
    start, losses, window = 0, [], []
    selection = (Selection(cfg.select_lengths, cfg.select_n, cfg.select_every, SELECT_SEED) if cfg.selects else None)
    mastery = Mastery(cfg.stop_lengths, cfg.stop_n, cfg.stop_every, cfg.stop_patience) if cfg.stops_early else None
    if state is not None:
        try:
            model.load_state_dict(state["model"])
            opt.load_state_dict(state["optimizer"])
        except (RuntimeError, ValueError, KeyError) as err:
            raise CheckpointError(f"the training state at {state_path} does not fit this model "
                                  f"({error_summary(err)})") from None
        start, losses, window = int(state["step"]), list(state["losses"]), list(state.get("window", []))
        if selection is not None and state.get("selection") is not None:
            selection.restore(state["selection"])
        if mastery is not None and state.get("mastery") is not None:
            mastery.restore(state["mastery"])
        rng.bit_generator.state = _restore_rng_state(state["rng"])
        torch.set_rng_state(state["torch_rng"])

    def snapshot(step: int, rng_state: dict | None = None) -> None:
        """``rng_state``: the generator after the batches of steps < ``step`` (the prefetcher may be past it)."""
        if state_path is not None:
            save_training_state(state_path, {
                "model": model.state_dict(), "optimizer": opt.state_dict(), "step": step, "losses": losses,
                "window": [float(x) for x in window], "log_every": log_every,
                "rng": _rng_state(rng, rng_state),
                "torch_rng": torch.get_rng_state(), "train_config": cfg.to_dict(),
                "model_config": model.cfg.to_dict(), "task_config": task.config.to_dict(),
                "selection": None if selection is None else selection.saved(),
                "mastery": None if mastery is None else mastery.saved()})

    def draw(step: int):   # in the worker: the batch, and the generator's state after it (for snapshots)
        source = rng if cfg.data_seeding == "stream" else np.random.default_rng([cfg.seed, step])
        batch = task.train_batch(source, cfg.batch_size, progress=step / cfg.steps)   # curricula read progress
        return batch.without_examples(), rng.bit_generator.state

    model.train()
    t0 = time.perf_counter()
    # a resumed run that the stopping rule had stopped is finished: it trains no further step
    end = start if mastery is not None and mastery.stopped_step is not None else cfg.steps
    bar = tqdm(range(start, end), desc=desc, disable=not progress, initial=start, total=cfg.steps)
    if task.config.train_set_size:
        task.train_set()   # drawn once here: forked data workers inherit it instead of each drawing its own
    batches = prefetcher(draw, start, end, data_worker, workers)
    rng_state = None       # the generator after the last batch taken (a worker process draws from its own copy)
    done = end             # the step training ends at (earlier with max_seconds or the stopping rule)
    try:
        for step in bar:
            batch, rng_state = batches.take()
            _step(model, opt, cfg, step, batch.to(device), device, window, batches.release)
            logged = len(window) == log_every or step == cfg.steps - 1
            if logged:
                losses.append(float(np.mean([float(x) for x in window])))
                bar.set_postfix(loss=f"{losses[-1]:.4f}")
                window = []
            out_of_time = logged and max_seconds is not None and time.perf_counter() - t0 > max_seconds
            if selection is not None and ((step + 1) % cfg.select_every == 0 or step == cfg.steps - 1 or out_of_time):
                _validate(model, task, selection, step + 1)
                if progress:
                    bar.write(f"step {step + 1}: validation EM " + ", ".join(
                        f"{k}: {v[-1]:.3f}" for k, v in selection.curve.items()))
            mastered = (mastery is not None and (step + 1) % cfg.stop_every == 0 and step < cfg.steps - 1
                        and mastery.mastered(model, task, step + 1))
            if mastered and not logged:      # the loss log ends at the step training ends at
                losses.append(float(np.mean([float(x) for x in window])))
                window, logged = [], True
            if mastered and progress:
                bar.write(f"step {step + 1}: 100% exact match at the trained lengths {list(cfg.stop_lengths)}: stop")
            if save_every and (step + 1) % save_every == 0:
                snapshot(step + 1, rng_state)
            if logged and callback is not None:
                callback(step + 1, losses[-1])
            if out_of_time or mastered:
                done = step + 1
                break
    finally:
        batches.close()
        bar.close()
    seconds = time.perf_counter() - t0
    snapshot(done, rng_state)
    model.eval()
    return TrainResult(done - start, seconds, losses, log_every, selection, mastery)


def _step(model: Transformer, opt: torch.optim.Optimizer, cfg: TrainConfig, step: int, batch, device: torch.device,
          window: list, before_backward: Callable[[], None]) -> None:
    """One optimizer step on ``batch``; its loss (a tensor: no host sync) is appended to ``window``."""
    for group in opt.param_groups:
        group["lr"] = lr_at(step, cfg)
    with autocast(device, cfg.amp):
        loss = loss_on(model, batch)
    opt.zero_grad(set_to_none=True)
    before_backward()
    loss.backward()
    if cfg.grad_clip:
        torch.nn.utils.clip_grad_norm_(model.parameters(), cfg.grad_clip)
    opt.step()
    window.append(loss.detach())     # no host sync here: values are read only at log steps

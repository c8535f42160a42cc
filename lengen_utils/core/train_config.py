"""A training run's optimizer, schedule and protocol (:class:`TrainConfig`), checked field by field when it is built.

Its own module so that recipes and reports read it without the training loop (:mod:`.train`, which re-exports it).
"""
from __future__ import annotations

import math
from dataclasses import asdict, dataclass

from .config_checks import ConfigError, check_bool, check_choice, check_field_types, check_int, config_from_dict

#: How a run draws its batches: "stream" (one generator seeded with ``seed``, batch after batch: every stored model)
#: or "per_step" (batch i from a generator seeded with ``(seed, i)``: any number of worker processes can draw them,
#: and get the same batches; for runs whose data preparation outpaces one worker, as on a GPU)
DATA_SEEDINGS = ("stream", "per_step")


@dataclass(frozen=True)
class TrainConfig:
    """Optimizer and schedule of one run. Every field is checked when the config is built."""

    steps: int = 2000
    batch_size: int = 128
    lr: float = 1e-3
    weight_decay: float = 0.0
    warmup_steps: int = 100
    min_lr_ratio: float = 0.1          # cosine decays to lr * min_lr_ratio
    grad_clip: float = 1.0             # 0 disables clipping
    betas: tuple[float, float] = (0.9, 0.98)
    seed: int = 0
    amp: bool = True                   # bf16 autocast on CUDA only
    data_seeding: str = "stream"       # "stream": one generator, batch after batch; "per_step": batch i from (seed, i)
    select_lengths: tuple[int, ...] = ()   # checkpoint selection (the papers' protocol): validation lengths
    select_n: int = 100                # validation problems per length
    select_every: int = 0              # steps between two validations (0: no selection, the final checkpoint)
    stop_lengths: tuple[int, ...] = ()     # stopping rule: trained operand lengths validated (all 100%: stop)
    stop_n: int = 200                  # validation problems per length of the stopping rule
    stop_every: int = 0                # steps between two validations of the stopping rule (0: train every step)
    stop_patience: int = 1             # consecutive validations with every sum right before the rule stops

    def __post_init__(self) -> None:
        check_field_types(self)
        own = "TrainConfig"
        check_int(own, "steps", self.steps)
        check_int(own, "batch_size", self.batch_size)
        check_int(own, "warmup_steps", self.warmup_steps, minimum=0)
        check_int(own, "seed", self.seed, minimum=0)
        check_bool(own, "amp", self.amp)
        check_choice(own, "data_seeding", self.data_seeding, DATA_SEEDINGS)
        _check_number(own, "lr", self.lr, low=0, strict=True)
        _check_number(own, "weight_decay", self.weight_decay, low=0)
        _check_number(own, "grad_clip", self.grad_clip, low=0)
        _check_number(own, "min_lr_ratio", self.min_lr_ratio, low=0, high=1)
        betas = self.betas
        if not isinstance(betas, (tuple, list)) or len(betas) != 2:
            raise ConfigError(f"{own}.betas must be two numbers in [0, 1), got {betas!r}")
        for beta in betas:
            _check_number(own, "betas", beta, low=0, high=1, open_high=True)
        object.__setattr__(self, "betas", tuple(float(x) for x in betas))
        self._check_selection()
        self._check_stopping_rule()

    def _check_stopping_rule(self) -> None:
        """The stopping rule needs both its lengths and its interval, or neither (the trained range is checked
        by :func:`fit`, which knows the task)."""
        self._check_validation("stop", "the stopping rule", "trained operand lengths")
        check_int("TrainConfig", "stop_patience", self.stop_patience)

    def _check_selection(self) -> None:
        """Checkpoint selection needs both its lengths and its interval, or neither."""
        self._check_validation("select", "checkpoint selection", "operand lengths")

    def _check_validation(self, prefix: str, what: str, lengths_are: str) -> None:
        """``{prefix}_lengths`` (a list of ints, stored as a tuple), ``{prefix}_n`` and ``{prefix}_every``: the
        fields of a validation during training, which needs its lengths and its interval together."""
        own, lengths = "TrainConfig", getattr(self, f"{prefix}_lengths")
        if not isinstance(lengths, (tuple, list)):
            raise ConfigError(f"{own}.{prefix}_lengths must be a list of {lengths_are}, got {lengths!r}")
        for length in lengths:
            check_int(own, f"{prefix}_lengths", length)
        object.__setattr__(self, f"{prefix}_lengths", tuple(int(x) for x in lengths))
        every = getattr(self, f"{prefix}_every")
        check_int(own, f"{prefix}_n", getattr(self, f"{prefix}_n"))
        check_int(own, f"{prefix}_every", every, minimum=0)
        if bool(every) != bool(lengths):
            raise ConfigError(f"{what} needs {prefix}_every > 0 and {prefix}_lengths together; got "
                              f"{prefix}_every={every}, {prefix}_lengths={list(lengths)}")

    @property
    def stops_early(self) -> bool:
        """True when training stops once validations find the trained lengths mastered (the stopping rule)."""
        return bool(self.stop_every)

    @property
    def selects(self) -> bool:
        """True when training keeps the checkpoint that scores best on the validation lengths."""
        return bool(self.select_every)

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict) -> "TrainConfig":
        return config_from_dict(cls, data)


def _check_number(owner: str, name: str, value, low: float, high: float | None = None, strict: bool = False,
                  open_high: bool = False) -> None:
    ok = not isinstance(value, bool) and isinstance(value, (int, float)) and math.isfinite(value)
    ok = ok and (value > low if strict else value >= low)
    if ok and high is not None:
        ok = value < high if open_high else value <= high
    if not ok:
        lo = f"> {low}" if strict else f">= {low}"
        hi = "" if high is None else (f" and < {high}" if open_high else f" and <= {high}")
        raise ConfigError(f"{owner}.{name} must be a finite number {lo}{hi}, got {value!r}")

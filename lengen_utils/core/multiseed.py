"""K seeds of one config trained as one batched model (``python -m lengen_utils.lab.multiseed_bench --k 4`` times it).

The K models' parameters are stacked (``torch.func.stack_module_state``) and one forward pass runs all
of them with ``vmap`` over ``functional_call``. Each seed keeps what a separate :func:`~lengen_utils.core.train.fit`
would give it: its initialisation is ``torch.manual_seed(seed); Transformer(cfg)`` (as a zoo entry
builds it), its data stream is ``numpy.random.default_rng(seed)`` (as ``fit`` draws it), its loss is its
own mean, and AdamW, the learning-rate schedule and gradient clipping act on each seed separately.
So the runs match K separate fits up to floating-point rounding. Small models leave a device mostly
idle; batching the seeds fills it with one kernel where K would run one after another.

Two limits: ``dropout`` must be 0, and UPE (multiplication) is not supported (its input check reads a
tensor value, which ``vmap`` forbids). When attention has a learned bias (RPE, the relative scalar bias)
SDPA is pinned to its math backend, whose gradient reaches the bias under ``vmap``; otherwise the fused
kernel runs once per seed (``vmap`` has no batching rule for it yet). That math path runs in float32 on CUDA
too: under bf16 autocast its batched softmax backward fails ("expected input and grad types to match",
torch 2.11 on an H200), so :func:`batched_amp` turns autocast off there.
"""
from __future__ import annotations

import contextlib
import copy
import time
import warnings
from typing import Sequence

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn
from torch.func import functional_call, stack_module_state, vmap

try:
    from torch.nn.attention import SDPBackend, sdpa_kernel

    def _math_attention():
        return sdpa_kernel(SDPBackend.MATH)
except ImportError:  # torch < 2.3
    def _math_attention():
        return torch.backends.cuda.sdp_kernel(enable_flash=False, enable_math=True, enable_mem_efficient=False)

from .constants import IGNORE_INDEX
from .device import autocast, pick_device
from .model import ModelConfig, Transformer
from .config_checks import ConfigError, check_int, require_ints
from .tasks import Task
from .train import TrainConfig, TrainResult, check_training_plan, lr_at


class _Layers(nn.Module):
    """The Transformer's forward without its input checks (they read tensor values, which vmap forbids;
    :func:`fit_seeds` runs them on the stacked batch instead)."""

    def __init__(self, model: Transformer):
        super().__init__()
        self.model = model

    def forward(self, tokens, position_ids, key_padding, uniform_slots):
        m = self.model
        x = m.embed(tokens)
        if m.position is not None:
            x = x + m.position(position_ids).to(x.dtype)
        for block in m.blocks:
            x = block(x, position_ids, key_padding, uniform_slots)[0]
        return m.head(m.norm(x))


def init_models(cfg: ModelConfig, seeds: Sequence[int]) -> list[Transformer]:
    """One freshly initialised model per seed, exactly as ``torch.manual_seed(seed); Transformer(cfg)``. Seeds
    that are not ints (a bare int for the set, the string '1') raise ``ValueError`` naming their type."""
    models = []
    for seed in require_ints(seeds, "seeds", error=ValueError, kind="a list"):
        torch.manual_seed(seed)
        models.append(Transformer(cfg))
    return models


def _stack_batches(batches) -> dict:
    """Pad K batches to one length and stack them: ``[K, B, T]`` tensors (padding is masked and unsupervised)."""
    T = max(b.tokens.shape[1] for b in batches)

    def stack(name: str, value) -> torch.Tensor:
        return torch.stack([F.pad(getattr(b, name), (0, T - b.tokens.shape[1]), value=value) for b in batches])

    out = {"tokens": stack("tokens", 0), "position_ids": stack("position_ids", 0),
           "key_padding": stack("key_padding", False), "targets": stack("targets", IGNORE_INDEX)}
    out["uniform_slots"] = None if batches[0].uniform_slots is None else stack("uniform_slots", 0)
    return out


def check_seeds_config(cfg: ModelConfig, seeds: Sequence[int]) -> None:
    """What :func:`fit_seeds` supports: a ModelConfig (it builds each seed's model), distinct seeds >= 0,
    no dropout, one position-ID channel, no arithmetic heads, no UPE. Raises ``ValueError``."""
    if isinstance(cfg, Transformer):
        raise ConfigError("fit_seeds takes a ModelConfig, not a Transformer: it builds one model per seed "
                          "(torch.manual_seed(seed); Transformer(cfg)); pass model.cfg, or train this model "
                          "with lengen_utils.core.train.fit")
    if not isinstance(cfg, ModelConfig):
        raise ConfigError(f"fit_seeds takes a ModelConfig, got {type(cfg).__name__}; use ModelConfig.from_dict "
                          f"for a dict")
    if isinstance(seeds, (str, bytes)) or not isinstance(seeds, Sequence):
        raise ValueError(f"seeds must be a list of whole numbers >= 0, got {seeds!r}")
    if not seeds:
        raise ValueError("fit_seeds needs at least one seed")
    bad = [s for s in seeds if isinstance(s, bool) or not isinstance(s, (int, np.integer)) or s < 0]
    if bad:
        raise ValueError(f"seeds must be whole numbers >= 0, got {bad[0]!r} in {list(seeds)}")
    if len(set(seeds)) != len(seeds):
        raise ValueError(f"seeds must be distinct, got {list(seeds)}")
    if cfg.dropout:
        raise ValueError(f"fit_seeds supports dropout = 0 only, got {cfg.dropout}")
    if cfg.arithmetic_heads or cfg.position_channels != 1:   # their extra inputs are not stacked per seed
        raise ValueError(f"fit_seeds supports one position-ID channel and no arithmetic heads, got "
                         f"position_channels={cfg.position_channels}, arithmetic_heads={cfg.arithmetic_heads}; "
                         f"train these one seed at a time with lengen_utils.core.train.fit")
    if cfg.encoding == "upe":
        raise ValueError("fit_seeds does not support the upe encoding (its input check cannot run under vmap)")


def _learned_bias(cfg: ModelConfig) -> bool:
    """Whether attention adds a learned bias (RPE, the relative scalar bias): SDPA then runs its math backend."""
    return cfg.encoding == "rpe" or cfg.relative_bias


def batched_amp(cfg: ModelConfig, train: TrainConfig) -> bool:
    """Whether :func:`fit_seeds` runs under bf16 autocast: as ``train.amp`` asks, except where a learned attention
    bias pins SDPA's math backend, whose batched softmax backward fails under autocast on CUDA."""
    return train.amp and not _learned_bias(cfg)


def fit_seeds(cfg: ModelConfig, task: Task, train: TrainConfig, seeds: Sequence[int], *,
              device: torch.device | str | None = None, log_every: int = 50,
              progress: bool = False) -> list[tuple[Transformer, TrainResult]]:
    """Train one model per seed as a single batched model; ``train.seed`` is ignored (``seeds`` rule).

    Returns ``(model, TrainResult)`` per seed, ordinary :class:`Transformer` s in eval mode on ``device``;
    each result's ``seconds`` is the wall time of the whole batched run.
    """
    from tqdm.auto import tqdm

    check_seeds_config(cfg, seeds)
    if not isinstance(task, Task):
        raise ConfigError(f"fit_seeds needs a Task, got {type(task).__name__}; wrap the config: Task(task_config)")
    if not isinstance(train, TrainConfig):
        raise ConfigError(f"fit_seeds needs a TrainConfig, got {type(train).__name__}; use TrainConfig.from_dict "
                          f"for a dict")
    check_training_plan(cfg, task, train)              # the checks fit runs, before step 1
    check_int("fit_seeds", "log_every", log_every)
    seeds = [int(s) for s in seeds]
    dev = pick_device(str(device)) if device is not None else pick_device()
    models = [m.to(dev) for m in init_models(cfg, seeds)]
    params, buffers = stack_module_state(models)
    params = {k: v.detach().requires_grad_(True) for k, v in params.items()}
    skeleton = _Layers(copy.deepcopy(models[0]).to("meta"))
    shapes = dict(models[0].named_parameters())
    decay = [p for n, p in params.items() if shapes[n].dim() >= 2 and "position" not in n]
    no_decay = [p for n, p in params.items() if not (shapes[n].dim() >= 2 and "position" not in n)]
    opt = torch.optim.AdamW([{"params": decay, "weight_decay": train.weight_decay},
                             {"params": no_decay, "weight_decay": 0.0}], lr=train.lr, betas=train.betas)
    rngs = [np.random.default_rng(s) for s in seeds]
    K = len(seeds)
    learned_bias = _learned_bias(cfg)
    amp = batched_amp(cfg, train)

    def one(p, b, tokens, position_ids, key_padding, uniform_slots):
        state = ({f"model.{k}": v for k, v in p.items()}, {f"model.{k}": v for k, v in b.items()})
        return functional_call(skeleton, state, (tokens, position_ids, key_padding, uniform_slots))

    losses: list[list[float]] = [[] for _ in seeds]
    window: list[torch.Tensor] = []
    t0 = time.perf_counter()
    for step in tqdm(range(train.steps), desc=f"training {K} seeds", disable=not progress):
        for group in opt.param_groups:
            group["lr"] = lr_at(step, train)
        batch = _stack_batches([task.train_batch(rng, train.batch_size) for rng in rngs])
        models[0].check_inputs(*(batch[k].flatten(0, 1) for k in ("tokens", "position_ids", "key_padding")))
        batch = {k: None if v is None else v.to(dev, non_blocking=True) for k, v in batch.items()}
        slots_dim = None if batch["uniform_slots"] is None else 0
        run = vmap(one, in_dims=(0, 0, 0, 0, 0, slots_dim), randomness="different")
        with autocast(dev, amp), _math_attention() if learned_bias else contextlib.nullcontext(), \
                warnings.catch_warnings():
            warnings.filterwarnings("ignore", message=".*batching rule.*")
            logits = run(params, buffers, batch["tokens"], batch["position_ids"], batch["key_padding"],
                         batch["uniform_slots"])
        targets = batch["targets"].flatten(1)
        ce = F.cross_entropy(logits.float().flatten(0, 2), targets.flatten(), ignore_index=IGNORE_INDEX,
                             reduction="none").view(K, -1)
        per_seed = ce.sum(1) / (targets != IGNORE_INDEX).sum(1).clamp(min=1)
        opt.zero_grad(set_to_none=True)
        per_seed.sum().backward()
        if train.grad_clip:
            _clip_per_seed(list(params.values()), train.grad_clip)
        opt.step()
        window.append(per_seed.detach())
        if len(window) == log_every or step == train.steps - 1:
            mean = torch.stack(window).mean(0).tolist()
            for k in range(K):
                losses[k].append(float(mean[k]))
            window = []
    seconds = time.perf_counter() - t0
    with torch.no_grad():
        for k, model in enumerate(models):
            for name, p in model.named_parameters():
                p.copy_(params[name][k])
            model.eval()
    return [(m, TrainResult(train.steps, seconds, losses[k], log_every)) for k, m in enumerate(models)]


def _clip_per_seed(params: list[torch.Tensor], max_norm: float) -> None:
    """``clip_grad_norm_`` applied to each seed's slice separately (dimension 0 indexes the seed)."""
    grads = [p.grad for p in params if p.grad is not None]
    norms = torch.stack([g.float().pow(2).flatten(1).sum(1) for g in grads]).sum(0).sqrt()     # [K]
    coef = (max_norm / (norms + 1e-6)).clamp(max=1.0)
    for g in grads:
        g.mul_(coef.view(-1, *[1] * (g.dim() - 1)).to(g.dtype))

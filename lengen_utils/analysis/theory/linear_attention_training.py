"""Sabbaghi et al., Proposition 5.1, simulated: train the APE, APE + shift and RPE linear-attention models
by gradient descent on the exact population loss of :mod:`.linear_attention`, and measure the test loss
at every position of the ring (Figure 9; the learned attention coefficients of Figure 16).
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass

import numpy as np
import torch

from .linear_attention import (KINDS, LinearAttentionConfig, LinearAttentionKind, check_kind, attention_matrix,
                               pairwise_sq_error, population_loss, target_matrix, train_mask_second_moment,
                               train_masks)

__all__ = [
    "LinearAttentionResult", "train_linear_attention", "per_position_test_loss", "seen_positions",
    "unseen_interior", "seen_interior", "train_all",
]

@dataclass
class LinearAttentionResult:
    """A trained model and what the figures need.

    * ``gram``: the ``n x n`` matrix ``A`` of attention coefficients, ``A_ij = p_i^T p_j`` for APE
      (Figure 16a/b) and ``A_ij = p_{i-j}^T u`` (a circulant matrix) for RPE;
    * ``rel_coeffs`` (RPE only): ``a_k = p_k^T u`` for the ring offsets ``k = -(n-1)//2 .. n//2``, in
      that order (Figure 16c uses the index ``k + (n-1)/2``); ``rel_offsets`` holds the ``k``;
    * ``positional``: the learned vectors (``n x d``: ``p_i`` for APE, ``p_k`` at offset ``k mod n``
      for RPE), ``u`` (RPE) and ``v``, ``theta``;
    * ``train_loss``: the exact population training loss, sampled every ``config.log_every`` steps at
      ``loss_steps`` (Figure 9a).
    """

    kind: str
    config: LinearAttentionConfig
    gram: np.ndarray
    positional: np.ndarray
    v: np.ndarray
    theta: np.ndarray
    u: np.ndarray | None
    rel_offsets: np.ndarray | None
    rel_coeffs: np.ndarray | None
    loss_steps: np.ndarray
    train_loss: np.ndarray
    seconds: float = 0.0

    @property
    def alignment(self) -> float:
        """``<v, theta>``: the predicted output is ``<v,theta> A`` applied to ``<theta, x>``."""
        return float(self.v @ self.theta)

    @property
    def effective(self) -> np.ndarray:
        """``<v,theta> A``, the matrix that should equal the target ``B`` for generalisation."""
        return self.alignment * self.gram

    def final_train_loss(self) -> float:
        return float(self.train_loss[-1]) if len(self.train_loss) else float("nan")


def _init_parameters(kind: str, config: LinearAttentionConfig):
    gen = torch.Generator().manual_seed(config.seed)
    dt = torch.float64
    std = config.init_scale / math.sqrt(config.d)
    theta = torch.randn(config.d, generator=gen, dtype=dt)
    theta = theta / theta.norm()
    positional = torch.randn(config.n, config.d, generator=gen, dtype=dt) * std
    u = torch.randn(config.d, generator=gen, dtype=dt) * std if kind == "rpe" else None
    if config.v_init == "theta":
        v = theta.clone()
    else:
        v = torch.randn(config.d, generator=gen, dtype=dt) * std
    return theta, positional, u, v


def train_linear_attention(kind: LinearAttentionKind, config: LinearAttentionConfig | None = None) -> LinearAttentionResult:
    """Train one of the three models by full-batch GD with weight decay on the exact population loss.

    The loss is the closed form of :func:`population_loss` (no sampling), so the run is
    deterministic given ``config.seed``. About 1-2 s for the paper's sizes (2000 steps) on one CPU thread.
    """
    check_kind(kind)
    config = config or LinearAttentionConfig()
    start = time.perf_counter()
    theta, positional, u, v = _init_parameters(kind, config)
    B = torch.as_tensor(target_matrix(config.n, config.alpha, config.beta))
    masks = train_masks(kind, config.n, config.n1)
    C = torch.as_tensor(train_mask_second_moment(kind, config.n, config.n1))
    n_supervised = float(masks.sum(axis=1).mean())

    params = [positional.requires_grad_()]
    if u is not None:
        params.append(u.requires_grad_())
    if config.train_v:
        params.append(v.requires_grad_())
    opt = torch.optim.SGD(params, lr=config.lr, weight_decay=config.weight_decay)
    steps, losses = [], []
    for step in range(config.steps + 1):
        opt.zero_grad()
        A = attention_matrix(kind, positional, u)
        loss = population_loss(A, v, theta, B, C, n_supervised)
        if step % config.log_every == 0 or step == config.steps:
            steps.append(step)
            losses.append(loss.item())
        if step == config.steps:
            break
        loss.backward()
        opt.step()

    with torch.no_grad():
        A = attention_matrix(kind, positional, u).numpy().copy()
        rel_offsets = rel_coeffs = None
        if kind == "rpe":
            a = (positional @ u).numpy()
            n = config.n
            rel_offsets = np.arange(-((n - 1) // 2), n // 2 + 1)
            rel_coeffs = a[rel_offsets % n]
    return LinearAttentionResult(
        kind=kind,
        config=config,
        gram=A,
        positional=positional.detach().numpy().copy(),
        v=v.detach().numpy().copy(),
        theta=theta.numpy().copy(),
        u=None if u is None else u.detach().numpy().copy(),
        rel_offsets=rel_offsets,
        rel_coeffs=rel_coeffs,
        loss_steps=np.asarray(steps),
        train_loss=np.asarray(losses),
        seconds=time.perf_counter() - start,
    )


def per_position_test_loss(result: LinearAttentionResult, n_samples: int | None = None, seed: int = 0) -> np.ndarray:
    """Test loss ``E[(y_hat_i - y_i)^2]`` at each position when *all* positions are Gaussian (Figure 9b).

    ``n_samples=None`` (default): exact, ``sum_r q_ir``. An integer: a Monte Carlo average over that many
    sequences, like the paper's figure (5000 samples), noise included.
    """
    cfg = result.config
    A = torch.as_tensor(result.gram)
    v = torch.as_tensor(result.v)
    theta = torch.as_tensor(result.theta)
    B = torch.as_tensor(target_matrix(cfg.n, cfg.alpha, cfg.beta))
    if n_samples is None:
        return pairwise_sq_error(A, v, theta, B).sum(dim=1).numpy()
    gen = torch.Generator().manual_seed(seed)
    out = torch.zeros(cfg.n, dtype=torch.float64)
    done = 0
    while done < n_samples:  # chunks keep the memory small for d = 200
        k = min(1000, n_samples - done)
        x = torch.randn(k, cfg.n, cfg.d, generator=gen, dtype=torch.float64)
        err = (x @ v) @ A.T - (x @ theta) @ B.T
        out += (err**2).sum(dim=0)
        done += k
    return (out / n_samples).numpy()


def seen_positions(result: LinearAttentionResult) -> np.ndarray:
    """Boolean mask of the positions that carried data in the unshifted training block (``0..n1-1``)."""
    mask = np.zeros(result.config.n, dtype=bool)
    mask[: result.config.n1] = True
    return mask


def unseen_interior(result: LinearAttentionResult) -> np.ndarray:
    """Padded positions that are not ring neighbours of the block (``n1+1 .. n-2``)."""
    cfg = result.config
    mask = np.zeros(cfg.n, dtype=bool)
    mask[cfg.n1 + 1 : cfg.n - 1] = True
    return mask


def seen_interior(result: LinearAttentionResult) -> np.ndarray:
    """Block positions whose two ring neighbours are also in the block (``1..n1-2``)."""
    cfg = result.config
    mask = np.zeros(cfg.n, dtype=bool)
    mask[1 : cfg.n1 - 1] = True
    return mask


def train_all(config: LinearAttentionConfig | None = None) -> dict[str, LinearAttentionResult]:
    """The three models of Figure 9 with one config."""
    return {kind: train_linear_attention(kind, config) for kind in KINDS}

"""Sabbaghi et al., Section 5, Proposition 5.1 and Appendix D: the setting and its exact population loss.

A seq-to-seq regression task on a ring of ``n`` positions (eq. 5.1)::

    y_i = alpha <theta, x_i> + beta <theta, x_{i-1}> + beta <theta, x_{i+1}>,   indices mod n,

with ``x_i in R^d`` and a unit vector ``theta``. During training only the positions of a block of
length ``n1`` carry Gaussian inputs ``x_i ~ N(0, I_d)``; the others are zero ("padded") and the loss
is taken only on the non-padded positions (eq. D.2). At test time every position is Gaussian.

The model is the factored linear attention of eq. 5.2 with ``W_K = W_Q = W`` absorbed into the
positional vectors and ``v = W_V^T h`` (eq. D.1)::

    y_hat_i = sum_r A_ir <v, x_r>,

* ``'ape'``:       ``A_ir = p_i^T p_r`` (one learned vector ``p_i in R^d`` per position); trained on the
  block at positions ``0..n1-1`` only (Appendix D.1);
* ``'ape_shift'``: the same model, trained with the shift augmentation of Appendix D.2: the block of
  ``n1`` Gaussian positions is placed at each of the ``n`` circular shifts with equal weight (eq. D.4);
* ``'rpe'``:       ``A_ir = p_{i-r}^T u`` (one learned vector per relative offset, taken mod ``n`` on the
  ring, and a learned query vector ``u``; eqs. D.11-D.12); trained on the unshifted block like APE.

Population loss in closed form (exact, no sampling). Write ``B`` for the circulant target matrix
(``alpha`` on the diagonal, ``beta`` on the two ring neighbours) and ``m`` for the 0/1 mask of the
non-padded positions. Given the mask, ``y_hat_i - y_i = sum_r m_r (A_ir v - B_ir theta)^T x_r`` is a
centred Gaussian, so::

    E[(y_hat_i - y_i)^2 | m] = sum_r m_r q_ir,   q_ir = A_ir^2 |v|^2 - 2 A_ir B_ir <v,theta> + B_ir^2.

Averaging the loss over the supervised positions and over the mask distribution gives
``L = sum_{i,r} C_ir q_ir / E[sum_i m_i]`` with ``C = E[m m^T]`` (:func:`train_mask_second_moment`).
The test loss at position ``i`` (all positions Gaussian) is ``sum_r q_ir``
(:func:`per_position_test_loss`). Training is plain full-batch gradient descent on this exact
population loss, with weight decay ``weight_decay`` on every parameter (``torch.optim.SGD``'s coupled
L2 decay). The paper's claims, which :func:`train_linear_attention` reproduces:

* APE: the vectors of the never-seen positions get no gradient, so weight decay sends them to 0 and
  the test loss there tends to ``alpha^2 + 2 beta^2`` (:func:`expected_unseen_loss_ape`);
* APE + shift augmentation: the entries ``p_i^T p_j`` with ring distance ``< n1`` are learned, the
  farther ones are never supervised but move with the shared vectors and stay far from 0, so the test
  loss stays high everywhere, of order ``n/d`` as Appendix D.2 says (weight decay does not help: it
  acts like a trace penalty on ``A = P P^T``, and the trace is fixed by the supervised diagonal);
* RPE: ``a_k = p_k^T u`` is learned as ``alpha, beta, beta`` at offsets ``0, +-1`` and 0 elsewhere
  (the unsupervised offsets are removed by weight decay), so the test loss tends to 0 everywhere.

With the default config (the paper's n = 51, n1 = 10, d = 200; alpha = 1, beta = 0.4, 2000 steps) the
exact per-position test losses are: APE 3e-4 at the seen interior, beta^2 = 0.16 at the two block
ends, 1.319 at every unseen position (alpha^2 + 2 beta^2 = 1.32); APE + shift 0.08-0.23 everywhere
(mean 0.15; 0.57, 0.30, 0.15, 0.07 for d = 50, 100, 200, 400, i.e. about 0.57 n/d); RPE 1e-4
everywhere. Each run takes 1-2 s on one CPU thread.

This module holds the setting (:class:`LinearAttentionConfig`, :func:`target_matrix`, the training
masks) and the loss in closed form and by sampling; :mod:`.linear_attention_training` trains the three
models on it and measures their test loss per position.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np
import torch

__all__ = [
    "LinearAttentionKind", "KINDS", "LinearAttentionConfig", "expected_unseen_loss_ape", "target_matrix",
    "train_masks", "train_mask_second_moment", "attention_matrix", "pairwise_sq_error", "population_loss",
    "monte_carlo_loss",
]

LinearAttentionKind = Literal["ape", "ape_shift", "rpe"]
KINDS: tuple[str, ...] = ("ape", "ape_shift", "rpe")


@dataclass(frozen=True)
class LinearAttentionConfig:
    """Hyper-parameters of the Section 5 experiment.

    ``n = 51, n1 = 10, d = 200`` are the paper's Figure 9 values (the paper does not give
    ``alpha, beta``, the step size or the decay; ours are chosen so that the circulant target is
    positive definite, ``alpha > 2 beta``, and so that ``lr * weight_decay * steps = 4``: a parameter
    that gets no gradient shrinks by ``e^-4`` (so ``p_k^T p_k`` by ``e^-8``), while the supervised ones
    are biased by only ``O(weight_decay)``).

    ``init_scale``: every positional vector (and ``u``) starts as ``N(0, init_scale^2 I_d / d)``, so
    ``|p_i|^2 ~ init_scale^2`` and ``p_i^T p_j ~ init_scale^2 / sqrt(d)`` (the initialisation assumed
    in Appendix D.2). ``v_init='theta'`` starts ``v`` at ``theta`` as Appendix D.1 does; ``'random'``
    draws it like the positional vectors. ``train_v=False`` keeps ``v`` fixed.
    """

    n: int = 51
    n1: int = 10
    d: int = 200
    alpha: float = 1.0
    beta: float = 0.4
    steps: int = 2000
    lr: float = 0.2
    weight_decay: float = 1e-2
    seed: int = 0
    init_scale: float = 1.0
    train_v: bool = True
    v_init: Literal["theta", "random"] = "theta"
    log_every: int = 10

    def __post_init__(self) -> None:
        if not (1 <= self.n1 <= self.n):
            raise ValueError(f"need 1 <= n1 <= n, got n1={self.n1}, n={self.n}")
        if self.n < 3:
            raise ValueError(f"the ring needs n >= 3 positions, got n={self.n}")
        if self.d < 1 or self.steps < 0 or self.lr <= 0 or self.weight_decay < 0 or self.log_every < 1:
            raise ValueError(f"bad optimisation settings in {self}")
        if self.v_init not in ("theta", "random"):
            raise ValueError(f"v_init must be 'theta' or 'random', got {self.v_init!r}")



def expected_unseen_loss_ape(alpha: float, beta: float) -> float:
    """Appendix D.1: the APE test loss at a position whose vector has decayed to 0: ``alpha^2 + 2 beta^2``."""
    return alpha**2 + 2 * beta**2


def target_matrix(n: int, alpha: float, beta: float) -> np.ndarray:
    """The circulant ``B`` with ``y = B s`` for ``s_i = <theta, x_i>`` (eq. 5.1 on the ring)."""
    if n < 3:
        raise ValueError(f"the ring needs n >= 3 positions, got n={n}")
    eye = np.eye(n)
    return alpha * eye + beta * (np.roll(eye, 1, axis=1) + np.roll(eye, -1, axis=1))


def train_masks(kind: str, n: int, n1: int) -> np.ndarray:
    """The training masks (rows, equally likely) of the non-padded positions.

    ``'ape'`` and ``'rpe'``: the single block ``0..n1-1``. ``'ape_shift'``: the ``n`` circular shifts
    of that block (Appendix D.2).
    """
    check_kind(kind)
    block = np.zeros(n)
    block[:n1] = 1.0
    if kind == "ape_shift":
        return np.stack([np.roll(block, k) for k in range(n)])
    return block[None, :]


def train_mask_second_moment(kind: str, n: int, n1: int) -> np.ndarray:
    """``C = E[m m^T]`` over the training masks: ``C_ir`` = P(positions i and r both non-padded)."""
    masks = train_masks(kind, n, n1)
    return masks.T @ masks / len(masks)


def check_kind(kind: str) -> None:
    """ValueError unless ``kind`` is one of :data:`KINDS`."""
    if kind not in KINDS:
        raise ValueError(f"unknown model kind {kind!r}; expected one of {KINDS}")


def _circulant_from_offsets(a: torch.Tensor) -> torch.Tensor:
    """``A_ir = a[(i - r) mod n]``."""
    n = a.shape[0]
    idx = (torch.arange(n)[:, None] - torch.arange(n)[None, :]) % n
    return a[idx]


def attention_matrix(kind: str, positional: torch.Tensor, u: torch.Tensor | None = None) -> torch.Tensor:
    """``A`` from the parameters: ``P P^T`` for APE, the circulant of ``P u`` for RPE."""
    check_kind(kind)
    if kind == "rpe":
        if u is None:
            raise ValueError("the RPE model needs the query vector u")
        return _circulant_from_offsets(positional @ u)
    return positional @ positional.T


def pairwise_sq_error(A: torch.Tensor, v: torch.Tensor, theta: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
    """``q_ir = |A_ir v - B_ir theta|^2 = A_ir^2 |v|^2 - 2 A_ir B_ir <v,theta> + B_ir^2``."""
    return A**2 * (v @ v) - 2 * A * B * (v @ theta) + B**2


def population_loss(
    A: torch.Tensor, v: torch.Tensor, theta: torch.Tensor, B: torch.Tensor, C: torch.Tensor, n_supervised: float
) -> torch.Tensor:
    """Exact expected training loss per supervised position, ``sum_ir C_ir q_ir / n_supervised``."""
    return (C * pairwise_sq_error(A, v, theta, B)).sum() / n_supervised


def monte_carlo_loss(
    A: torch.Tensor,
    v: torch.Tensor,
    theta: torch.Tensor,
    B: torch.Tensor,
    masks: torch.Tensor,
    n_samples: int,
    generator: torch.Generator | None = None,
) -> torch.Tensor:
    """The same loss estimated from ``n_samples`` sequences (mask drawn uniformly from ``masks``).

    Differentiable, so its gradient can be compared with that of :func:`population_loss`.
    """
    n, d = A.shape[0], v.shape[0]
    pick = torch.randint(len(masks), (n_samples,), generator=generator)
    m = masks[pick]  # (N, n)
    x = torch.randn(n_samples, n, d, generator=generator, dtype=A.dtype) * m[:, :, None]
    y_hat = (x @ v) @ A.T  # (N, n): sum_r A_ir <v, x_r>
    y = (x @ theta) @ B.T
    n_supervised = masks.sum(dim=1).mean()
    return ((y_hat - y) ** 2 * m).sum(dim=1).mean() / n_supervised

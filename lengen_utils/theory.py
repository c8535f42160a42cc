"""Two small theoretical results, computed rather than only quoted.

Part A: Sabbaghi et al., Section 5, Proposition 5.1 and Appendix D
-------------------------------------------------------------------
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

Part B: Cho et al., Section 5.2, Proposition 5.2
------------------------------------------------
A 1-layer decoder without positional encoding predicts the next token as a function of the *multiset*
of the tokens so far and of the last token. For the query ``$a+b=`` the last token is always ``=``,
so the first answer token depends only on the multiset of the query's digits; the second is computed
from the query plus the first answer token, i.e. again from (multiset of the query, first answer
token), which is itself a function of that multiset; by induction the whole greedy response is a
function of the multiset of the query's digits. Among all queries sharing one multiset the model can
therefore be right on at most the largest group that shares one sum, and::

    max EM = sum over digit multisets M of max_s #{(a, b) in class M : a + b = s} / #queries.

Which operand distribution reproduces the paper (6.2% / 1% / 0.13% for m = 3 / 4 / 5): both operands
uniform over the numbers with *exactly* m digits (leading digit 1-9; for m = 1 the digits 0-9, as in
:func:`lengen_utils.problems.random_number_with_digits`), all ``(9 * 10**(m-1))**2`` ordered pairs
equally likely. This gives exactly 50150/810000 = 6.19% (m = 3), 765139/81000000 = 0.945% (m = 4)
and 10033314/8100000000 = 0.124% (m = 5): the first two match the printed 6.2% and 1%; the m = 5 value
rounds to 0.12%, slightly below the printed 0.13% (we checked the count with a second chunking; the
paper's code is not public, so the 0.006-point gap is unexplained). Operands uniform on
``0..10**m-1`` and zero-padded to m digits give 5.32%, 0.805%, 0.105% instead, which does not match
the 6.2% printed for m = 3. Counting unordered pairs {a, b} instead of ordered ones changes almost
nothing (6.187%, 0.944% for m = 3, 4); averaging max/size over classes instead of over queries gives
11.2% for m = 3, no match. See :func:`_nope_count` for the counting algorithm.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Literal

import numpy as np
import torch

# ---------------------------------------------------------------------------------------------------
# Part A: the linear-attention regression model of Sabbaghi et al., Section 5
# ---------------------------------------------------------------------------------------------------

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
        if self.d < 1 or self.steps < 0 or self.lr <= 0 or self.weight_decay < 0:
            raise ValueError(f"bad optimisation settings in {self}")
        if self.v_init not in ("theta", "random"):
            raise ValueError(f"v_init must be 'theta' or 'random', got {self.v_init!r}")


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
    _check_kind(kind)
    block = np.zeros(n)
    block[:n1] = 1.0
    if kind == "ape_shift":
        return np.stack([np.roll(block, k) for k in range(n)])
    return block[None, :]


def train_mask_second_moment(kind: str, n: int, n1: int) -> np.ndarray:
    """``C = E[m m^T]`` over the training masks: ``C_ir`` = P(positions i and r both non-padded)."""
    masks = train_masks(kind, n, n1)
    return masks.T @ masks / len(masks)


def _check_kind(kind: str) -> None:
    if kind not in KINDS:
        raise ValueError(f"unknown model kind {kind!r}; expected one of {KINDS}")


def _circulant_from_offsets(a: torch.Tensor) -> torch.Tensor:
    """``A_ir = a[(i - r) mod n]``."""
    n = a.shape[0]
    idx = (torch.arange(n)[:, None] - torch.arange(n)[None, :]) % n
    return a[idx]


def attention_matrix(kind: str, positional: torch.Tensor, u: torch.Tensor | None = None) -> torch.Tensor:
    """``A`` from the parameters: ``P P^T`` for APE, the circulant of ``P u`` for RPE."""
    _check_kind(kind)
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
    _check_kind(kind)
    config = config or LinearAttentionConfig()
    start = time.perf_counter()
    theta, positional, u, v = _init_parameters(kind, config)
    B = torch.as_tensor(target_matrix(config.n, config.alpha, config.beta))
    masks = train_masks(kind, config.n, config.n1)
    C = torch.as_tensor(masks.T @ masks / len(masks))
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


# ---------------------------------------------------------------------------------------------------
# Part B: the best exact match of a 1-layer NoPE decoder on m-digit addition (Cho et al., Section 5.2)
# ---------------------------------------------------------------------------------------------------

OperandDistribution = Literal["exact", "padded"]

PAPER_NOPE_MAX_EM = {3: 0.062, 4: 0.01, 5: 0.0013}
"""The values printed in Cho et al., Section 5.2 (6.2%, 1%, 0.13%)."""


@dataclass(frozen=True)
class NopeBound:
    """The count behind :func:`nope_max_exact_match`.

    ``n_queries``: ordered operand pairs; ``n_classes``: distinct digit multisets of the query;
    ``n_best``: sum over classes of the size of the largest same-sum group (the most queries a NoPE
    model can get right); ``exact``: ``n_best / n_queries`` as a fraction.
    """

    m: int
    operands: str
    n_queries: int
    n_classes: int
    n_best: int
    seconds: float = field(default=0.0, compare=False)

    @property
    def exact(self) -> Fraction:
        return Fraction(self.n_best, self.n_queries)

    @property
    def em(self) -> float:
        return self.n_best / self.n_queries


# (n_best, n_queries, n_classes). The m = 5 entries were computed once with
# nope_max_exact_match_bound(5, operands, use_cache=False): 49 s ('exact') and 62 s ('padded') on one
# CPU core, and the 'exact' count was checked with a second chunking of the same enumeration. Smaller m
# are recomputed (m = 4 in about half a second) and then cached for the session.
_CACHE: dict[tuple[int, str], tuple[int, int, int]] = {
    (5, "exact"): (10_033_314, 8_100_000_000, 92_368),
    (5, "padded"): (10_516_554, 10_000_000_000, 92_378),
}
MAX_NOPE_DIGITS = 5


def _column_options(position: int, m: int, operands: str):
    """Unordered digit pairs ``{x, y}`` for one column: code, column sum * 10^position, multiplicity."""
    base = 2 * m + 1  # a digit occurs at most 2m times, so counts fit one base-(2m+1) digit each
    low = 1 if (operands == "exact" and position == m - 1 and m > 1) else 0
    xs, ys = np.triu_indices(10 - low)
    xs, ys = xs + low, ys + low
    code = base**xs + base**ys
    col_sum = (xs + ys) * 10**position
    weight = np.where(xs == ys, 1, 2)
    return code.astype(np.int64), col_sum.astype(np.int64), weight.astype(np.int64)


def _outer_combine(columns):
    code = np.zeros(1, np.int64)
    total = np.zeros(1, np.int64)
    weight = np.ones(1, np.int64)
    for c, t, w in columns:
        code = (code[:, None] + c[None, :]).ravel()
        total = (total[:, None] + t[None, :]).ravel()
        weight = (weight[:, None] * w[None, :]).ravel()
    return code, total, weight


def _segment_starts(sorted_keys: np.ndarray) -> np.ndarray:
    return np.flatnonzero(np.r_[True, sorted_keys[1:] != sorted_keys[:-1]])


def _nope_count(m: int, operands: str) -> tuple[int, int, int]:
    """Exact ``(n_best, n_queries, n_classes)`` by enumerating columns instead of operand pairs.

    An ordered pair (a, b) is a sequence of m columns (a_i, b_i). The digit multiset of the query is
    the sum over columns of the multisets {a_i, b_i}, encoded additively as ``sum_digit count *
    (2m+1)^digit``; the sum is ``a + b = sum_i (a_i + b_i) 10^i``. Both depend on each column only
    through the unordered pair {a_i, b_i}, so we enumerate unordered pairs per column (55 choices, 45
    for a leading column without 0) with multiplicity 2 (or 1 when a_i = b_i): 55^m combinations
    instead of 100^m pairs. The combinations are grouped by (multiset, sum), the counts summed, and
    the largest count per multiset kept. To bound memory, the work is split by ``s mod 10^L`` (which
    only the lowest L columns decide), so every (multiset, sum) group lies inside one chunk.
    """
    columns = [_column_options(i, m, operands) for i in range(m)]
    n_low = max(0, m - 3)
    low_code, low_sum, low_w = _outer_combine(columns[:n_low])
    high_code, high_sum, high_w = _outer_combine(columns[n_low:])
    residue = low_sum % 10**n_low
    s_range = 2 * 10**m  # a + b < 2 * 10^m
    best_codes, best_counts = [], []
    n_queries = 0
    for r in np.unique(residue):
        pick = residue == r
        code = (low_code[pick][:, None] + high_code[None, :]).ravel()
        key = code * s_range + (low_sum[pick][:, None] + high_sum[None, :]).ravel()
        weight = (low_w[pick][:, None] * high_w[None, :]).ravel()
        del code
        order = np.argsort(key)
        key, weight = key[order], weight[order]
        del order
        n_queries += int(weight.sum())
        starts = _segment_starts(key)
        counts = np.add.reduceat(weight, starts)  # queries per (multiset, sum)
        classes = key[starts] // s_range
        del key, weight
        cstarts = _segment_starts(classes)
        best_codes.append(classes[cstarts])
        best_counts.append(np.maximum.reduceat(counts, cstarts))
    codes = np.concatenate(best_codes)
    counts = np.concatenate(best_counts)
    order = np.argsort(codes, kind="stable")
    codes, counts = codes[order], counts[order]
    starts = _segment_starts(codes)
    n_best = int(np.maximum.reduceat(counts, starts).sum())
    return n_best, n_queries, len(starts)


def _n_queries(m: int, operands: str) -> int:
    if operands == "padded":
        return 10 ** (2 * m)
    per_operand = 10 if m == 1 else 9 * 10 ** (m - 1)
    return per_operand**2


def nope_max_exact_match_bound(m: int, operands: OperandDistribution = "exact", use_cache: bool = True) -> NopeBound:
    """Exact best exact-match count of any 1-layer NoPE decoder on m-digit addition (Cho Prop. 5.2).

    ``operands='exact'`` (reproduces the paper): a and b uniform over the m-digit numbers;
    ``'padded'``: uniform over ``0..10**m - 1``, zero-padded to m digits. Runtime on one CPU core:
    m <= 3 in milliseconds, m = 4 about half a second, m = 5 about a minute and under 1 GB of memory
    (the stored m = 5 counts are used unless ``use_cache=False``).
    """
    if isinstance(m, bool) or not isinstance(m, (int, np.integer)) or m < 1:
        raise ValueError(f"m must be a positive number of digits, got {m!r}")
    if operands not in ("exact", "padded"):
        raise ValueError(f"operands must be 'exact' or 'padded', got {operands!r}")
    m = int(m)
    if m > MAX_NOPE_DIGITS:
        raise ValueError(f"m={m} would take far too long (55^m column combinations); m <= {MAX_NOPE_DIGITS} is supported")
    start = time.perf_counter()
    key = (m, operands)
    if use_cache and key in _CACHE:
        n_best, n_queries, n_classes = _CACHE[key]
    else:
        n_best, n_queries, n_classes = _nope_count(m, operands)
        if n_queries != _n_queries(m, operands):  # every ordered pair must be counted once
            raise AssertionError(f"enumerated {n_queries} queries, expected {_n_queries(m, operands)}")
        if m <= 4:
            _CACHE[key] = (n_best, n_queries, n_classes)
    return NopeBound(m, operands, n_queries, n_classes, n_best, time.perf_counter() - start)


def nope_max_exact_match(m: int, operands: OperandDistribution = "exact") -> float:
    """The largest exact-match accuracy a 1-layer NoPE decoder can reach on m-digit addition."""
    return nope_max_exact_match_bound(m, operands).em


def nope_max_exact_match_table(ms=range(1, 6), operands: OperandDistribution = "exact") -> dict[int, float]:
    """``{m: max EM}`` for several lengths (m = 5 from the cache)."""
    return {int(m): nope_max_exact_match(int(m), operands) for m in ms}


def nope_max_exact_match_brute_force(m: int, operands: OperandDistribution = "exact") -> Fraction:
    """Plain-Python reference for small m: group the queries ``$a+b=`` by their sorted tokens."""
    lo = 10 ** (m - 1) if (operands == "exact" and m > 1) else 0
    groups: dict[str, dict[int, int]] = {}
    n = 0
    for a in range(lo, 10**m):
        for b in range(lo, 10**m):
            query = f"${a:0{m}d}+{b:0{m}d}="
            by_sum = groups.setdefault("".join(sorted(query)), {})
            by_sum[a + b] = by_sum.get(a + b, 0) + 1
            n += 1
    return Fraction(sum(max(c.values()) for c in groups.values()), n)

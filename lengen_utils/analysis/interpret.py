"""Reading attention patterns out of trained (or hand-built) models.

* :func:`mean_attention`: the attention weights of every layer averaged over many examples of one
  shape (Cho et al. Figure 7 averages "over 10K sequences of 6-digit additions"); with Cho's
  zero-padded format every m-digit addition has the same tokens-by-role layout, so the average is
  well defined.
* :func:`attention_by_offset`: for Sabbaghi's encoder format, the attention from the output position
  of each answer digit to every other position, indexed by the *relative* offset in the paper's
  right-to-left convention. Appendix E argues that an RPE model reuses one fixed relative list
  :func:`sigma_rel` at every output position; this is the measurement that shows it.
* :func:`role_labels`: short labels (``a5``, ``+``, ``s0``...) for the tokens of an example.
* :func:`attention_maps`: the attention weights of every layer for one problem, and its tokens.
* :func:`relative_vectors`: the learned relative vectors p_{j-i} of every layer of an RPE/UPE model
  (Sabbaghi Figure 11).
* :func:`positional_maps`: the same together with UPE's uniform vectors c_r (Figures 11 and 12), with
  the measures notebook 04 reads off them (norm per offset, :func:`effective_offsets`);
* :func:`vector_table`: which vector (p_d or c_r) each (query, key) pair of one example uses in a UPE
  layer (eq. 3.3), read from the encoding module itself.

This module runs models and returns arrays; :mod:`lengen_utils.course.plots` draws them.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np
import torch

from ..core.model import ModelConfig
from ..core.model.encodings import UniformKeys
from ..core.problems import Problem
from ..core.vocab import render


def role_labels(example) -> list[str]:
    """One label per token: ``$``, ``a<k>`` / ``b<k>`` / ``s<k>`` (operand / answer digit of
    significance k), ``pad``, and the operator symbols."""
    out = []
    for tok, role, sig in zip(example.tokens, example.roles, example.significance):
        if role in ("a", "b"):
            out.append("pad" if tok == "pad" else f"{role}{sig}")
        elif role == "answer":
            out.append(f"s{sig}")
        else:
            out.append(tok)
    return out


@torch.no_grad()
def mean_attention(model, task, problems: Sequence[Problem], batch_size: int = 250) -> tuple[list[np.ndarray], list[str]]:
    """Attention weights ``[heads, T, T]`` of every layer averaged over ``problems``, and the labels of
    the first example's tokens. All problems must encode to the same length and the same roles
    (e.g. m-digit additions in a zero-padded format); otherwise a ``ValueError`` says so."""
    problems = list(problems)
    if not problems:
        raise ValueError("mean_attention needs at least one problem")
    model.eval()
    total: list[torch.Tensor] | None = None
    labels = None
    for start in range(0, len(problems), batch_size):
        batch = task.batch(problems[start:start + batch_size]).to(model.device)
        for ex in batch.examples:
            lab = role_labels(ex)
            if labels is None:
                labels = lab
            elif [x[0] for x in lab] != [x[0] for x in labels] or len(lab) != len(labels):
                raise ValueError("mean_attention averages examples of one shape; these problems encode to "
                                 f"different layouts ({len(labels)} vs {len(lab)} tokens); use operands of one length")
        _, weights = model(**batch.model_inputs(), return_attention=True)
        summed = [w.float().sum(0).cpu() for w in weights]
        total = summed if total is None else [t + s for t, s in zip(total, summed)]
    return [(t / len(problems)).numpy() for t in total], labels


@dataclass
class OffsetAttention:
    """Attention from each answer digit's output position, by relative offset (Sabbaghi Appendix E).

    ``weights[layer][head, k, o]`` is the mean attention that the output position of the answer digit
    of significance ``k`` (``k = 0..frame_width``) pays to the key at offset ``offsets[o]``. Offsets follow
    the paper's right-to-left indexing: ``key position - query position`` counted from the right, so
    ``0`` is the query itself (the digit b_k of the second operand), ``-1`` the next less significant
    digit of b, and ``l + 1`` the digit a_k of the same significance in the first operand.
    """

    frame_width: int
    offsets: np.ndarray
    weights: list[np.ndarray]

    def profile(self, layer: int, significances: Sequence[int] | None = None) -> np.ndarray:
        """``[head, offset]``: the map averaged over the answer digits in ``significances`` (default: all)."""
        w = self.weights[layer]
        rows = list(range(w.shape[1])) if significances is None else list(significances)
        return w[:, rows].mean(1)

    def top_offsets(self, layer: int, head: int, k: int = 4, significances: Sequence[int] | None = None) -> list[int]:
        """The ``k`` offsets with the most attention for one head, most attended first."""
        prof = self.profile(layer, significances)[head]
        return [int(self.offsets[i]) for i in np.argsort(prof)[::-1][:k]]


def sigma_rel(frame_width: int, depth: int) -> list[int]:
    """Appendix E's fixed relative list ``(-d, ..., -1, 0, l-d+1, ..., l, l+1)`` for a model whose training
    data need ``depth = d`` lower positions: offsets (right-to-left) of the keys the output position
    must read, the same for every output digit."""
    l, d = int(frame_width), int(depth)
    if l < 1 or not 0 <= d <= l:
        raise ValueError(f"need frame_width >= 1 and 0 <= depth <= frame_width, got {frame_width}, {depth}")
    return list(range(-d, 1)) + list(range(l - d + 1, l + 2))


@torch.no_grad()
def attention_by_offset(model, task, problems: Sequence[Problem], batch_size: int = 250) -> OffsetAttention:
    """:class:`OffsetAttention` of an encoder in Sabbaghi's addition format, averaged over ``problems``."""
    cfg = task.config
    if cfg.format != "sabbaghi" or cfg.op != "+":
        raise ValueError("attention_by_offset reads Sabbaghi's encoder format for addition (format='sabbaghi', op='+')")
    l = cfg.frame_width
    T = 2 * l + 1
    rows = np.arange(l + 1)                      # answer digit k is read at token index T-1-k
    q_index = T - 1 - rows
    offsets = np.arange(-(T - 1), T)             # right-to-left offset = query index - key index
    weights, _ = mean_attention(model, task, problems, batch_size)
    out = []
    for w in weights:
        H = w.shape[0]
        m = np.zeros((H, len(rows), len(offsets)))
        for r, qi in zip(rows, q_index):
            keys = np.arange(T)
            m[:, r, (qi - keys) + (T - 1)] = w[:, qi, keys]
        out.append(m)
    return OffsetAttention(l, offsets, out)


def attention_mass_by_id_offset(weights: np.ndarray, position_ids: Sequence[int], queries: Sequence[int],
                                offset: int, roles: Sequence[str] | None = None) -> np.ndarray:
    """Per head, the mean (over ``queries``) attention mass on the keys whose coupled position ID is the
    query's ID plus ``offset`` (Cho Section 5.1.1: the digit-sum head reads ID - 1, the carry head ID + 0).
    ``weights`` is ``[heads, T, T]`` (e.g. from :func:`mean_attention`); ``roles`` restricts the keys to
    digits (``a``, ``b``, ``answer``) when given. Returns an array ``[heads]``."""
    weights = np.asarray(weights)
    ids = np.asarray(position_ids)
    out = np.zeros(weights.shape[0])
    for q in queries:
        keys = ids == ids[q] + offset
        keys[q + 1:] = False                     # a decoder cannot see the future anyway
        if roles is not None:
            keys &= np.isin(np.asarray(roles), ["a", "b", "answer"])
        out += weights[:, q, keys].sum(-1)
    return out / max(1, len(queries))


def relative_vectors(model) -> list[np.ndarray]:
    """The learned RPE vectors of every layer, ``[2K+1, d_head]`` each; row ``K + d`` is p_d, the
    vector added to a key ``d`` positions after the query (``d = j - i``)."""
    out = []
    for block in model.blocks:
        for mod in block.attn.biases:
            if hasattr(mod, "vectors"):
                out.append(getattr(mod, "table", mod.vectors).detach().float().cpu().numpy())
                break
    if not out:
        raise ValueError(f"this model has no relative vectors (encoding={model.cfg.encoding!r}); use an 'rpe' "
                         f"or 'upe' model")
    return out


@torch.no_grad()
def attention_maps(model, task, problem: Problem) -> tuple[list[np.ndarray], list[str]]:
    """Attention weights of every layer (``[heads, T, T]`` each) for one problem, and its tokens."""
    batch = task.batch([problem]).to(model.device)
    model.eval()
    _, weights = model(**batch.model_inputs(), return_attention=True)
    ex = batch.examples[0]
    n = len(ex)
    return [w[0, :, :n, :n].float().cpu().numpy() for w in weights], [render([t]) or " " for t in ex.tokens]


@dataclass
class PositionalMaps:
    """The learned position vectors of an RPE or UPE model, per layer (Sabbaghi Figures 11 and 12).

    ``p[layer]`` is ``[2K+1, d_head]``: row ``K + d`` is p_d, added to the key ``d = j - i`` positions
    after the query, counted left to right in the input (Sabbaghi count right to left, so their
    P_{-1}, "one position back", the next less significant digit, is our p_{+1}). ``c[layer]`` is
    ``[S, d_head]``: c_1..c_S, the uniform vectors of the multiplier digits (UPE; no rows for RPE).
    """

    encoding: str
    p: list[np.ndarray]
    c: list[np.ndarray]

    @property
    def max_distance(self) -> int:
        return (self.p[0].shape[0] - 1) // 2

    @property
    def offsets(self) -> np.ndarray:
        """The offsets d = j - i of the rows of ``p``."""
        return np.arange(-self.max_distance, self.max_distance + 1)

    def norms(self, layer: int) -> np.ndarray:
        """``||p_d||`` for every offset of one layer, in the order of :attr:`offsets`."""
        return np.linalg.norm(self.p[layer], axis=1)

    def uniform_norms(self, layer: int) -> np.ndarray:
        """``||c_r||``, r = 1..S, of one layer (empty for RPE)."""
        return np.linalg.norm(self.c[layer], axis=1)

    def largest(self, layer: int, k: int = 3) -> list[int]:
        """The ``k`` offsets d whose vectors p_d have the largest norms in ``layer``, largest first."""
        return [int(d) for d in self.offsets[np.argsort(self.norms(layer))[::-1][:k]]]


def positional_maps(model) -> PositionalMaps:
    """:class:`PositionalMaps` of an ``rpe`` or ``upe`` model (the vectors as used in attention, i.e.
    times ``rpe_scale``); any other encoding raises a ``ValueError`` naming it."""
    p = relative_vectors(model)
    c = []
    for block in model.blocks:
        for mod in block.attn.biases:
            if hasattr(mod, "vectors"):
                table = getattr(mod, "uniform_table", None)
                d_head = mod.vectors.shape[1]
                c.append(table[1:].detach().float().cpu().numpy() if table is not None else np.zeros((0, d_head)))
                break
    return PositionalMaps(model.cfg.encoding, p, c)


def effective_offsets(norms: Sequence[float]) -> float:
    """How many offsets share the positional signal: the participation ratio ``1 / sum(w_d^2)`` of the
    shares ``w_d = ||p_d||^2 / sum ||p||^2``. 1 when one vector carries everything, ``n`` when ``n``
    vectors are equal; a lower value is a less dispersed map (Appendix C.3's comparison, as a number)."""
    sq = np.asarray(norms, dtype=float) ** 2
    if sq.ndim != 1 or not len(sq) or not np.isfinite(sq).all():
        raise ValueError(f"effective_offsets needs a non-empty 1-D array of finite norms, got shape {sq.shape}")
    if sq.sum() == 0:
        raise ValueError("effective_offsets: every vector is zero, no signal to share")
    w = sq / sq.sum()
    return float(1.0 / (w ** 2).sum())


@dataclass
class VectorTable:
    """Which position vector each (query, key) pair of one example uses (eq. 2.1 with eq. 3.3).

    ``labels[i][j]`` is ``"p_{d}"`` (relative vector, d = id_j - id_i) or ``"c_{r}"`` (uniform vector of
    the multiplier digit with slot r); ``tokens`` are the example's tokens, ``slots`` its UPE slots."""

    tokens: list[str]
    labels: list[list[str]]
    slots: list[int]


@torch.no_grad()
def vector_table(task, problem: Problem, *, max_distance: int | None = None) -> VectorTable:
    """Ask a :class:`~lengen_utils.core.model.encodings.UniformKeys` module which vector each pair uses.

    The module is built for ``task`` (UPE slots from :func:`~lengen_utils.core.positions.uniform_slots`, the
    task's position IDs) with p_d and c_r set to tell-tale values (the first element of p_d is its row
    index, of c_r ``10_000 + r``) and a query that reads that element, so the score bias it returns *is*
    the index of the vector it used. ``max_distance`` clips as ``rpe_max_distance`` does (default:
    the length of the example, nothing clipped)."""
    batch = task.batch([problem])
    ex = batch.examples[0]
    slots = batch.uniform_slots if batch.uniform_slots is not None else torch.zeros_like(batch.position_ids)
    S = max(1, int(slots.max()))
    K = max_distance if max_distance is not None else len(ex)
    cfg = ModelConfig(d_model=4, n_heads=1, d_ff=4, n_layers=1, causal=False, encoding="upe", upe_slots=S,
                      rpe_max_distance=K)
    mod = UniformKeys(cfg)
    mod.vectors.zero_()
    mod.vectors[:, 0] = torch.arange(2 * K + 1, dtype=torch.float)
    mod.uniform.zero_()
    mod.uniform[:, 0] = 10_000 + torch.arange(S + 1, dtype=torch.float)
    T = len(ex)
    q = torch.zeros(1, 1, T, 4)
    q[..., 0] = 2.0                      # sqrt(d_head): undoes the 1/sqrt(d_head) of the score
    code = mod(q, batch.position_ids, batch.position_ids, slots)[0, 0].round().long().tolist()
    labels = [[f"c_{{{v - 10_000}}}" if v >= 10_000 else f"p_{{{v - K}}}" for v in row] for row in code]
    return VectorTable([render([t]) or " " for t in ex.tokens], labels, slots[0].tolist())


__all__ = ["PositionalMaps", "positional_maps", "effective_offsets", "VectorTable", "vector_table",
           "attention_maps", "relative_vectors", "attention_mass_by_id_offset", "role_labels", "mean_attention", "OffsetAttention", "sigma_rel", "attention_by_offset"]

"""Causal attention with a gathered scalar bias, forward and backward written out for the CPU.

A decoder trained with :class:`~lengen_utils.core.model.encodings.RelativeScalarBias` needs the gradient of its
bias, which no fused CPU kernel of ``scaled_dot_product_attention`` returns; its math path makes a dozen passes
over ``[B, H, T, T]`` tensors (the bias gather, the scaling by the scalable softmax's factor, the causal mask, the
addition to the scores, the softmax, and in the backward the same again, with the bias's gradient gathered back
by a scatter of the whole ``T x T`` gradient). :func:`causal_bias_attention` computes the same function with:

* the causal mask and the scalable softmax's factor folded into the gather: the table is expanded to one row per
  (sequence, query), ``table[h, r] * factor[h, i]``, with an extra ``-inf`` column that the forbidden pairs index;
* the scores written into the gathered bias by ``baddbmm_``, and the softmax taken in place; only the
  probabilities are saved;
* query blocks: block ``c`` of the queries meets only the keys up to its last query (the rest is masked for every
  query of the block), so about half of the ``T x T`` work of a long sequence is never done;
* in the backward, the softmax's gradient in place and one ``index_add_`` of it into the expanded table, from
  which the gradients of the table and of the factor follow by small sums.

Every skipped or masked entry is an exact zero in the reference, so the result is the same function up to the
order of float sums (tested against the math path in ``tests/test_fused_bias_attention.py``).
"""
from __future__ import annotations

import math
from typing import Callable

import torch

QUERY_BLOCK = 64    # rows of a query block: 4 heads x 6 sequences x 64 x 462 probabilities (2.8 MB) stay in cache
#: copies of each row of the expanded table, key ``j`` using copy ``j % SPREAD``: most keys of a row fall in the same
#: clipped column, and the backward's ``index_add_`` into one address waits for the previous add (about 4 ns each)
SPREAD = 8


def query_blocks(T: int, block: int = QUERY_BLOCK) -> list[tuple[int, int]]:
    """``[(start, end), ...]``: ``T`` queries cut into about equal blocks of at most ``block`` rows."""
    n = max(1, math.ceil(T / block))
    edges = [round(c * T / n) for c in range(n + 1)]
    return list(zip(edges[:-1], edges[1:]))


Offsets = Callable[[int, int], torch.Tensor]
#: ``(centre, width)``: a window over the table's columns; a pair whose column is more than ``width`` from ``centre``
#: is hidden (the column of a clipped relative distance ``d`` is ``d + K``: centre ``K``, a window of ``width < K`` IDs)
Window = tuple[int, int]


def block_index(offsets: Offsets, start: int, end: int, batch: int, T: int, columns: int,
                window: Window | None = None) -> torch.Tensor:
    """``[B, end - start, end]``: for queries ``start..end-1`` and keys ``0..end-1``, the column of each pair in the
    expanded table ``[B, T, SPREAD, columns + 1]``: ``((b T + i) SPREAD + j % SPREAD)(columns + 1) + offsets``, with
    the ``-inf`` column ``columns`` for a later key (``j > i``) and for a pair outside ``window``.
    int32 (``index_select`` is fast with it) where the table's size allows."""
    dtype = torch.int32 if batch * T * SPREAD * (columns + 1) < 2 ** 31 else torch.int64
    rel = offsets(start, end).to(dtype)
    device = rel.device
    later = torch.ones(end - start, end, dtype=torch.bool, device=device).triu_(start + 1)
    if window is not None:
        centre, width = window
        later = later | ((rel - centre).abs_() > width)
    rows = (torch.arange(batch, dtype=dtype, device=device)[:, None] * T
            + torch.arange(start, end, dtype=dtype, device=device)) * (SPREAD * (columns + 1))
    copies = torch.arange(end, dtype=dtype, device=device) % SPREAD * (columns + 1)
    index = rel.expand(batch, end - start, end).masked_fill(later, columns)
    return index.add_(rows[..., None]).add_(copies)


class _CausalBiasAttention(torch.autograd.Function):
    """``softmax(factor_i (q_i . k_j / sqrt(D) + table[rel_ij]) + causal mask) v``, heads-major inside."""

    @staticmethod
    def forward(ctx, q, k, v, table, factor, offsets, block, window):
        B, H, T, D = q.shape
        R = table.shape[1]
        alpha = 1.0 / math.sqrt(D)
        f = factor.permute(1, 0, 2).expand(H, B, T) if factor is not None else None    # [H, B, T]
        qh = q.transpose(0, 1).reshape(H * B, T, D)
        qf = qh * f.reshape(H * B, T, 1) if f is not None else qh
        kh = k.transpose(0, 1).reshape(H * B, T, D)
        vh = v.transpose(0, 1).reshape(H * B, T, D)
        expanded = _expanded_table(table, f, B, T)                               # [H, B * T * (R + 1)]
        out = torch.empty_like(qh)
        blocks = query_blocks(T, block)
        indices, probs = [], []
        for start, end in blocks:
            index = block_index(offsets, start, end, B, T, R, window)
            scores = expanded.index_select(1, index.view(-1)).view(H * B, end - start, end)
            scores.baddbmm_(qf[:, start:end], kh[:, :end].transpose(1, 2), alpha=alpha)
            torch.ops.aten._softmax.out(scores, -1, False, out=scores)
            torch.bmm(scores, vh[:, :end], out=out[:, start:end])
            indices.append(index)
            probs.append(scores)
        ctx.save_for_backward(qh, qf, kh, vh, table, f, *indices, *probs)
        ctx.shape, ctx.blocks, ctx.factor_shape = (B, H, T, D), blocks, None if factor is None else factor.shape
        return out.view(H, B, T, D).transpose(0, 1)

    @staticmethod
    def backward(ctx, grad_out):
        qh, qf, kh, vh, table, f, *saved = ctx.saved_tensors
        B, H, T, D = ctx.shape
        n = len(ctx.blocks)
        R = table.shape[1]
        alpha = 1.0 / math.sqrt(D)
        dout = grad_out.transpose(0, 1).reshape(H * B, T, D)
        dqf, dk, dv = torch.empty_like(qf), torch.zeros_like(kh), torch.zeros_like(vh)
        dexpanded = torch.zeros(H, B * T * SPREAD * (R + 1), dtype=qh.dtype, device=qh.device)
        for (start, end), index, p in zip(ctx.blocks, saved[:n], saved[n:]):
            dout_c = dout[:, start:end]
            dv[:, :end] += torch.bmm(p.transpose(1, 2), dout_c)        # (baddbmm_ into a slice loops over B H)
            dp = torch.bmm(dout_c, vh[:, :end].transpose(1, 2))
            torch.ops.aten._softmax_backward_data.out(dp, p, -1, dp.dtype, grad_input=dp)   # dS, in place
            torch.bmm(dp, kh[:, :end], out=dqf[:, start:end])
            dk[:, :end] += torch.bmm(dp.transpose(1, 2), qf[:, start:end])
            # index_add_ is fast with an int64 index (index_select with an int32 one)
            dexpanded.index_add_(1, index.view(-1).long(), dp.view(H, -1))
        dqf.mul_(alpha)
        dk.mul_(alpha)
        dexpanded = dexpanded.view(H, B, T, SPREAD, R + 1).sum(3)[..., :R]         # the -inf column has none
        if f is None:
            dq, dtable, dfactor = dqf, dexpanded.sum((1, 2)), None
        else:
            dq = dqf * f.reshape(H * B, T, 1)
            dtable = torch.einsum("hbtr,hbt->hr", dexpanded, f)
            df = dexpanded @ table[:, None, :, None] + (dqf * qh).sum(-1).view(H, B, T)[..., None]   # [H, B, T, 1]
            dfactor = df[..., 0].permute(1, 0, 2).sum_to_size(ctx.factor_shape)
        heads_second = [g.view(H, B, T, D).transpose(0, 1) for g in (dq, dk, dv)]
        return (*heads_second, dtable, dfactor, None, None, None)


def _expanded_table(table: torch.Tensor, f: torch.Tensor | None, B: int, T: int) -> torch.Tensor:
    """``[H, B * T * SPREAD * (R + 1)]``: ``table[h, r] * f[h, b, i]`` at row ``(b, i)``, then a ``-inf`` column,
    ``SPREAD`` times."""
    H, R = table.shape
    scaled = table[:, None, None, :].expand(H, B, T, R) if f is None else table[:, None, None, :] * f[..., None]
    forbidden = torch.full((H, B, T, 1), float("-inf"), dtype=table.dtype, device=table.device)
    row = torch.cat([scaled, forbidden], dim=-1)
    return row[:, :, :, None, :].expand(H, B, T, SPREAD, R + 1).reshape(H, -1)


def causal_bias_attention(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, table: torch.Tensor,
                          offsets: Offsets, factor: torch.Tensor | None = None,
                          block: int | None = None, window: Window | None = None) -> torch.Tensor:
    """Causal self-attention ``[B, H, T, D]`` whose score of query ``i`` and key ``j`` gets ``table[h, rel[b, i, j]]``
    (``table`` ``[H, R]``), all of it times ``factor`` ``[B or 1, H, T]`` when given (the scalable softmax: the
    queries and the bias of query ``i`` times ``s_h log(i + 1)``). ``offsets(start, end)`` gives ``rel`` for queries
    ``start..end-1`` and keys ``0..end-1``, ``[B or 1, end - start, end]`` integers in ``0..R-1``, so that no
    ``T x T`` index is built for the masked half. Differentiable in ``q``, ``k``, ``v``, ``table`` and ``factor``;
    queries = keys (no cache), no dropout. ``block``: query rows per block (default :data:`QUERY_BLOCK`).
    ``window`` (:class:`~.encodings.AttentionWindow` read on the table's columns): the pairs outside it get
    ``-inf`` after the factor, as the math path adds a window's mask after it; a query always sees itself (column
    ``centre``), so no row is empty."""
    return _CausalBiasAttention.apply(q, k, v, table, factor, offsets, block or QUERY_BLOCK, window)

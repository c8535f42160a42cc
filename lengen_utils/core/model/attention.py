"""Multi-head self-attention on top of ``torch.nn.functional.scaled_dot_product_attention`` (SDPA).

Masks and biases are built only when they change the result, so that the fused kernels can run:

* no additive bias (APE, coupling, NoPE, sinusoidal, RoPE): a decoder calls SDPA with
  ``is_causal=True`` and no mask (FlashAttention on a GPU); an encoder passes only its boolean
  padding mask;
* an encoding that biases the scores (RPE, UPE, ALiBi, the relative scalar bias): one float bias
  ``[B, H, Tq, Tk]``, with ``-inf`` written where the causal rule (or, in an encoder, padding) forbids.

A decoder never applies ``key_padding`` in the fused path: batches are right-padded, so a real
position only ever sees real keys before it, and the padding rows are never read (no loss, no
prediction). :class:`~lengen_utils.core.model.Transformer` checks the right-padding contract on the CPU.
With a :class:`~lengen_utils.core.model.cache.KVCache` the queries are the newest positions only and the
keys come from the cache (incremental greedy decoding). ``return_weights=True`` recomputes the
softmax explicitly, with every mask applied, for plots of attention patterns.

``length_scale`` (scalable softmax) multiplies the queries and the bias of query ``i`` by ``s_h log(n_i)``,
``n_i`` the number of keys it sees (``i + 1`` in a decoder, the real keys in an encoder), so the fused
kernels still run.

No fused CPU kernel of SDPA returns the gradient of a float bias. A decoder trained on the CPU with the relative
scalar bias alone takes :func:`~lengen_utils.core.model.fused_bias.causal_bias_attention` instead (the bias gathered
inside, the causal mask and the scalable softmax folded in, the masked blocks skipped); any other trainable bias takes
the math path written out (``_math_attention``), the reference that the kernel is tested against.
"""
from __future__ import annotations

import math

import torch
import torch.nn.functional as F
from torch import nn

from .arithmetic_heads import ArithmeticKeys
from .cache import KVCache
from .config import ModelConfig
from .encodings import AttentionWindow, RelativeScalarBias, RotaryPositions, attention_biases
from .fused_bias import causal_bias_attention

#: take :func:`~lengen_utils.core.model.fused_bias.causal_bias_attention` where it applies (off: the math path, the
#: reference that tests compare it with)
FUSED_BIAS_KERNEL = True


def forbidden_pairs(Tq: int, Tk: int, query_start: int, causal: bool, key_keep: torch.Tensor | None,
                    device: torch.device) -> torch.Tensor | None:
    """Boolean ``[B or 1, 1, Tq, Tk]``, True where query ``query_start + t`` may not attend to key j
    (a later key in a decoder; a padding key); ``None`` when nothing is forbidden."""
    masked = None
    if causal and (Tq > 1 or query_start + Tq < Tk):
        query_index = torch.arange(query_start, query_start + Tq, device=device)
        masked = (torch.arange(Tk, device=device)[None, :] > query_index[:, None])[None, None]
    if key_keep is not None:
        pad = ~key_keep[:, None, None, :]
        masked = pad if masked is None else masked | pad
    return masked


class SelfAttention(nn.Module):
    def __init__(self, cfg: ModelConfig):
        super().__init__()
        self.cfg = cfg
        self.qkv = nn.Linear(cfg.d_model, 3 * cfg.d_model, bias=False)
        self.out = nn.Linear(cfg.d_model, cfg.d_model, bias=False)
        self.biases = attention_biases(cfg)
        self.rotary = RotaryPositions(cfg) if cfg.encoding == "rope" else None
        self.arithmetic = ArithmeticKeys(cfg) if cfg.arithmetic_heads else None   # Sabbaghi 3.3
        # s_h of the scalable softmax; 1 / log(64): a factor of about 1 at the contexts of short training sequences
        self.length_scale = (nn.Parameter(torch.full((cfg.n_heads,), 1.0 / math.log(64.0)))
                             if cfg.length_scale else None)

    def forward(self, x: torch.Tensor, position_ids: torch.Tensor, key_padding: torch.Tensor | None = None,
                uniform_slots: torch.Tensor | None = None, return_weights: bool = False,
                cache: KVCache | None = None, layer: int = 0, number_ids: torch.Tensor | None = None):
        """``x`` ``[B, Tq, d_model]`` for the newest ``Tq`` positions (all of them without a cache).

        ``position_ids``, ``key_padding`` (True: real token) and ``uniform_slots`` describe those
        positions; with ``cache`` the keys' are read from it (it already holds this call's inputs).
        ``number_ids`` (frame IDs, 0 for text) index the arithmetic heads' vectors, if the model has any.
        """
        B, T, _ = x.shape
        H, Dh = self.cfg.n_heads, self.cfg.d_head
        q, k, v = self.qkv(x).view(B, T, 3, H, Dh).permute(2, 0, 3, 1, 4)   # each [B, H, T, Dh]
        if self.rotary is not None:
            q, k = self.rotary.rotate(q, position_ids), self.rotary.rotate(k, position_ids)

        query_start = 0
        key_ids, key_keep, key_slots = position_ids, key_padding, uniform_slots
        if cache is not None:
            query_start = cache.length
            k, v = cache.store(layer, k, v)
            key_ids, key_keep, key_slots = cache.keys()
        Tk = k.shape[2]

        if self._takes_bias_kernel(q, cache, return_weights, uniform_slots):
            module = self.biases[0]
            ids = position_ids.to(torch.int32)
            factor = None if self.length_scale is None else self._length_factor(T, T, 0, None, x.device).to(q.dtype)
            window = (module.max_distance, self.biases[1].width) if len(self.biases) == 2 else None
            y = causal_bias_attention(q, k, v, module.table(q.dtype),
                                      lambda start, end: module.offsets(ids[:, start:end], ids[:, :end]), factor,
                                      window=window)
            return self.out(y.transpose(1, 2).reshape(B, T, H * Dh)), None

        bias, hidden = None, None
        for module in self.biases:
            term = module(q, position_ids, key_ids, key_slots, query_start)
            if getattr(module, "hides_keys", False):     # a window: 0 or -inf, added after the length scaling
                hidden = term if hidden is None else hidden + term
            else:
                bias = term if bias is None else bias + term
        if self.arithmetic is not None:   # encoder only (ModelConfig): no cache, queries = keys
            term = self.arithmetic(q, number_ids)
            bias = term if bias is None else bias + term
        if self.length_scale is not None:
            factor = self._length_factor(T, Tk, query_start, key_keep, x.device, hidden)
            q = q * factor[..., None].to(q.dtype)
            bias = None if bias is None else bias * factor[..., None].to(bias.dtype)
        if hidden is not None:    # never scaled: -inf times the factor's gradient would be NaN (0 x -inf)
            bias = hidden if bias is None else bias + hidden

        if return_weights:
            masked = forbidden_pairs(T, Tk, query_start, self.cfg.causal, key_keep, x.device)
            scores = q @ k.transpose(-1, -2) / math.sqrt(Dh)
            if bias is not None:
                scores = scores + bias
            if masked is not None:
                scores = scores.masked_fill(masked, float("-inf"))
            weights = torch.softmax(scores.float(), dim=-1).nan_to_num(0.0).to(q.dtype)
            y = weights @ v
        else:
            weights = None
            y = self._fused(q, k, v, bias, key_keep, query_start)
        y = self.out(y.transpose(1, 2).reshape(B, T, H * Dh))
        return y, weights

    def _takes_bias_kernel(self, q: torch.Tensor, cache: KVCache | None, return_weights: bool,
                           uniform_slots: torch.Tensor | None = None) -> bool:
        """Whether :func:`~lengen_utils.core.model.fused_bias.causal_bias_attention` computes this call exactly:
        a decoder's training pass on the CPU (no cache, no dropout, no weights asked for) whose only score term is
        the relative scalar bias over one channel of IDs, optionally behind an attention window (no multiplier
        slots, which a window lets through), with its gradient needed (without one, SDPA's fused kernels take the
        bias), and outside ``torch.func`` transforms (the kernel has no batching rule)."""
        if not (FUSED_BIAS_KERNEL and self.cfg.causal and cache is None and not return_weights
                and q.device.type == "cpu" and self.arithmetic is None and 1 <= len(self.biases) <= 2):
            return False
        if len(self.biases) == 2:    # a window the kernel reads on the bias's clipped columns: one centre, inside the clip
            window = self.biases[1]
            if not (isinstance(window, AttentionWindow) and not window.offsets and uniform_slots is None
                    and window.width < self.cfg.relative_bias_max_distance and not self.cfg.length_scale_visible):
                return False
        module = self.biases[0]
        return (isinstance(module, RelativeScalarBias) and module.uniform is None and module.channels == 1
                and torch.is_grad_enabled()
                and module.bias.requires_grad and (self.cfg.dropout == 0.0 or not self.training)
                and not _functorch_wrapped(q))

    def _length_factor(self, Tq: int, Tk: int, query_start: int, key_keep: torch.Tensor | None,
                       device: torch.device, hidden: torch.Tensor | None = None) -> torch.Tensor:
        """``s_h log(n)`` per head and query, ``[1 or B, H, Tq]``: ``n`` = keys the query sees; with
        ``length_scale_visible``, only those the windows' mask ``hidden`` (``-inf`` where hidden) leaves."""
        if self.cfg.length_scale_visible and hidden is not None:      # causal (ModelConfig checks it)
            later = forbidden_pairs(Tq, Tk, query_start, True, None, device)
            visible = torch.isfinite(hidden) if later is None else torch.isfinite(hidden) & ~later
            n = visible.sum(-1).float()[:, 0]                                     # [B, Tq]
        elif self.cfg.causal:
            n = torch.arange(query_start + 1, query_start + Tq + 1, device=device, dtype=torch.float32)[None]
        elif key_keep is not None:
            n = key_keep.sum(-1, keepdim=True).float().expand(-1, Tq)
        else:
            n = torch.full((1, Tq), float(Tk), device=device)
        return self.length_scale[None, :, None] * torch.log(n)[:, None, :]

    def _fused(self, q, k, v, bias, key_keep, query_start):
        """SDPA with the least mask that gives the same result on every real position."""
        Tq, Tk = q.shape[2], k.shape[2]
        dropout = self.cfg.dropout if self.training else 0.0
        if self.cfg.causal:   # right padding never reaches a real query: drop it (see module docstring)
            if bias is None and Tq == Tk:
                return F.scaled_dot_product_attention(q, k, v, is_causal=True, dropout_p=dropout)
            masked = forbidden_pairs(Tq, Tk, query_start, True, None, q.device)
            if bias is not None and bias.requires_grad and q.device.type == "cpu" and dropout == 0.0:
                return _math_attention(q, k, v, bias, masked)
        else:
            masked = forbidden_pairs(Tq, Tk, query_start, False, key_keep, q.device)
        if bias is None:
            mask = None if masked is None else ~masked           # boolean: True = may attend
        else:
            mask = bias if masked is None else bias.masked_fill(masked, float("-inf"))
        return F.scaled_dot_product_attention(q, k, v, attn_mask=mask, dropout_p=dropout)


def _functorch_wrapped(x: torch.Tensor) -> bool:
    """Whether ``x`` is inside a ``torch.func`` transform (``vmap``, ``grad``), as the multi-seed trainer runs it."""
    wrapped = getattr(torch._C._functorch, "is_functorch_wrapped_tensor", None)
    return bool(wrapped(x)) if wrapped is not None else False


def _math_attention(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, bias: torch.Tensor,
                    masked: torch.Tensor | None) -> torch.Tensor:
    """SDPA's math path, written out for a decoder's trainable bias on a CPU (where SDPA would take it anyway:
    no fused CPU kernel returns the bias's gradient), with the same operations in the same order, so the
    same numbers. Two passes fewer: the causal mask is added (its backward passes the gradient through,
    where ``masked_fill``'s writes zeros that are already there), and the softmax is the plain one (a
    decoder's query always sees itself, so no row is fully masked and SDPA's safe softmax has nothing to do).
    """
    if masked is not None:
        forbid = torch.zeros(masked.shape, dtype=bias.dtype, device=bias.device).masked_fill_(masked, float("-inf"))
        bias = bias + forbid
    factor = math.sqrt(1.0 / math.sqrt(q.shape[-1]))      # SDPA's math path scales q and k by sqrt(scale) each
    scores = (q * factor) @ (k * factor).transpose(-2, -1)
    return torch.softmax(scores + bias, dim=-1) @ v

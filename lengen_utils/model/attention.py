"""Multi-head self-attention on top of ``torch.nn.functional.scaled_dot_product_attention``.

Position encodings that live inside attention contribute an additive bias (or rotate q and k);
the causal and padding masks are folded into the same bias so one fused kernel call does the work.
``return_weights=True`` recomputes the softmax explicitly, for plots of attention patterns.
"""
from __future__ import annotations

import math

import torch
import torch.nn.functional as F
from torch import nn

from .config import ModelConfig
from .encodings import RotaryPositions, attention_biases


class SelfAttention(nn.Module):
    def __init__(self, cfg: ModelConfig):
        super().__init__()
        self.cfg = cfg
        self.qkv = nn.Linear(cfg.d_model, 3 * cfg.d_model, bias=False)
        self.out = nn.Linear(cfg.d_model, cfg.d_model, bias=False)
        self.biases = attention_biases(cfg)
        self.rotary = RotaryPositions(cfg) if cfg.encoding == "rope" else None

    def forward(self, x: torch.Tensor, position_ids: torch.Tensor, key_padding: torch.Tensor | None = None,
                uniform_slots: torch.Tensor | None = None, return_weights: bool = False):
        B, T, _ = x.shape
        H, Dh = self.cfg.n_heads, self.cfg.d_head
        q, k, v = self.qkv(x).view(B, T, 3, H, Dh).permute(2, 0, 3, 1, 4)   # each [B, H, T, Dh]
        if self.rotary is not None:
            q, k = self.rotary.rotate(q, position_ids), self.rotary.rotate(k, position_ids)

        bias = None
        for module in self.biases:
            term = module(q, position_ids, uniform_slots=uniform_slots)
            bias = term if bias is None else bias + term
        masked = None  # True where attention is forbidden, [B or 1, 1, T, T]
        if self.cfg.causal:
            masked = torch.ones(T, T, dtype=torch.bool, device=x.device).triu(1)[None, None]
        if key_padding is not None:
            pad = ~key_padding[:, None, None, :]
            masked = pad if masked is None else masked | pad
        if masked is not None:
            neg = torch.zeros(masked.shape, dtype=q.dtype, device=x.device).masked_fill(masked, float("-inf"))
            bias = neg if bias is None else bias + neg

        if return_weights:
            scores = q @ k.transpose(-1, -2) / math.sqrt(Dh)
            if bias is not None:
                scores = scores + bias
            weights = torch.softmax(scores.float(), dim=-1).nan_to_num(0.0).to(q.dtype)
            y = weights @ v
        else:
            weights = None
            y = F.scaled_dot_product_attention(q, k, v, attn_mask=bias,
                                               dropout_p=self.cfg.dropout if self.training else 0.0)
        y = self.out(y.transpose(1, 2).reshape(B, T, H * Dh))
        return y, weights

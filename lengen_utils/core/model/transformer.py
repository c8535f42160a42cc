"""One Transformer for every experiment: decoder (causal) or encoder (bidirectional), any encoding.

Pre-norm blocks: ``x + Attn(Norm(x))`` then ``x + MLP(Norm(x))``; a final norm and a linear read-out
over the vocabulary. ``ModelConfig.norm_placement="post"`` gives BERT's post-norm blocks instead
(``Norm(x + Attn(x))`` then ``Norm(x + MLP(x))``, a norm on the embeddings, none before the read-out), as
Sabbaghi et al. train. Inputs are token IDs plus position IDs (and, for UPE, the multiplier slots), so
the same model serves APE, coupling, Abacus and the relative encodings. A looped model
(``ModelConfig.loops``, ``loops_per_digit``) runs the block stack several times with shared weights; a pass
``t`` of layer ``i`` is the ``t * n_layers + i``-th layer for the KV cache, so cached, blocked and full passes
see the same keys. ``cache=`` (a
:class:`~lengen_utils.core.model.cache.KVCache`) runs a decoder incrementally, a few positions at a time.

Input checks (token range, position-table range, right padding of a decoder) read tensor values,
which on a GPU would stall the host in every step; they run when the inputs are on the CPU, which is
also where :class:`~lengen_utils.core.tasks.Task` builds every batch.
"""
from __future__ import annotations

import torch
from torch import nn

from ..positions import PositionRangeError
from .attention import SelfAttention
from .cache import KVCache
from .config import ModelConfig
from .encodings import input_encoding

PRODUCT_CLASSES = 82     # a product of two digits: 0..81


class RMSNorm(nn.Module):
    def __init__(self, dim: int, eps: float = 1e-6):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(dim))
        self.eps = eps

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) * self.weight


def _norm(cfg: ModelConfig) -> nn.Module:
    if cfg.norm == "none":
        return nn.Identity()
    return RMSNorm(cfg.d_model) if cfg.norm == "rmsnorm" else nn.LayerNorm(cfg.d_model)


class Block(nn.Module):
    def __init__(self, cfg: ModelConfig):
        super().__init__()
        self.post_norm = cfg.norm_placement == "post"
        self.norm1, self.norm2 = _norm(cfg), _norm(cfg)
        self.drop = nn.Dropout(cfg.dropout)      # the attention output's dropout (BERT's hidden dropout)
        self.attn = SelfAttention(cfg)
        self.mlp = nn.Sequential(nn.Linear(cfg.d_model, cfg.d_ff),
                                 nn.ReLU() if cfg.activation == "relu" else nn.GELU(), nn.Linear(cfg.d_ff, cfg.d_model),
                                 nn.Dropout(cfg.dropout))

    def forward(self, x: torch.Tensor, position_ids: torch.Tensor, key_padding: torch.Tensor | None = None,
                uniform_slots: torch.Tensor | None = None, return_weights: bool = False, cache: KVCache | None = None,
                layer: int = 0, number_ids: torch.Tensor | None = None) -> tuple[torch.Tensor, torch.Tensor | None]:
        """One residual block on ``x`` ``[B, T, d_model]``; returns the new ``x`` and the attention weights (None
        unless ``return_weights``). The arguments after ``x`` are :meth:`SelfAttention.forward`'s."""
        if self.post_norm:                      # BERT: Norm(x + Attn(x)), then Norm(x + MLP(x))
            a, w = self.attn(x, position_ids, key_padding, uniform_slots, return_weights, cache, layer,
                             number_ids=number_ids)
            x = self.norm1(x + self.drop(a))
            return self.norm2(x + self.mlp(x)), w
        a, w = self.attn(self.norm1(x), position_ids, key_padding, uniform_slots, return_weights, cache, layer,
                         number_ids=number_ids)
        x = x + self.drop(a)
        x = x + self.mlp(self.norm2(x))
        return x, w


class Transformer(nn.Module):
    """``forward(tokens, position_ids) -> logits [B, T, vocab]``."""

    def __init__(self, cfg: ModelConfig):
        super().__init__()
        self.cfg = cfg
        self.embed = nn.Embedding(cfg.vocab_size, cfg.d_model)
        nn.init.normal_(self.embed.weight, std=0.02)
        self.position = input_encoding(cfg)
        self.blocks = nn.ModuleList(Block(cfg) for _ in range(cfg.n_layers))
        post = cfg.norm_placement == "post"     # BERT: a norm on the embeddings, none before the read-out
        self.embed_norm = _norm(cfg) if post else None
        self.embed_drop = nn.Dropout(cfg.dropout)
        self.norm = nn.Identity() if post else _norm(cfg)
        self.head = nn.Linear(cfg.d_model, cfg.vocab_size, bias=False)
        self.carry_head = nn.Linear(cfg.d_model, cfg.carry_classes, bias=False) if cfg.carry_classes else None
        self.product_head = (nn.Linear(cfg.d_model, PRODUCT_CLASSES * cfg.product_heads, bias=False)
                             if cfg.product_heads else None)

    def column_logits(self, hidden: torch.Tensor) -> tuple[torch.Tensor | None, torch.Tensor | None]:
        """The carry head's logits ``[B, T, carry_classes]`` and the product heads' ``[B, T, k, 82]`` on ``hidden``
        (from ``forward(..., return_hidden=True)``); ``None`` for a head the model does not have."""
        carry = None if self.carry_head is None else self.carry_head(hidden)
        products = None if self.product_head is None else self.product_head(hidden).unflatten(-1, (
            self.cfg.product_heads, PRODUCT_CLASSES))
        return carry, products

    def _passes(self, digits: torch.Tensor | None, shape: tuple[int, int]) -> tuple[int, torch.Tensor | None]:
        """Passes through the block stack, and ``[B, passes]`` (row still running) when rows differ."""
        if self.cfg.loops_per_digit == 0:
            return self.cfg.loops, None
        if digits is None:
            raise ValueError(f"this model's loops grow with the operand length (loops_per_digit="
                             f"{self.cfg.loops_per_digit}); pass digits=[B, T] (Batch.model_inputs(digits=True) has them)")
        if tuple(digits.shape) != shape:
            raise ValueError(f"digits {tuple(digits.shape)} should have the tokens' shape {shape} (each position "
                             f"holds its row's longest operand)")
        per_row = torch.clamp(torch.ceil(digits.amax(1).to(torch.float64) * self.cfg.loops_per_digit),
                              min=self.cfg.loops)
        passes = int(per_row.max())
        return passes, per_row[:, None] > torch.arange(passes, device=digits.device)[None, :]

    @property
    def device(self) -> torch.device:
        return self.embed.weight.device

    def num_parameters(self) -> int:
        return sum(p.numel() for p in self.parameters())

    def check_positions(self, position_ids: torch.Tensor) -> None:
        """Raise a clear error when an ID falls outside the learned table (instead of an index error)."""
        if self.cfg.encoding == "learned" and self.cfg.position_channels > 1 and position_ids.numel():
            for c in range(self.cfg.position_channels):    # name the channel (row, column) that overflows
                ids = position_ids[..., c]
                if int(ids.max()) >= self.cfg.max_positions or int(ids.min()) < 0:
                    raise PositionRangeError(
                        f"position ID {int(ids.max())} of channel {c} (of {self.cfg.position_channels}) is outside "
                        f"this model's learned table (IDs 0..{self.cfg.max_positions - 1}); the input is larger "
                        f"than the model was built for")
        elif self.cfg.encoding == "learned" and position_ids.numel():
            top = int(position_ids.max())
            if top >= self.cfg.max_positions or int(position_ids.min()) < 0:
                raise PositionRangeError(
                    f"position ID {top} is outside this model's learned table (IDs 0..{self.cfg.max_positions - 1}); "
                    f"the input is longer than the model was built for")

    def check_inputs(self, tokens: torch.Tensor, position_ids: torch.Tensor,
                     key_padding: torch.Tensor | None = None) -> None:
        """Token IDs within the vocabulary, position IDs within the table and, for a decoder, right
        padding (True then False in each row of ``key_padding``): the fused path relies on it."""
        if tokens.numel() and int(tokens.max()) >= self.cfg.vocab_size:
            raise ValueError(f"token id {int(tokens.max())} is outside the vocabulary of {self.cfg.vocab_size}")
        self.check_positions(position_ids)
        if self.cfg.causal and key_padding is not None and key_padding.shape[1] > 1:
            if bool((key_padding[:, 1:] & ~key_padding[:, :-1]).any()):
                raise ValueError("a decoder's key_padding must be right padding (real tokens first, then padding)")

    def forward(self, tokens: torch.Tensor, position_ids: torch.Tensor, key_padding: torch.Tensor | None = None,
                uniform_slots: torch.Tensor | None = None, return_attention: bool = False,
                cache: KVCache | None = None, number_ids: torch.Tensor | None = None,
                digits: torch.Tensor | None = None, return_hidden: bool = False):
        """Logits ``[B, T, vocab]`` for every position; with ``return_attention`` also a list of
        ``[B, H, T, Tk]`` weights. With ``cache`` (decoder only) the inputs are the next ``T``
        positions after those already in the cache, and the logits are theirs. ``number_ids`` (frame IDs of
        the encoder format, 0 for text) feed the arithmetic heads, if any (Sabbaghi Section 3.3).
        ``position_ids`` and ``uniform_slots`` may have a single row that every sequence shares (evaluation
        at a fixed start): the attention biases are then built once for the batch, not once per row.
        ``digits`` ``[B, T]`` (at every position, its row's longest operand; sliced like the tokens, so a cached or
        blocked pass sees the same value) sets a looped model's passes when ``loops_per_digit > 0``: a row stops
        changing after its own :meth:`~.config.ModelConfig.loops_for` passes. ``return_hidden`` also returns the final
        (normed) hidden state ``[B, T, d_model]`` that the read-outs read, as ``(logits, hidden)``: training reads the
        carry and product heads from it (:meth:`column_logits`)."""
        if return_hidden and return_attention:
            raise ValueError("return_hidden and return_attention: ask for one of them per call")
        channels = self.cfg.position_channels
        expected = tuple(tokens.shape) if channels == 1 else (*tokens.shape, channels)
        shape = tuple(position_ids.shape)
        if shape != expected and shape != (1, *expected[1:]):
            raise ValueError(f"position_ids {shape} should have shape {expected} (or {(1, *expected[1:])}, one row "
                             f"shared by the batch) for tokens {tuple(tokens.shape)} and position_channels={channels}")
        if cache is not None:
            if not self.cfg.causal:
                raise ValueError("a KV cache is for a causal decoder; an encoder reads its whole input at once")
            cache.append_inputs(position_ids, key_padding, uniform_slots)
        if tokens.device.type == "cpu":   # reading values would be a host sync on an accelerator
            self.check_inputs(tokens, position_ids, key_padding if cache is None else cache.keys()[1])
        x = self.embed(tokens)
        if self.position is not None:
            x = x + self.position(position_ids).to(x.dtype)
        if self.embed_norm is not None:
            x = self.embed_norm(x)
        x = self.embed_drop(x)
        passes, active = self._passes(digits, tuple(tokens.shape))
        embedded, weights, depth = x, [], len(self.blocks)
        for t in range(passes):
            h = x + embedded if t and self.cfg.input_injection else x
            for i, block in enumerate(self.blocks):
                h, w = block(h, position_ids, key_padding, uniform_slots, return_attention, cache, t * depth + i,
                             number_ids)
                weights.append(w)
            x = h if active is None else torch.where(active[:, t, None, None], h, x)   # finished rows keep x
        if cache is not None:
            cache.advance()
        hidden = self.norm(x)
        logits = self.head(hidden)
        if return_hidden:
            return logits, hidden
        return (logits, weights) if return_attention else logits

"""Arithmetic heads (Sabbaghi et al. Section 3.3, Figure 6): RPE among the number tokens only.

With text around the numbers, Sabbaghi et al. "employ separate positional encodings for text (using APE)
and arithmetic calculations (using Pairwise PE)": some heads ("Add Head" in Figure 6) "add RPE only to the
pairwise interactions among the numerical parts of the input, as detailed in Equation (2.1), while the
non-numerical parts remain unaffected by RPE", and "we do not mask any part of the input sequence".

Here ``ModelConfig(arithmetic_heads=h)`` makes the first ``h`` heads of every layer arithmetic heads:

    score_ij = q_i . (k_j + p_{f(j) - f(i)}) / sqrt(d)   if tokens i and j are both in the number frame
    score_ij = q_i . k_j / sqrt(d)                        otherwise (text: no relative vector, no mask)

where ``f`` is the frame ID of :func:`lengen_utils.core.text_filler.frame_ids`: a token's place in the
text-free frame of eq. 3.1, so ``f(j) - f(i)`` is set by the two digits' significances (and which operand
each is in), never by the text between them. Differences are clipped at ``rpe_max_distance`` (K), one
table ``p_{-K..K}`` per layer shared by the arithmetic heads, scaled by ``rpe_scale`` like RPE's.
The other ``n_heads - h`` heads get no pairwise vector: they read positions through the model's input
encoding (``encoding="learned"``: APE over raw positions, text included). Without text, ``f`` is the raw
position plus one and an arithmetic head is exactly an RPE head (:class:`~.encodings.RelativeKeys`).

Departure: the paper's arithmetic heads are *extra* heads beside BERT's, and BERT adds APE to the input
that every head reads; ours are ``h`` of the ``n_heads`` heads, and the input APE reaches them too (as in
BERT). Multiplication (UPE arithmetic heads, "Mult Head") is not implemented.
"""
from __future__ import annotations

import math

import torch

from .config import ModelConfig
from .encodings import RelativeKeys, relative_distance

__all__ = ["ArithmeticKeys"]


class ArithmeticKeys(RelativeKeys):
    """The relative key vectors of the arithmetic heads, as an additive score bias ``[B, H, T, T]``
    (zero in the other heads and wherever the query or the key is text). The table ``p_{-K..K}`` and its
    ``rpe_scale`` are RPE's (:class:`~.encodings.RelativeKeys`); only the indexing differs."""

    def __init__(self, cfg: ModelConfig):
        super().__init__(cfg)
        self.heads = cfg.arithmetic_heads

    def forward(self, q: torch.Tensor, number_ids: torch.Tensor) -> torch.Tensor:
        """``q`` ``[B, H, T, d_head]``; ``number_ids`` ``[B, T]``: frame IDs, 0 for text (and padding)."""
        if number_ids is None:
            raise ValueError("arithmetic heads need number_ids (frame IDs, 0 for text): build batches with "
                             "Task.batch of a Sabbaghi-format task")
        h = self.heads
        scores = torch.matmul(q[:, :h], self.table.t().to(q.dtype))            # [B, h, T, 2K+1]
        rel = relative_distance(number_ids, number_ids, self.max_distance)     # [B, T, T]: f(j) - f(i)
        bias = torch.gather(scores, -1, rel[:, None].expand(-1, h, -1, -1)) / math.sqrt(q.shape[-1])
        numeric = number_ids > 0
        both = (numeric[:, :, None] & numeric[:, None, :])[:, None]            # [B, 1, T, T]
        bias = bias * both.to(bias.dtype)
        rest = bias.new_zeros(bias.shape[0], q.shape[1] - h, *bias.shape[2:])
        return torch.cat([bias, rest], dim=1)

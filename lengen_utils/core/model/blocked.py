"""Long inputs at bounded memory: a decoder's forward pass in blocks of queries, and shared position IDs.

A full pass over ``T`` positions builds, in every layer, attention scores ``[B, H, T, T]`` and, for an
encoding that biases the scores (RPE, UPE, ALiBi, the relative scalar bias), a float bias of the same
size plus int64 distance indices ``[B, T, T]``: tens of GB at ``T`` ~ 3000. :func:`blocked_forward` feeds
the sequence ``block`` positions at a time through a :class:`~lengen_utils.core.model.cache.KVCache`, so
every layer sees at most ``block`` queries against the keys so far (``[B, H, block, T]``), with the
causal rule applied inside each block (:func:`~lengen_utils.core.model.attention.forbidden_pairs` with
``query_start``). The logits equal a full pass's within float rounding.

:func:`shared_rows` turns position IDs (or UPE slots) that are the same in every row into one row
``[1, T]``, which the model broadcasts: the biases are then built once, not ``B`` times. It reads tensor
values, so it only looks when the tensor is on the CPU (where batches are built).

:func:`rows_within_budget` is the batch-size rule for evaluation of long inputs (see its docstring).
"""
from __future__ import annotations

import torch

from .cache import KVCache
from .config import ModelConfig
from .transformer import Transformer

QUERY_BLOCK = 256                 # queries per block of a long decoder pass
EVAL_MEMORY_BYTES = 1 << 30       # evaluation batches are cut so that their estimated activations fit in 1 GiB
FLOAT_COPIES = 4                  # [B, H, Tq, Tk] float tensors alive at once: bias, masked bias, scores, softmax


def shared_rows(t: torch.Tensor | None) -> torch.Tensor | None:
    """``t[:1]`` when every row of a CPU tensor equals the first (the model broadcasts it), else ``t``.

    On an accelerator ``t`` is returned as is: comparing the rows would stall the host."""
    if t is None or t.device.type != "cpu" or t.shape[0] < 2:
        return t
    return t[:1] if bool((t == t[:1]).all()) else t


def _cut(t: torch.Tensor | None, a: int, b: int) -> torch.Tensor | None:
    return None if t is None else t[:, a:b]


@torch.no_grad()
def blocked_forward(model: Transformer, tokens: torch.Tensor, position_ids: torch.Tensor,
                    key_padding: torch.Tensor | None = None, uniform_slots: torch.Tensor | None = None,
                    block: int = QUERY_BLOCK, cache: KVCache | None = None,
                    digits: torch.Tensor | None = None) -> torch.Tensor:
    """A decoder's logits ``[B, T, vocab]`` computed ``block`` query positions at a time.

    ``cache`` (default: a new one holding ``T`` positions) receives every position's keys and values, so
    that greedy decoding can go on from it. Arguments as :meth:`Transformer.forward`; ``position_ids``
    and ``uniform_slots`` may have one row shared by the batch (:func:`shared_rows`); ``digits`` sets a looped
    model's passes per row (``[B, T]``, sliced like the tokens).
    """
    if not model.cfg.causal:
        raise ValueError("blocked_forward runs a causal decoder; an encoder's queries attend to later keys, "
                         "so it reads its input in one pass")
    if isinstance(block, bool) or not isinstance(block, int) or block < 1:
        raise ValueError(f"block must be an integer >= 1 (queries per pass), got {block!r}")
    T = tokens.shape[1]
    cache = KVCache(T) if cache is None else cache
    parts = []
    for a in range(0, T, block):
        b = min(a + block, T)
        parts.append(model(tokens[:, a:b], position_ids[:, a:b], _cut(key_padding, a, b),
                           _cut(uniform_slots, a, b), cache=cache, digits=_cut(digits, a, b)))
    return torch.cat(parts, 1)


def row_bytes(cfg: ModelConfig, T: int, block: int = QUERY_BLOCK) -> int:
    """Estimated activation bytes one sequence of ``T`` positions adds to an evaluation pass.

    Attention of ``q`` queries (``min(T, block)`` for a decoder read in blocks, ``T`` for an encoder) against
    ``T`` keys: ``FLOAT_COPIES`` float ``[H, q, T]`` tensors and two int64 ``[q, T]`` distance indices; plus
    the KV cache (2 tensors of ``[T, d_model]`` per layer), a few ``[T, d_model]`` and ``[q, d_ff]``
    activations, and the ``[T, vocab]`` logits. All in float32."""
    q = min(T, block) if cfg.causal else T
    attention = 4 * FLOAT_COPIES * cfg.n_heads * q * T + 2 * 8 * q * T * cfg.position_channels
    hidden = 4 * (2 * cfg.n_layers * T * cfg.d_model + 4 * T * cfg.d_model + 2 * q * cfg.d_ff + T * cfg.vocab_size)
    return attention + hidden


def rows_within_budget(cfg: ModelConfig, T: int, requested: int, budget: int = EVAL_MEMORY_BYTES,
                       block: int = QUERY_BLOCK) -> int:
    """The evaluation batch size for sequences of ``T`` positions: ``requested``, cut to the number of rows
    whose estimated activations (:func:`row_bytes`) fit in ``budget`` bytes, and at least 1.

    A flagship-shaped decoder (4 heads, d_model 64) is estimated at 7 MB a row at 100-digit addition (T = 306:
    145 rows a batch) and 68 MB at 1000 digits (T = 3006: 15 rows). The estimate is an upper bound: SDPA's
    fused kernels never hold the scores, and shared IDs build one bias (measured on the CPU at 1000 digits:
    ~20 MB a row with per-row IDs, ~5 MB with shared ones). The batch size changes no result: every row is
    computed independently."""
    return max(1, min(requested, budget // max(1, row_bytes(cfg, T, block))))


__all__ = ["QUERY_BLOCK", "EVAL_MEMORY_BYTES", "blocked_forward", "rows_within_budget", "row_bytes", "shared_rows"]

"""Greedy decoding of a decoder's answer, with a KV cache (default) or by full recomputation.

The position IDs of the answer do not depend on its digits (they follow the answer width), so the
whole ID sequence is known before decoding starts. Decoding walks the positions left to right: at a
supervised position the model's argmax is recorded and, if the next position is part of the
sequence, fed back as the next token; elsewhere the true token is fed. With the cache the prompt up
to the first supervised position is read in one pass (in blocks of ``block`` queries when it is longer,
:func:`~lengen_utils.core.model.blocked.blocked_forward`) and every later position costs one
single-token pass; without it every step re-reads the whole sequence (the reference, quadratic in
the answer length). Both give the same tokens.
"""
from __future__ import annotations

import torch

from .blocked import QUERY_BLOCK, blocked_forward
from .cache import KVCache
from .transformer import Transformer


@torch.no_grad()
def greedy_decode(model: Transformer, tokens: torch.Tensor, position_ids: torch.Tensor,
                  supervised: torch.Tensor, key_padding: torch.Tensor | None = None,
                  uniform_slots: torch.Tensor | None = None, use_cache: bool = True,
                  block: int = QUERY_BLOCK, digits: torch.Tensor | None = None) -> torch.Tensor:
    """Greedy predictions ``[B, T]``: the argmax at each supervised position (where the model has read
    its own earlier outputs), ``-1`` elsewhere.

    ``tokens`` is the true sequence (its answer tokens are only read where they are not predicted),
    ``supervised`` a boolean ``[B, T]`` (True where an output is read: from ``=`` to the last answer
    token); batches are right-padded. ``position_ids`` and ``uniform_slots`` may be one row shared by the
    batch. A prompt longer than ``block`` positions is read ``block`` queries at a time (the cached path).
    ``digits`` ``[B, T]`` sets a looped model's passes per row (``ModelConfig.loops_per_digit``).
    An encoder has nothing to decode: one pass, argmax everywhere.
    Call it inside the autocast context you want (e.g. :func:`lengen_utils.core.device.autocast`).
    """
    model.eval()
    if not model.cfg.causal:
        return model(tokens, position_ids, key_padding, uniform_slots, digits=digits).argmax(-1)
    B, T = tokens.shape
    preds = torch.full_like(tokens, -1)
    rows_used = supervised.any(0)
    if not bool(rows_used.any()):
        return preds
    cols = torch.nonzero(rows_used).flatten()
    first, last = int(cols[0]), int(cols[-1])      # one host read per call, not per step
    if not use_cache:
        return _decode_full(model, tokens, position_ids, supervised, key_padding, uniform_slots, first, last, digits)

    cut = lambda t, a, b: None if t is None else t[:, a:b]  # noqa: E731
    cache = KVCache(capacity=last + 1)
    prompt = (tokens[:, :first + 1], position_ids[:, :first + 1], cut(key_padding, 0, first + 1),
              cut(uniform_slots, 0, first + 1))
    logits = blocked_forward(model, *prompt, block=block, cache=cache, digits=cut(digits, 0, first + 1))[:, -1]   # one block if it fits
    for p in range(first, last + 1):
        pred = logits.argmax(-1)
        sup = supervised[:, p]
        preds[:, p] = torch.where(sup, pred, preds[:, p])
        if p == last:
            break
        fed = torch.where(sup, pred, tokens[:, p + 1])
        logits = model(fed[:, None], position_ids[:, p + 1:p + 2], cut(key_padding, p + 1, p + 2),
                       cut(uniform_slots, p + 1, p + 2), cache=cache,
                       digits=cut(digits, p + 1, p + 2))[:, -1]
    return preds


def _decode_full(model, tokens, position_ids, supervised, key_padding, uniform_slots, first, last, digits=None):
    """The reference: one full forward pass per decoded position."""
    tokens = tokens.clone()
    preds = torch.full_like(tokens, -1)
    T = tokens.shape[1]
    for p in range(first, last + 1):
        logits = model(tokens, position_ids, key_padding, uniform_slots, digits=digits)
        pred = logits[:, p].argmax(-1)
        sup = supervised[:, p]
        preds[:, p] = torch.where(sup, pred, preds[:, p])
        if p + 1 < T:
            tokens[:, p + 1] = torch.where(sup, pred, tokens[:, p + 1])
    return preds


__all__ = ["greedy_decode"]

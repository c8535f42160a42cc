"""A key/value cache for incremental (one token at a time) decoding with a causal Transformer.

Greedy decoding without a cache runs the whole prefix again for every answer digit: quadratic work
per digit, cubic per answer. With the cache each layer keeps the keys and values of the positions
already seen, and a step computes attention for the newest position only. Because every encoding
here reads *position IDs* (not array indices), the cache also keeps the keys' IDs, their padding and
their UPE slots, so relative biases, ALiBi, UPE and RoPE see exactly what a full pass would see.

Buffers are allocated once for ``capacity`` positions (no re-allocation while decoding). For
inference only (use it under ``torch.no_grad()``).
"""
from __future__ import annotations

import torch


class KVCache:
    """Per-layer keys/values ``[B, H, capacity, d_head]`` plus the keys' position IDs, padding and slots.

    :meth:`~lengen_utils.core.model.Transformer.forward` with ``cache=`` appends the new positions'
    inputs (:meth:`append_inputs`), each layer stores its keys and values (:meth:`store`), and the
    cache advances by the number of new positions at the end of the pass.
    """

    def __init__(self, capacity: int):
        if capacity < 1:
            raise ValueError(f"a KV cache needs a positive capacity, got {capacity}")
        self.capacity = capacity
        self.length = 0                      # positions fully processed by every layer
        self._pending = 0                    # positions of the pass in progress
        self._kv: dict[int, tuple[torch.Tensor, torch.Tensor]] = {}
        self._ids: torch.Tensor | None = None
        self._keep: torch.Tensor | None = None
        self._slots: torch.Tensor | None = None

    def append_inputs(self, position_ids: torch.Tensor, key_padding: torch.Tensor | None,
                      uniform_slots: torch.Tensor | None) -> None:
        """Record the IDs (and padding, slots) of the ``T`` positions this pass adds."""
        B, T = position_ids.shape[:2]          # [B or 1, T] or, with several ID channels, [B or 1, T, C]
        end = self.length + T
        if end > self.capacity:
            raise ValueError(f"the KV cache holds {self.capacity} positions; this pass would need {end}")
        if self._ids is None:                  # IDs and slots may be one row shared by the batch
            self._ids = position_ids.new_zeros(B, self.capacity, *position_ids.shape[2:])
            self._keep = None if key_padding is None else key_padding.new_ones(key_padding.shape[0], self.capacity)
            self._slots = (None if uniform_slots is None
                           else uniform_slots.new_zeros(uniform_slots.shape[0], self.capacity))
        if (key_padding is None) != (self._keep is None) or (uniform_slots is None) != (self._slots is None):
            raise ValueError("pass key_padding and uniform_slots on every step or on none")
        self._ids[:, self.length:end] = position_ids
        if key_padding is not None:
            self._keep[:, self.length:end] = key_padding
        if uniform_slots is not None:
            self._slots[:, self.length:end] = uniform_slots
        self._pending = T

    def keys(self) -> tuple[torch.Tensor, torch.Tensor | None, torch.Tensor | None]:
        """Position IDs, padding (True: real) and UPE slots of every key so far, ``[B, Tk]`` each."""
        end = self.length + self._pending
        cut = lambda t: None if t is None else t[:, :end]  # noqa: E731
        return cut(self._ids), cut(self._keep), cut(self._slots)

    def store(self, layer: int, k: torch.Tensor, v: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Write this pass's keys and values of ``layer``; return all keys and values so far."""
        if layer not in self._kv:
            B, H, _, D = k.shape
            self._kv[layer] = (k.new_zeros(B, H, self.capacity, D), v.new_zeros(B, H, self.capacity, D))
        K, V = self._kv[layer]
        end = self.length + k.shape[2]
        K[:, :, self.length:end] = k
        V[:, :, self.length:end] = v
        return K[:, :, :end], V[:, :, :end]

    def advance(self) -> None:
        """Mark the pass in progress as done (called by the model after its last layer)."""
        self.length += self._pending
        self._pending = 0


__all__ = ["KVCache"]

"""Position encodings, each a small module with one job.

Two places exist for position information:

* added to the input embeddings (:class:`LearnedPositions`, :class:`SinusoidalPositions`): APE;
* inside attention, as an additive score bias or a rotation of queries and keys
  (:class:`RelativeKeys` = Shaw/Sabbaghi RPE, :class:`UniformKeys` = UPE, :class:`ALiBi`, :class:`FireBias` = FIRE,
  :class:`RotaryPositions` = RoPE, :class:`RelativeScalarBias` = T5-style bias).

Every in-attention encoding reads *position IDs*, not array indices, so it composes with
coupled or randomly started IDs. Distances are ``id_key - id_query``.

A bias module is called as ``module(q, query_ids, key_ids, key_slots, query_start)`` and returns a
``[B, H, Tq, Tk]`` score bias: the queries are the ``Tq`` newest positions and the keys all ``Tk``
positions so far (``Tq = Tk``, ``query_start = 0`` without a KV cache; one query per step while
decoding with one, or a block of queries, :mod:`~lengen_utils.core.model.blocked`). ``query_start`` is the
index of the first query among the keys. IDs and slots may have one row shared by the batch; a bias that
does not read ``q`` (ALiBi, the relative scalar bias) is then ``[1, H, Tq, Tk]`` and broadcasts.
"""
from __future__ import annotations

import math

import torch
from torch import nn

from .config import ModelConfig


def relative_distance(query_ids: torch.Tensor, key_ids: torch.Tensor, max_distance: int) -> torch.Tensor:
    """``[B, Tq, Tk]`` index of the clipped distance ``id_j - id_i`` (key j, query i) into a table of
    ``2*max_distance+1`` rows."""
    rel = key_ids[:, None, :] - query_ids[:, :, None]
    return rel.clamp(-max_distance, max_distance) + max_distance


class LearnedPositions(nn.Module):
    """Learned absolute position embeddings, looked up with the given IDs (APE, or coupling)."""

    def __init__(self, cfg: ModelConfig):
        super().__init__()
        self.table = nn.Embedding(cfg.max_positions, cfg.d_model)
        nn.init.normal_(self.table.weight, std=0.02)

    def forward(self, position_ids: torch.Tensor) -> torch.Tensor:
        return self.table(position_ids)


class ChannelPositions(nn.Module):
    """Learned positions for IDs with several channels ``[B, T, C]`` (Cho et al. Section 6.2: row and
    column): each channel's IDs looked up in a table, and the C vectors summed. One table per channel, or one
    table for all (``shared_channel_table``: Cho et al.'s choice, their Appendix B.8)."""

    def __init__(self, cfg: ModelConfig):
        super().__init__()
        n_tables = 1 if cfg.shared_channel_table else cfg.position_channels
        self.tables = nn.ModuleList(nn.Embedding(cfg.max_positions, cfg.d_model) for _ in range(n_tables))
        for table in self.tables:
            nn.init.normal_(table.weight, std=0.02)
        self.channels, self.shared = cfg.position_channels, cfg.shared_channel_table

    def forward(self, position_ids: torch.Tensor) -> torch.Tensor:
        return sum(self.tables[0 if self.shared else c](position_ids[..., c]) for c in range(self.channels))


class SinusoidalPositions(nn.Module):
    """Fixed sinusoids of the position IDs (Vaswani et al.); defined for any ID."""

    def __init__(self, cfg: ModelConfig):
        super().__init__()
        half = cfg.d_model // 2
        freqs = torch.exp(-math.log(10000.0) * torch.arange(half) / max(half, 1))
        self.register_buffer("freqs", freqs, persistent=False)
        self.d_model = cfg.d_model

    def forward(self, position_ids: torch.Tensor) -> torch.Tensor:
        angles = position_ids[..., None].float() * self.freqs
        emb = torch.cat([angles.sin(), angles.cos()], dim=-1)
        if emb.shape[-1] < self.d_model:
            emb = nn.functional.pad(emb, (0, 1))
        return emb


class RelativeKeys(nn.Module):
    """Shaw et al.'s relative vectors added to the keys: score_ij = q_i . (k_j + p_{j-i}) (Sabbaghi eq. 2.1).

    Returns the extra term q_i . p_{j-i} as an additive bias (already divided by sqrt(d_head)).
    """

    def __init__(self, cfg: ModelConfig):
        super().__init__()
        self.max_distance = cfg.rpe_max_distance
        self.scale = float(cfg.rpe_scale)
        self.vectors = nn.Parameter(torch.randn(2 * cfg.rpe_max_distance + 1, cfg.d_head) * (0.02 / self.scale))

    @property
    def table(self) -> torch.Tensor:
        """The vectors p_{-K..K} as used in attention (the parameter times ``rpe_scale``)."""
        return self.vectors if self.scale == 1.0 else self.vectors * self.scale

    def forward(self, q: torch.Tensor, query_ids: torch.Tensor, key_ids: torch.Tensor | None = None,
                key_slots: torch.Tensor | None = None, query_start: int = 0) -> torch.Tensor:
        key_ids = query_ids if key_ids is None else key_ids
        scores = torch.matmul(q, self.table.t().to(q.dtype))            # [B, H, Tq, 2K+1]
        rel = relative_distance(query_ids, key_ids, self.max_distance)   # [B, Tq, Tk]
        rel = rel[:, None].expand(q.shape[0], q.shape[1], -1, -1)   # a view, also of IDs shared by the batch
        return torch.gather(scores, -1, rel) / math.sqrt(q.shape[-1])


class UniformKeys(RelativeKeys):
    """Sabbaghi's UPE (eq. 3.3): a key that is the r-th multiplier digit gets the vector c_r for every
    query j != i; all other pairs use the RPE vectors p_{j-i}."""

    def __init__(self, cfg: ModelConfig):
        super().__init__(cfg)
        # row 0 is never read (slot 0 means "not a multiplier digit": RPE); rows 1..S are c_1..c_S
        self.uniform = nn.Parameter(torch.randn(cfg.upe_slots + 1, cfg.d_head) * (0.02 / self.scale))
        self.slots = cfg.upe_slots

    @property
    def uniform_table(self) -> torch.Tensor:
        """The vectors c_0..c_S as used in attention (the parameter times ``rpe_scale``, like the p's)."""
        return self.uniform if self.scale == 1.0 else self.uniform * self.scale

    def forward(self, q: torch.Tensor, query_ids: torch.Tensor, key_ids: torch.Tensor | None = None,
                key_slots: torch.Tensor | None = None, query_start: int = 0) -> torch.Tensor:
        """``key_slots[b, j] = r > 0``: key j is the multiplier digit with vector c_r (see
        :func:`~lengen_utils.core.positions.uniform_slots`); 0: RPE."""
        bias = super().forward(q, query_ids, key_ids)
        if key_slots is None:
            return bias
        if key_slots.device.type == "cpu" and int(key_slots.max()) > self.slots:  # no host sync on GPUs
            raise ValueError(f"the multiplier has {int(key_slots.max())} digits; this UPE model has "
                             f"{self.slots} uniform vectors (upe_slots)")
        Tq, Tk = q.shape[2], key_slots.shape[1]
        per_slot = torch.matmul(q, self.uniform_table.t().to(q.dtype)) / math.sqrt(q.shape[-1])  # [B, H, Tq, S+1]
        slot = key_slots[:, None, None, :].expand(q.shape[0], q.shape[1], Tq, -1)
        uniform_bias = torch.gather(per_slot, -1, slot)
        query_index = torch.arange(query_start, query_start + Tq, device=q.device)
        itself = query_index[:, None] == torch.arange(Tk, device=q.device)[None, :]         # j == i
        use = (key_slots[:, None, :] > 0) & ~itself                                          # [B, Tq, Tk]
        return torch.where(use[:, None], uniform_bias, bias)


class ALiBi(nn.Module):
    """Press et al.'s linear biases: -slope_h * |id_i - id_j| with geometric slopes per head."""

    def __init__(self, cfg: ModelConfig):
        super().__init__()
        slopes = torch.tensor([2.0 ** (-8.0 * (h + 1) / cfg.n_heads) for h in range(cfg.n_heads)])
        self.register_buffer("slopes", slopes, persistent=False)

    def forward(self, q: torch.Tensor, query_ids: torch.Tensor, key_ids: torch.Tensor | None = None,
                key_slots: torch.Tensor | None = None, query_start: int = 0) -> torch.Tensor:
        key_ids = query_ids if key_ids is None else key_ids
        dist = (key_ids[:, None, :] - query_ids[:, :, None]).abs().to(q.dtype)
        return -self.slopes.to(q.dtype)[None, :, None, None] * dist[:, None]


class FireBias(nn.Module):
    """Li et al. 2024's FIRE (functional interpolation for relative positions), a score bias per head:

    ``b_h(i, j) = f_h( psi(i - j) / psi(max(L, i)) )`` with ``psi(x) = log(c x + 1)``,

    for query ID ``i`` and key ID ``j <= i`` (a decoder). ``f`` is an MLP ``1 -> fire_mlp_width -> n_heads`` with a
    ReLU; ``c > 0`` (used as ``|c|``, initialised at 0.1) and the threshold ``L`` (initialised at ``fire_threshold``)
    are learned. Dividing by the query's own (log-scaled) position maps every distance into ``[0, 1]``: a longer test
    lands in the trained interval (progressive interpolation) instead of beyond it. ``L`` keeps short prefixes from
    being stretched: below ``L`` the normaliser is constant and FIRE is a learned function of the log distance.
    Keys after the query (masked by causality) get distance 0.
    """

    def __init__(self, cfg: ModelConfig):
        super().__init__()
        width = cfg.fire_mlp_width
        self.mlp = nn.Sequential(nn.Linear(1, width), nn.ReLU(), nn.Linear(width, cfg.n_heads))
        self.c = nn.Parameter(torch.tensor(0.1))
        self.threshold = nn.Parameter(torch.tensor(float(cfg.fire_threshold)))

    def psi(self, x: torch.Tensor) -> torch.Tensor:
        """The log transform ``log(|c| x + 1)``."""
        return torch.log1p(self.c.abs() * x)

    def forward(self, q: torch.Tensor, query_ids: torch.Tensor, key_ids: torch.Tensor | None = None,
                key_slots: torch.Tensor | None = None, query_start: int = 0) -> torch.Tensor:
        key_ids = query_ids if key_ids is None else key_ids
        # the bias depends on the pair (query ID, distance) alone: run the MLP once on the grid of every such pair up
        # to the largest (a few thousand) instead of once per (row, query, key), then look the values up; exact, and
        # about 15x less work in training on the CPU (reading the two maxima is one synchronisation on a GPU)
        distance = (query_ids[:, :, None] - key_ids[:, None, :]).clamp(min=0)                # [B, Tq, Tk]
        span = int(distance.max()) + 1 if distance.numel() else 1
        top = int(query_ids.max()) + 1 if query_ids.numel() else 1
        dtype = self.c.dtype
        query = torch.arange(top, device=distance.device, dtype=dtype)[:, None]
        normaliser = torch.maximum(query, self.threshold.abs().clamp(min=1.0))
        x = self.psi(torch.arange(span, device=distance.device, dtype=dtype))[None, :] / self.psi(normaliser)
        table = self.mlp(x.reshape(-1, 1))                                                  # [top * span, H]
        return table[query_ids[:, :, None] * span + distance].permute(0, 3, 1, 2).to(q.dtype)  # [B, H, Tq, Tk]


class RelativeScalarBias(nn.Module):
    """A learned scalar per head and clipped ID difference (Raffel et al.'s T5 bias, without buckets).

    Over coupled IDs this is Cho et al.'s later "coupled relative bias" variant. The bias is
    ``relative_bias_scale * self.bias`` (a larger scale learns the scalars faster under Adam). With
    several ID channels ``[B, T, C]`` (the 2-D board task) the scalar is looked up by the *vector* of clipped
    differences, one per channel: a table of ``(2K+1)**C`` numbers per head, so that "one row up, one column
    left" and "one row up, two or more columns right" are different entries. With ``relative_bias_uniform`` a
    key that is the r-th digit of the multiplier (its UPE slot) gets a learned scalar of its own per head instead,
    whatever its distance: the N x 2 product needs both multiplier digits at every answer digit, at a distance
    that grows with the product.
    """

    def __init__(self, cfg: ModelConfig):
        super().__init__()
        self.max_distance = cfg.relative_bias_max_distance
        self.channels = cfg.position_channels
        self.scale = float(cfg.relative_bias_scale)
        self.bias = nn.Parameter(torch.zeros(cfg.n_heads, (2 * self.max_distance + 1) ** self.channels))
        # relative_bias_uniform: a key that is the r-th multiplier digit gets u[h, r] whatever its distance
        # (Sabbaghi's uniform idea, eq. 3.3, as a scalar bias); column 0 is never read
        self.uniform = (nn.Parameter(torch.zeros(cfg.n_heads, cfg.upe_slots + 1)) if cfg.relative_bias_uniform
                        else None)

    def table(self, dtype: torch.dtype) -> torch.Tensor:
        """``[H, (2K+1)**C]``: the scalars times ``relative_bias_scale``, in ``dtype``."""
        table = self.bias if self.scale == 1.0 else self.bias * self.scale
        return table.to(dtype)

    def offsets(self, query_ids: torch.Tensor, key_ids: torch.Tensor) -> torch.Tensor:
        """``[B, Tq, Tk]`` row of the bias table for each (query, key) pair."""
        if self.channels == 1:
            return relative_distance(query_ids, key_ids, self.max_distance)
        width = 2 * self.max_distance + 1
        index = None
        for c in range(self.channels):
            rel = relative_distance(query_ids[..., c], key_ids[..., c], self.max_distance)
            index = rel if index is None else index * width + rel
        return index

    def forward(self, q: torch.Tensor, query_ids: torch.Tensor, key_ids: torch.Tensor | None = None,
                key_slots: torch.Tensor | None = None, query_start: int = 0) -> torch.Tensor:
        key_ids = query_ids if key_ids is None else key_ids
        rel = self.offsets(query_ids, key_ids)                               # [B, Tq, Tk]
        # index_select along the table's columns: the same gather as table[:, rel], but its backward is an
        # index_add over the (2K+1)**C columns, not advanced indexing's slower index_put
        flat = self.table(q.dtype).index_select(1, rel.reshape(-1))       # [H, B * Tq * Tk]
        bias = flat.view(-1, *rel.shape).permute(1, 0, 2, 3)                # [B, H, Tq, Tk]
        if self.uniform is None or key_slots is None:
            return bias
        uniform = (self.uniform * self.scale).to(q.dtype)[:, key_slots].permute(1, 0, 2)[:, :, None, :]  # [B, H, 1, Tk]
        return torch.where((key_slots > 0)[:, None, None, :], uniform, bias)


def window_mask(hidden: torch.Tensor, q: torch.Tensor) -> torch.Tensor:
    """A window's additive mask ``[B, 1, Tq, Tk]`` in ``q``'s dtype: ``-inf`` where ``hidden`` ``[B, Tq, Tk]``, else 0."""
    return torch.zeros(hidden.shape, dtype=q.dtype, device=q.device).masked_fill(hidden, float("-inf"))[:, None]


class AttentionWindow(nn.Module):
    """A local window: a query sees only keys whose ID is within ``attention_window`` of its own (or of its own plus
    one of ``window_offsets``), except the multiplier's digits (a UPE slot > 0), which it sees from anywhere. ``-inf``
    outside, 0 inside.

    With Sabbaghi's UPE this splits the work cleanly: the uniform vectors reach the multiplier at any distance,
    and the relative part only ever compares a digit with its few neighbours, the same neighbourhood at every
    length, so digits at distances that training only filled with ``pad`` cannot capture the attention.
    """

    hides_keys = True          # a mask, not a score: SelfAttention adds it after the scalable softmax's factor

    def __init__(self, cfg: ModelConfig):
        super().__init__()
        self.width = cfg.attention_window
        self.offsets = cfg.window_offsets      # more centres (ModelConfig.window_offsets)

    def forward(self, q: torch.Tensor, query_ids: torch.Tensor, key_ids: torch.Tensor | None = None,
                key_slots: torch.Tensor | None = None, query_start: int = 0) -> torch.Tensor:
        key_ids = query_ids if key_ids is None else key_ids
        distance = key_ids[:, None, :] - query_ids[:, :, None]                           # [B, Tq, Tk]
        far = distance.abs() > self.width
        for centre in self.offsets:
            far = far & ((distance - centre).abs() > self.width)
        if key_slots is not None:
            far = far & (key_slots[:, None, :] == 0)
        return window_mask(far, q)


class RowWindow(nn.Module):
    """With (row, column, level) IDs (the N x M scratchpad, notebook 09): a query sees the keys of its own level only
    from its own row and the ``row_window`` rows above it; keys of other levels (the operands) it sees from anywhere.
    ``-inf`` outside, 0 inside.

    A digit of row k of the fused-row scratchpad reads the row above, its own row and the operands, never an older
    row; yet every older row is a distractor, and their number grows with the multiplier's length (M x (N + 2) keys
    at M rows), so a test with twice the rows of training dilutes the attention with rows training never had that
    many of. Hiding them makes the keys a query competes with grow with N + M instead of N x M.
    """

    hides_keys = True          # a mask, not a score: SelfAttention adds it after the scalable softmax's factor

    def __init__(self, cfg: ModelConfig):
        super().__init__()
        self.rows = cfg.row_window

    def forward(self, q: torch.Tensor, query_ids: torch.Tensor, key_ids: torch.Tensor | None = None,
                key_slots: torch.Tensor | None = None, query_start: int = 0) -> torch.Tensor:
        key_ids = query_ids if key_ids is None else key_ids
        same_level = key_ids[:, None, :, -1] == query_ids[:, :, None, -1]                  # [B, Tq, Tk]
        older = key_ids[:, None, :, 0] < query_ids[:, :, None, 0] - self.rows
        hidden = same_level & older
        return window_mask(hidden, q)


class LookupWindow(nn.Module):
    """With (row, column, level) IDs: a scratchpad query (level 2) sees the multiplicand's and the scratchpad's keys
    only within ``lookup_window`` columns of its own, and the multiplier's only within ``lookup_window`` rows.
    Queries in the operands see everything. ``-inf`` outside, 0 inside.

    A fused-row digit needs the multiplicand and the row above at columns ``t - 1 .. t + 1``, its own row's last
    digit, and the multiplier at rows ``k`` and ``k + 1``. The relative bias tells these apart; every farther key
    falls into a clipped bucket whose population grows with N and M (the dilution :class:`RowWindow` removes for
    older rows). Hidden, the keys a query sees are the same few at every N and M.
    """

    hides_keys = True          # a mask, not a score: SelfAttention adds it after the scalable softmax's factor

    def __init__(self, cfg: ModelConfig):
        super().__init__()
        self.reach = cfg.lookup_window

    def forward(self, q: torch.Tensor, query_ids: torch.Tensor, key_ids: torch.Tensor | None = None,
                key_slots: torch.Tensor | None = None, query_start: int = 0) -> torch.Tensor:
        key_ids = query_ids if key_ids is None else key_ids
        delta = (key_ids[:, None, :, :2] - query_ids[:, :, None, :2]).abs()              # [B, Tq, Tk, 2]
        key_level = key_ids[:, None, :, 2]
        far = torch.where(key_level == 1, delta[..., 0], delta[..., 1]) > self.reach     # multiplier: rows; else columns
        hidden = far & (query_ids[:, :, None, 2] == 2)
        return window_mask(hidden, q)


class RotaryPositions(nn.Module):
    """Su et al.'s RoPE: rotate query and key pairs by angles proportional to the position ID."""

    def __init__(self, cfg: ModelConfig):
        super().__init__()
        half = cfg.d_head // 2
        self.register_buffer("freqs", cfg.rope_base ** (-torch.arange(half) / half), persistent=False)

    def rotate(self, x: torch.Tensor, position_ids: torch.Tensor) -> torch.Tensor:
        angles = position_ids[:, None, :, None].float() * self.freqs              # [B, 1, T, half]
        cos, sin = angles.cos().to(x.dtype), angles.sin().to(x.dtype)
        x1, x2 = x.chunk(2, dim=-1)
        return torch.cat([x1 * cos - x2 * sin, x1 * sin + x2 * cos], dim=-1)


def input_encoding(cfg: ModelConfig) -> nn.Module | None:
    """The encoding added to token embeddings, if the config uses one."""
    if cfg.encoding == "learned" and cfg.position_channels > 1:
        return ChannelPositions(cfg)
    return {"learned": LearnedPositions, "sinusoidal": SinusoidalPositions}.get(cfg.encoding, lambda c: None)(cfg)


def attention_biases(cfg: ModelConfig) -> nn.ModuleList:
    """The additive score biases one attention layer needs."""
    mods: list[nn.Module] = []
    if cfg.encoding == "rpe":
        mods.append(RelativeKeys(cfg))
    elif cfg.encoding == "upe":
        mods.append(UniformKeys(cfg))
    elif cfg.encoding == "alibi":
        mods.append(ALiBi(cfg))
    elif cfg.encoding == "fire":
        mods.append(FireBias(cfg))
    if cfg.relative_bias:
        mods.append(RelativeScalarBias(cfg))
    if cfg.attention_window:
        mods.append(AttentionWindow(cfg))
    if cfg.row_window:
        mods.append(RowWindow(cfg))
    if cfg.lookup_window:
        mods.append(LookupWindow(cfg))
    return nn.ModuleList(mods)

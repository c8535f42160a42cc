"""The one config object a model is built from (a zoo entry is a name, a ModelConfig and a seed)."""
from __future__ import annotations

import math
from dataclasses import asdict, dataclass

from ..config_checks import (ConfigError, check_bool, check_choice, check_field_types, check_int,
                             config_from_dict)
from ..task_config import DEFAULT_MAX_POSITION
from ..vocab import ARITHMETIC_VOCAB

ENCODINGS = ("none", "learned", "sinusoidal", "rpe", "upe", "rope", "alibi", "fire")
NORMS = ("layernorm", "rmsnorm", "none")
NORM_PLACEMENTS = ("pre", "post")
ACTIVATIONS = ("gelu", "relu")

__all__ = ["ENCODINGS", "NORM_PLACEMENTS", "ConfigError", "ModelConfig"]


@dataclass(frozen=True)
class ModelConfig:
    """Sizes and the position encoding of a :class:`~lengen_utils.core.model.Transformer`.

    ``causal=True`` builds a decoder (Cho et al.), ``False`` a bidirectional encoder (Sabbaghi et al.).
    ``encoding`` picks the position encoding: ``none`` (NoPE), ``learned`` (absolute, looked up with
    the supplied position IDs, so coupling is ``learned`` fed coupled IDs), ``sinusoidal``, ``rpe``
    (Shaw et al. vectors added to the keys, Sabbaghi eq. 2.1, distances clipped at
    ``rpe_max_distance``), ``upe`` (Sabbaghi eq. 3.3: one key vector per multiplier digit, RPE among
    the rest), ``rope``, ``alibi`` or ``fire`` (Li et al. 2024: a small MLP of the log-scaled distance divided by the
    log-scaled query position, :class:`~.encodings.FireBias`; decoders only).
    ``relative_bias`` adds a learned scalar per head and clipped
    ID difference (T5 style) on top of any encoding; ``relative_bias_uniform`` gives the multiplier's digits
    one scalar per head and digit instead, at any distance (N x 2). ``relative_bias_scale`` multiplies those scalars
    (stored parameter x scale): under Adam this multiplies their effective learning rate, so a few
    thousand steps can build a bias gap large enough to stay sharp among many distractors.
    ``rpe_scale`` does the same for the RPE/UPE key vectors (``p = rpe_scale x parameter``).
    ``attention_window=w > 0`` lets a query see only keys whose ID is within ``w`` of its own, except the
    multiplier's digits (UPE slots), seen from anywhere (:class:`~.encodings.AttentionWindow`).
    ``window_offsets=(c, ...)`` adds more centres to that window: a key is seen when its ID is within ``w`` of the
    query's ID plus ``c``. In Sabbaghi's addition frame the digits of ``a`` and ``b`` that one answer digit needs lie
    ``l + 1`` apart, so ``window_offsets=(l + 1, -(l + 1))`` shows each query its own column of both operands and its
    neighbours, and nothing else: the same neighbourhood at every length (notebook 03's structural fix).
    ``row_window=w > 0`` (three ID channels: row, column, level; the N x M scratchpad of notebook 09) hides from a
    query the keys of its own level whose row is more than ``w`` below its own (:class:`~.encodings.RowWindow`): a
    scratchpad row reads the row above and the operands, never an older row.
    ``lookup_window=w > 0`` (the same IDs) narrows what a scratchpad query (level 2) sees of the rest: the
    multiplicand's and the scratchpad's keys only within ``w`` columns of its own, the multiplier's only within ``w``
    rows (:class:`~.encodings.LookupWindow`). Every lookup of a fused-row digit lies within one column or row, so with
    ``w`` below the relative bias's clip no visible key shares the clipped bucket, whose count grows with N and M.
    ``length_scale=True`` (scalable softmax, Nakanishi 2025) multiplies every head's attention logits, bias
    included, by ``s_h * log(n)``, where ``n`` is the number of keys the query sees and ``s_h`` a learned
    scalar per head: the margin of the right keys then grows with the log of the context, as it must to stay
    sharp among ``n`` distractors. ``length_scale_visible=True`` counts in ``n`` only the keys a window
    (``row_window``, ``lookup_window``, ``attention_window``) leaves visible, not every earlier position.
    ``loops=r`` applies the stack of ``n_layers`` blocks ``r`` times with the same weights (a Universal or
    Looped Transformer, thesis Section 2.1.3); ``loops_per_digit=q > 0`` lets the count grow with the input:
    a problem whose longest operand has ``d`` digits runs ``max(loops, ceil(q * d))`` times (:meth:`loops_for`),
    so a test twice as long gets twice the depth. ``input_injection=True`` adds the embedded input (tokens and
    positions) back to the residual stream before every pass after the first (McLeish et al. 2024's input
    injection), so a deep loop does not lose sight of its input.
    ``carry_classes=n > 0`` adds a second linear read-out of the final hidden state, over ``n`` carry values: with
    ``TaskConfig(carry_targets=True)`` training supervises it with the carry each answer column receives. Inference
    reads only the answer head. ``product_heads=k`` adds ``k`` read-outs over the products 0..81, trained with
    ``TaskConfig(product_targets=True)`` on each column's digit products ``a_{s-r} b_r``.
    ``arithmetic_heads=h`` (encoder only): the first h heads of every layer add relative key vectors among
    the number tokens only, indexed by frame IDs (Sabbaghi Section 3.3, :mod:`.arithmetic_heads`).

    ``norm_placement="post"`` is BERT's block (Sabbaghi et al. train Huggingface's BERT): ``Norm(x + Attn(x))`` then
    ``Norm(x + MLP(x))``, a norm on the embeddings and none before the read-out; "pre" (the default) is
    ``x + Attn(Norm(x))`` with a final norm. ``dropout`` (BERT: 0.1) drops attention probabilities, the attention and
    MLP outputs and the embeddings, in training only.

    ``max_positions`` is the number of rows of the learned table (IDs ``0..max_positions-1``); its
    default is one more than :class:`~lengen_utils.core.tasks.TaskConfig`'s default ``max_position``, so the
    two defaults work together.
    """

    vocab_size: int = len(ARITHMETIC_VOCAB)  # the board task's 'M' needs len(formats.VOCAB)
    d_model: int = 64
    n_layers: int = 1
    n_heads: int = 4
    d_ff: int = 256
    causal: bool = True
    encoding: str = "learned"
    max_positions: int = DEFAULT_MAX_POSITION + 1   # rows of the learned position table: IDs 0..max_positions-1
    rpe_max_distance: int = 16
    upe_slots: int = 4
    relative_bias: bool = False
    relative_bias_max_distance: int = 8
    relative_bias_scale: float = 1.0
    relative_bias_uniform: bool = False   # multiplier digits (UPE slots 1..upe_slots): one scalar per head and slot
    rpe_scale: float = 1.0             # RPE/UPE vectors = stored parameter x scale (faster learning under Adam)
    dropout: float = 0.0
    norm: str = "layernorm"           # "layernorm", "rmsnorm" or "none" (hand-built weights)
    norm_placement: str = "pre"       # "pre": x + f(Norm(x)); "post": Norm(x + f(x)), BERT's (Sabbaghi et al.)
    activation: str = "gelu"          # MLP non-linearity: "gelu" or "relu"
    rope_base: float = 10000.0
    fire_mlp_width: int = 32          # FIRE's MLP: 1 -> width -> n_heads (Li et al. 2024 use 32)
    fire_threshold: float = 512.0     # FIRE's learnable threshold L at initialisation (Li et al.: 512)
    arithmetic_heads: int = 0         # Sabbaghi 3.3: first h heads: RPE among number tokens (arithmetic_heads.py)
    position_channels: int = 1        # 2: (row, column) IDs [B, T, 2], one learned table each (Cho et al. 6.2)
    shared_channel_table: bool = False  # the channels share one learned table (Cho et al. 6.2, Appendix B.8)
    attention_window: int = 0          # > 0: keys within this ID distance only (the multiplier's digits: any)
    window_offsets: tuple[int, ...] = ()   # more window centres: keys within attention_window of query ID + offset
    row_window: int = 0                # > 0, with (row, column, level) IDs: own-level keys of at most this many rows up
    lookup_window: int = 0             # > 0, same IDs: scratchpad queries see operand/scratchpad keys this near only
    length_scale: bool = False        # scalable softmax: logits x s_h log(n), n = keys the query sees
    length_scale_visible: bool = False  # n counts only the keys the windows leave visible (default: every earlier one)
    loops: int = 1                    # passes through the (weight-shared) stack of n_layers blocks
    loops_per_digit: float = 0.0      # > 0: a d-digit problem makes max(loops, ceil(loops_per_digit * d)) passes
    input_injection: bool = False     # add the embedded input back before every pass after the first
    carry_classes: int = 0            # > 0: a second read-out, trained on each answer column's carry (9k for k digits)
    product_heads: int = 0            # > 0: read-outs of each answer column's digit products (k of them, 0..81 each)

    def __post_init__(self) -> None:
        check_field_types(self)
        own = "ModelConfig"
        check_choice(own, "encoding", self.encoding, ENCODINGS, "position encoding")
        check_choice(own, "norm", self.norm, NORMS)
        check_choice(own, "norm_placement", self.norm_placement, NORM_PLACEMENTS)
        if self.norm_placement == "post" and self.norm == "none":
            raise ConfigError("norm_placement='post' normalises after each residual sum; norm='none' has no norm "
                              "to place (choose norm 'layernorm' or 'rmsnorm', or norm_placement 'pre')")
        check_choice(own, "activation", self.activation, ACTIVATIONS)
        for name in ("vocab_size", "d_model", "n_layers", "n_heads", "d_ff", "max_positions", "upe_slots"):
            check_int(own, name, getattr(self, name))
        for name in ("rpe_max_distance", "relative_bias_max_distance", "attention_window", "carry_classes",
                     "product_heads", "row_window", "lookup_window"):
            check_int(own, name, getattr(self, name), minimum=0)
        for name in ("causal", "relative_bias", "relative_bias_uniform", "length_scale", "length_scale_visible"):
            check_bool(own, name, getattr(self, name))
        check_int(own, "fire_mlp_width", self.fire_mlp_width)
        for name in ("relative_bias_scale", "rpe_scale", "rope_base", "fire_threshold"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value <= 0:
                raise ConfigError(f"{own}.{name} must be a finite number > 0, got {value!r}")
        if isinstance(self.dropout, bool) or not isinstance(self.dropout, (int, float)) or not 0 <= self.dropout < 1:
            raise ConfigError(f"{own}.dropout must be a probability in [0, 1), got {self.dropout!r}")
        if self.vocab_size < len(ARITHMETIC_VOCAB):
            raise ConfigError(f"vocab_size={self.vocab_size} is smaller than the course vocabulary "
                              f"({len(ARITHMETIC_VOCAB)} tokens: digits, operators, $, pad, index hints)")
        if self.d_model % self.n_heads:
            raise ConfigError(f"d_model={self.d_model} must be divisible by n_heads={self.n_heads}")
        if self.encoding == "rope" and (self.d_model // self.n_heads) % 2:
            raise ConfigError(f"rope needs an even head dimension; d_model/n_heads = {self.d_model // self.n_heads}")
        if self.encoding == "fire" and not self.causal:
            raise ConfigError("encoding 'fire' is defined for causal attention (Li et al. 2024: keys j <= query i, "
                              "normalised by the query's position); use causal=True, or 'rpe'/'alibi' in an encoder")
        self._check_arithmetic_heads()
        self._check_loops()
        self._check_position_channels()
        if self.attention_window and self.position_channels > 1:
            raise ConfigError(f"attention_window={self.attention_window} measures one ID channel; this model has "
                              f"position_channels={self.position_channels}")
        offsets = self.window_offsets
        if not isinstance(offsets, (tuple, list)) or any(isinstance(c, bool) or not isinstance(c, int) for c in offsets):
            raise ConfigError(f"ModelConfig.window_offsets must be a list of whole numbers, got {offsets!r}")
        object.__setattr__(self, "window_offsets", tuple(offsets))
        if offsets and not self.attention_window:
            raise ConfigError(f"window_offsets={list(offsets)} add centres to the attention window; it needs "
                              f"attention_window > 0")
        for name in ("row_window", "lookup_window"):
            if getattr(self, name) and (self.position_channels != 3 or not self.causal):
                raise ConfigError(f"{name}={getattr(self, name)} reads (row, column, level) IDs in a decoder (the "
                                  f"N x M scratchpad); this model has position_channels={self.position_channels}, "
                                  f"causal={self.causal}")
        if self.length_scale_visible and not (self.length_scale and self.causal and (
                self.row_window or self.lookup_window or self.attention_window)):
            raise ConfigError("length_scale_visible=True counts the keys a window leaves visible in the scalable "
                              "softmax's n; it needs length_scale=True, causal=True and a window (row_window, "
                              "lookup_window or attention_window > 0)")
        if self.relative_bias_uniform and not self.relative_bias:
            raise ConfigError("relative_bias_uniform=True replaces the relative bias of the multiplier's digits; "
                              "it needs relative_bias=True")

    def _check_loops(self) -> None:
        """A looped block (thesis Section 2.1.3): whole passes, a finite growth rate, and injection only into a loop."""
        own = "ModelConfig"
        check_int(own, "loops", self.loops)
        check_bool(own, "input_injection", self.input_injection)
        q = self.loops_per_digit
        if isinstance(q, bool) or not isinstance(q, (int, float)) or not math.isfinite(q) or q < 0:
            raise ConfigError(f"{own}.loops_per_digit must be a finite number >= 0 (passes per operand digit), "
                              f"got {q!r}")
        if self.input_injection and self.loops == 1 and q == 0:
            raise ConfigError("input_injection=True adds the input back before each pass after the first; with "
                              "loops=1 and loops_per_digit=0 there is none (set loops > 1 or loops_per_digit > 0)")

    @property
    def looped(self) -> bool:
        """True when the block stack is applied more than once (or a number of times that grows with the input)."""
        return self.loops > 1 or self.loops_per_digit > 0

    @property
    def reads_digits(self) -> bool:
        """True when the number of passes depends on each problem's length (the forward pass needs ``digits``)."""
        return self.loops_per_digit > 0

    def loops_for(self, digits: int) -> int:
        """Passes through the block stack for a problem whose longest operand has ``digits`` digits."""
        return max(self.loops, math.ceil(self.loops_per_digit * digits))

    def _check_position_channels(self) -> None:
        """Several ID channels (Cho et al.'s 2-D coupling) are summed from one learned table each, or ignored
        by NoPE; the relative bias reads them as a vector; the other pairwise encodings read one ID per token."""
        check_int("ModelConfig", "position_channels", self.position_channels)
        c = self.position_channels
        if c > 1 and (self.encoding not in ("learned", "none") or self.arithmetic_heads):
            raise ConfigError(f"position_channels={c} works with encoding 'learned' (one table per channel) or "
                              f"'none' (NoPE), optionally with relative_bias (one scalar per vector of clipped "
                              f"differences), without arithmetic_heads; got encoding={self.encoding!r}, "
                              f"arithmetic_heads={self.arithmetic_heads}")
        if self.shared_channel_table and (c < 2 or self.encoding != "learned"):
            raise ConfigError(f"shared_channel_table=True shares one learned table between position-ID "
                              f"channels: it needs position_channels >= 2 and encoding 'learned'; got "
                              f"position_channels={c}, encoding={self.encoding!r}")

    def _check_arithmetic_heads(self) -> None:
        """Arithmetic heads (Sabbaghi Section 3.3): 0..n_heads of them, in an encoder whose other heads read
        an input encoding (APE), not a pairwise one."""
        check_int("ModelConfig", "arithmetic_heads", self.arithmetic_heads, minimum=0)
        h = self.arithmetic_heads
        if h > self.n_heads:
            raise ConfigError(f"arithmetic_heads={h} exceeds n_heads={self.n_heads}")
        if h and self.causal:
            raise ConfigError(f"arithmetic_heads={h} is implemented for the encoder (causal=False, the sabbaghi "
                              f"format), not a decoder")
        if h and self.encoding not in ("learned", "sinusoidal", "none"):
            raise ConfigError(f"arithmetic_heads={h}: the other heads read positions from the input encoding; use "
                              f"encoding 'learned' (APE), 'sinusoidal' or 'none', not {self.encoding!r}")

    @property
    def d_head(self) -> int:
        return self.d_model // self.n_heads

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict) -> "ModelConfig":
        return config_from_dict(cls, data)

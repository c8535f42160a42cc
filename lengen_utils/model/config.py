"""The one config object a model is built from (a zoo entry is a name, a ModelConfig and a seed)."""
from __future__ import annotations

import math
from dataclasses import asdict, dataclass

from ..formats import VOCAB
from ..tasks import DEFAULT_MAX_POSITION, ConfigError, check_bool, check_choice, check_int, config_from_dict

ENCODINGS = ("none", "learned", "sinusoidal", "rpe", "upe", "rope", "alibi")
NORMS = ("layernorm", "rmsnorm", "none")
ACTIVATIONS = ("gelu", "relu")

__all__ = ["ENCODINGS", "ConfigError", "ModelConfig"]


@dataclass(frozen=True)
class ModelConfig:
    """Sizes and the position encoding of a :class:`~lengen_utils.model.Transformer`.

    ``causal=True`` builds a decoder (Cho et al.), ``False`` a bidirectional encoder (Sabbaghi et al.).
    ``encoding`` picks the position encoding: ``none`` (NoPE), ``learned`` (absolute, looked up with
    the supplied position IDs, so coupling is ``learned`` fed coupled IDs), ``sinusoidal``, ``rpe``
    (Shaw et al. vectors added to the keys, Sabbaghi eq. 2.1, distances clipped at
    ``rpe_max_distance``), ``upe`` (Sabbaghi eq. 3.3: one key vector per multiplier digit, RPE among
    the rest), ``rope`` or ``alibi``. ``relative_bias`` adds a learned scalar per head and clipped
    ID difference (T5 style) on top of any encoding. ``relative_bias_scale`` multiplies those scalars
    (stored parameter x scale): under Adam this multiplies their effective learning rate, so a few
    thousand steps can build a bias gap large enough to stay sharp among many distractors.
    ``rpe_scale`` does the same for the RPE/UPE key vectors (``p = rpe_scale x parameter``).

    ``max_positions`` is the number of rows of the learned table (IDs ``0..max_positions-1``); its
    default is one more than :class:`~lengen_utils.tasks.TaskConfig`'s default ``max_position``, so the
    two defaults work together.
    """

    vocab_size: int = len(VOCAB)
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
    rpe_scale: float = 1.0             # RPE/UPE vectors = stored parameter x scale (faster learning under Adam)
    dropout: float = 0.0
    norm: str = "layernorm"           # "layernorm", "rmsnorm" or "none" (hand-built weights)
    activation: str = "gelu"          # MLP non-linearity: "gelu" or "relu"
    rope_base: float = 10000.0

    def __post_init__(self) -> None:
        own = "ModelConfig"
        check_choice(own, "encoding", self.encoding, ENCODINGS, "position encoding")
        check_choice(own, "norm", self.norm, NORMS)
        check_choice(own, "activation", self.activation, ACTIVATIONS)
        for name in ("vocab_size", "d_model", "n_layers", "n_heads", "d_ff", "max_positions", "upe_slots"):
            check_int(own, name, getattr(self, name))
        for name in ("rpe_max_distance", "relative_bias_max_distance"):
            check_int(own, name, getattr(self, name), minimum=0)
        for name in ("causal", "relative_bias"):
            check_bool(own, name, getattr(self, name))
        for name in ("relative_bias_scale", "rpe_scale", "rope_base"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value <= 0:
                raise ConfigError(f"{own}.{name} must be a finite number > 0, got {value!r}")
        if isinstance(self.dropout, bool) or not isinstance(self.dropout, (int, float)) or not 0 <= self.dropout < 1:
            raise ConfigError(f"{own}.dropout must be a probability in [0, 1), got {self.dropout!r}")
        if self.vocab_size < len(VOCAB):
            raise ConfigError(f"vocab_size={self.vocab_size} is smaller than the course vocabulary "
                              f"({len(VOCAB)} tokens: digits, operators, $, pad, index hints)")
        if self.d_model % self.n_heads:
            raise ConfigError(f"d_model={self.d_model} must be divisible by n_heads={self.n_heads}")
        if self.encoding == "rope" and (self.d_model // self.n_heads) % 2:
            raise ConfigError(f"rope needs an even head dimension; d_model/n_heads = {self.d_model // self.n_heads}")

    @property
    def d_head(self) -> int:
        return self.d_model // self.n_heads

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict) -> "ModelConfig":
        return config_from_dict(cls, data)

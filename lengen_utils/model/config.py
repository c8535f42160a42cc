"""The one config object a model is built from (a zoo entry is a name, a ModelConfig and a seed)."""
from __future__ import annotations

from dataclasses import asdict, dataclass, fields

from ..formats import VOCAB

ENCODINGS = ("none", "learned", "sinusoidal", "rpe", "upe", "rope", "alibi")


class ConfigError(ValueError):
    """A model config that cannot be built (unknown encoding, bad sizes...)."""


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
    """

    vocab_size: int = len(VOCAB)
    d_model: int = 64
    n_layers: int = 1
    n_heads: int = 4
    d_ff: int = 256
    causal: bool = True
    encoding: str = "learned"
    max_positions: int = 64          # rows of the learned position table: IDs 0..max_positions-1
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
        if self.encoding not in ENCODINGS:
            raise ConfigError(f"unknown position encoding {self.encoding!r}; choose one of {ENCODINGS}")
        if self.d_model % self.n_heads:
            raise ConfigError(f"d_model={self.d_model} must be divisible by n_heads={self.n_heads}")
        if self.encoding == "rope" and (self.d_model // self.n_heads) % 2:
            raise ConfigError("rope needs an even head dimension")
        if self.norm not in ("layernorm", "rmsnorm", "none"):
            raise ConfigError(f"unknown norm {self.norm!r}; choose 'layernorm', 'rmsnorm' or 'none'")
        if self.activation not in ("gelu", "relu"):
            raise ConfigError(f"unknown activation {self.activation!r}; choose 'gelu' or 'relu'")
        for name in ("d_model", "n_layers", "n_heads", "d_ff", "max_positions", "vocab_size"):
            if getattr(self, name) < 1:
                raise ConfigError(f"{name} must be positive, got {getattr(self, name)}")

    @property
    def d_head(self) -> int:
        return self.d_model // self.n_heads

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict) -> "ModelConfig":
        known = {f.name for f in fields(cls)}
        unknown = set(data) - known
        if unknown:
            raise ConfigError(f"unknown ModelConfig fields {sorted(unknown)}")
        return cls(**data)

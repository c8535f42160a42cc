"""The Transformer and its pluggable position encodings."""
from .config import ENCODINGS, ConfigError, ModelConfig
from .transformer import Transformer

__all__ = ["ENCODINGS", "ConfigError", "ModelConfig", "Transformer"]

"""The Transformer, its pluggable position encodings, and cached greedy decoding."""
from .cache import KVCache
from .config import ENCODINGS, ConfigError, ModelConfig
from .decoding import greedy_decode
from .transformer import Transformer

__all__ = ["ENCODINGS", "ConfigError", "KVCache", "ModelConfig", "Transformer", "greedy_decode"]

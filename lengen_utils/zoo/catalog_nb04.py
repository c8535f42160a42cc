"""Zoo entries of notebook 04: uniform positions (UPE) for multiplication (Sabbaghi et al. M1-M3)."""
from __future__ import annotations

from .registry import register  # noqa: F401

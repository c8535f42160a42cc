"""Zoo entries of notebook 04, Section 3.3 of Sabbaghi et al.: arithmetic inside text (filler tokens)."""
from __future__ import annotations

from .registry import register  # noqa: F401

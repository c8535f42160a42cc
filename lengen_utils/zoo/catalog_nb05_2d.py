"""Zoo entries of notebook 05, Cho et al. Section 6.2: the 2-D minesweeper task with two coupled ID channels."""
from __future__ import annotations

from .registry import register  # noqa: F401

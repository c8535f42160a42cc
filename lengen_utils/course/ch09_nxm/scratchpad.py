"""Notebook 09, section 3: every lookup of a row digit sits at the same few (row, column, level) offsets at every size
(measured by :func:`~lengen_utils.analysis.nxm_measures.lookup_offsets` on encoded examples)."""
from __future__ import annotations

from ...analysis.nxm_measures import lookup_offsets
from ..common.claims import claim
from ..common.paper_claims import ClaimRow


def check_fixed_offsets(sizes: list[tuple[int, int]]) -> list[ClaimRow]:
    """Every lookup sits at the same (clipped) offsets at every size: those seen at the largest size are those seen
    within the trained range."""
    offsets = {size: lookup_offsets(*size) for size in sizes}
    small, large = offsets[min(sizes)], offsets[max(sizes)]
    new = {name: sorted(large[name] - small[name]) for name in large if large[name] - small[name]}
    claim(not new, f"every lookup of a row digit at {max(sizes)} sits at an offset already used at {min(sizes)}",
          f"{sum(len(v) for v in large.values())} offsets at {max(sizes)}, new ones: {new or 'none'}",
          "A lookup at an offset never trained would have to be guessed.")
    return [ClaimRow("each row digit reads its inputs at fixed ID offsets", "(our format)",
                     f"{sum(len(v) for v in large.values())} offsets at {max(sizes)[0]}x{max(sizes)[1]}, all seen at "
                     f"{min(sizes)[0]}x{min(sizes)[1]}", "encoded examples, clipped at 3")]


__all__ = ["check_fixed_offsets"]

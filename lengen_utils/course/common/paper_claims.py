"""The table "claims checked in this notebook" (notebooks 06 and 07): one row per claim of a paper that a
section checked, with the paper's number, ours, and how ours was computed.

A section's check returns its rows only after the claim held (it raises
:class:`~lengen_utils.course.common.claims.ClaimFailed` otherwise), so the table lists checked claims only.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple


class ClaimRow(NamedTuple):
    """One checked claim: what is claimed, the paper's number (or "qualitative"), ours, and how ours was computed."""
    claim: str
    paper: str
    ours: str
    how: str


def claims_table(rows: Sequence[ClaimRow]) -> str:
    """The rows as a Markdown table (``|`` inside a cell is escaped)."""
    if not rows:
        raise ValueError("no claim was checked: run the notebook's sections first")

    def cell(text: str) -> str:
        return str(text).replace("|", "\\|")

    lines = ["| claim | paper | ours | how computed |", "|---|---|---|---|"]
    lines += [f"| {cell(r.claim)} | {cell(r.paper)} | {cell(r.ours)} | {cell(r.how)} |" for r in rows]
    return "\n".join(lines)


__all__ = ["ClaimRow", "claims_table"]

"""The labels of notebook 05's baselines leaderboard (tag ``nb05-baselines``), shared by notebook 05
(``ch05_coupling.baselines``), notebook 08's agenda and the coupling explorer widget.

Each label is its recipe row's ``title`` (``ch05_coupling/recipes.py``), found by the tag: a row added to the
leaderboard is labelled where it is declared, and one without a title is shown by its id, never left out.
"""
from __future__ import annotations

from ...lab.zoo import RECIPES

#: the tag of the leaderboard's recipes: plain coupling, our variant and the baselines
BASELINES_TAG = "nb05-baselines"
#: ``{recipe: label}`` of the leaderboard's rows, in the catalog's order
LABELS = {rid: recipe.title or rid for rid, recipe in RECIPES.items() if BASELINES_TAG in recipe.tags}
#: ``{recipe: label}`` of the baselines: the rows without position coupling
BASELINE_LABELS = {rid: label for rid, label in LABELS.items()
                   if not RECIPES[rid].task.positions.startswith("coupled")}

__all__ = ["BASELINES_TAG", "BASELINE_LABELS", "LABELS"]

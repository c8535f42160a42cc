"""One recipe's runs in the store: its seeds, which of them are stored or only recorded, and their measurements.

``runs("nb05-len10")`` or, by a table's axes, ``runs(TRAINED_LENGTH, trained_length=10)``: the seeds' entry names
(:attr:`Runs.entries`), those whose weights are stored (:meth:`Runs.built`, for loading) and those whose
measurements are recorded, stored or retired (:meth:`Runs.recorded`), their curves from the records
(:meth:`Runs.curves`), the median [range] over seeds (:meth:`Runs.band`) and a live measurement of the stored seeds
(:meth:`Runs.live`). Code asks for a recipe's runs here instead of composing or typing seed names.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

from ...analysis.generalization import median_and_range
from ...core.constants import EVAL_SEED
from ..experiment.recipe import Recipe, RecipeTable
from .builder import live_curves
from .manifest import read_recorded
from .registry import recipe_entries
from .store import exact_match, settle


@dataclass(frozen=True)
class Runs:
    """The runs of recipe ``recipe_id`` in the store at ``assets`` (default the zoo's)."""
    recipe_id: str
    assets: Path | None = None

    @property
    def entries(self) -> dict[int, str]:
        """``{seed: entry name}`` of every seed in the catalog, built or not."""
        return recipe_entries(self.recipe_id)

    def built(self) -> dict[int, str]:
        """``{seed: entry name}`` of the seeds whose weights are stored (the ones to load)."""
        return recipe_entries(self.recipe_id, built_only=True, assets=self.assets)

    def recorded(self) -> dict[int, str]:
        """``{seed: entry name}`` of the seeds whose measurements are recorded (stored or retired)."""
        return recipe_entries(self.recipe_id, assets=self.assets, recorded_only=True)

    def curves(self) -> dict[int, dict[int, float]]:
        """``{seed: {length: EM}}`` of the recorded seeds, from their records, read once (nothing is loaded)."""
        settle(self.assets)
        records = read_recorded(self.assets)
        return {seed: exact_match(records[name]) for seed, name in self.entries.items() if name in records}

    def band(self) -> dict[int, tuple[float, float, float]]:
        """``{length: (median, min, max)}`` over the recorded seeds; none recorded raises ``ValueError``."""
        return median_and_range(self.curves())

    def live(self, lengths: Iterable[int], n: int, seed: int = EVAL_SEED) -> dict[int, dict[int, float]]:
        """``{seed: {length: EM}}`` of the stored seeds, measured now on ``n`` problems per length drawn with
        ``seed``."""
        built = self.built()
        measured = live_curves(built.values(), lengths, n, seed)
        return {s: measured[name] for s, name in built.items()}


def runs(recipe: str | Recipe | RecipeTable, assets: Path | None = None, **where: object) -> Runs:
    """The runs of a recipe, given by id, as a :class:`Recipe`, or as the row of a :class:`RecipeTable` whose axes
    have the values ``where`` (``runs(TRAINED_LENGTH, trained_length=10)``)."""
    if isinstance(recipe, RecipeTable):
        recipe = recipe.one(**where)
    elif where:
        raise TypeError(f"axis values {where} select a row of a RecipeTable, not of {type(recipe).__name__}")
    return Runs(recipe.id if isinstance(recipe, Recipe) else recipe, assets)


__all__ = ["Runs", "runs"]

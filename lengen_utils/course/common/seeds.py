"""The seeds of one recipe, as the course's sections read them: ``nb05-len10-s0``, ``nb05-len10-s1``, ... are the
seeds of method ``nb05-len10``; the store's answers come from :func:`lengen_utils.lab.zoo.runs` (its
:class:`~lengen_utils.lab.zoo.runs.Runs`), and a seed that is not built or recorded yet is left out."""
from __future__ import annotations

from collections.abc import Mapping
from typing import TypeVar

import numpy as np

from ...lab.zoo import per_digit, recipe_entries, runs

T = TypeVar("T")

#: ``{seed: {length: exact match}}`` of one method, as :mod:`lengen_utils.analysis.generalization` takes it.
Curves = dict[int, dict[int, float]]


def built_entries(method: str) -> dict[int, str]:
    """``{seed: entry name}`` of the catalog entries of ``method`` that are built (in the manifest)."""
    return runs(method).built()


def recorded_entries(method: str) -> dict[int, str]:
    """``{seed: entry name}`` of the seeds of ``method`` whose measurements are recorded: built, or retired from
    ``assets/`` with their records kept (``retired.json``). Read their records; load only :func:`built_entries`."""
    return runs(method).recorded()


def seed_curves(method: str) -> Curves:
    """``{seed: {length: EM}}`` of the recorded seeds of ``method``, read from their records (nothing is loaded)."""
    return runs(method).curves()


def seed_per_digit(method: str) -> dict[int, dict[int, dict[int, float]]]:
    """``{seed: {length: {significance: accuracy}}}`` of the recorded seeds of ``method`` (their records)."""
    return {seed: per_digit(name) for seed, name in recorded_entries(method).items()}


def of_recipe(by_name: Mapping[str, T], method: str) -> list[T]:
    """The values of ``by_name`` (keyed by entry name, e.g. live measurements) whose entry is a seed of ``method``,
    in ``by_name``'s order."""
    seeds = set(recipe_entries(method).values())
    return [value for name, value in by_name.items() if name in seeds]


def medians(runs_by_label: Mapping[str, Mapping[object, Mapping[int, float]]]) -> dict[str, dict[int, float]]:
    """Per label, the median over its runs (``{label: {seed or entry: {length: EM}}}``) at every length the first run
    has."""
    return {label: {k: float(np.median([run[k] for run in runs.values()])) for k in next(iter(runs.values()))}
            for label, runs in runs_by_label.items()}


def median_at(live: Mapping[str, Mapping[int, float]], method: str, length: int) -> float:
    """The median exact match at ``length`` over the seeds of ``method`` in ``live`` (``{entry: {length: EM}}``)."""
    return float(np.median([em[length] for em in of_recipe(live, method)]))


def best_run(live: Mapping[str, Mapping[int, float]], length: int) -> tuple[float, str]:
    """``(EM, entry)`` of the run in ``live`` (``{entry: {length: EM}}``) with the highest exact match at ``length``."""
    return max((em[length], name) for name, em in live.items())


__all__ = ["Curves", "best_run", "built_entries", "median_at", "medians",
           "of_recipe", "recorded_entries", "seed_curves", "seed_per_digit"]

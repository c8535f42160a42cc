"""The built seeds of one recipe: ``nb05-len10-s0``, ``nb05-len10-s1``, ... are the seeds of method
``nb05-len10`` (:func:`lengen_utils.zoo.split_seed`); a seed that is not built yet is left out."""
from __future__ import annotations

from ..zoo import catalog, metrics, per_digit, read_manifest, split_seed

#: ``{seed: {length: exact match}}`` of one method, as :mod:`lengen_utils.generalization` takes it.
Curves = dict[int, dict[int, float]]


def built_entries(method: str) -> dict[int, str]:
    """``{seed: entry name}`` of the catalog entries of ``method`` that are built (in the manifest)."""
    built = read_manifest()
    out = {}
    for name in catalog():
        base, seed = split_seed(name)
        if base == method and seed is not None and name in built:
            out[seed] = name
    return dict(sorted(out.items()))


def seed_curves(method: str) -> Curves:
    """``{seed: {length: EM}}`` of the built seeds of ``method``, read from the manifest (nothing is loaded)."""
    return {seed: metrics(name) for seed, name in built_entries(method).items()}


def seed_per_digit(method: str) -> dict[int, dict[int, dict[int, float]]]:
    """``{seed: {length: {significance: accuracy}}}`` of the built seeds of ``method`` (manifest)."""
    return {seed: per_digit(name) for seed, name in built_entries(method).items()}


__all__ = ["Curves", "built_entries", "seed_curves", "seed_per_digit"]

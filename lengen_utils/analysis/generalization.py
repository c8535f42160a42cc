"""Length generalization over seeds: the median curve, its spread, and Cho et al.'s generalizable length.

Cho et al. (Section 4, Figures 1 and 3) train several seeds of each method and report the *median* exact
match (EM) per operand length, with the spread of the seeds as a band. A model "successfully generalizes
to a certain length of operands (referred to as 'generalizable length') if the median EM accuracy exceeds
95%": here, the largest tested length up to which the median EM stays above the threshold at every
tested length (the first length where the median drops to or below it ends the run).

A *curve* is ``{operand length: EM}`` with EM in [0, 1] (as ``zoo.metrics(name)`` returns it; string
lengths, as in the manifest's JSON, are accepted). ``curves_by_seed`` is ``{seed: curve}`` or a list of
curves. Only the lengths that every seed was tested at are used.
"""
from __future__ import annotations

import math
import statistics
from typing import Mapping, Sequence, Union

Curve = Mapping[Union[int, str], float]
CurvesBySeed = Union[Mapping[object, Curve], Sequence[Curve]]

#: Cho et al.'s threshold: the median EM must exceed 95%.
THRESHOLD = 0.95


def _curves(curves_by_seed: CurvesBySeed) -> list[dict[int, float]]:
    if isinstance(curves_by_seed, Mapping):
        items = list(curves_by_seed.items())
    elif isinstance(curves_by_seed, Sequence) and not isinstance(curves_by_seed, (str, bytes)):
        items = list(enumerate(curves_by_seed))
    else:
        raise ValueError(f"curves_by_seed must be {{seed: {{length: EM}}}} or a list of {{length: EM}}, "
                         f"got {type(curves_by_seed).__name__}")
    if not items:
        raise ValueError("curves_by_seed is empty; give at least one seed's {length: EM} curve")
    curves = []
    for seed, curve in items:
        if not isinstance(curve, Mapping) or not curve:
            raise ValueError(f"the curve of seed {seed!r} must be a non-empty {{length: EM}} mapping, got {curve!r}")
        clean = {}
        for length, em in curve.items():
            try:
                n = int(length)
            except (TypeError, ValueError):
                raise ValueError(f"seed {seed!r}: length {length!r} is not an integer") from None
            if n < 1:
                raise ValueError(f"seed {seed!r}: operand length {n} must be >= 1")
            if isinstance(em, bool) or not isinstance(em, (int, float)) or math.isnan(em) or not 0.0 <= em <= 1.0:
                raise ValueError(f"seed {seed!r}, length {n}: EM {em!r} must be a fraction in [0, 1]")
            clean[n] = float(em)
        curves.append(clean)
    return curves


def median_and_range(curves_by_seed: CurvesBySeed) -> dict[int, tuple[float, float, float]]:
    """``{length: (median, min, max)}`` of EM over the seeds, for the lengths every seed was tested at,
    in increasing length. With an even number of seeds the median is the mean of the middle two."""
    curves = _curves(curves_by_seed)
    common = sorted(set.intersection(*(set(c) for c in curves)))
    if not common:
        raise ValueError("the seeds share no tested length; test every seed at the same operand lengths")
    out = {}
    for n in common:
        values = [c[n] for c in curves]
        out[n] = (statistics.median(values), min(values), max(values))
    return out


def generalizable_length(curves_by_seed: CurvesBySeed, threshold: float = THRESHOLD) -> int:
    """Cho et al.'s generalizable length: the largest tested operand length up to which the median EM over
    seeds exceeds ``threshold`` (95%) at every tested length. 0 when even the shortest tested length
    fails. Being a tested length, it is a lower bound on the true one (the next tested length failed)."""
    if isinstance(threshold, bool) or not isinstance(threshold, (int, float)) or not 0.0 <= threshold < 1.0:
        raise ValueError(f"threshold must be a fraction in [0, 1), got {threshold!r}")
    best = 0
    for n, (median, _, _) in median_and_range(curves_by_seed).items():
        if median <= threshold:
            break
        best = n
    return best

"""Notebook 03's coding exercises: Sabbaghi's clipped relative distances (the rows of the RPE table each query-key
pair reads), and Cho et al.'s generalizable length from a table of accuracies per length and seed.

The checkers compare the learner's function with the library's own (``model.encodings.relative_distance`` and
``generalization.generalizable_length``) on edge and random inputs, and name the mistake.
"""
from __future__ import annotations

import random
from typing import Callable

import numpy as np
import torch

from ...analysis.generalization import THRESHOLD, generalizable_length
from ...core.model.encodings import relative_distance
from ..common.exercises import attempt, exercise, expect, expect_answer, is_array, is_int


def library_distances(query_ids: list[int], key_ids: list[int], max_distance: int) -> np.ndarray:
    """The library's clipped distance ``id_key - id_query`` in ``[-K, K]``, rows queries and columns keys (its
    table index minus K)."""
    q, k = torch.tensor([query_ids]), torch.tensor([key_ids])
    return (relative_distance(q, k, max_distance)[0] - max_distance).numpy()


def _distance_cases() -> list[tuple[list[int], list[int], int]]:
    rng = random.Random(3)
    cases = [([5], [0, 9], 3), ([0, 1, 2, 3], [0, 1, 2, 3], 2), ([0, 1, 2, 3, 4], [0, 1, 2, 3, 4], 0),
             ([0, 1, 2], [0, 1, 2, 3, 4, 5, 6], 10), ([3, 4, 5, 3, 4, 5], [3, 4, 5, 3, 4, 5], 1)]
    for _ in range(20):
        start = rng.randint(0, 30)
        keys = [start + i for i in range(rng.randint(1, 12))] if rng.random() < 0.5 else \
            [rng.randint(0, 40) for _ in range(rng.randint(1, 12))]
        cases.append((keys[-rng.randint(1, len(keys)):], keys, rng.randint(1, 8)))
    return cases


@exercise("Clipped relative distances")
def check_clipped_distances(fn: Callable[[list[int], list[int], int], object]) -> int:
    """``fn(query_ids, key_ids, K)``: the matrix (rows: queries, columns: keys) of ``id_key - id_query`` clipped
    to ``[-K, K]``: which of the 2K+1 learned vectors p_{j-i} each query-key pair adds to its key."""
    cases = _distance_cases()
    for q, k, cap in cases:
        want = library_distances(q, k, cap)
        raw = np.array(k)[None, :] - np.array(q)[:, None]
        got = expect_answer(attempt(fn, list(q), list(k), cap), lambda x: is_array(x, 2), "a matrix of numbers (a "
                            "list of rows, or an array), one row per query", f"for queries {q}, keys {k}, K={cap}")
        got = np.asarray(got, dtype=float)
        mine = got.astype(int).tolist() if np.all(np.isfinite(got)) and np.all(got == np.round(got)) else got.tolist()
        shown = f"For queries {q}, keys {k}, K={cap} the distances are\n{want.tolist()}\nyou gave\n{mine}"
        if got.shape == want.shape and np.array_equal(got, want):
            continue
        if got.shape != want.shape:
            expect(got.shape != want.T.shape or not np.array_equal(got, want.T),
                   f"Rows are queries and columns keys: your matrix is transposed. {shown}")
            expect(False, f"The matrix has one row per query and one column per key, shape {want.shape}; yours has "
                          f"shape {got.shape}. {shown}")
        expect(not np.array_equal(got, -want), f"The sign is reversed: the distance is id_key - id_query (j - i in "
                                               f"p_(j-i)), so a key to the right is positive. {shown}")
        expect(not np.array_equal(got, raw), f"The distance is not clipped: beyond ±K every pair shares the last "
                                             f"vector, p_K or p_-K. {shown}")
        for off in (-1, 1):
            expect(not np.array_equal(got, np.clip(raw, -(cap + off), cap + off)),
                   f"The distance is clipped off by one: it runs from -K to K inclusive (2K+1 vectors), here "
                   f"-{cap} to {cap}. {shown}")
        expect(not np.array_equal(got, np.minimum(raw, cap)) and not np.array_equal(got, np.maximum(raw, -cap)),
               f"Clip both ends: -K below as well as K above. {shown}")
        expect(False, shown)
    return len(cases)


def _length_cases() -> list[tuple[dict, float, str]]:
    """Edge tables, each built to catch one mistake, and random ones."""
    cases = [
        ({0: {5: 1.0, 10: 0.99, 20: 0.97}}, THRESHOLD, ""),
        ({0: {5: 1.0, 10: 0.96, 15: 0.2}}, THRESHOLD, "Return the last length that passed, not the first that failed"),
        ({0: {5: 1.0, 10: 0.5, 15: 0.99}}, THRESHOLD, "Stop at the first length that fails: the median must exceed "
                                                       "the threshold at every tested length up to the answer"),
        ({0: {5: 0.9, 10: 0.99}}, THRESHOLD, "When even the shortest tested length fails, the answer is 0"),
        ({0: {5: 1.0, 10: 0.95, 15: 0.99}}, THRESHOLD, "The median must *exceed* the threshold: exactly 95% fails"),
        ({0: {5: 1.0, 10: 1.0}, 1: {5: 1.0, 10: 0.94}, 2: {5: 1.0, 10: 0.94}}, THRESHOLD,
         "Take the median over seeds, not the mean: at 10 digits the mean is above 95% but the median is not"),
        ({0: {5: 1.0, 10: 0.2}, 1: {5: 1.0, 10: 0.99}, 2: {5: 1.0, 10: 0.99}}, THRESHOLD,
         "Take the median over seeds, not the worst seed (nor the mean): one bad seed does not end the run"),
        ({0: {5: 1.0, 10: 0.5}, 1: {5: 1.0, 10: 0.94}, 2: {5: 1.0, 10: 0.97}, 3: {5: 1.0, 10: 1.0}}, THRESHOLD,
         "With an even number of seeds the median is the mean of the middle two (here (94% + 97%) / 2)"),
        ({0: {20: 0.2, 5: 1.0, 10: 0.99}}, THRESHOLD, "Go through the lengths in increasing order"),
        ({0: {5: 1.0, 10: 0.8, 20: 0.6}}, 0.7, "Use the threshold you are given"),
    ]
    rng = random.Random(4)
    for _ in range(30):
        lengths = sorted(rng.sample(range(1, 60), rng.randint(2, 7)))
        seeds = rng.randint(1, 5)
        cases.append(({s: {n: rng.choice([1.0, 0.99, 0.97, 0.96, 0.95, 0.9, 0.5, 0.0]) for n in lengths}
                       for s in range(seeds)}, THRESHOLD, ""))
    return cases


@exercise("The generalizable length")
def check_generalizable_length(fn: Callable[..., int]) -> int:
    """``fn(curves_by_seed, threshold)``: Cho et al.'s generalizable length of ``{seed: {length: EM}}``."""
    cases = _length_cases()
    for curves, threshold, mistake in cases:
        want = generalizable_length(curves, threshold)
        got = expect_answer(attempt(fn, {s: dict(c) for s, c in curves.items()}, threshold), is_int,
                            "a length, an int", f"for {curves}, threshold {threshold}")
        if got != want:
            expect(False, (f"{mistake}. " if mistake else "") +
                   f"For {curves} (threshold {threshold}) the generalizable length is {want}; you gave {got}")
    return len(cases)


__all__ = ["library_distances", "check_clipped_distances", "check_generalizable_length"]

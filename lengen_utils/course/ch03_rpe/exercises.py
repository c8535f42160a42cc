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


# --- Shaw's relative term inside an attention score (a mechanism exercise) -----------------------------------

def library_scores(q: np.ndarray, k: np.ndarray, table: np.ndarray, query_ids: list[int],
                   key_ids: list[int]) -> np.ndarray:
    """Attention scores as the library's RPE computes them: ``q_i . k_j / sqrt(d)`` (SDPA's content term) plus
    :class:`~lengen_utils.core.model.encodings.RelativeKeys`' bias ``q_i . p_{j-i} / sqrt(d)``."""
    from ...core.model.encodings import RelativeKeys

    K = (len(table) - 1) // 2
    rpe = RelativeKeys.__new__(RelativeKeys)            # the module's own forward, on the given table
    torch.nn.Module.__init__(rpe)
    rpe.max_distance, rpe.scale = K, 1.0
    rpe.vectors = torch.nn.Parameter(torch.tensor(table, dtype=torch.float64), requires_grad=False)
    qt = torch.tensor(q, dtype=torch.float64)[None, None]
    bias = rpe(qt, torch.tensor([query_ids]), torch.tensor([key_ids]))[0, 0].numpy()
    return q @ k.T / np.sqrt(q.shape[-1]) + bias


def _score_cases() -> list[tuple]:
    rng = np.random.default_rng(5)
    cases = []
    for n_q, n_k, d, K in ((1, 1, 2, 1), (3, 3, 4, 1), (4, 6, 4, 2), (2, 7, 8, 2), (5, 5, 3, 6), (6, 9, 4, 3)):
        key_ids = sorted(rng.choice(np.arange(0, 12), size=n_k, replace=False).tolist())
        query_ids = key_ids[-n_q:] if n_q <= n_k else key_ids
        q, k = rng.normal(size=(len(query_ids), d)), rng.normal(size=(n_k, d))
        cases.append((q, k, rng.normal(size=(2 * K + 1, d)), query_ids, key_ids))
    return cases


@exercise("Shaw's relative term inside an attention score")
def check_shaw_scores(fn: Callable[..., object]) -> int:
    """``fn(q, k, table, query_ids, key_ids)``: the matrix (rows: queries, columns: keys) of RPE attention scores
    before the softmax, ``q_i . (k_j + p_{j-i}) / sqrt(d)``, where ``table[r]`` is ``p_{r-K}`` (``K = (len(table) -
    1) // 2``) and the offset ``j - i`` is ``key_ids[j] - query_ids[i]`` clipped to ``[-K, K]``."""
    cases = _score_cases()
    for q, k, table, qi, ki in cases:
        d, K = q.shape[-1], (len(table) - 1) // 2
        want = library_scores(q, k, table, qi, ki)
        where = f"(queries at IDs {qi}, keys at IDs {ki}, K={K}, d={d})"
        try:
            fn(q.copy(), k.copy(), table.copy(), list(qi), list(ki))
        except IndexError as err:
            expect(False, f"An index fell outside the table ({err}): clip the offset j - i to [-K, K], then add K, "
                          f"before indexing {where}.")
        except Exception:                               # the stub, or another error: attempt() reports it
            pass
        got = expect_answer(attempt(fn, q.copy(), k.copy(), table.copy(), list(qi), list(ki)),
                            lambda x: is_array(x, 2), "a matrix of numbers, one row per query",
                            f"for {len(qi)} queries and {len(ki)} keys")
        got = np.asarray(got, dtype=float)
        if got.shape == want.shape and np.allclose(got, want, atol=1e-6):
            continue
        expect(got.shape == want.shape, f"One row per query and one column per key: shape {want.shape}, yours "
                                        f"{got.shape} {where}")
        raw = np.array(ki)[None, :] - np.array(qi)[:, None]
        content = q @ k.T

        def rel(offsets, vectors=table, side=q):
            idx = np.clip(offsets, -K, K) + K
            return np.einsum("id,ijd->ij", side, vectors[idx]) if side is q else np.einsum("jd,ijd->ij", side,
                                                                                           vectors[idx])
        wrong = {
            "The relative term is missing: RPE adds q_i . p_(j-i) to the content score q_i . k_j.":
                content / np.sqrt(d),
            "The content term q_i . k_j is missing: the relative vector is added to the key, k_j + p_(j-i), "
            "not put in its place.": rel(raw) / np.sqrt(d),
            "The offset is reversed: it is key minus query, j - i (key_ids[j] - query_ids[i]).":
                (content + rel(-raw)) / np.sqrt(d),
            "The offset is not clipped: beyond ±K every pair uses the last vector, table[0] or table[2K].":
                None,
            "Divide the whole score by sqrt(d), the relative term too (it sits inside q_i . (k_j + p_(j-i))).":
                content / np.sqrt(d) + rel(raw),
            "Divide by sqrt(d), not by d.": (content + rel(raw)) / d,
            "The relative vector meets the query, q_i . p_(j-i), not the key.": (content + rel(raw, side=k)) / np.sqrt(d),
            "table[r] is p_(r-K): index the table with the offset plus K.":
                (content + np.einsum("id,ijd->ij", q, table[np.clip(raw, 0, 2 * K)])) / np.sqrt(d),
        }
        for message, mistake in wrong.items():
            if mistake is not None and mistake.shape == got.shape and np.allclose(got, mistake, atol=1e-6):
                expect(False, f"{message} {where}")
        expect(np.abs(raw).max() <= K, f"Clip the offset to [-K, K]: beyond it every pair uses the last vector "
                                       f"(table[0] or table[2K]) {where}.")
        expect(False, f"Not the scores: at query 0 the library gives {np.round(want[0], 3).tolist()}, you gave "
                      f"{np.round(got[0], 3).tolist()} {where}")
    return len(cases)

"""Solutions of notebook 03's coding exercises (try them first)."""
from __future__ import annotations


def clipped_distances(query_ids, key_ids, max_distance):
    # row i: query i; column j: key j; the distance id_j - id_i, clipped to [-K, K]
    return [[max(-max_distance, min(max_distance, k - q)) for k in key_ids] for q in query_ids]


def generalizable_length(curves_by_seed, threshold=0.95):
    import statistics

    curves = list(curves_by_seed.values())
    best = 0
    for n in sorted(set.intersection(*(set(c) for c in curves))):   # the lengths every seed was tested at
        if statistics.median(c[n] for c in curves) <= threshold:      # the median must *exceed* the threshold
            break                                                      # the first failure ends the run
        best = n
    return best


def drop_length(frame: int) -> int:
    # the drop comes when the second operand fills its frame: no pad is left after '+', at k = l
    return frame


def same_significance_offset(frame: int) -> int:
    # a's digit of significance s sits at l - 1 - s, b's at 2l - s: the key is l + 1 to the query's left
    return -(frame + 1)


def shaw_scores(q, k, table, query_ids, key_ids):
    import numpy as np

    K = (len(table) - 1) // 2
    offsets = np.clip(np.array(key_ids)[None, :] - np.array(query_ids)[:, None], -K, K)   # j - i, clipped
    p = np.asarray(table)[offsets + K]                          # [queries, keys, d]: p_(j-i) for every pair
    return (q @ k.T + np.einsum("id,ijd->ij", q, p)) / np.sqrt(q.shape[-1])   # q_i . (k_j + p_(j-i)) / sqrt(d)

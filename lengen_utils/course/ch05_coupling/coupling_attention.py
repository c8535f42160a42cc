"""Notebook 05b, section 7: where the coupled relative bias puts its weight (ID j - 1 and j), from checkpoints."""
from __future__ import annotations

from collections.abc import Mapping, Sequence

import matplotlib.pyplot as plt
import numpy as np

from ..common.claims import claim
from ...analysis.interpret import attention_mass_by_id_offset, mean_attention
from ...core.model.encodings import RelativeScalarBias
from ..notebook import pct
from ..plots import check_figure, series_styles
from ..plots.style import finish


def relative_biases(model) -> list[tuple[int, np.ndarray]]:
    """``(K, bias x scale)`` of every :class:`RelativeScalarBias` of ``model`` (clip K); refuses a model without one."""
    found = [(m.max_distance, (m.bias * m.scale).detach().cpu().numpy()) for m in model.modules()
             if isinstance(m, RelativeScalarBias)]
    if not found:
        raise ValueError("this model has no relative bias (relative_bias=False)")
    return found


def bias_table(model) -> tuple[np.ndarray, np.ndarray]:
    """``(d, bias)``: the coupled-ID differences ``-K..K`` and each head's bias ``[heads, 2K + 1]`` (first layer)."""
    k, bias = relative_biases(model)[0]
    return np.arange(-k, k + 1), bias


def plot_bias(d: np.ndarray, bias: np.ndarray, title: str):
    """One line per head: the learned bias against the ID difference, with d = -1 and d = 0 marked."""
    fig, ax = plt.subplots(figsize=(7, 4.2))
    for h, style in enumerate(series_styles([f"head {h}" for h in range(len(bias))]).values()):
        ax.plot(d, bias[h], label=f"head {h}", linewidth=2, markersize=6, **style)
    ax.axvline(-1, color="0.35", linestyle="--", linewidth=1)
    ax.axvline(0, color="0.35", linestyle=":", linewidth=1)
    ax.set_xticks(d)
    ax.set(xlabel=f"coupled-ID difference d = ID(key) − ID(query), clipped at ±{d.max()}",
           ylabel="learned bias (added to the score)")
    finish(fig, ax, title, legend=True)
    if problems := check_figure(fig):
        raise ValueError(f"the bias plot breaks the course's figure standard: {problems}")
    return fig


def peaks(d: np.ndarray, bias: np.ndarray) -> dict[int, int]:
    """``{head: the ID difference where its bias peaks}``."""
    return {h: int(d[np.argmax(bias[h])]) for h in range(len(bias))}


def heights(bias: np.ndarray) -> np.ndarray:
    """Per head, the peak's height above the far bucket (the mean of the two border entries)."""
    return np.array([row.max() - row[[0, -1]].mean() for row in bias])


def peak_rows(d: np.ndarray, bias: np.ndarray) -> dict[str, dict[str, float]]:
    """Per head: where its bias peaks, how far above the far bucket, and that height as an attention-weight factor."""
    return {f"head {h}": {"peak at d": p, "above the far bucket": round(float(g), 1), "weight factor":
                          round(float(np.exp(g)))} for (h, p), g in zip(peaks(d, bias).items(), heights(bias))}


def check_peaks(d: np.ndarray, bias: np.ndarray, min_height: float = 3.0) -> None:
    """One head peaks at d = -1 (digit sum), one at d = 0 (carry), as in Cho's adder, each >= e^3 above the rest."""
    found = set(peaks(d, bias).values())
    claim(found >= {-1, 0}, "the bias should give one head its peak at d = −1 (the digit-sum head) and one at d = 0 "
          "(the carry head)", "peaks at " + ", ".join(str(p) for p in sorted(found)),
          "Without them the model does not read the two columns Cho's adder reads.")
    claim(heights(bias).min() >= min_height, f"every head's peak should stand >= {min_height} above the far bucket",
          ", ".join(f"{g:.1f}" for g in heights(bias)), "Then a long input can outvote the peak.")


def answer_queries(example) -> list[int]:
    """The positions whose next token is an answer digit: the queries that produce the answer."""
    return [i for i in example.supervised if example.roles[i + 1] == "answer"]


def id_offset_mass(model, task, problems) -> dict[int, np.ndarray]:
    """``{d: mass per head}``: first-layer attention on the digits with ID j + d (d = -1, 0), over answer queries."""
    weights, _ = mean_attention(model, task, problems)
    ex = task.example(problems[0])
    ids, queries = task.position_ids(ex), answer_queries(ex)
    return {d: attention_mass_by_id_offset(weights[0], ids, queries, d, ex.roles) for d in (-1, 0)}


def check_mass(mass: Mapping[str, Mapping[int, np.ndarray]]) -> None:
    """Our variant's best heads put >= 80% where Cho's construction looks (ID j - 1 and j); plain coupling's less."""
    best = {m: (float(v[-1].max()), float(v[0].max())) for m, v in mass.items()}
    claim(min(best["both"]) >= 0.8, "our variant's best heads should put at least 80% of their attention on ID j − 1 "
          "and on ID j", f"{pct(best['both'][0])} and {pct(best['both'][1])}")
    claim(max(best["plain"]) < min(best["both"]), "plain coupling's best heads should put less there than ours",
          f"{pct(max(best['plain']))} against {pct(min(best['both']))}", "Then a leak is not what separates them.")


def heaviest_key_offsets(weights: np.ndarray, ids: Sequence[int], queries: Sequence[int], head: int) -> list[int]:
    """For each query, ID(heaviest key) - ID(query) in one head (``weights`` ``[heads, T, T]``)."""
    return [int(ids[int(np.argmax(weights[head, q]))] - ids[q]) for q in queries]


def check_heaviest(sum_offsets: Sequence[int], carry_offsets: Sequence[int]) -> None:
    """On one sum, all answer queries but one read ID - 1 in the digit-sum head, all but two ID + 0 in the carry one."""
    n = len(sum_offsets)
    hits_sum, hits_carry = sum(d == -1 for d in sum_offsets), sum(d == 0 for d in carry_offsets)
    claim(hits_sum >= n - 1, f"the digit-sum head's heaviest key should have ID(query) − 1 for at least {n - 1} of "
          f"the {n} answer queries", f"{hits_sum}: {list(sum_offsets)}")
    claim(hits_carry >= n - 2, f"the carry head's heaviest key should have the query's own ID for at least {n - 2} "
          f"of the {n} answer queries", f"{hits_carry}: {list(carry_offsets)}")

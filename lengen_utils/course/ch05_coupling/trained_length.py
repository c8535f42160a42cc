"""Notebook 05, section 4: trained length against generalizable length (Cho et al. Figure 3) for our variant with
IDs up to 128 (manifest tag ``nb05-trained``), and where its answers fail past the generalizable length."""
from __future__ import annotations

from collections.abc import Mapping

import matplotlib.pyplot as plt

from ..common.claims import claim
from ...analysis.generalization import median_and_range
from ..notebook import pct
from ..plots import check_figure, series_styles
from ..plots.style import REFERENCE_GREY, legend_below
from ...lab.zoo import entry, manifest_record, per_digit, recipe_entries
from ..common.seeds import Curves, built_entries, seed_curves

TRAINED = (5, 10, 15)
#: Cho et al. Figure 3 (paper): generalizable length of plain coupling, 1 layer 4 heads, GPU scale, tests up to 200.
PAPER_FIG3 = {10: 70, 20: 135, 30: 200, 40: 200}
OURS = {5: "nb05-len5", 10: "nb05-len10", 15: "nb05-len15"}            # trained length -> method


def curves(methods: Mapping[int, str] = OURS) -> dict[int, Curves]:
    """``{trained length: {seed: {length: EM}}}`` of the built seeds; refuses, naming the build command, when none is."""
    out = {k: c for k, c in ((k, seed_curves(m)) for k, m in methods.items()) if c}
    recipe = next(iter(methods.values()))
    first = next(iter(recipe_entries(recipe).values()), None)         # its lowest seed
    claim(bool(out), "the Figure 3 runs should be built", "none of " + ", ".join(methods.values()),
          f"Build one with `{entry(first).command}`." if first else f"The catalog has no recipe {recipe!r}.")
    return out


def longest_test(fig3: Mapping[int, Curves]) -> int:
    return max(n for c in fig3.values() for curve in c.values() for n in curve)


def worst_digit(per_digit_at: Mapping[int, float], length: int) -> float:
    """The accuracy of the worst answer digit below the final carry (significance < ``length``)."""
    return min(a for s, a in per_digit_at.items() if s < length)


def digits_length(per_digit: Mapping[int, Mapping[int, float]], threshold: float = 0.95) -> int:
    """The longest tested length up to which every answer digit below the final carry is right more than
    ``threshold`` of the time (``per_digit[length][significance]``): the reach of the lookup, without the end."""
    best = 0
    for n, acc in sorted(per_digit.items()):
        if worst_digit(acc, n) <= threshold:
            break
        best = n
    return best


def digits_lengths(fig3: Mapping[int, Curves], methods: Mapping[int, str] = OURS) -> dict[int, int]:
    """``{trained length: the worst seed's digits_length}`` (manifest)."""
    return {k: min(digits_length(per_digit(built_entries(methods[k])[s])) for s in c) for k, c in fig3.items()}


def rows(fig3: Mapping[int, Curves], gen3: Mapping[int, int], digits3: Mapping[int, int],
         methods: Mapping[int, str] = OURS) -> dict[str, dict[str, object]]:
    """The Figure 3 table: median per tested length, generalizable length, digits-right length, seeds, times."""
    out = {}
    for k, c in fig3.items():
        band, names = median_and_range(c), built_entries(methods[k])
        out[f"trained 1–{k}"] = {**{f"{n} dig": band[n][0] for n in band}, "gen. length": str(gen3[k]),
                                 "digits right up to": str(digits3[k]), "seeds": str(len(c)),
                                 "train time": ", ".join(f"{manifest_record(names[s])['train_seconds']:.0f} s"
                                                         for s in c)}
    return out


def plot_figure3(series: Mapping[str, Mapping[int, int]], longest: int, title: str, dotted: tuple[str, ...] = ()):
    """Generalizable against trained length, one line per series (``dotted`` ones dotted), beside Cho et al.'s
    Figure 3 (dashed), the diagonal and our longest test."""
    fig, ax = plt.subplots(figsize=(6.8, 4.6))
    style = series_styles([*series, "paper"])
    for label, points in series.items():
        ax.plot(list(points), list(points.values()), linewidth=1.5 if label in dotted else 2,
                linestyle=":" if label in dotted else "-", markersize=8, **style[label], label=label)
    ax.plot(list(PAPER_FIG3), list(PAPER_FIG3.values()), linewidth=2, linestyle="--", markersize=8,
            **style["paper"], label="Cho et al.: plain coupling, GPU scale (paper, Figure 3)")
    ax.plot([0, 40], [0, 40], color=REFERENCE_GREY, linestyle=":", label="generalizable = trained")
    ax.axhline(longest, color="0.35", linestyle="-.", linewidth=1, label=f"our longest test ({longest} digits)")
    ax.set(xlabel="trained length (digits, 1 to ...)", ylabel="generalizable length (digits)", xlim=(0, 42),
           ylim=(0, 210), title=title)
    legend_below(ax, ncol=2)
    fig.tight_layout()
    problems = check_figure(fig)
    if problems:
        raise ValueError(f"the Figure 3 plot breaks the course's figure standard: {problems}")
    return fig


def check_figure3(gen3: Mapping[int, int], digits3: Mapping[int, int], longest: int) -> None:
    """Every trained length generalizes at least to itself, and in every seed the digits below the final carry stay
    right up to our longest test, however short the training."""
    for k in gen3:
        claim(gen3[k] >= k, f"trained on 1–{k}, the generalizable length should be at least {k}", str(gen3[k]),
              "A model that fails in distribution says nothing about length.")
        claim(digits3[k] == longest, f"trained on 1–{k}, every digit below the final carry should stay right to our "
              f"longest test ({longest} digits) in every seed", f"up to {digits3[k]}",
              "Then the digits, not only the end of the answer, limit the length.")


def check_live(live3: Mapping[int, Mapping[int, float]], gen3: Mapping[int, int], digits3: Mapping[int, int],
               below: Mapping[int, float], longest: int) -> None:
    """Live, one seed per trained length: it masters its trained length, holds its generalizable length, and where
    the manifest says the digits are right at the longest test, they are right live too."""
    for k, live in live3.items():
        claim(live[k] >= 0.95, f"trained on 1–{k}, the model should master {k} digits (>= 95%)", pct(live[k]))
        claim(live[gen3[k]] >= 0.85, f"trained on 1–{k}, it should hold its generalizable length {gen3[k]} "
              "(>= 85% on fresh problems)", pct(live[gen3[k]]))
        if digits3[k] == longest:
            claim(below[k] >= 0.9, f"trained on 1–{k}, every digit below the final carry should be right at "
                  f"{longest} digits (worst digit >= 90%)", pct(below[k]))


def failures(fig3: Mapping[int, Curves], gen3: Mapping[int, int], methods: Mapping[int, str] = OURS) -> dict:
    """Seed 0 of each trained length at the first tested length past its generalizable length (manifest): the
    worst digit below the final carry, the final carry, and exact match."""
    out = {}
    for k in fig3:
        past = [n for n in sorted(fig3[k][0]) if n > gen3[k]]
        if past:
            n1, pd = past[0], per_digit(built_entries(methods[k])[0])[past[0]]
            out[k] = {"length": str(n1), "digits below the final carry (worst)": worst_digit(pd, n1),
                      "final carry": pd[n1], "exact match": fig3[k][0][n1]}
    return out


def check_failures(fail3: Mapping[int, Mapping]) -> None:
    """Past the generalizable length the digits below the final carry are still right (>= 95%), and the shortest
    training fails at the end of the answer: its final carry (< 90%)."""
    for k, v in fail3.items():
        claim(v["digits below the final carry (worst)"] >= 0.95, f"trained on 1–{k}, past the generalizable length the "
              "digits below the final carry should still be right (>= 95%)",
              pct(v["digits below the final carry (worst)"]), "Then the digits fail too, not only the end.")
    k = min(fail3)
    claim(fail3[k]["final carry"] < 0.9, f"trained on 1–{k}, the final carry should fail past the generalizable "
          "length (< 90%)", pct(fail3[k]["final carry"]))

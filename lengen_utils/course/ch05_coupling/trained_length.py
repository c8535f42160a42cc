"""Notebook 05, section 3 (05b, section 2, seed by seed): trained vs generalizable length (Figure 3), and the sink."""
from __future__ import annotations

from collections.abc import Mapping

import matplotlib.pyplot as plt

from ..common.claims import claim
from ..common.seeds import Curves, recorded_entries, seed_curves
from ..notebook import pct
from ..plots import check_figure, series_styles
from ..plots.style import REFERENCE_GREY, legend_below
from ...analysis.generalization import median_and_range
from ...lab.zoo import entry, entry_for, entry_record, per_digit, recipe_entries
from .coupling import MASTERY
from .recipes import SINK as SINK_TABLE, TRAINED_LENGTH

#: Cho et al. Figure 3 (paper): generalizable length of plain coupling, 1 layer 4 heads, GPU scale, tests up to 200.
PAPER_FIG3 = {10: 70, 20: 135, 30: 200, 40: 200}
OURS = TRAINED_LENGTH.along("trained_length")              # trained length -> method
SINK = SINK_TABLE.along("trained_length")                  # the same with the sink (1–10: five seeds)
#: the sink's comparison on 1–10 digit sums: our variant without the sink, and with it (the raised flagship)
WITHOUT_SINK, WITH_SINK = TRAINED_LENGTH.one(trained_length=10), SINK_TABLE.one(trained_length=10)
#: the raised flagship's targets: median at 70 digits, worst seed at 40
TARGET_MEDIAN_70, TARGET_WORST_40 = 0.95, 0.9


def curves(methods: Mapping[int, str] = OURS) -> dict[int, Curves]:
    """``{trained length: {seed: {length: EM}}}`` of the built seeds; refuses, naming the build command, if none is."""
    out = {k: c for k, m in methods.items() if (c := seed_curves(m))}
    recipe = next(iter(methods.values()))
    first = next(iter(recipe_entries(recipe).values()), None)         # its lowest seed
    claim(bool(out), "the Figure 3 runs should be built", "none of " + ", ".join(methods.values()),
          f"Build one with `{entry(first).command}`." if first else f"The catalog has no recipe {recipe!r}.")
    return out


def longest_test(fig3: Mapping[int, Curves]) -> int:
    """The longest length any run was tested at."""
    return max(n for c in fig3.values() for curve in c.values() for n in curve)


def worst_digit(per_digit_at: Mapping[int, float], length: int) -> float:
    """The accuracy of the worst answer digit below the final carry (significance < ``length``)."""
    return min(a for s, a in per_digit_at.items() if s < length)


def digits_length(per_digit: Mapping[int, Mapping[int, float]], threshold: float = 0.95) -> int:
    """The longest tested length up to which every digit below the final carry is right > ``threshold`` of the time."""
    first_weak = min((n for n, acc in per_digit.items() if worst_digit(acc, n) <= threshold), default=float("inf"))
    return max((n for n in per_digit if n < first_weak), default=0)


def digits_lengths(fig3: Mapping[int, Curves], methods: Mapping[int, str] = OURS) -> dict[int, int]:
    """``{trained length: the worst seed's digits_length}`` (manifest)."""
    return {k: min(digits_length(per_digit(recorded_entries(methods[k])[s])) for s in c) for k, c in fig3.items()}


def rows(fig3: Mapping[int, Curves], gen3: Mapping[int, int], digits3: Mapping[int, int],
         methods: Mapping[int, str] = OURS) -> dict[str, dict[str, object]]:
    """The Figure 3 table: median per tested length, generalizable length, digits-right length, seeds, times."""
    seconds = {k: [entry_record(recorded_entries(methods[k])[s])["train_seconds"] for s in c] for k, c in fig3.items()}
    return {f"trained 1–{k}": {**{f"{n} dig": v[0] for n, v in median_and_range(c).items()}, "gen. length": gen3[k],
                               "digits right up to": digits3[k], "seeds": len(c),
                               "train time": ", ".join(f"{t:.0f} s" for t in seconds[k])} for k, c in fig3.items()}


def plot_figure3(series: Mapping[str, Mapping[int, int]], longest: int, title: str, dotted: tuple[str, ...] = ()):
    """Generalizable against trained length, one line per series, beside Cho et al.'s Figure 3 and our longest test."""
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
    if problems := check_figure(fig):
        raise ValueError(f"the Figure 3 plot breaks the course's figure standard: {problems}")
    return fig


def check_figure3(gen3: Mapping[int, int], digits3: Mapping[int, int], longest: int) -> None:
    """Every trained length generalizes at least to itself, and its digits stay right up to our longest test."""
    for k, g in gen3.items():
        claim(g >= k, f"trained on 1–{k}, the generalizable length should be at least {k}", str(g), MASTERY)
        claim(digits3[k] == longest, f"trained on 1–{k}, every digit below the final carry should stay right to our "
              f"longest test ({longest} digits) in every seed", f"up to {digits3[k]}",
              "Then the digits, not only the end of the answer, limit the length.")


def check_live(live3: Mapping[int, Mapping[int, float]], gen3: Mapping[int, int],
               digits3: Mapping[int, int] | None = None, below: Mapping[int, float] | None = None, longest: int = 0,
               label: str = "") -> None:
    """Live, a seed per trained length: it masters it, holds its generalizable length, and its digits where claimed."""
    for k, live in live3.items():
        claim(live[k] >= 0.95, f"{label}trained on 1–{k}, the model should master {k} digits (>= 95%)", pct(live[k]))
        claim(live[gen3[k]] >= 0.85, f"{label}trained on 1–{k}, it should hold its generalizable length {gen3[k]} "
              "(>= 85% on fresh problems)", pct(live[gen3[k]]))
        if digits3 and digits3[k] == longest:
            claim(below[k] >= 0.9, f"trained on 1–{k}, every digit below the final carry should be right at "
                  f"{longest} digits (worst digit >= 90%)", pct(below[k]))


def failures(fig3: Mapping[int, Curves], gen3: Mapping[int, int], methods: Mapping[int, str] = OURS) -> dict:
    """Seed 0 at the first tested length past the generalizable length: worst digit, final carry, EM (manifest)."""
    first = {k: min((n for n in c[0] if n > gen3[k]), default=None) for k, c in fig3.items()}
    pd = {k: per_digit(recorded_entries(methods[k])[0])[n] for k, n in first.items() if n}
    return {k: {"length": first[k], "digits below the final carry (worst)": worst_digit(d, first[k]),
                "final carry": d[first[k]], "exact match": fig3[k][0][first[k]]} for k, d in pd.items()}


def check_failures(fail3: Mapping[int, Mapping]) -> None:
    """Past the generalizable length the digits are still right, and the shortest training fails on its final carry."""
    for k, v in fail3.items():
        worst = v["digits below the final carry (worst)"]
        claim(worst >= 0.95, f"trained on 1–{k}, past the generalizable length the digits below the final carry "
              "should still be right (>= 95%)", pct(worst), "Then the digits fail too, not only the end.")
    k = min(fail3)
    claim(fail3[k]["final carry"] < 0.9, f"trained on 1–{k}, the final carry should fail past the generalizable "
          "length (< 90%)", pct(fail3[k]["final carry"]))


def check_start(by_start: Mapping[int, float]) -> None:
    """Live: the model without the sink holds long sums only at Cho's evaluation start 1."""
    claim(by_start[1] >= 0.9, "at Cho's evaluation start 1 it should hold 60-digit sums (>= 90%)", pct(by_start[1]))
    others = {s: em for s, em in by_start.items() if s != 1}
    claim(max(others.values()) <= 0.3, "at any other start it should fail (<= 30%)",
          ", ".join(f"{pct(em)} from {s}" for s, em in others.items()),
          "Then the long-length skill does not hang on the `$` below the final carry.")


def check_sink_live(live: Mapping[str, Mapping[int, float]], seed: int = 2) -> None:
    """Live on one seed: without the sink it fails at 40 digits, with it it holds 70."""
    without, sink = (live[entry_for(recipe.id, seed).name] for recipe in (WITHOUT_SINK, WITH_SINK))
    claim(without[40] <= 0.8, f"without the sink, seed {seed} should fail at 40 digits (<= 80%)", pct(without[40]))
    claim(sink[70] >= 0.9, f"with the sink, seed {seed} should hold 70 digits (>= 90%)", pct(sink[70]),
          "The sink was meant to fix exactly this seed's final carry.")


def check_targets(sink_board: dict, trained_board: dict) -> None:
    """From the manifest: the sink meets the raised flagship's targets, the recipe without it misses both."""
    sink, without = sink_board["methods"][WITH_SINK.id], trained_board["methods"][WITHOUT_SINK.id]
    got = {"median at 70": sink["lengths"][70]["median"], "worst at 40": sink["lengths"][40]["min"]}
    claim(got["median at 70"] >= TARGET_MEDIAN_70 and got["worst at 40"] >= TARGET_WORST_40,
          f"with the sink the median at 70 digits should reach {pct(TARGET_MEDIAN_70, 0)} and the worst seed at 40 "
          f"{pct(TARGET_WORST_40, 0)}", ", ".join(f"{k} {pct(v)}" for k, v in got.items()))
    miss = {"median at 60": without["lengths"][60]["median"], "worst at 40": without["lengths"][40]["min"]}
    claim(miss["median at 60"] < TARGET_MEDIAN_70 and miss["worst at 40"] < TARGET_WORST_40, "without the sink the "
          "same recipe should miss both targets", ", ".join(f"{k} {pct(v)}" for k, v in miss.items()))
    claim(sink["generalizable_length"] == max(sink["lengths"]), "with the sink the generalizable length should reach "
          f"our longest test ({max(sink['lengths'])} digits)", str(sink["generalizable_length"]))


def sink_rows(fig3: Mapping[int, Curves], gen3: Mapping[int, int], fig3s: Mapping[int, Curves],
              gen3s: Mapping[int, int], at: tuple[int, ...] = (10, 20, 40, 60, 80, 100, 120)) -> dict[str, dict]:
    """Figure 3 with and without the sink, one row per trained length and recipe: medians, gen. length, seeds."""
    return {f"trained 1–{k}{label}": {**{f"{n} dig": v[0] for n, v in median_and_range(runs[k]).items() if n in at},
                                      "gen. length": gens[k], "seeds": len(runs[k])}
            for k in sorted(set(fig3) | set(fig3s))
            for label, runs, gens in (("", fig3, gen3), (" + sink", fig3s, gen3s)) if k in runs}


def check_sink_figure3(gen3: Mapping[int, int], gen3s: Mapping[int, int], longest: int) -> None:
    """The sink lifts the generalizable length at every trained length, to our longest test from 1–10 digits on."""
    for k in gen3s:
        claim(gen3s[k] > gen3.get(k, 0), f"trained on 1–{k}, the sink should lift the generalizable length",
              f"{gen3s[k]} against {gen3.get(k)}")
        if k >= 10:
            claim(gen3s[k] == longest, f"trained on 1–{k} with the sink, the generalizable length should reach our "
                  f"longest test ({longest})", str(gen3s[k]))

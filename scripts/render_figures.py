"""Render every figure the notebooks draw into a folder of PNGs, to look at them.

    python scripts/render_figures.py [--out /tmp/lengen-figures] [--only nb03] [--no-models]

Each figure is drawn by the same plotting function and arguments as in its notebook, fed with the
zoo's cached data (``zoo.metrics``, ``zoo.per_digit``, ``zoo.load``: read only, nothing is trained
except the seconds-long linear-attention runs of notebook 07). Where a notebook measures something
live on many problems, this script measures it on a few (the figure's layout is what is checked,
not the numbers). The widget figures are drawn at every slider position. Every PNG is also checked
against the figure standard (:func:`lengen_utils.plots.check_figure`); breaches are listed and make
the exit status 1. ``--no-models`` skips the figures that need a model run.
"""
from __future__ import annotations

import argparse
import sys
import time
import traceback
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from lengen_utils import complexity as C  # noqa: E402
from lengen_utils import plots, theory, zoo  # noqa: E402
from lengen_utils.constructions import build_coupled_adder  # noqa: E402
from lengen_utils.device import set_cpu_threads  # noqa: E402
from lengen_utils.formats import FORMATS, encode, sigma_indices  # noqa: E402
from lengen_utils.interpret import attention_by_offset, mean_attention, sigma_rel  # noqa: E402
from lengen_utils.positions import PositionScheme  # noqa: E402
from lengen_utils.problems import Problem, sample_exact_length  # noqa: E402
from lengen_utils.tasks import Task, TaskConfig  # noqa: E402
from lengen_utils.widgets import TrainedLengthExplorer  # noqa: E402
from lengen_utils.zoo.catalog import FLAGSHIP_RECIPES, NB02_APE_RECIPES, NB03_RPE_RECIPES  # noqa: E402

FIGURES = {}          # name -> (needs a model run, function returning one figure or a list)


def figure(name: str, model: bool = False):
    def register(fn):
        FIGURES[name] = (model, fn)
        return fn
    return register


# -- notebook 00 ------------------------------------------------------------------------------------
@figure("nb00-flagship")
def _():
    curves = {name: zoo.metrics(FLAGSHIP_RECIPES[name]) for name in ("coupled", "ape")}
    return plots.accuracy_vs_length(curves, trained_length=10, title="Trained on 1-10 digits")


# -- notebook 01 ------------------------------------------------------------------------------------
ADD, MUL, L1 = Problem(653, 49), Problem(4297, 56, "*"), 6


@figure("nb01-formats-add")
def _():
    return plots.format_table({n: encode(ADD, n, frame_width=L1) for n in FORMATS},
                              title="653 + 49 in every format (outlined: supervised positions)")


@figure("nb01-formats-mul")
def _():
    return plots.format_table({n: encode(MUL, n, frame_width=L1) for n in FORMATS}, title="4297 × 56 in every format")


@figure("nb01-positions-cho")
def _():
    cho, rng = encode(ADD, "cho"), np.random.default_rng(7)
    ids = {"consecutive": PositionScheme("consecutive").assign(cho),
           "consecutive, random start": PositionScheme("consecutive", random_start=True).assign(cho, rng),
           "coupled (eval, start 1)": PositionScheme("coupled").assign(cho),
           "coupled, random start": PositionScheme("coupled", random_start=True).assign(cho, rng),
           "abacus": PositionScheme("abacus").assign(cho)}
    return plots.position_table(cho, ids, title="$653+049=2070$ under each position scheme")


@figure("nb01-positions-sabbaghi")
def _():
    sab = encode(Problem(123, 4095), "sabbaghi", frame_width=L1)
    return plots.position_table(sab, {s: PositionScheme(s).assign(sab) for s in ("consecutive", "coupled", "abacus")},
                                title="123 + 4095 in Sabbaghi's frame (l = 6)")


@figure("nb01-sigma")
def _():
    sab = encode(Problem(123, 4095), "sabbaghi", frame_width=L1)
    T = len(sab)
    return plots.highlight_table(sab, {f"σ({i})": sigma_indices(sab, i) for i in range(1, L1 + 2)},
                                 outline={f"σ({i})": [T - i] for i in range(1, L1 + 2)},
                                 title="σ(i): the inputs answer digit i depends on (123 + 4095, l = 6)")


# -- notebook 02 ------------------------------------------------------------------------------------
@figure("nb02-ape-cliff")
def _():
    return plots.accuracy_vs_length({"APE, trained on ≤ 5 digits": zoo.metrics("nb02-ape-l5")}, trained_length=5,
                                    title="APE encoder (Sabbaghi frame, l = 20): exact match vs length")


@figure("nb02-per-digit")
def _():
    per = zoo.per_digit("nb02-ape-l5")
    return plots.per_digit_heatmap({k: per[k] for k in (3, 4, 5, 6, 7, 8, 10, 12, 15, 20)}, max_significance=20,
                                   title="APE, trained ≤ 5 digits: accuracy per output digit")


@figure("nb02-shift")
def _():
    return plots.accuracy_vs_length({"APE": zoo.metrics("nb02-ape-l5"),
                                     "APE + shift augmentation": zoo.metrics("nb02-ape-shift-l5")},
                                    trained_length=5, title="Figure 2c at CPU scale: augmentation vs uniform longer numbers")


@figure("nb02-shift-per-digit")
def _():
    per = zoo.per_digit("nb02-ape-shift-l5")
    return plots.per_digit_heatmap({k: per[k] for k in (5, 6, 8, 10, 12, 15, 20)}, max_significance=20,
                                   title="APE + shift augmentation: accuracy per output digit")


@figure("nb02-widget")
def _():
    ex = TrainedLengthExplorer({k: NB02_APE_RECIPES[k] for k in (2, 3, 4, 5, 6, 8, 10)}, draw=False,
                               label="APE, trained on ≤ {k} digits", title="APE: the cliff follows the trained length")
    figs = [ex.figure(k) for k in ex.names]
    ex.fresh[5] = ex.cached(5)              # what a retrain that reproduces the cache looks like
    return figs + [ex.figure(5)]


# -- notebook 03 ------------------------------------------------------------------------------------
L3 = 22


@figure("nb03-rpe-vs-ape")
def _():
    return plots.accuracy_vs_length(
        {"RPE, trained on ≤ 5 digits": zoo.metrics("nb03-rpe-l5"),
         "RPE + shift augmentation, ≤ 5 digits": zoo.metrics("nb03-rpe-shift-l5"),
         "RPE, trained on ≤ 8 digits": zoo.metrics("nb03-rpe-l8"), "APE, trained on ≤ 5 digits": zoo.metrics("nb03-ape-l5")},
        trained_length=5, marks={f"frame width l = {L3}": L3},
        title="RPE carries addition past the trained length; the full frame breaks it")


@figure("nb03-per-digit")
def _():
    per, per8 = zoo.per_digit("nb03-rpe-l5"), zoo.per_digit("nb03-rpe-l8")
    return [plots.per_digit_heatmap({k: per[k] for k in (5, 10, 15, 20, L3 - 2, L3 - 1, L3)}, max_significance=L3,
                                    title="RPE trained on ≤ 5 digits: accuracy per output digit"),
            plots.per_digit_heatmap({k: per8[k] for k in (10, 15, 20, L3 - 2, L3 - 1, L3)}, max_significance=L3,
                                    title="RPE trained on ≤ 8 digits: accuracy per output digit")]


@figure("nb03-relative-vectors", model=True)
def _():
    model, _task = zoo.load("nb03-rpe-l5")
    return plots.relative_vector_map(plots.relative_vectors(model), marks={"-(l+1)": -(L3 + 1), "l+1": L3 + 1},
                                     title="Learned relative vectors p_{j-i}, per layer")


@figure("nb03-attention", model=True)
def _():
    model, task = zoo.load("nb03-rpe-l5")
    weights, tokens = plots.attention_maps(model, task, Problem(31415926535, 27182818284))
    return plots.attention_heatmap(weights[0], tokens, rows=list(range(L3, 2 * L3 + 1)),
                                   title="layer 1 attention, 11-digit sum (rows: answer positions)")


@figure("nb03-encodings")
def _():
    names = {"APE": "nb03-ape-l5", "NoPE": "nb03-nope-l5", "RoPE": "nb03-rope-l5", "ALiBi": "nb03-alibi-l5",
             "RPE": "nb03-rpe-l5"}
    return plots.accuracy_vs_length({lab: zoo.metrics(n) for lab, n in names.items()}, trained_length=5,
                                    marks={f"l = {L3}": L3},
                                    title="Position encodings at equal budget (≤ 5 digits, frame l = 22)")


@figure("nb03-augmentation")
def _():
    return plots.accuracy_vs_length({"RPE": zoo.metrics("nb03-rpe-l5"), "RPE + shift augmentation": zoo.metrics("nb03-rpe-shift-l5"),
                                     "APE + shift augmentation (nb 02, l = 20)": zoo.metrics("nb02-ape-shift-l5")},
                                    trained_length=5, marks={f"l = {L3}": L3}, title="Augmentation on top of RPE")


@figure("nb03-widget")
def _():
    ex = TrainedLengthExplorer({k: NB03_RPE_RECIPES[k] for k in (3, 5, 8)}, draw=False, label="RPE, trained on ≤ {k} digits",
                               reference={"APE, trained on ≤ 5 (nb 02)": zoo.metrics("nb02-ape-l5")},
                               marks={f"l = {L3}": L3}, title="RPE: how far does each trained length carry?")
    return [ex.figure(k) for k in ex.names]


# -- notebook 06 ------------------------------------------------------------------------------------
@figure("nb06-cascade-histogram")
def _():
    return plots.complexity_histogram({"(a) 50-digit sums": C.cascade_length_distribution(50),
                                       "(b) 5-digit sums": [float(x) for x in C.cascade_length_distribution(5)]},
                                      max_level=10, annotate_from=4, title="Sabbaghi Figure 13: cascade length (exact)")


@figure("nb06-by-level", model=True)
def _():
    model, task = zoo.load("nb06-rpe-uniform")
    by_cascade = C.evaluate_by_cascade_length(model, task, 20, list(range(0, 11)), n=12)
    by_run = C.evaluate_by_carry_run(model, task, 20, list(range(1, 13)), n=12)
    return plots.accuracy_by_level({"grouped by cascade length (C2)": by_cascade,
                                    "grouped by longest run of consecutive carries (C1)": by_run},
                                   xlabel="level", trained_max=5,
                                   title="Sabbaghi Figure 8a/8b: 20-digit sums, RPE model trained on 5 digits")


@figure("nb06-three-distributions", model=True)
def _():
    names = {"uniform over numbers": "nb06-rpe-uniform", "uniform over complexity": "nb06-rpe-uniform-complexity",
             "50/50 mixture": "nb06-rpe-mixed-complexity"}
    sets = C.cascade_test_sets(10, list(range(0, 11)), 12, seed=2024)
    c3 = {lab: C.evaluate_test_sets(*zoo.load(n), sets) for lab, n in names.items()}
    return plots.accuracy_by_level(c3, trained_max=5, title="Sabbaghi Figure 8c: 10-digit sums by cascade length, "
                                                            "three training distributions")


@figure("nb06-multiplication-histogram")
def _():
    m5 = C.multiplication_levels_distribution(5, exact=True)
    return plots.complexity_histogram({"(a) 20-digit multiplicand": C.multiplication_levels_distribution(20),
                                       "(b) 5-digit multiplicand": [float(x) for x in m5]},
                                      xlabel="carry levels", max_level=10, annotate_from=4,
                                      title="Sabbaghi Figure 14: levels of the parallel multiplication (exact)")


# -- notebook 07 ------------------------------------------------------------------------------------
_RUNS = {}


def _linear_runs():
    if not _RUNS:
        set_cpu_threads(1)
        cfg = theory.LinearAttentionConfig()
        _RUNS.update(cfg=cfg, runs=theory.train_all(cfg))
        set_cpu_threads()
    return _RUNS["cfg"], _RUNS["runs"]


@figure("nb07-per-position-loss", model=True)
def _():
    cfg, runs = _linear_runs()
    loss = {k: theory.per_position_test_loss(r) for k, r in runs.items()}
    return plots.per_position_loss({"APE": loss["ape"], "APE + shift augmentation": loss["ape_shift"], "RPE": loss["rpe"]},
                                   seen=theory.seen_positions(runs["ape"]),
                                   reference={"α²+2β²": theory.expected_unseen_loss_ape(cfg.alpha, cfg.beta)},
                                   title="Sabbaghi Figure 9b: test loss with every position non-zero (exact)")


@figure("nb07-gram", model=True)
def _():
    cfg, runs = _linear_runs()
    eff = {"(a) APE": runs["ape"].effective, "(b) APE + shift augmentation": runs["ape_shift"].effective,
           "(c) RPE": runs["rpe"].effective}
    return plots.gram_heatmaps(eff, block=cfg.n1,
                               title="Sabbaghi Figure 16: learned ⟨v,θ⟩·A_ij (target: α on the diagonal, β beside it)")


@figure("nb07-cho-figure-7", model=True)
def _():
    adder = build_coupled_adder(7)
    adder_task = Task(TaskConfig(format="cho", positions="coupled", random_start=False, max_position=2**7 - 1))
    trained, trained_task = zoo.load("nb07-coupled-1l2h")
    six = sample_exact_length(np.random.default_rng(7), 6, 50)
    w_adder, labels = mean_attention(adder, adder_task, six)
    w_trained, _ = mean_attention(trained, trained_task, six)
    eq = labels.index("=")
    return plots.attention_side_by_side({"hand-built (Thm 5.1)": w_adder[0], "trained (zoo)": w_trained[0]}, labels,
                                        rows=list(range(eq, len(labels) - 1)),
                                        title="Cho Figure 7: attention averaged over 6-digit additions (clipped below 0.01)")


@figure("nb07-offset-attention", model=True)
def _():
    rpe, rpe_task = zoo.load("nb06-rpe-uniform")
    l = rpe_task.config.frame_width
    oa = attention_by_offset(rpe, rpe_task, sample_exact_length(np.random.default_rng(3), 20, 40))
    return [plots.offset_attention_map(oa, layer, marks=sigma_rel(l, 2), max_offset=l + 4,
                                       title=f"Appendix E: attention by relative offset, layer {layer + 1}")
            for layer in range(len(oa.weights))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default="/tmp/lengen-figures", help="folder for the PNGs (default %(default)s)")
    parser.add_argument("--only", default="", help="render only the figures whose name contains this text")
    parser.add_argument("--no-models", action="store_true", help="skip the figures that need a model run")
    args = parser.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    plots.use_course_style()
    failed, breaches, n = [], [], 0
    for name, (needs_model, fn) in FIGURES.items():
        if args.only not in name or (needs_model and args.no_models):
            continue
        t0 = time.perf_counter()
        try:
            figs = fn()
        except Exception:                                    # noqa: BLE001 -- report every broken figure
            failed.append(name)
            traceback.print_exc()
            continue
        figs = figs if isinstance(figs, list) else [figs]
        for i, fig in enumerate(figs):
            path = out / (f"{name}.png" if len(figs) == 1 else f"{name}-{i + 1}.png")
            fig.savefig(path, dpi=plots.style.DPI)           # the size a learner sees at 100 % zoom
            breaches += [f"{path.name}: {p}" for p in plots.check_figure(fig)]
            plt.close(fig)
            n += 1
        print(f"{name:32s} {len(figs)} figure(s) in {time.perf_counter() - t0:5.1f} s")
    print(f"{n} PNGs in {out}")
    for line in breaches:
        print("breach:", line)
    if failed:
        print("failed:", ", ".join(failed))
    return 1 if failed or breaches else 0


if __name__ == "__main__":
    sys.exit(main())

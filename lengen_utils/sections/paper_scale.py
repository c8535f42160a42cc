"""Notebooks 03 and 05, "At paper scale": the papers' own model sizes, trained on a GPU, evaluated live here.

The zoo's paper-scale entries (tag ``gpu``; :mod:`lengen_utils.zoo.catalog_gpu`) were trained once on an NVIDIA
H200 by ``python -m lengen_utils.zoo train --device cuda NAME`` and cached in float16. A notebook loads each one
and evaluates it live on the CPU, with the KV cache, at a few lengths (``n_eval`` problems each), beside the record
measured on the GPU (500 problems per length) and the paper's claim. Numbers from the papers are typed here and
labelled as theirs; measured ones come from the manifest or from the live run.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..claims import claim
from ..constants import EVAL_SEED
from ..evaluate import evaluate_lengths
from ..notebook import n_eval, pct, render_md
from ..plots.curves import accuracy_vs_length
from ..zoo import entry, load, read_manifest, recipe_entries

LIVE_SEED = EVAL_SEED + 2          # live test sets apart from the recorded ones


@dataclass(frozen=True)
class PaperScale:
    """One paper-scale recipe as a notebook shows it."""
    recipe: str                                 # the zoo recipe (its built seeds are shown)
    live_lengths: tuple[int, ...]               # operand lengths evaluated live on the CPU
    live_n: int                                 # problems per length live (fast mode: a fifth)
    paper: str                                  # the paper's claim, typed, with its figure
    paper_points: tuple[tuple[int, float], ...] = ()   # the paper's stated values, plotted as its own series


#: Cho et al., Section 4: 1 layer, 4 heads, d 512, trained on 1-30 digit additions
COUPLED = PaperScale(
    recipe="cho-addition-1to30", live_lengths=(30, 100, 200), live_n=100,
    paper="more than 95% exact match up to 200-digit additions for 1-layer, 4-head models trained on 1-30 digits "
          "(Cho et al., Figures 1 and 3, median of 8 runs)",
    paper_points=((200, 0.95),))
#: Sabbaghi et al., A2: an RPE encoder trained on 1-5 digit sums, tested to 50 digits in the frame l = 50
RPE = PaperScale(
    recipe="sabbaghi-rpe-addition-5to50", live_lengths=(5, 10, 20, 30), live_n=200,
    paper="high accuracy maintained at longer lengths, falling only at 50 digits where the input loses its pad "
          "separator (Sabbaghi et al., A2 and Figure 2b)")


def seeds(spec: PaperScale) -> dict[int, str]:
    """``{seed: entry}`` of the recipe's built seeds; an unbuilt recipe is named with the command that builds it."""
    built = recipe_entries(spec.recipe, built_only=True)
    if not built:
        names = recipe_entries(spec.recipe)
        if not names:
            raise KeyError(f"no zoo recipe {spec.recipe!r}")
        raise FileNotFoundError(f"{spec.recipe} is not built; on a GPU: `{entry(next(iter(names.values()))).command}`")
    return built


def recorded(spec: PaperScale) -> dict[str, dict[int, float]]:
    """The GPU-measured exact match per length of each built seed (from the manifest)."""
    manifest = read_manifest()
    return {name: {int(k): v for k, v in manifest[name]["metrics"]["em"].items()} for name in seeds(spec).values()}


def evaluate_live(spec: PaperScale, n: int | None = None, progress: bool = False) -> dict[str, dict[int, float]]:
    """Each built seed evaluated live on the CPU at ``spec.live_lengths`` (``n`` problems per length, default
    ``n_eval(spec.live_n)``): ``{entry: {length: exact match}}``."""
    n = n_eval(spec.live_n) if n is None else n
    live = {}
    for name in seeds(spec).values():
        model, task = load(name)
        results = evaluate_lengths(model, task, spec.live_lengths, n=n, seed=LIVE_SEED, progress=progress)
        live[name] = {k: r.exact_match for k, r in results.items()}
    return live


def live_figure(spec: PaperScale, n: int | None = None) -> dict[str, dict[int, float]]:
    """:func:`evaluate_live`, then :func:`figure` of it (shown by the notebook); returns the live results."""
    live = evaluate_live(spec, n)
    figure(spec, live)
    return live


def _label(name: str) -> str:
    return f"seed {entry(name).seed}"


def figure(spec: PaperScale, live: dict[str, dict[int, float]]):
    """The GPU records (lines), the live CPU points (markers) and the paper's stated values, against length."""
    curves, styles = {}, {}
    for name, points in recorded(spec).items():
        curves[f"{_label(name)}, recorded on the GPU"] = points
    for name, points in live.items():
        label = f"{_label(name)}, live on this machine"
        curves[label] = points
        styles[label] = {"linestyle": "none", "marker": "o", "markersize": 8, "markerfacecolor": "none"}
    if spec.paper_points:
        label = "paper: at least this (its bar)"
        curves[label] = dict(spec.paper_points)
        styles[label] = {"linestyle": "none", "marker": "*", "markersize": 14, "color": "0.2"}
    e = entry(next(iter(live)))
    marks = {"frame width l": e.task.frame_width} if e.task.frame_width else None
    return accuracy_vs_length(curves, trained_length=e.task.max_digits, styles=styles, marks=marks,
                              title=f"{spec.recipe}: {e.model.n_layers} layer(s), d {e.model.d_model}, "
                                    f"{e.model.n_heads} heads, trained on a GPU")


def text(spec: PaperScale, live: dict[str, dict[int, float]]) -> str:
    """What the figure shows, with the numbers from the manifest and the live run."""
    rec = recorded(spec)
    first = next(iter(rec))
    manifest = read_manifest()[first]
    e = entry(first)
    longest = max(spec.live_lengths)
    worst_live = min(points[longest] for points in live.values())
    return render_md(
        "**At paper scale.** {n} seed(s) of `{recipe}` ({params:,} parameters), each trained for {steps:,} steps in "
        "{secs:.0f} s on one {gpu}. The paper: {paper}. Live here, on {n_live} problems per length, the worst seed "
        "scores {worst:pct} at {longest} digits; the GPU records (500 problems) are the lines.",
        n=len(rec), recipe=spec.recipe, params=manifest["n_parameters"], steps=e.train.steps,
        secs=manifest["train_seconds"], gpu=manifest.get("gpu", "GPU"), paper=spec.paper,
        n_live=n_eval(spec.live_n), worst=worst_live, longest=longest)


def check_coupled(live: dict[str, dict[int, float]]) -> None:
    """Live: every seed of Cho et al.'s model, trained with our recipe, adds 200-digit numbers (>= 95%)."""
    for name, points in live.items():
        claim(points[30] >= 0.99, f"{name} should master its trained range (30 digits)", pct(points[30]),
              "A model that fails in distribution says nothing about length.")
        claim(points[200] >= 0.95, f"{name} should add 200-digit numbers (>= 95%, the paper's bar)", pct(points[200]),
              "Then the paper-scale model does not reproduce Cho et al.'s result here.")


def check_rpe(live: dict[str, dict[int, float]]) -> None:
    """Live: the paper-scale RPE encoder masters 1-5 digits and generalizes past them (>= 75% at 10 digits),
    and falls short of the paper's 50 (< 50% at 30 digits): the honest reading of our budget."""
    for name, points in live.items():
        claim(points[5] >= 0.99, f"{name} should master its trained range (5 digits)", pct(points[5]),
              "A model that fails in distribution says nothing about length.")
        claim(points[10] >= 0.75, f"{name} should generalize past its trained range (>= 75% at 10 digits)",
              pct(points[10]))
        claim(points[30] < 0.5, f"at this budget {name} should not yet reach 30 digits (the text says so)",
              pct(points[30]), "If it does, the text under-reports it: update the prose.")


__all__ = ["COUPLED", "RPE", "PaperScale", "check_coupled", "check_rpe", "evaluate_live", "figure", "recorded",
           "live_figure", "seeds", "text"]

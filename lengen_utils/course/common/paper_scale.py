"""What notebooks 03, 04 and 05 share for "At paper scale": the papers' own model sizes, trained on a GPU, evaluated
live here. Each chapter holds its own specs and checks (ch03_rpe/rpe.py, ch04_upe/upe_m3.py,
ch05_coupling/gpu_scale.py).

The zoo's paper-scale entries (tag ``gpu``; the chapters' recipes.py) were trained once on an NVIDIA
H200 by ``python -m lengen_utils.lab.zoo train --device cuda NAME`` and cached in float16. A notebook loads each one
and evaluates it live on the CPU, with the KV cache, at a few lengths (``n_eval`` problems each), beside the record
measured on the GPU (500 problems per length) and the paper's claim. Numbers from the papers are typed here and
labelled as theirs; measured ones come from the manifest or from the live run.
"""
from __future__ import annotations

from dataclasses import dataclass

from ...core.constants import EVAL_SEED
from ..notebook import n_eval, pct
from ..plots.curves import accuracy_vs_length
from ...lab.papers import departures_table, to_markdown
from ...lab.zoo import entry, live_curves, read_manifest, recipe_entries

LIVE_SEED = EVAL_SEED + 2          # live test sets apart from the recorded ones


@dataclass(frozen=True)
class PaperScale:
    """One paper-scale recipe as a notebook shows it."""
    recipe: str                                 # the zoo recipe (its built seeds are shown)
    live_lengths: tuple[int, ...]               # operand lengths evaluated live on the CPU
    live_n: int                                 # problems per length live (fast mode: a fifth)
    paper: str                                  # the paper's claim, typed, with its figure
    paper_points: tuple[tuple[int, float], ...] = ()   # the paper's stated values, plotted as its own series
    length_phrase: str = "{} digits"            # how the text names one test length


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


def recorded_rows(spec: PaperScale, lengths: tuple[int, ...] | None = None) -> dict[str, dict[str, str]]:
    """The GPU records as table rows, one per seed, and with checkpoint selection (the papers' protocol) one for the
    selected checkpoint (its step named) and one for the final: ``{row: {"5 dig": "100.0%", ...}}``."""
    manifest = read_manifest()
    rows = {}
    for name in seeds(spec).values():
        rows.update(checkpoint_rows(manifest[name], f"seed {manifest[name]['seed']}", lengths))
    return rows


def checkpoint_rows(rec: dict, label: str, lengths: tuple[int, ...] | None = None) -> dict[str, dict[str, str]]:
    """One record's exact match per length as table rows under ``label``: one row, or, with checkpoint selection,
    one for the selected checkpoint and one for the final (each naming its step, and a time bound that stopped it)."""
    curves = {label: rec["metrics"]["em"]}
    if "selection" in rec:
        sel = rec["selection"]
        stopped = f" of {rec['stopped']['planned_steps']:,} planned: the time bound" if rec.get("stopped") else ""
        curves = {f"{label}, selected (step {sel['selected_step']:,})": rec["metrics"]["em"],
                  f"{label}, final (step {sel['final_step']:,}{stopped})": sel["final_metrics"]["em"]}
    return {row: {f"{k} dig": pct(em[str(k)]) for k in sorted(map(int, em)) if lengths is None or k in lengths}
            for row, em in curves.items()}


def departures(recipe: str, claim: str | None = None):
    """The rows where ``recipe`` departs from its paper's setup, or where the paper does not say (computed from the
    recipe against the paper's record, :mod:`lengen_utils.lab.papers`), as a Markdown table for a notebook."""
    from IPython.display import Markdown

    rows = [row for row in departures_table(recipe, claim) if row["status"] != "same"]
    return Markdown(f"**{recipe} against the paper** (every field that differs or that the paper does not state):\n\n"
                    + to_markdown(rows))


def evaluate_live(spec: PaperScale, n: int | None = None, progress: bool = False) -> dict[str, dict[int, float]]:
    """Each built seed evaluated live on the CPU at ``spec.live_lengths`` (``n`` problems per length, default
    ``n_eval(spec.live_n)``): ``{entry: {length: exact match}}``."""
    n = n_eval(spec.live_n) if n is None else n
    return live_curves(seeds(spec).values(), spec.live_lengths, n, seed=LIVE_SEED, progress=progress)


def live_figure(spec: PaperScale, n: int | None = None) -> dict[str, dict[int, float]]:
    """:func:`evaluate_live`, then :func:`figure` of it (shown by the notebook); returns the live results."""
    live = evaluate_live(spec, n)
    figure(spec, live)
    return live


def live_figures(specs: tuple[PaperScale, ...], n: int | None = None) -> dict[str, dict[str, dict[int, float]]]:
    """:func:`live_figure` of each spec in turn: ``{recipe: live results}``."""
    return {spec.recipe: live_figure(spec, n) for spec in specs}


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
        label = "the paper's stated values"
        curves[label] = dict(spec.paper_points)
        styles[label] = {"linestyle": "none", "marker": "*", "markersize": 14, "color": "0.2"}
    e = entry(next(iter(live)))
    marks = {"frame width l": e.task.frame_width} if e.task.frame_width else None
    return accuracy_vs_length(curves, trained_length=e.task.max_digits, styles=styles, marks=marks,
                              title=f"{spec.recipe}: {e.model.n_layers} layer(s), d {e.model.d_model}, "
                                    f"{e.model.n_heads} heads, trained on a GPU")

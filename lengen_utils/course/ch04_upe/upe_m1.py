"""Notebook 04, sections 3 and 5: Sabbaghi's M1 and M2 with a 1-digit multiplier (Figure 4), why UPE declines, the
attention window beside the paper's protocol, and M3, the zero-shift augmentation (Figure 5c/5d)."""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import numpy as np

from ...analysis.complexity import exact_match_per_problem
from ...analysis.generalization import median_and_range
from ...core.carries import multiplication_levels
from ...core.evaluate import evaluate_length, predict
from ...core.model import Transformer
from ...core.tasks import Task
from ...lab.leaderboard import leaderboard, leaderboard_rows
from ...lab.zoo import entry, entry_record, live_curves, metrics
from ..common.claims import claim
from ..common.seeds import built_entries, median_at, medians
from ..notebook import pct
from .recipes import M1_PAPER, MULTIPLICATION

Bands = Mapping[str, Mapping[int, tuple[float, float, float]]]   # {label: {length: (median, min, max)}}
Live = Mapping[str, Mapping[str, Mapping[int, float]]]           # {label: {entry: {length: EM}}}, measured live
TRAINED = 5                          # the trained multiplicand length (digits)
LIVE_SEED = 2024                     # the live test sets: another seed than the manifest's
MASTERY = "A model that fails in distribution says nothing about length."
#: section 3 (M1, M2): the plain 1-digit-multiplier rows in the frame l = 16, one per encoding, title -> recipe
M1 = {r.title: r.id for r in MULTIPLICATION.select(multiplier=1, trained_length=TRAINED, frame=16, shift_augment=False,
                                                   weight_decay=0.0)}


def seeds(recipe: str) -> list[str]:
    """The built entries of ``recipe``, one per seed."""
    return list(built_entries(recipe).values())


def bands(names_by_label: Mapping[str, Sequence[str]]) -> dict:
    """``{label: {length: (median, min, max)}}`` over the seeds of each label, from the manifest."""
    return {label: median_and_range({n: metrics(n) for n in names}) for label, names in names_by_label.items()
            if names}


def live_em(names: Iterable[str], lengths: Iterable[int], n: int) -> dict[str, dict[int, float]]:
    """``{name: {length: exact match}}`` of the cached checkpoints, measured now on fresh problems (this chapter's
    live seed; :func:`~lengen_utils.lab.zoo.live_curves`)."""
    return live_curves(names, lengths, n, seed=LIVE_SEED)


def em_rows(rows: Mapping[str, Mapping[int, float | tuple]], lengths: Iterable[int] | None = None) -> dict:
    """``{row: {length: value}}`` (an EM, or a ``(median, min, max)`` band) as table rows with "N dig" columns, all
    lengths or those of ``lengths``."""
    return {name: {f"{k} dig": row[k] for k in (lengths or row)} for name, row in rows.items()}


def recipe(names: Sequence[str]) -> dict[str, str]:
    """The seeds of one recipe as a table row: model, data, budget, training time (min-max) and test size."""
    e, recs = entry(names[0]), [entry_record(n) for n in names]
    t = [r["train_seconds"] / 60 for r in recs]
    return {"model": f"encoder, {e.model.n_layers} layers, {e.model.n_heads} heads, d {e.model.d_model}",
            "parameters": f"{recs[0]['n_parameters']:,}", "frame l": str(e.task.frame_width),
            "training": f"{e.train.steps:,} steps × {e.train.batch_size}", "lr, weight decay":
            f"{e.train.lr:g}, {e.train.weight_decay:g}", "seeds": str(len(names)),
            "minutes per model": f"{min(t):.1f}–{max(t):.1f} ({recs[0].get('gpu') or '1 CPU thread'})",
            "test problems per length": f"{recs[0]['metrics']['eval_n']:,}", "checkpoint": "final"}


def check_m1m2(live: Live, trained: int, reach: int = 15) -> None:
    """Live: every seed masters ``trained`` digits; M1: APE fails, RPE declines; M2: UPE far above; UPE short at 3x."""
    worst = min(c[trained] for runs in live.values() for c in runs.values())
    claim(worst >= 0.95, f"every model should master {trained}-digit multiplicands (worst seed >= 95%)", pct(worst),
          MASTERY)
    med = medians(live)
    ape, rpe, upe = med["APE"], med["RPE"], med["UPE"]
    claim(ape[10] <= 0.05, "M1: APE should fail at 10 digits (median <= 5%)", pct(ape[10]))
    claim(rpe[8] <= rpe[trained] - 0.5 and rpe[10] <= 0.1, f"M1: RPE should decline (50 points below its {trained}-"
          "digit accuracy at 8 digits), then fail (<= 10% at 10)", f"{pct(rpe[8])} at 8, {pct(rpe[10])} at 10")
    claim(upe[8] >= max(0.6, rpe[8] + 0.4) and upe[10] >= rpe[10] + 0.3, "M2: UPE should stay far above RPE (>= 60% "
          "and 40 points above it at 8 digits, 30 points above at 10)", f"UPE {pct(upe[8])} and {pct(upe[10])}, RPE "
          f"{pct(rpe[8])} and {pct(rpe[10])}", "Else the uniform vector does not carry the multiplier.")
    claim(upe[reach] < 0.5, f"UPE alone should fall short at {reach} digits (median below 50%; the course's target "
          "is 90%)", pct(upe[reach]), "If it holds there, UPE alone reaches 3x at our scale: update the text.")


def decline_row(model: Transformer, task: Task, length: int, n: int) -> dict[str, float]:
    """Live EM at ``length`` digits: all problems, the ``× 1`` copies, <= 1 carry level; the units digit's accuracy."""
    probs = task.eval_problems(length, n, seed=LIVE_SEED)
    ok, got = exact_match_per_problem(model, task, probs), predict(model, task, probs)
    times1 = np.array([p.b == 1 for p in probs])
    levels = np.array([multiplication_levels(p.b, p.a) for p in probs])
    units = float(np.mean([g is not None and g % 10 == p.answer % 10 for g, p in zip(got, probs)]))
    return {"EM, all": float(ok.mean()), "EM, × 1 (a copy)": float(ok[times1].mean()),
            "EM, ≤ 1 carry level": float(ok[levels <= 1].mean()), "units digit right": units}


def check_decline(row: Mapping[str, float]) -> None:
    """Even the copies fail: the errors are not carries."""
    claim(row["EM, × 1 (a copy)"] <= 0.9, "UPE past its reach (one seed) should fail even on `× 1` (a copy, no carry) "
          "in > 10% of the problems", pct(row["EM, × 1 (a copy)"]), "If copies survive, the errors are carries.")


def error_sites(model: Transformer, task: Task, lengths: tuple[int, ...], n: int = 200) -> dict[int, dict[int, float]]:
    """Live per-significance accuracy ``{length: {significance: accuracy}}`` on ``n`` problems per length."""
    return {length: evaluate_length(model, task, length, n=n).per_digit for length in lengths}


def site_rows(sites: Mapping[int, Mapping[int, float]]) -> dict[str, dict[str, float]]:
    """Per length: the units digit, the worst and best middle digit, the product's top digit."""
    rows = {}
    for length, row in sites.items():
        top = length if length in row else max(row)      # n digits x 1 digit: up to n + 1
        middle = [row[s] for s in row if 0 < s < top]
        rows[f"{length} digits"] = {"units digit": row[0], "middle digits, worst": min(middle),
                                    "middle digits, best": max(middle), "top digit": row[top]}
    return rows


def check_error_sites(sites: Mapping[int, Mapping[int, float]], trained: int) -> None:
    """Every digit is right at ``trained`` digits; past it the units digit fails about as often as the others."""
    longest, inside = max(sites), min(sites[trained].values())
    claim(inside >= 0.95, f"every answer digit should be right at the trained length ({trained} digits)", pct(inside))
    units_trained, units_long = sites[trained][0], sites[longest][0]
    others = float(np.mean([v for s, v in sites[longest].items() if s]))
    claim(units_long <= min(units_trained - 0.05, others + 0.1), f"on one seed, at {longest} digits the units digit "
          "(a_0 b mod 10, no carry in) should lose accuracy and fail about as often as the others", f"{pct(units_long)} (others "
          f"{pct(others)} on average, {pct(units_trained)} at {trained} digits)", "Else the errors are carries.")


# -- the attention window, and the paper's protocol (leaderboards nb04-window, sabbaghi-m1-paper) ----------------
#: frame l = 20, 1-digit multiplier: UPE with the attention window (2), Sabbaghi's UPE without it, RPE with it
UPE_WINDOW, UPE_PLAIN, RPE_WINDOW = (MULTIPLICATION.one(multiplier=1, frame=20, encoding=encoding, window=window).id
                                     for encoding, window in (("upe", 2), ("upe", 0), ("rpe", 2)))
LABELS = {r.id: r.title for r in MULTIPLICATION.select(multiplier=1, frame=20)}     # the rows' titles
PAPER_PROTOCOL = M1_PAPER.one()         # UPE without the window under the paper's protocol
UPE_PAPER = PAPER_PROTOCOL.id
PROTOCOL_LABELS = {UPE_PAPER: f"{PAPER_PROTOCOL.title}: selected checkpoint",
                   f"{UPE_PAPER} (final)": f"{PAPER_PROTOCOL.title}: final checkpoint",
                   UPE_PLAIN: "UPE, the course's recipe", UPE_WINDOW: LABELS[UPE_WINDOW]}


def window_board() -> dict:
    """The leaderboard ``nb04-window`` with the paper's protocol (``sabbaghi-m1-paper``, selected and final)."""
    board = leaderboard("nb04-window")
    board["methods"] = {**leaderboard("sabbaghi-m1-paper")["methods"], **board["methods"]}
    return board


def board_rows(board: dict, labels: Mapping[str, str], lengths: Iterable[int]) -> dict[str, dict[str, str]]:
    """The leaderboard's rows ``labels`` (median [min-max] over seeds), with the budget and the columns ``lengths``."""
    keep = {"seeds", "budget", "train s", *(f"{n} dig" for n in lengths)}
    return {label: {k: v for k, v in row.items() if k in keep}
            for label, row in leaderboard_rows(board, labels).items()}


def check_window(live: Mapping[str, Mapping[int, float]], trained: int, headline: int) -> None:
    """Live: all three master 1..``trained`` digits; UPE + window >= 90% at ``headline``, the others far below."""
    for method, label in LABELS.items():
        inside = min(median_at(live, method, n) for n in range(1, trained + 1))
        claim(inside >= 0.95, f"{label} should master 1-{trained} digit multiplicands (median >= 95% at each)",
              pct(inside), MASTERY)
    ours, plain, rpe = (median_at(live, method, headline) for method in (UPE_WINDOW, UPE_PLAIN, RPE_WINDOW))
    claim(ours >= 0.9, f"UPE + window should keep a median >= 90% at {headline} digits "
          f"({headline / trained:g}x the trained length)", pct(ours))
    claim(plain <= 0.5, f"UPE without the window should fail at {headline} digits (median <= 50%)", pct(plain),
          "If it does not, the window is not the fix: update the text.")
    claim(rpe <= ours - 0.2, f"RPE with the same window should stay at least 20 points below UPE at {headline} digits",
          f"{pct(rpe)} vs {pct(ours)}", "If not, the uniform vectors add nothing once the window is there: say so.")


def check_protocol(board: dict, headline: int) -> None:
    """Manifest: the paper's protocol masters 5 digits, is below 50% at ``headline``; with the window >= 90%."""
    at5, far = (board["methods"][UPE_PAPER]["lengths"][n]["median"] for n in (5, headline))
    claim(at5 >= 0.95, "UPE under the paper's protocol should master 5 digits (median >= 95%)", pct(at5), MASTERY)
    claim(far < 0.5, f"UPE under the paper's protocol should stay below 50% at {headline} digits (median of the "
          "selected checkpoints)", pct(far), "If it reaches 3x, the paper's UPE alone does: update the text.")
    window = board["methods"][UPE_WINDOW]["lengths"][headline]["median"]
    claim(window >= 0.9, f"UPE + window should keep >= 90% at {headline} digits (median)", pct(window))


def check_explorer(explorer, band: Mapping[int, tuple[float, float, float]]) -> None:
    """The explorer draws section 3's UPE medians; a setting not in the zoo gets a message and no figure."""
    curves = list(explorer.last_curves.values()) if explorer.last_curves else []
    claim(bool(curves) and curves[0] == band, "the explorer should draw section 3's UPE medians over the same seeds",
          "other curves" if curves else "no curve")
    explorer.show("APE", 3, 3)
    status = explorer.status.value
    claim("&#9888;" in status and "Available" in status and explorer.last_figure is None, "APE with a 3-digit "
          "multiplier trained on 3 digits is not in the zoo: the explorer should say which settings are, and draw "
          "nothing", f"status {status!r}, figure {explorer.last_figure!r}")


# -- section 5: M3, can the zero-shift augmentation replace UPE? ------------------------------------------------
SHIFTED = {r.title: r.id for r in MULTIPLICATION.select(shift_augment=True)}   # APE, RPE, UPE + shift, by title
APE, RPE, UPE = SHIFTED                 # the titles: "APE + shift", "RPE + shift", "UPE + shift (ours)"
UPE0 = "UPE, no augmentation"


def check_m3(med: Mapping[str, Mapping[int, float]], in_distribution: Mapping[str, float], trained: int = 5) -> None:
    """Live: all master 1..``trained``; M3 holds for RPE, not for APE at our scale; UPE + shift leads at 15 digits."""
    worst = min(in_distribution.values())
    claim(worst >= 0.95, "every augmented model should master 1 to 5 digits (mean EM >= 95%)", pct(worst), MASTERY)
    ape, rpe, upe0, ours = med[APE], med[RPE], med[UPE0], med[UPE]
    claim(rpe[10] <= upe0[10] - 0.15, "M3 for RPE: augmented RPE should stay 15 points below un-augmented UPE at 10 "
          "digits", f"{pct(rpe[10])} vs {pct(upe0[10])}", "If not, the augmentation replaces UPE for RPE.")
    claim(ape[10] >= upe0[10] + 0.1 and ape[15] >= upe0[15] + 0.2, "at our scale augmented APE should beat "
          "un-augmented UPE (10 points at 10 digits, 20 at 15)", f"{pct(ape[10])} vs {pct(upe0[10])} at 10, "
          f"{pct(ape[15])} vs {pct(upe0[15])} at 15", "If not, M3 holds for APE too, as in the paper.")
    others = min(v[trained] for k, v in med.items() if k != APE)
    claim(ape[trained] < others, f"augmented APE should pay a little in distribution (below the others at {trained} "
          "digits)", f"{pct(ape[trained])} vs at least {pct(others)}")
    claim(ours[15] >= max(ape[15], rpe[15]) + 0.2 and ours[10] >= 0.9, "UPE + shift should lead: >= 90% at 10 "
          "digits and 20 points above both augmented baselines at 15", f"{pct(ours[10])} at 10, {pct(ours[15])} at "
          f"15 (APE {pct(ape[15])}, RPE {pct(rpe[15])})")

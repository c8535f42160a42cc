"""Notebook 05, "Do we need the table at all?": the flagship without its absolute table, to 1000 digits.

Attention dilution in one formula: a query that gives its right key a logit ``margin`` above each of ``n - 1``
others puts ``1 / (1 + (n - 1) e^-margin)`` of its weight on it. A margin that training on ~140-token sequences
makes sufficient is not sufficient among the ~3000 tokens of a 1000-digit sum. The scalable softmax multiplies
the logits by ``s log n``, so the margin grows with the context: ``(n - 1) n^(-s margin)`` stays below 1 when
``s margin > 1``, at every ``n``.

Measured numbers come from the manifest (leaderboards ``flagship-seeds`` and ``nb05-reach``) or from live
evaluations the notebook passes in.
"""
from __future__ import annotations

import math

from ..common.claims import claim
from ...lab.flagship_time import SHORT_UP_TO, TARGET_MEDIAN_1000, TARGET_SHORT, TARGET_WORST_500
from ...lab.leaderboard import leaderboard
from ..notebook import pct, render_md
from ...lab.zoo import entry, entry_for
from ...lab.zoo.catalog import REACH_PACK_RECIPES

SEEDS_TAG = "flagship-seeds"
KNOB_TAG = "nb05-reach"
OURS = "flagship-reach"
MINUTE = "flagship-minute"          # the same decoder trained for time (tag of the same name): the retrain button's
PACKS = dict(REACH_PACK_RECIPES)


def right_key_weight(margin: float, n: int, length_scale: float | None = None) -> float:
    """The softmax weight of one key whose logit is ``margin`` above each of the other ``n - 1`` keys.

    With ``length_scale = s`` the logits are first multiplied by ``s log n`` (the scalable softmax)."""
    if n < 1:
        raise ValueError(f"n (keys the query sees) must be >= 1, got {n}")
    gap = margin if length_scale is None else margin * length_scale * math.log(n)
    return 1.0 / (1.0 + (n - 1) * math.exp(-gap))


def dilution_rows(margin: float, contexts: tuple[int, ...], length_scale: float) -> dict[str, dict[str, float]]:
    """The right key's weight (:func:`right_key_weight`) with and without the scalable softmax, one row per
    context size, ``{"140 keys": {"softmax": w, "scalable softmax": w'}}``; the scaled margin is chosen so that both
    give the same weight at the first (training) context."""
    train = contexts[0]
    scaled_margin = margin / (length_scale * math.log(train))
    return {f"{n:,} keys": {"softmax": right_key_weight(margin, n),
                            "scalable softmax": right_key_weight(scaled_margin, n, length_scale)} for n in contexts}


def boards() -> tuple[dict, dict]:
    """The leaderboards of the flagship's 5 seeds without the table and of the pack/softmax knobs (manifest)."""
    return leaderboard(SEEDS_TAG), leaderboard(KNOB_TAG)


def reach_curves(seeds_board: dict, knob_board: dict) -> dict[str, dict[int, float]]:
    """Median EM by operand length per recipe, labelled for the reach figure."""
    curves = {f"no table, {p} problems per sequence": knob_board["methods"][m]["lengths"]
              for p, m in PACKS.items() if m in knob_board["methods"]}
    if OURS in seeds_board["methods"]:
        ours = seeds_board["methods"][OURS]
        pack = entry(ours["entries"][0]).task.pack
        curves[f"no table, {pack} per sequence + scalable softmax (median of {len(ours['seeds'])} seeds)"] = \
            ours["lengths"]
    return {label: {n: v["median"] for n, v in lengths.items()} for label, lengths in curves.items()}


def same_without(pack: int | None = None) -> str:
    """The figure's entry that differs from ours only by the scalable softmax (same ``pack``; default: ours)."""
    pack = pack or entry_for(OURS, 0).task.pack
    if pack not in PACKS:
        raise ValueError(f"no entry of the reach figure packs {pack!r} problems per sequence; built: {sorted(PACKS)}")
    return entry_for(PACKS[pack], 0).name


def check_reach(live: dict[str, dict[int, float]], short: int, long: int) -> None:
    """Live: the scalable-softmax flagship (``live[OURS]``) adds ``long``-digit numbers (>= 95%) and masters
    ``short``; the same decoder without it (``live["plain"]``, same packing) does not reach ``long`` (<= 50%)."""
    ours, plain = live[OURS], live["plain"]
    claim(ours[short] >= 0.99, f"the flagship without its table should master {short}-digit sums",
          pct(ours[short]), "A model that fails in distribution says nothing about length.")
    claim(ours[long] >= 0.95, f"with the scalable softmax the flagship should add {long}-digit numbers (>= 95%)",
          pct(ours[long]))
    claim(plain[long] <= 0.5, f"without the scalable softmax the same decoder should fail at {long} digits "
          f"(attention dilution)", pct(plain[long]), "If it does not, the softmax is not what carries the reach: "
          "update the text.")


def reach_text(seeds_board: dict, knob_board: dict) -> str:
    """The 5-seed result and the knobs, from the manifest."""
    ours = seeds_board["methods"][OURS]
    e = entry(ours["entries"][0])
    top = max(ours["lengths"])
    mid = sorted(n for n in ours["lengths"] if n < top)[-1]
    up_to_100 = min(v["min"] for n, v in ours["lengths"].items() if n <= 100)
    packs = {p: knob_board["methods"][m]["lengths"] for p, m in PACKS.items() if m in knob_board["methods"]}
    knob = "; ".join(f"{p} problems per sequence: " + ", ".join(f"{pct(v[n]['median'])} at {n}" for n in
                                                               sorted(v) if n > 100) + " digits"
                     for p, v in packs.items())
    return render_md(
        "Trained on 1–{k} digit sums ({steps:,} steps of {batch} problems, {pack} to a sequence; {lo:dur} to {hi:dur} "
        "of training per seed on one CPU thread), with no absolute table and the scalable softmax, {seeds} seeds "
        "reach a median of **{m_top:pct} at {top} digits** (worst seed {w_top:pct}; worst seed {w_mid:pct} at {mid}), "
        "and every seed gets at least {w100:pct} at every tested length up to 100. Without the scalable softmax "
        "({knob}), more problems per training sequence push the reach out, at a higher cost per step{short_of}: the "
        "margin grows only as far as training's distractors demand. Cho et al. (paper): trained "
        "on 1–30 digits, 200 digits at GPU scale.",
        k=e.task.max_digits, steps=e.train.steps, batch=e.train.batch_size * e.task.pack, pack=e.task.pack,
        lo=min(ours["train_seconds"]), hi=max(ours["train_seconds"]), seeds=len(ours["seeds"]),
        m_top=ours["lengths"][top]["median"], top=top, w_top=ours["lengths"][top]["min"],
        w_mid=ours["lengths"][mid]["min"], mid=mid, w100=up_to_100, knob=knob or "not built",
        short_of=f", but not to {top} digits" if all(v.get(top, {}).get("median", 0) < 0.5 for v in packs.values())
        else "")


def minute_board() -> dict:
    """The leaderboard of the one-minute recipe's seeds (tag ``flagship-minute``, manifest)."""
    return leaderboard(MINUTE)


def check_minute(minute: dict, seeds_board: dict) -> None:
    """The one-minute recipe's reach targets (``bench flagship-time``'s), on its recorded seeds: the median at 1000
    digits, the worst seed at 500 and at every length up to 100; and fewer training seconds than the 2,000-step
    recipe's seeds."""
    m = minute["methods"][MINUTE]
    lengths = m["lengths"]
    claim(len(m["seeds"]) >= 5, "the one-minute recipe should be recorded for at least 5 seeds", str(len(m["seeds"])))
    claim(lengths[1000]["median"] >= TARGET_MEDIAN_1000, f"the one-minute flagship should add 1000-digit numbers "
          f"(median of its seeds >= {TARGET_MEDIAN_1000:.0%})", pct(lengths[1000]["median"]))
    claim(lengths[500]["min"] >= TARGET_WORST_500, f"every seed of the one-minute flagship should keep >= "
          f"{TARGET_WORST_500:.0%} at 500 digits", pct(lengths[500]["min"]))
    short = min(v["min"] for n, v in lengths.items() if n <= SHORT_UP_TO)
    claim(short >= TARGET_SHORT, f"every seed should get >= {TARGET_SHORT:.1%} at every length up to {SHORT_UP_TO} "
          f"digits", pct(short), "A model that misses short sums says nothing about long ones.")
    fast, slow = max(m["train_seconds"]), min(seeds_board["methods"][OURS]["train_seconds"])
    claim(fast < slow, "every seed of the one-minute recipe should train in fewer seconds than any seed of the "
          "2,000-step recipe (manifest)", f"{fast:.0f} s against {slow:.0f} s")


__all__ = ["KNOB_TAG", "MINUTE", "OURS", "PACKS", "SEEDS_TAG", "boards", "check_minute", "check_reach", "dilution_rows",
           "minute_board", "reach_curves", "reach_text", "right_key_weight", "same_without"]

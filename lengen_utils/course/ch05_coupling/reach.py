"""Notebook 05, section 4, "Do we need the table at all?": the flagship without it, to 1000 digits, dilution."""
from __future__ import annotations

import math

from ..common.claims import claim
from ..notebook import pct
from ...lab.flagship_time import SHORT_UP_TO, TARGET_MEDIAN_1000, TARGET_SHORT, TARGET_WORST_500
from ...lab.zoo import entry, entry_for, with_one_role
from ...lab.zoo.records import read_measured
from .coupling import MASTERY
from .recipes import REACH

#: the flagship without its table (2,000 steps), and the one-minute recipe: the same decoder trained for time
OURS, MINUTE = (with_one_role(role).id for role in ("flagship:reach", "flagship:one-minute"))
PACKS = REACH.along("pack")                  # problems per sequence -> recipe


def right_key_weight(margin: float, n: int, length_scale: float | None = None) -> float:
    """The softmax weight of a key ``margin`` above each of ``n - 1`` others (logits x ``s log n`` if scaled)."""
    if n < 1:
        raise ValueError(f"n (keys the query sees) must be >= 1, got {n}")
    gap = margin if length_scale is None else margin * length_scale * math.log(n)
    return 1.0 / (1.0 + (n - 1) * math.exp(-gap))


def dilution_rows(margin: float, contexts: tuple[int, ...], length_scale: float) -> dict[str, dict[str, float]]:
    """The right key's weight with and without the scalable softmax per context, equal at the first (training) one."""
    scaled = margin / (length_scale * math.log(contexts[0]))
    return {f"{n:,} keys": {"softmax": right_key_weight(margin, n),
                            "scalable softmax": right_key_weight(scaled, n, length_scale)} for n in contexts}


def knob_labels(knob_board: dict) -> dict[str, str]:
    """``{method: label}`` of the built rows without the scalable softmax, by packing."""
    return {m: f"no table, {p} problems per sequence" for p, m in PACKS.items() if m in knob_board["methods"]}


def reach_curves(seeds_board: dict, knob_board: dict) -> dict[str, dict[int, float]]:
    """Median EM by operand length per recipe, labelled for the reach figure."""
    curves = {label: knob_board["methods"][m]["lengths"] for m, label in knob_labels(knob_board).items()}
    if ours := seeds_board["methods"].get(OURS):
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
    """Live: with the scalable softmax ``long`` digits hold and ``short`` are mastered; without it ``long`` fails."""
    ours, plain = live[OURS], live["plain"]
    claim(ours[short] >= 0.99, f"the flagship without its table should master {short}-digit sums",
          pct(ours[short]), MASTERY)
    claim(ours[long] >= 0.95, f"with the scalable softmax the flagship should add {long}-digit numbers (>= 95%)",
          pct(ours[long]))
    claim(plain[long] <= 0.5, f"without the scalable softmax the same decoder should fail at {long} digits "
          "(attention dilution)", pct(plain[long]), "If not, the softmax does not carry the reach: update the text.")


def check_reach_targets(lengths: dict, who: str) -> None:
    """From a leaderboard's ``lengths``: ``who`` adds 1000-digit numbers and every seed masters the short sums."""
    claim(lengths[1000]["median"] >= TARGET_MEDIAN_1000, f"{who} should add 1000-digit numbers (median >= "
          f"{TARGET_MEDIAN_1000:.0%})", pct(lengths[1000]["median"]))
    short = min(v["min"] for n, v in lengths.items() if n <= SHORT_UP_TO)
    claim(short >= TARGET_SHORT, f"every seed should get >= {TARGET_SHORT:.1%} at every length up to {SHORT_UP_TO} "
          "digits", pct(short), "A model that misses short sums says nothing about long ones.")


def check_boards(seeds_board: dict, knob_board: dict) -> None:
    """From the manifest: the seeds reach the flagship's targets; packing alone pushes the reach out, not to 1000."""
    check_reach_targets(seeds_board["methods"][OURS]["lengths"], "the flagship without its table")
    knobs = [knob_board["methods"][m]["lengths"] for p, m in sorted(PACKS.items()) if m in knob_board["methods"]]
    at500 = [k[500]["median"] for k in knobs]
    claim(at500 == sorted(at500), "without the scalable softmax, more problems per sequence should push the reach out "
          "(median at 500 digits never lower)", ", ".join(pct(x) for x in at500))
    claim(all(k[1000]["median"] < 0.5 for k in knobs), "without the scalable softmax no packing should reach 1000 "
          "digits (median < 50%)", ", ".join(pct(k[1000]["median"]) for k in knobs),
          "If one does, packing alone carries the reach: update the text.")


def check_minute(minute: dict, seeds_board: dict) -> None:
    """The one-minute recipe meets ``bench flagship-time``'s reach targets and trains faster than the 2,000 steps."""
    m = minute["methods"][MINUTE]
    claim(len(m["seeds"]) >= 5, "the one-minute recipe should be recorded for at least 5 seeds", str(len(m["seeds"])))
    check_reach_targets(m["lengths"], "the one-minute flagship")
    claim(m["lengths"][500]["min"] >= TARGET_WORST_500, f"every seed of the one-minute flagship should keep >= "
          f"{TARGET_WORST_500:.0%} at 500 digits", pct(m["lengths"][500]["min"]))
    fast, slow = max(m["train_seconds"]), min(seeds_board["methods"][OURS]["train_seconds"])
    claim(fast < slow, "every seed of the one-minute recipe should train in fewer seconds than any seed of the "
          "2,000-step recipe (manifest)", f"{fast:.0f} s against {slow:.0f} s")


def median_and_worst_rows(board: dict, method: str, label: str,
                          manifest: dict | None = None) -> dict[str, dict[str, str]]:
    """Two table rows for ``method`` of a leaderboard: the median over its seeds and, beside it, its worst seed
    (the seed with the lowest exact match at any tested length; the longest such length among ties), from the
    manifest. Zhou et al. 2024: a median can hide the seed a learner draws."""
    manifest = read_measured() if manifest is None else manifest
    m = board["methods"][method]
    curves = {name: {int(n): v for n, v in manifest[name]["metrics"]["em"].items()} for name in m["entries"]}
    seed_of = dict(zip(m["entries"], m["seeds"]))
    worst = min(curves, key=lambda name: (min(curves[name].values()), seed_of[name]))
    lengths = list(m["lengths"])
    return {f"{label}: median of {len(curves)} seeds": {f"{n} dig": pct(m["lengths"][n]["median"]) for n in lengths},
            f"{label}: worst seed (seed {seed_of[worst]})": {f"{n} dig": pct(curves[worst][n]) for n in lengths}}

"""Notebook 08, section 1: the compositionality gap (thesis Chapter 4), each sub-task alone against the full sum."""
from __future__ import annotations

from collections.abc import Mapping

from ...analysis.probes import ProbeReport
from ..common.claims import claim
from ..notebook import pct
from . import agenda
from .agenda import N1, TRAINED_DIGITS
from .recipes import GAP as TAG

#: what each format (``task.format``) trains: the full task, or one sub-task alone
TASKS = {"cho": "full sum", "cho_align": "alignment", "cho_modsum": "digit sum", "cho_carries": "carries"}
#: per position scheme (``"APE"``, ``"coupled IDs"``), the recipe of the full task and of each sub-task
GROUPS = {agenda.SCHEMES[p]: {TASKS[r.task.format]: m for m, r in agenda.section(TAG, positions=p).items()}
          for p in ("consecutive", "coupled")}
BROKEN = 0.95            # a curve is broken at the first tested length where its median is not above 95%
PROBE_TARGETS = ("carry", "modsum", "a", "b", "pair")
PROBE_WORDS = {"carry": "carry", "modsum": "digit sum", "pair": "aligned pair"}


def breaks(board: dict) -> dict[str, dict[str, int | None]]:
    """Per scheme and task, the first tested length at which the median is not above 95% (``None``: never)."""
    return {group: {task: next((n for n in sorted(board["methods"][m]["lengths"])
                                if agenda.median(board, m, n) <= BROKEN), None)
                    for task, m in methods.items()} for group, methods in GROUPS.items()}


def gaps(board: dict, group: str) -> dict[int, dict[str, float | str]]:
    """Per length: the full task's median, the weakest sub-task (name and median) and the gap between them."""
    out = {}
    for n in sorted(board["methods"][GROUPS[group]["full sum"]]["lengths"]):
        subs = {s: agenda.median(board, m, n) for s, m in GROUPS[group].items() if s != "full sum"}
        weakest, full = min(subs, key=subs.get), agenda.median(board, GROUPS[group]["full sum"], n)
        out[n] = {"full sum": full, "weakest": weakest, "weakest sub-task": subs[weakest], "gap": subs[weakest] - full}
    return out


def gap_table(board: dict) -> dict[str, dict[str, str]]:
    """Rows ``{"APE: gap": {"5 dig": "+0.0", ...}, ...}`` in percentage points, for the notebook's table."""
    cells = {"full sum": lambda v: f"{100 * v['full sum']:.1f}", "gap": lambda v: f"{100 * v['gap']:+.1f}",
             "weakest sub-task": lambda v: f"{100 * v['weakest sub-task']:.1f} ({v['weakest']})"}
    return {f"{group}: {r}": {f"{n} dig": cells[r](v) for n, v in gaps(board, group).items()}
            for group in GROUPS for r in ("full sum", "weakest sub-task", "gap")}


def check(board: dict, live: agenda.Live) -> None:
    """All master 1-5 digits; with APE all break at one length; with coupled IDs the gap is <= 0 past the range."""
    agenda.check_mastered(board, live, [m for methods in GROUPS.values() for m in methods.values()])
    ape = breaks(board)["APE"]
    claim(len(set(ape.values())) == 1, "with APE, the full sum and every sub-task should break at the same length",
          ", ".join(f"{t} at {n}" for t, n in ape.items()), "Then one sub-task, not the composition, limits the sum.")
    agenda.check_fails(live, {GROUPS["APE"][t]: f"with APE, the {t}" for t in ("full sum", "alignment")},
                       "The answer's positions there were never trained with this layout.")
    worst = max((v["gap"], n) for n, v in gaps(board, "coupled IDs").items() if n > TRAINED_DIGITS)
    claim(worst[0] <= 0, "with coupled IDs, past the trained range the full sum should never be below its weakest "
          "sub-task (gap <= 0)", f"{100 * worst[0]:+.1f} points at {worst[1]} digits",
          "Then the full task lost something its sub-tasks keep: a compositionality gap.")


def probe_peak(report: ProbeReport, target: str, length: int) -> tuple[int, float]:
    """The layer where ``target`` is best decoded at ``length``, and that accuracy."""
    return max(((layer, report.accuracy[(target, layer, length)]) for layer in report.layers
                if (target, layer, length) in report.accuracy), key=lambda x: x[1])


def probe_table(reports: Mapping[str, ProbeReport]) -> dict[str, dict[str, float]]:
    """Per model and target (carry, digit sum, aligned pair): the best layer's accuracy by length, and chance."""
    return {f"{label}: {word}": {**{f"{n} dig": probe_peak(r, t, n)[1] for n in r.lengths},
                                 f"chance, {N1} dig": r.chance[(t, N1)]}
            for label, r in reports.items() for t, word in PROBE_WORDS.items()}


def check_probes(reports: Mapping[str, ProbeReport]) -> None:
    """Both models decode carry and digit sum at 5 digits; at 6 APE loses the digit sum, coupled IDs keep it."""
    for label, r in reports.items():
        for target in ("carry", "modsum"):
            layer, acc = probe_peak(r, target, TRAINED_DIGITS)
            claim(acc >= 0.95, f"in the {label} model, the {PROBE_WORDS[target]} should be linearly decodable at the "
                  f"trained length ({TRAINED_DIGITS} digits, best layer >= 95%)", f"{pct(acc)} (layer {layer})")
    lost, chance = probe_peak(reports["APE"], "modsum", N1)[1], reports["APE"].chance[("modsum", N1)]
    claim(lost <= 2 * chance, f"in the APE model the digit sum should be lost at {N1} digits (best layer at most "
          "twice chance)", f"{pct(lost)} (chance {pct(chance)})",
          "Past the trained range the APE model no longer fetches the aligned digits: alignment breaks first.")
    kept = probe_peak(reports["coupled IDs"], "modsum", N1)[1]
    claim(kept >= 0.9, f"in the coupled model the digit sum should survive at {N1} digits (>= 90%)", pct(kept),
          "Coupled IDs fetch the aligned digits at any length.")

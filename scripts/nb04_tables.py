"""Markdown tables of notebook 04's zoo entries, read from assets/manifest.json (docs/upe-log.md, Session 2).

    .venv/bin/python scripts/nb04_tables.py            # every built nb04 entry of catalog_nb04
    .venv/bin/python scripts/nb04_tables.py --probes /work/coord/upe3/results.jsonl   # + search probes

Per entry: exact match (%) by multiplicand length, the in-distribution mean (lengths 1..trained) and the
train seconds. Per group (the entry name without its seed): median / min / max over the built seeds.
Then the issue's targets, each checked on the medians and marked met / not met. A manifest record whose
configs differ from the catalog's entry (retrained recipe pending) is flagged "stale".
"""
from __future__ import annotations

import json
import re
import statistics
import sys

from lengen_utils.model import ModelConfig
from lengen_utils.tasks import TaskConfig
from lengen_utils.train import TrainConfig
from lengen_utils.zoo import catalog_nb04 as C
from lengen_utils.zoo.manifest import read_manifest
from lengen_utils.zoo.registry import ENTRIES

NAME = re.compile(r"^nb04-(ape|rpe|upe)(-shift)?-m(\d)(-l\d+)?(-wd)?-s(\d+)$")


def _rows() -> list[tuple[str, dict, object]]:
    manifest = read_manifest()
    out = []
    for name in sorted(ENTRIES):
        if not NAME.match(name) or name not in manifest:
            continue
        entry = ENTRIES[name]
        rec = manifest[name]
        stale = not (TaskConfig.from_dict(rec["task"]) == entry.task          # as zoo.verify compares
                     and ModelConfig.from_dict(rec["model"]) == entry.model
                     and TrainConfig.from_dict(rec["train"]) == entry.train)
        out.append((name, rec, stale))
    return out


def _em(rec: dict) -> dict[int, float]:
    return {int(k): 100 * float(v) for k, v in rec["metrics"]["em"].items()}


def _fmt(x: float) -> str:
    return f"{x:.1f}"


def entry_table(rows) -> str:
    lengths = sorted({L for _, rec, _ in rows for L in _em(rec)})
    head = "| entry | train s | in-dist | " + " | ".join(str(L) for L in lengths) + " |"
    lines = [head, "|" + "---|" * (3 + len(lengths))]
    for name, rec, stale in rows:
        em, k = _em(rec), rec["task"]["max_digits"]
        ind = statistics.mean(em[L] for L in range(1, k + 1))
        cells = [_fmt(em[L]) if L in em else "-" for L in lengths]
        lines.append(f"| {name}{' (stale)' if stale else ''} | {rec['train_seconds']:.0f} | {_fmt(ind)} | "
                     + " | ".join(cells) + " |")
    return "\n".join(lines)


def groups(rows) -> dict[str, list[dict[int, float]]]:
    out: dict[str, list] = {}
    for name, rec, stale in rows:
        if not stale:
            out.setdefault(re.sub(r"-s\d+$", "", name), []).append(_em(rec))
    return out


def group_table(rows) -> str:
    g = groups(rows)
    lengths = sorted({L for ems in g.values() for em in ems for L in em})
    lines = ["| group | seeds | " + " | ".join(str(L) for L in lengths) + " |", "|" + "---|" * (2 + len(lengths))]
    for key, ems in sorted(g.items()):
        cells = []
        for L in lengths:
            v = [em[L] for em in ems if L in em]
            cells.append(f"{statistics.median(v):.1f} ({min(v):.0f}-{max(v):.0f})" if len(v) > 1 else
                         (_fmt(v[0]) if v else "-"))
        lines.append(f"| {key} | {len(ems)} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _median(g, key: str, L: int) -> float | None:
    v = [em[L] for em in g.get(key, []) if L in em]
    return statistics.median(v) if v else None


def targets(rows) -> str:
    """The issue's targets on the medians over seeds; 'not built' when a group is missing."""
    g = groups(rows)
    T, lines = C.NB04_TRAINED, []

    def check(label: str, ok: bool | None, detail: str) -> None:
        lines.append(f"* {label}: **{'not built' if ok is None else 'met' if ok else 'not met'}** ({detail})")

    L1, L3 = 3 * T, C.NB04_HEADLINE[3]
    u = _median(g, "nb04-upe-m1", L1)
    check(f"1-digit: UPE >= 90% at {L1} digits (3x)", None if u is None else u >= 90, f"median {u}")
    for key in ("nb04-upe-m1", "nb04-upe-m1-wd", "nb04-upe-shift-m1"):
        if key not in g:
            continue
        ok = [L for L in range(1, L1 + 1) if (_median(g, key, L) or 0) >= 90]
        reach = max((L for L in ok if all(x in ok for x in range(1, L + 1))), default=0)
        lines.append(f"* {key}: median >= 90% up to {reach} digits ({reach / T:.1f}x the trained length); "
                     f"at {L1}: {_median(g, key, L1):.1f}")
    a = [_median(g, "nb04-ape-m1", L) for L in range(T + 1, L1 + 1)]
    a = [x for x in a if x is not None]
    check("1-digit: APE near 0 beyond the trained length (median <= 5% from 2 digits past it)",
          None if not a else max(a[1:]) <= 5, f"medians {T + 1}..{L1}: {[round(x, 1) for x in a]}")
    for wd in ("", "-wd"):
        pairs = [(L, _median(g, f"nb04-rpe-m1{wd}", L), _median(g, f"nb04-upe-m1{wd}", L)) for L in range(T + 1, L1 + 1)]
        pairs = [(L, r, u) for L, r, u in pairs if r is not None and u is not None]
        check(f"1-digit{wd}: RPE measurably below UPE (median >= 10 points lower at some length past the trained one)",
              None if not pairs else any(u - r >= 10 for _, r, u in pairs),
              "; ".join(f"{L}: {r:.1f} vs {u:.1f}" for L, r, u in pairs))
    for aug in ("nb04-ape-shift-m1", "nb04-rpe-shift-m1"):
        pairs = [(L, _median(g, aug, L), _median(g, "nb04-upe-m1", L)) for L in range(T + 1, L1 + 1)]
        pairs = [(L, x, u) for L, x, u in pairs if x is not None and u is not None]
        check(f"M3: augmented {aug} stays below un-augmented UPE at every length {T + 1}..{L1} (medians)",
              None if not pairs else all(x < u for _, x, u in pairs),
              "; ".join(f"{L}: {x:.1f} vs {u:.1f}" for L, x, u in pairs))
    for enc in ("upe", "rpe"):
        ind = [_median(g, f"nb04-{enc}-m3", L) for L in range(1, T + 1)]
        far = _median(g, f"nb04-{enc}-m3", L3)
        if None in ind or far is None:
            check(f"3-digit: {enc.upper()} at {L3} digits / in distribution", None, "")
            continue
        ratio = far / max(statistics.mean(ind), 1e-9)
        goal = ratio >= 0.8 if enc == "upe" else ratio < 0.8
        sign = ">=" if enc == "upe" else "<"
        check(f"3-digit: {enc.upper()} at {L3} digits keeps {sign} 80% of its in-distribution EM", goal, f"median {far:.1f} / in-dist {statistics.mean(ind):.1f} = {ratio:.2f}")
    bad = [n for n, rec, stale in rows if not stale and
           min(_em(rec)[L] for L in range(1, rec["task"]["max_digits"] + 1)) < 95]
    check("every model >= 95% EM at every trained length", not bad, f"below: {bad}" if bad else "all")
    return "\n".join(lines)


def probe_table(path: str) -> str:
    """The rows of scripts/upe_search.py's results.jsonl (EM % on its own test sets, n per length)."""
    recs = [json.loads(line) for line in open(path) if line.strip()]
    lengths = sorted({int(L) for r in recs for L in r["em"]}, key=int)
    lines = ["| run | enc | k | layers | d | d_ff | steps | lr | train s | in-dist | val curve (step, EM %) | "
             + " | ".join(str(L) for L in lengths) + " |", "|" + "---|" * (11 + len(lengths))]
    for r in recs:
        curve = ", ".join(f"{s}:{e:g}" for s, e in r.get("val_curve", [])) or "-"
        curve += f" (on {r['val_len']} digits)" if r.get("val_curve") else ""
        lines.append(f"| {r['tag']} | {r['enc']} | {r['k']} | {r['layers']} | {r['d']} | {r['dff']} | {r['steps']} | "
                     f"{r['lr']:g} | {r['train_s']:.0f} | {r['in_dist']:.1f} | {curve} | "
                     + " | ".join(f"{r['em'].get(str(L), float('nan')):.1f}" for L in lengths) + " |")
    return "\n".join(lines)


def main() -> None:
    if "--probes" in sys.argv:
        print("### Probes (scripts/upe_search.py)\n")
        print(probe_table(sys.argv[sys.argv.index("--probes") + 1]) + "\n")
    rows = _rows()
    if not rows:
        sys.exit("no nb04 entry is built yet (python -m lengen_utils.zoo train NAME)")
    print("### Per entry (EM %, final checkpoint, eval_n per length from the manifest)\n")
    print(entry_table(rows))
    print("\n### Median (min-max) over seeds\n")
    print(group_table(rows))
    print("\n### Targets (medians)\n")
    print(targets(rows))


if __name__ == "__main__":
    main()

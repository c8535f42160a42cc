"""Notebook 02: absolute positions (APE) fail beyond the trained length (Sabbaghi et al. A1), and shift augmentation
(A3) does not rescue them.

Measured numbers come from the zoo entries, the manifest, or live results the notebook computes and passes in;
the paper's numbers (Figure 2a, Table 1) are typed here once, labelled as the paper's.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..common.claims import claim
from ..notebook import pct, render_md

#: Sabbaghi et al. Figure 2a (6-layer BERT, trained on at most 5 digits), read off the figure.
FIGURE_2A = {5: "≈100%", 6: "drops drastically", 8: "≈0", 10: "≈0", 20: "≈0"}
#: Sabbaghi et al. Table 1 (APE + shift augmentation, 10-digit sums), in percent.
TABLE_1 = {"shifted integers (in-distribution)": "99.7 ± 0.1", "uniform 10-digit sums": "81 ± 1", "digit 1": "90 ± 1",
           "digit 2": "96 ± 1", "digit 3": "98.8 ± 0.1", "digit 4": "98.0 ± 0.1", "digit 5": "98.8 ± 0.1",
           "digits 6-11 (mean)": "96 ± 1"}


def setup_text(entry, record: Mapping, n_parameters: int) -> str:
    """The model's size and budget (zoo entry), its training time and test size (manifest record)."""
    return render_md(
        "{params:,} parameters, {layers} layers, `d_model` = {d}, {steps:,} steps of {batch} problems; trained in "
        "{t:dur} on {threads} CPU thread(s), tested on {n:,} problems per length. Rebuild: `{cmd}`",
        params=n_parameters, layers=entry.model.n_layers, d=entry.model.d_model, steps=entry.train.steps,
        batch=entry.train.batch_size, t=record["train_seconds"], threads=record["threads"],
        n=record["metrics"]["eval_n"], cmd=entry.command)


def figure2a_rows(em: Mapping[int, float]) -> dict[str, dict[str, object]]:
    """Our exact match next to the paper's Figure 2a, for ``notebook.table``."""
    label = lambda k: "≤5 digits (k=5)" if k == 5 else f"k={k}"
    return {"ours (2-layer, CPU)": {label(k): em[k] for k in FIGURE_2A},
            "Sabbaghi Fig. 2a (6-layer BERT)": {label(k): v for k, v in FIGURE_2A.items()}}


def check_cliff(live: Mapping[int, float], manifest: Mapping[int, float], full_test: bool, trained: int = 5) -> None:
    """``live[k]``: near-perfect at the trained length, a cliff one digit later, nothing beyond; at the full test
    size the manifest's numbers exactly (the same test problems)."""
    claim(live[trained] >= 0.95, f"APE should be near-perfect at the trained length, {trained} digits (at least 95%)",
          pct(live[trained]))
    claim(live[trained + 1] <= 0.2, f"APE should fall off a cliff at {trained + 1} digits (at most 20%)",
          pct(live[trained + 1]), "Then positions past the trained length carry a rule after all.")
    beyond = {k: v for k, v in live.items() if k > trained + 1}
    claim(max(beyond.values()) <= 0.05, "APE should add nothing beyond (at most 5% at every longer length)",
          ", ".join(f"{pct(v)} at {k}" for k, v in beyond.items()))
    if full_test:
        off = {k: (v, manifest[k]) for k, v in live.items() if abs(v - manifest[k]) > 1e-9}
        claim(not off, "at the full test size the live numbers should reproduce the manifest's (same problems)",
              "; ".join(f"{k} digits: {pct(a)} live, {pct(b)} in the manifest" for k, (a, b) in off.items()),
              "Then the cached model or the test set changed since the manifest was written.")


def table1_rows(in_dist: float, em10: float, per10: Mapping[int, float]) -> dict[str, dict[str, object]]:
    """Our Table 1 (augmented model, 10-digit sums, digit by digit) next to the paper's."""
    ours = {"shifted integers (in-distribution)": in_dist, "uniform 10-digit sums": em10,
            **{f"digit {s + 1}": per10[s] for s in range(5)},
            "digits 6-11 (mean)": sum(per10[s] for s in range(5, 11)) / 6}
    return {k: {"ours": ours[k], "Sabbaghi Table 1 (%)": TABLE_1[k]} for k in ours}


def check_shift(in_dist: float, live: Mapping[int, float], per20: Mapping[int, float], trained: int = 5) -> None:
    """The augmented model: near-perfect on shifted data, not on uniform long sums (10 and 20 digits), and at
    20 digits the units digit (``per20[0]``) is its weakest digit."""
    claim(in_dist >= 0.95, "with shift augmentation APE should be near-perfect on shifted problems, its own "
          "training distribution (at least 95%)", pct(in_dist))
    claim(live[10] <= 0.85, "augmentation should not give uniform 10-digit sums (at most 85%)", pct(live[10]),
          "Then shifted examples taught addition of long numbers, against Sabbaghi's A3.")
    claim(live[20] <= live[trained] - 0.5, f"at 20 digits it should be at least 50 points below its {trained}-digit "
          f"accuracy ({pct(live[trained])})", pct(live[20]))
    others = [per20[s] for s in range(1, 21)]
    claim(per20[0] <= min(others) - 0.05, "at 20 digits the units digit should be the weakest digit (5 points "
          f"below every other, the weakest of which is right in {pct(min(others))})", pct(per20[0]))


def shift_text(in_dist: float, em: Mapping[int, float], per10: Mapping[int, float], per20: Mapping[int, float],
               entry) -> str:
    """What reproduces of Table 1 and what does not, from the augmented model's measured numbers."""
    return render_md(
        "**What reproduces, what does not.** The qualitative claim holds: the augmented model is\n"
        "near-perfect on shifted data ({in_dist:pct}: it learned \"translation by zeros\"), yet on uniform numbers\n"
        "longer than 5 digits it degrades steadily, down to {em[20]:pct} at 20 digits. The numbers differ from\n"
        "Table 1: our uniform 10-digit exact match is {em[10]:pct} (paper: 81 ± 1 %), our augmented model is also\n"
        "weaker in distribution on unshifted 5-digit sums ({em[5]:pct}), and our errors at 10 digits are spread\n"
        "over all digits ({lo10:pct} to {hi10:pct} each) instead of concentrating on the units digit (paper: 90% on\n"
        "digit 1, 96-99% elsewhere). The units-digit weakness does appear at 20 digits in our model: digit 1 is\n"
        "right in {u20:pct} of the sums, the other digits in {lo20:pct} to {hi20:pct}. A {layers}-layer,\n"
        "{d}-wide model trained for {steps:,} steps is a much weaker learner than the 6-layer BERT of the paper,\n"
        "so each position's rule is less exact, and errors accumulate over digits.",
        in_dist=in_dist, em=em, u20=per20[0], lo10=min(per10[s] for s in range(11)),
        hi10=max(per10[s] for s in range(11)), lo20=min(per20[s] for s in range(1, 21)),
        hi20=max(per20[s] for s in range(1, 21)), layers=entry.model.n_layers, d=entry.model.d_model,
        steps=entry.train.steps)


def check_cliffs(live: Mapping[int, Mapping[int, float]]) -> None:
    """``live[trained][length]`` for each cached trained length: near-perfect at its own length, nothing 2 and 5
    digits further. The cliff follows the trained length."""
    for k, row in live.items():
        claim(row[k] >= 0.9, f"the APE model trained on ≤ {k} digits should master {k} digits (at least 90%)",
              pct(row[k]))
        worst = max(v for n, v in row.items() if n > k)
        claim(worst <= 0.1, f"the APE model trained on ≤ {k} digits should fail 2 and 5 digits further (at most 10%)",
              pct(worst), "Then its cliff does not sit right after its trained length.")


def summary(em: Mapping[int, float], entry, record: Mapping, slider_n: Sequence[int]) -> str:
    """The notebook's summary and departures, with the measured numbers of the model of sections 2-4."""
    return render_md(
        "* An APE encoder trained on $\\le 5$-digit sums is near-perfect in distribution and fails from 6\n"
        "  digits on: **{em[5]:pct} at 5 digits, {em[6]:pct} at 6, {best:pct} at best for 7-20 digits** (Sabbaghi\n"
        "  Figure 2a: near-perfect, then a drop to ≈ 0).\n"
        "* The failure is positional: output digits read at positions that were only ever `pad` in training\n"
        "  are wrong, and the unfamiliar content disturbs the others.\n"
        "* Shift augmentation puts digits at every position. It gives near-perfect accuracy on shifted data but\n"
        "  not on uniform longer numbers (Sabbaghi A3, Table 1): augmentation is not a substitute for an\n"
        "  encoding with the right symmetry.\n\n"
        "**Our departures from the paper.** Balanced sampling of operand lengths instead of uniform numbers\n"
        "(section 1); a {layers}-layer, $d={d}$ encoder trained for {steps:,} steps of {batch} fresh problems ({t:dur}\n"
        "on {threads} CPU thread(s)) instead of a 6-layer, 768-wide BERT with dropout on 100k samples; no checkpoint\n"
        "selection; frame $l = 20$ for every trained length; {n:,} test problems per length for the two models\n"
        "of sections 2-4 and {slider} for the other slider models (one seed) instead of error bars over runs.",
        em=em, best=max(em[k] for k in em if k >= 7), layers=entry.model.n_layers, d=entry.model.d_model,
        steps=entry.train.steps, batch=entry.train.batch_size, t=record["train_seconds"], threads=record["threads"],
        n=record["metrics"]["eval_n"], slider=" / ".join(f"{x:,}" for x in slider_n))


__all__ = ["FIGURE_2A", "TABLE_1", "setup_text", "figure2a_rows", "check_cliff", "table1_rows", "check_shift",
           "shift_text", "check_cliffs", "summary"]

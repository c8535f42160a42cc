"""Notebook 02: absolute positions fail beyond the trained length (Sabbaghi A1); shifts (A3) do not rescue."""
from __future__ import annotations

from collections.abc import Mapping

from ..common.claims import claim
from ..notebook import pct

#: Sabbaghi et al. Figure 2a (6-layer BERT, trained on at most 5 digits), read off the figure.
FIGURE_2A = {5: "≈100%", 6: "drops drastically", 8: "≈0", 10: "≈0", 20: "≈0"}
#: Sabbaghi et al. Table 1 (APE + shift augmentation, 10-digit sums), in percent.
TABLE_1 = {"shifted integers (in-distribution)": "99.7 ± 0.1", "uniform 10-digit sums": "81 ± 1", "digit 1": "90 ± 1",
           "digit 2": "96 ± 1", "digit 3": "98.8 ± 0.1", "digit 4": "98.0 ± 0.1", "digit 5": "98.8 ± 0.1",
           "digits 6-11 (mean)": "96 ± 1"}


def figure2a_rows(em: Mapping[int, float]) -> dict[str, dict[str, object]]:
    """Our exact match next to the paper's Figure 2a, for ``notebook.table``."""
    label = lambda k: "≤5 digits (k=5)" if k == 5 else f"k={k}"
    return {"ours (2-layer, CPU)": {label(k): em[k] for k in FIGURE_2A},
            "Sabbaghi Fig. 2a (6-layer BERT)": {label(k): v for k, v in FIGURE_2A.items()}}


def check_cliff(live: Mapping[int, float], manifest: Mapping[int, float], full_test: bool, trained: int = 5) -> None:
    """``live[k]``: APE masters the trained length, falls off a cliff one digit later, adds nothing beyond."""
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


def check_shift(in_dist: float, live: Mapping[int, float], per10: Mapping[int, float], per20: Mapping[int, float],
                trained: int = 5) -> None:
    """The augmented model: perfect on shifted sums, below the paper at 10 digits, units digit weakest at 20."""
    claim(in_dist >= 0.95, "with shift augmentation APE should be near-perfect on shifted problems, its own "
          "training distribution (at least 95%)", pct(in_dist))
    claim(live[trained] <= in_dist - 0.02, f"it should be weaker on unshifted {trained}-digit sums than on shifted "
          f"ones (by 2 points; shifted: {pct(in_dist)})", pct(live[trained]))
    claim(live[10] < 0.81, "augmentation should not give uniform 10-digit sums (below the paper's 81%)", pct(live[10]),
          "Then shifted examples taught addition of long numbers as well as in the paper: rewrite the comparison.")
    claim(per10[0] > min(per10[s] for s in range(1, 11)), "at 10 digits the errors should not concentrate on the "
          f"units digit (another digit weaker than it; the weakest is right in {pct(min(per10[s] for s in range(1, 11)))})",
          pct(per10[0]), "Then our model shows the paper's units-digit weakness already at 10 digits.")
    claim(live[20] <= live[trained] - 0.5, f"at 20 digits it should be at least 50 points below its {trained}-digit "
          f"accuracy ({pct(live[trained])})", pct(live[20]))
    others = [per20[s] for s in range(1, 21)]
    claim(per20[0] <= min(others) - 0.05, "at 20 digits the units digit should be the weakest digit (5 points "
          f"below every other, the weakest of which is right in {pct(min(others))})", pct(per20[0]))


def check_cliffs(live: Mapping[int, Mapping[int, float]]) -> None:
    """``live[trained][length]``: each APE model masters its own length and fails 2 and 5 digits further."""
    for k, row in live.items():
        claim(row[k] >= 0.9, f"the APE model trained on ≤ {k} digits should master {k} digits (at least 90%)",
              pct(row[k]))
        worst = max(v for n, v in row.items() if n > k)
        claim(worst <= 0.1, f"the APE model trained on ≤ {k} digits should fail 2 and 5 digits further (at most 10%)",
              pct(worst), "Then its cliff does not sit right after its trained length.")

"""Notebook 04's summary: our numbers beside the paper's (Sabbaghi et al., Appendix B, Figures 4, 5 and 11)."""
from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from ..common.seeds import best_run
from .upe_m1 import APE, RPE, UPE, UPE_WINDOW, Bands
from .upe_m3 import M2_RUNS, m2_row

_BERT = {"frame l": "20", "lr, weight decay": "1e-4, 3e-6 to 1e-4", "minutes per model": "(GPU, not given)",
         "checkpoint": "best on long validation numbers"}
PAPER = {"Sabbaghi et al., 1-digit multiplier (paper, App. B)": {
             "model": "BERT, 6 layers, 8 heads, d 768", "parameters": "(not given; BERT-base size)",
             "training": "100k samples", **_BERT},
         "Sabbaghi et al., 3-digit multiplier (paper, App. B)": {
             "model": "BERT, 9 layers, 8 heads, d 768", "parameters": "(not given)", "training": "500k samples",
             **_BERT}}


def _at(b: Mapping[int, tuple[float, float, float]], n: int) -> str:
    return f"{100 * b[n][0]:.1f}% at {n} digits (seeds {100 * b[n][1]:.1f}–{100 * b[n][2]:.1f}%)"


def claim_rows(band1: Bands, live3: Mapping[str, Mapping[int, float]], band5: Bands, maps: Mapping, board: dict,
               headline: int) -> dict:
    """Each claim: the paper's words beside our median over seeds; ``live3``: section 4's live search results."""
    window = {n: (v["median"], v["min"], v["max"]) for n, v in board["methods"][UPE_WINDOW]["lengths"].items()}
    u, eff, gpu = band1["UPE"], maps["effective"], m2_row(M2_RUNS["schedule to its end, 256 per step"])
    fig5b = "90% of in-distribution accuracy at 16 digits (Figure 5b)"
    rows = {
        "M1: APE past the trained length": ("fails (Figure 4a)", _at(band1["APE"], 10)),
        "M1: RPE, 1-digit multiplier": ("declines (Figure 4b)", _at(band1["RPE"], 10)),
        "M2: UPE, 1-digit multiplier": ("clearly above RPE (Figure 4c)", _at(u, 10)),
        "UPE at 3x the trained length": ("read it off Figure 4c (no number in the text)", _at(u, 15)),
        "UPE + window at 3x (not in the paper)": ("–", _at(window, headline)),
        "M2: UPE, 3-digit multiplier (CPU)": (fig5b, f"best of the search {100 * best_run(live3, 5)[0]:.1f}% at 5 "
                                              "digits, not mastered" if live3 else "not built"),
        "M2 at the paper's depth (GPU, 256 per step; × hidden among other departures, the ledger's table)": (
            fig5b, f"{100 * gpu['kept at 16'][0]:.1f}% kept at 16 digits, {100 * gpu['5 dig'][0]:.1f}% at 5 "
                   f"({gpu['seeds']} seeds)"),
        "M3: augmented APE vs UPE": ("below UPE (Figure 5c)", _at(band5[APE], 15) + f"; UPE {100 * u[15][0]:.1f}%"),
        "M3: augmented RPE vs UPE": ("below UPE (Figure 5d)", _at(band5[RPE], 10) + f"; UPE {100 * u[10][0]:.1f}%"),
        "UPE + shift (not in the paper)": ("–", _at(band5[UPE], 15)),
        "maps: carry vector the largest": ("in every layer (Figure 11)", ", ".join(
            f"{maps['carry'][k]} of {maps['layers'][k]} {k} layers" for k in ("RPE", "UPE"))),
        "maps: UPE less dispersed": ("yes (Appendix C.3)", "{:.1f} vs {:.1f} effective offsets".format(
            np.median(eff["UPE"]), np.median(eff["RPE"]))),
    }
    return {k: {"Sabbaghi et al. (paper)": p, "ours (median over seeds)": o} for k, (p, o) in rows.items()}

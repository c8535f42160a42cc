"""Notebook 08, section 5: looping (thesis Section 2.1.3: the Universal Transformer, Looped Transformers, and
McLeish et al.'s recurrent layers with input injection, which with the Abacus embedding reach "up to 99% accuracy
on 100-digit addition problems", "6 times longer" than training).

One weight-shared block applied ``ceil(d / 2)`` times for ``d``-digit operands (at least twice), with the
embedded input added back before every pass (input injection), with APE and with Abacus IDs, beside the
2-layer decoders of the same width. A looped model has fewer parameters and spends more passes on longer sums.
"""
from __future__ import annotations

from ..claims import claim
from ..notebook import pct, render_md
from ..zoo import entry, manifest_record
from ..zoo.catalog_nb08 import TRAINED_DIGITS
from . import agenda
from .paper_claims import ClaimRow

METHODS = {"nb08-direct": "APE, 2 layers", "nb08-looped": "APE, 1 block looped",
           "nb08-abacus": "Abacus, 2 layers", "nb08-abacus-looped": "Abacus, 1 block looped"}
MCLEISH = "Abacus + recurrent layers with input injection: 99% on 100-digit sums after training on 20 (6×)"


def passes(method: str, digits: int) -> int:
    """How many block applications a ``digits``-digit sum gets (``n_layers`` x loops)."""
    m = entry(f"{method}-s0").model
    return m.n_layers * (m.loops_for(digits) if m.looped else 1)


def parameters(method: str) -> int:
    """The recorded number of parameters of seed 0."""
    return manifest_record(f"{method}-s0")["n_parameters"]


def looping_text(board: dict) -> str:
    """Per model: parameters, passes at 5 and 15 digits, generalizable length, and the reach one digit past."""
    cells = []
    longest = max(next(iter(board["methods"].values()))["lengths"])
    for m, label in METHODS.items():
        if m not in board["methods"]:
            continue
        row = board["methods"][m]
        gen = row["generalizable_length"] if row["mastered"] else "not mastered"
        cells.append(render_md("**{label}** ({p:,} parameters; {a} block passes at {n} digits, {b} at {far}): "
                               "generalizable length {gen}, {n1} digits {b1:pct}, {n2} digits {b2:pct}", label=label,
                               p=parameters(m), a=passes(m, TRAINED_DIGITS), n=TRAINED_DIGITS,
                               b=passes(m, longest), far=longest, gen=gen, n1=TRAINED_DIGITS + 1,
                               b1=agenda.beyond(board, m), n2=TRAINED_DIGITS + 2,
                               b2=agenda.median(board, m, TRAINED_DIGITS + 2)))
    return "Median over seeds. " + "; ".join(cells) + "."


def check(board: dict, live: agenda.Live) -> list[ClaimRow]:
    """Every model masters 1-5 digits, and with APE looping does not lift the reach: the looped APE model fails one
    digit past the trained range as the 2-layer one does (live, seed 0: at most 10%)."""
    agenda.check_mastered(board, live, list(METHODS))
    n = TRAINED_DIGITS + 1
    for m in ("nb08-direct", "nb08-looped"):
        got = agenda.em(live, m, n)
        claim(got <= 0.1, f"{METHODS[m]} should fail one digit past the trained range (<= 10%)", pct(got),
              "More passes cannot fetch digits from positions the table never trained.")
    row = board["methods"]["nb08-abacus-looped"]
    gen = row["generalizable_length"] if row["mastered"] else 0
    return [ClaimRow("Abacus + looping with input injection generalizes far past training",
                     "6× (99% at 100 digits after 20; McLeish et al., via the thesis)",
                     f"{gen / TRAINED_DIGITS:.1f}× (generalizable length {gen}); 2-layer Abacus "
                     f"{agenda.median(board, 'nb08-abacus', n):.1%} at {n} digits",
                     "median over 3 seeds, trained on 1–5 digits, tested to 15")]


__all__ = ["METHODS", "MCLEISH", "passes", "parameters", "looping_text", "check"]

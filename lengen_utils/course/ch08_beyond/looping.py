"""Notebook 08, section 5: looping (thesis Section 2.1.3: the Universal Transformer, Looped Transformers, and
McLeish et al.'s recurrent layers with input injection, which with the Abacus embedding reach "up to 99% accuracy
on 100-digit addition problems", "6 times longer" than training).

The base's 2-layer block, weight-shared, applied ``ceil(d / 2)`` times for ``d``-digit operands (at least twice),
with the embedded input added back before every pass (input injection), with APE and with Abacus IDs, beside the
2-layer decoders: the same parameters, more passes on longer sums. With Abacus IDs the models (looped or not) often
leave the units digit unlearned, even in the trained range, while the looped model writes every other digit far past
it: the units digit is written from ``=``, which Abacus numbers 0, with no ID relation to the digits it must read.
``abacus_eq`` (our departure) puts ``=`` one ID below them; its 2-layer model is the control for the looped one.
"""
from __future__ import annotations

import statistics

from ..common.claims import claim
from ..notebook import pct, render_md
from ...lab.zoo import entry_for, manifest_record, per_digit
from ...lab.zoo.catalog_nb08 import NB08_SEEDS, TRAINED_DIGITS
from . import agenda
from ..common.paper_claims import ClaimRow

METHODS = {"nb08-direct": "APE, 2 layers", "nb08-looped": "APE, looped",
           "nb08-abacus": "Abacus, 2 layers", "nb08-abacus-looped": "Abacus, looped",
           "nb08-abacus-eq": "Abacus with = one below the units, 2 layers",
           "nb08-abacus-eq-looped": "Abacus with = one below the units, looped"}
PER_DIGIT_LENGTH = 10    # where the looped Abacus models' answer digits are read one by one (2x the trained length)
MCLEISH = "Abacus + recurrent layers with input injection: 99% on 100-digit sums after training on 20 (6×)"


def passes(method: str, digits: int) -> int:
    """How many block applications a ``digits``-digit sum gets (``n_layers`` x loops)."""
    m = entry_for(method, 0).model
    return m.n_layers * (m.loops_for(digits) if m.looped else 1)


def parameters(method: str) -> int:
    """The recorded number of parameters of seed 0."""
    return manifest_record(entry_for(method, 0).name)["n_parameters"]


def units_and_rest(method: str, length: int = PER_DIGIT_LENGTH) -> tuple[float, float]:
    """Median over seeds of (the units digit's accuracy, the mean accuracy of every other answer digit) at
    ``length`` digits, from the manifest."""
    units, rest = [], []
    for seed in NB08_SEEDS:
        digits = per_digit(entry_for(method, seed).name)[length]
        units.append(digits[0])
        rest.append(statistics.mean(a for s, a in digits.items() if s > 0))
    return statistics.median(units), statistics.median(rest)


def final_digit(method: str, length: int) -> float:
    """Median over seeds of the accuracy of the answer's top digit (the final carry, significance ``length``)."""
    return statistics.median(per_digit(entry_for(method, seed).name)[length][length] for seed in NB08_SEEDS)


def units_text(board: dict) -> str:
    """Where the Abacus models err, digit by digit: the units digit in the trained range and at twice it, and, once
    ``=`` sits one below the units, the final carry two digits past the trained range."""
    cells = []
    for m in ("nb08-abacus", "nb08-abacus-looped", "nb08-abacus-eq", "nb08-abacus-eq-looped"):
        if m in board["methods"]:
            (u5, r5), (uf, rf) = units_and_rest(m, TRAINED_DIGITS), units_and_rest(m)
            cells.append(render_md("**{label}**: units digit {u5:pct} at {n} digits and {uf:pct} at {far}, the other "
                                   "digits {r5:pct} and {rf:pct}", label=METHODS[m], u5=u5, n=TRAINED_DIGITS, uf=uf,
                                   far=PER_DIGIT_LENGTH, r5=r5, rf=rf))
    n2 = TRAINED_DIGITS + 2
    tops = ", ".join(f"{METHODS[m]} {pct(final_digit(m, n2))}" for m in ("nb08-abacus-eq", "nb08-abacus-eq-looped")
                     if m in board["methods"])
    return ("Per answer digit, median over seeds: " + "; ".join(cells) + ". With the units digit fixed, the next "
            f"weak spot is the final carry, the answer's top digit: at {n2} digits it is right {tops} of the time, "
            "the spot notebook 05's sink fixed for coupled IDs.")


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
    """Live, seed 0: looping does not lift APE's reach (both APE models at most 10% one digit past the trained
    range); the looped Abacus model writes every digit but the units at twice the trained length (units at most
    30%, the other digits at least 85% on average); with ``=`` one below the units digits it writes the units digit
    (>= 95% at 5 digits). Medians over seeds: two digits past the trained range the looped ``abacus_eq`` model beats
    the 2-layer one with the same IDs by at least 20 points: the reach comes from looping, once the units digit is
    fixed."""
    agenda.check_mastered(board, live, ["nb08-direct", "nb08-looped", "nb08-abacus-eq", "nb08-abacus-eq-looped"])
    n, n2, far = TRAINED_DIGITS + 1, TRAINED_DIGITS + 2, PER_DIGIT_LENGTH
    for m in ("nb08-direct", "nb08-looped"):
        got = agenda.em(live, m, n)
        claim(got <= 0.1, f"{METHODS[m]} should fail one digit past the trained range (<= 10%)", pct(got),
              "More passes cannot fetch digits from positions the table never trained.")
    digits = live["nb08-abacus-looped"][far].per_digit
    units, rest = digits[0], sum(a for s, a in digits.items() if s > 0) / (len(digits) - 1)
    claim(units <= 0.3 and rest >= 0.85, f"the looped Abacus model should write every digit but the units at {far} "
          "digits (units <= 30%, the others >= 85% on average)", f"units {pct(units)}, others {pct(rest)}",
          "Its units digit is written from =, which Abacus numbers 0, far from the digits it must read.")
    fixed = live["nb08-abacus-eq-looped"][TRAINED_DIGITS].per_digit[0]
    claim(fixed >= 0.95, f"with = one below the units, the looped model should write the units digit at "
          f"{TRAINED_DIGITS} digits (>= 95%)", pct(fixed), "= now sits where every other answer digit's query sits.")
    looped, flat = agenda.median(board, "nb08-abacus-eq-looped", n2), agenda.median(board, "nb08-abacus-eq", n2)
    claim(looped >= flat + 0.2, f"at {n2} digits the looped model should beat the 2-layer one with the same IDs by "
          "at least 20 points (median over seeds)", f"{pct(looped)} against {pct(flat)}")
    row = board["methods"]["nb08-abacus-eq-looped"]
    u5 = units_and_rest("nb08-abacus", TRAINED_DIGITS)[0]
    return [ClaimRow("Abacus + looping with input injection generalizes far past training",
                     "6× (99% at 100 digits after 20; McLeish et al., via the thesis)",
                     f"McLeish's IDs: the units digit {pct(u5)} at {TRAINED_DIGITS} digits (2 layers); = one below the "
                     f"units, looped: generalizable length {row['generalizable_length']} "
                     f"({row['generalizable_length'] / TRAINED_DIGITS:.1f}×), "
                     f"{pct(agenda.median(board, 'nb08-abacus-eq-looped', n2))} at {n2} digits and "
                     f"{pct(agenda.median(board, 'nb08-abacus-eq-looped', far))} at {far} (2 layers, same IDs: "
                     f"{pct(agenda.median(board, 'nb08-abacus-eq', n2))} at {n2})",
                     "median over 3 seeds, trained on 1–5 digits, tested to 15")]


__all__ = ["METHODS", "MCLEISH", "PER_DIGIT_LENGTH", "passes", "parameters", "units_and_rest", "final_digit",
           "units_text",
           "looping_text", "check"]

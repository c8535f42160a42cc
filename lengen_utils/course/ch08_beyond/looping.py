"""Notebook 08, section 5: looping (McLeish et al.'s recurrent block with input injection), APE and Abacus IDs."""
from __future__ import annotations

import statistics

from ...lab.zoo import entry_for, entry_record, per_digit
from ..common.claims import claim
from ..notebook import pct
from . import agenda
from .agenda import NB08_SEEDS, TRAINED_DIGITS
from .recipes import LOOP as TAG

#: each position scheme with the base's 2 layers, and with the block looped (``model.looped``)
METHODS = {m: f"{agenda.SCHEMES[r.task.positions]}, {'looped' if r.model.looped else '2 layers'}"
           for m, r in agenda.section(TAG).items()}
#: per scheme, (2 layers, looped): APE, McLeish et al.'s Abacus IDs, and ours with = one below the units
APE, ABACUS, FIXED = (tuple(agenda.section(TAG, positions=p)) for p in ("consecutive", "abacus", "abacus_eq"))
#: with = one below the units: the looped model, and its 2-layer control
EQ_LOOPED, EQ_FLAT = (agenda.method(positions="abacus_eq", looped=looped) for looped in (True, False))
PER_DIGIT_LENGTH = 10    # where the Abacus models' answer digits are read one by one (2x the trained length)
N2 = TRAINED_DIGITS + 2  # two digits past the trained range


def passes(method: str, digits: int) -> int:
    """How many block applications a ``digits``-digit sum gets (``n_layers`` x loops)."""
    m = entry_for(method, 0).model
    return m.n_layers * (m.loops_for(digits) if m.looped else 1)


def loop_table(board: dict, far: int = 15) -> dict[str, dict[str, int]]:
    """Per model: its parameters (seed 0, recorded) and its block passes at 5 and at ``far`` digits."""
    return {label: {"parameters": f'{entry_record(entry_for(m, 0).name)["n_parameters"]:,}',
                    f"passes, {TRAINED_DIGITS} dig": passes(m, TRAINED_DIGITS), f"passes, {far} dig": passes(m, far)}
            for m, label in METHODS.items() if m in board["methods"]}


def digit_medians(method: str, length: int) -> dict[int, float]:
    """``{significance: median over seeds of that answer digit's accuracy}`` at ``length`` digits (manifest)."""
    seeds = [per_digit(entry_for(method, s).name)[length] for s in NB08_SEEDS]
    return {s: statistics.median(d[s] for d in seeds) for s in seeds[0]}


def units_and_rest(digits: dict[int, float]) -> tuple[float, float]:
    """``{significance: accuracy}`` -> the units digit's accuracy, and the mean of every other answer digit's."""
    return digits[0], statistics.mean(a for s, a in digits.items() if s > 0)


def digits_table(board: dict) -> dict[str, dict[str, float]]:
    """Per Abacus model, medians over seeds: the units and the other digits at 5 and 10 digits, the top digit at 7."""
    return {METHODS[m]: {**{f"{w}, {n} dig": x for n in (TRAINED_DIGITS, PER_DIGIT_LENGTH)
                            for w, x in zip(("units", "others"), units_and_rest(digit_medians(m, n)))},
                         f"top digit, {N2} dig": digit_medians(m, N2)[N2]}
            for m in ABACUS + FIXED if m in board["methods"]}


def check(board: dict, live: agenda.Live) -> None:
    """APE models fail past the range, McLeish's IDs miss the units digit, ``abacus_eq`` looped beats 2 layers."""
    agenda.check_mastered(board, live, [*APE, *FIXED])
    agenda.check_fails(live, {m: METHODS[m] for m in APE},
                       "More passes cannot fetch digits from positions the table never trained.")
    for m in ABACUS:
        claim(not agenda.mastered(board, m), f"{METHODS[m]} should not master 1–{TRAINED_DIGITS} digits",
              f"{pct(agenda.median(board, m, TRAINED_DIGITS))} at {TRAINED_DIGITS} digits",
              "Then McLeish's IDs no longer leave the units digit unlearned.")
    far = PER_DIGIT_LENGTH
    units, rest = units_and_rest(live[agenda.method(positions="abacus", looped=True)][far].per_digit)
    claim(units <= 0.3 and rest >= 0.85, f"the looped Abacus model should write every digit but the units at {far} "
          "digits (units <= 30%, the others >= 85% on average)", f"units {pct(units)}, others {pct(rest)}",
          "Its units digit is written from =, which Abacus numbers 0, far from the digits it must read.")
    fixed = live[EQ_LOOPED][TRAINED_DIGITS].per_digit[0]
    claim(fixed >= 0.95, f"with = one below the units, the looped model should write the units digit at "
          f"{TRAINED_DIGITS} digits (>= 95%)", pct(fixed), "= now sits where every other answer digit's query sits.")
    looped, flat = agenda.median(board, EQ_LOOPED, N2), agenda.median(board, EQ_FLAT, N2)
    claim(looped >= flat + 0.2, f"at {N2} digits (and only there, see below) the looped model should beat the "
          "2-layer one with the same IDs by at least 20 points (median over seeds)", f"{pct(looped)} against {pct(flat)}")
    looped8, flat8 = agenda.median(board, EQ_LOOPED, 8), agenda.median(board, EQ_FLAT, 8)
    claim(flat8 > looped8, "at 8 digits the 2-layer model should lead (median), so the gain at "
          f"{N2} is not a general one", f"2 layers {pct(flat8)} against looped {pct(looped8)}",
          "If looping leads at 8 too, the text may generalise the gain further.")
    spans = {m: tuple(board["methods"][m]["lengths"][10][k] for k in ("min", "max"))
             for m in (EQ_LOOPED, EQ_FLAT)}
    (lo_l, hi_l), (lo_f, hi_f) = spans.values()
    claim(lo_l <= hi_f and lo_f <= hi_l, "at 10 digits the seeds' ranges of the looped and the 2-layer models should "
          "overlap (no difference claimed)", f"looped {pct(lo_l)}-{pct(hi_l)}, 2 layers {pct(lo_f)}-{pct(hi_f)}")


def check_digits(board: dict) -> None:
    """Medians over seeds: only ``abacus_eq`` writes the units digit at 5; its weakest at 7 is the final carry."""
    for m in (m for m in ABACUS + FIXED if m in board["methods"]):
        units, rest = units_and_rest(digit_medians(m, TRAINED_DIGITS))
        ok = units >= 0.95 if m in FIXED else units <= 0.5 and rest >= 0.95
        claim(ok, f"{METHODS[m]} should {'write' if m in FIXED else 'miss'} the units digit at {TRAINED_DIGITS} "
              f"digits ({'>= 95%' if m in FIXED else '<= 50%, others >= 95%'})", f"{pct(units)}, others {pct(rest)}")
    for m in (m for m in FIXED if m in board["methods"]):
        d = digit_medians(m, N2)
        claim(min(d, key=d.get) == N2, f"{METHODS[m]}: the top digit (the final carry) should be the weakest at {N2} "
              "digits", f"{pct(d[N2])}, the weakest digit {min(d, key=d.get)} at {pct(min(d.values()))}",
              "Then the next weak spot is elsewhere than the final carry.")

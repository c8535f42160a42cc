"""Notebook 00, the tour: two cached decoders (coupled and APE) on 1-10 digit sums and the cliff between."""
from __future__ import annotations

from collections.abc import Mapping

from ..common.claims import claim
from ..notebook import pct


def check_sum(answer: int, expected: int) -> None:
    """The model's sum of two long numbers is exactly Python's: every digit, the final carry included."""
    want = str(expected)
    if answer == expected:
        claim(True, f"the model's {len(want)}-digit sum should be exactly right (the answer Python gives)",
              f"all {len(want)} digits right")
        return
    if isinstance(answer, int):
        got = str(answer)
        wrong = [k for k in range(max(len(got), len(want))) if (got[::-1][k:k + 1] or "0") != (want[::-1][k:k + 1] or "0")]
        seen = f"{len(wrong)} wrong digit(s), the lowest at significance {wrong[0]} (units: 0)"
    else:
        seen = f"no number ({answer!r})"
    claim(False, f"the model's {len(want)}-digit sum should be exactly right (the answer Python gives)", seen,
          "Then the cached model is not the one the course describes: rebuild it with the printed command.")


def check_live(live: Mapping[tuple[str, int], float], trained: int, long: int, just_past: int) -> None:
    """``live[(model, length)]``: both master the trained length; coupled holds ``long``, APE fails past it."""
    for name in ("coupled", "ape"):
        claim(live[name, trained] >= 0.95, f"the {name} model should master the trained length, {trained} digits "
              "(at least 95% exact match)", pct(live[name, trained]),
              "A model that fails on its own lengths says nothing about longer ones.")
    claim(live["coupled", long] >= 0.95, f"position coupling should add {long}-digit numbers (at least 95%)",
          pct(live["coupled", long]))
    claim(live["ape", just_past] <= 0.05, f"absolute positions should fail at {just_past} digits, just past the "
          "trained length (at most 5%)", pct(live["ape", just_past]),
          "Then the APE model has found a rule that transfers, and the tour's contrast does not hold.")


def check_curves(coupled: Mapping[int, float], ape: Mapping[int, float], trained: int) -> None:
    """The recorded curves: both master ``trained`` digits, coupled keeps 7x and 10x, APE falls at 1.5x."""
    for name, curve in (("coupled", coupled), ("ape", ape)):
        claim(curve[trained] >= 0.95, f"the recorded {name} model should master {trained} digits", pct(curve[trained]))
    for k in (7 * trained, 10 * trained):
        claim(coupled[k] >= 0.95, f"the recorded coupled model should keep at least 95% at {k} digits", pct(coupled[k]))
    past = trained + trained // 2
    claim(ape[past] <= 0.05, f"the recorded APE model should fall to at most 5% at {past} digits", pct(ape[past]),
          "Then the tour's contrast does not hold in the manifest: rebuild or rewrite.")

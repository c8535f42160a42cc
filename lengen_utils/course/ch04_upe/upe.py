"""Notebook 04, sections 1 and 2: Sabbaghi's parallel algorithm (Figure 3a), the multiplier's offsets under RPE,
and eq. 3.3 in code (which vector each query-key pair uses under UPE): measures and their checks."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import product

from ...analysis.complexity import multiplication_levels_distribution
from ...analysis.interpret import VectorTable
from ...core.carries import multiplication_levels
from ..common.claims import claim
from ..notebook import pct


def product_of(levels: Sequence[Sequence[int]]) -> int:
    """The number the last level of the parallel algorithm holds (columns least significant first)."""
    return int("".join(str(v) for v in reversed(levels[-1])))


def check_parallel(levels: Sequence[Sequence[int]], d: int, x: int) -> None:
    """The parallel algorithm's last level is the product, after as many rounds as the library's carry levels."""
    claim(product_of(levels) == d * x, f"the last level should read {d} × {x} = {d * x:,}", f"{product_of(levels):,}",
          "Then a carry went to the wrong column.")
    claim(len(levels) - 1 == multiplication_levels(d, x), f"the rounds of carries should be the "
          f"{multiplication_levels(d, x)} carry levels of `multiplication_levels({d}, {x})`", f"{len(levels) - 1}",
          "Each level moves every carry exactly one column up, all columns at once.")


def hard_share(digits: int, hard: int = 3) -> float:
    """The exact share of ``digits``-digit multiplicands (multiplier 1..9) needing ``hard`` or more carry levels."""
    return float(multiplication_levels_distribution(digits)[hard:].sum())


def check_levels(short: float, long: float) -> None:
    """Longer multiplicands are harder: the long ones need many carry levels at least twice as often."""
    claim(long >= 2 * short, "a long multiplicand should need three or more carry levels at least twice as often as "
          "a short one", f"{pct(long, 2)} against {pct(short, 2)}", "Then length and difficulty are not linked.")


def check_offsets(offset: Mapping[int, int], frame: int) -> None:
    """Under RPE each multiplicand digit s sees the multiplier through its own offset s - l - 1."""
    got = [offset[s] for s in sorted(offset)]
    claim(got == list(range(-(frame + 1), -1)), f"in the frame l = {frame} digit s should see the multiplier at "
          f"offset s - l - 1, from {-(frame + 1)} (units) to -2", str(got), "Else the IDs break eq. 3.2's layout.")


def check_vector_table(pairs: VectorTable) -> None:
    """Eq. 3.3 read off the encoding module: a multiplier digit's column holds c_r, every other cell p_{j-i}."""
    for i, j in product(range(len(pairs.tokens)), repeat=2):
        want = f"c_{{{pairs.slots[j]}}}" if pairs.slots[j] and i != j else f"p_{{{j - i}}}"
        claim(pairs.labels[i][j] == want, f"query {i} should add ${want}$ to key {j} (eq. 3.3: the multiplier digit "
              "of slot r takes c_r from every other query, every other pair p_{j-i})", f"${pairs.labels[i][j]}$")


def used_vectors(pairs: VectorTable) -> list[str]:
    """The distinct vectors one example uses, the c_r first, then p_d by offset."""
    return sorted({v for row in pairs.labels for v in row}, key=lambda v: (v[0], int(v[3:-1])))

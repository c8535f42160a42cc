"""Notebook 04, sections 1 and 2: why multiplication is different (Sabbaghi's parallel algorithm, Figure 3a, and
the multiplier's offsets under RPE) and eq. 3.3 in code (which vector each query-key pair uses under UPE).

Measured numbers come from values the notebook computes and passes in, or from the library's exact
distributions; the paper's claims are quoted as the paper's.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence

from ...core.carries import multiplication_levels
from ..common.claims import claim
from ...analysis.complexity import multiplication_levels_distribution
from ...analysis.interpret import VectorTable
from ..notebook import render_md


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


def parallel_text(levels: Sequence[Sequence[int]], d: int, x: int) -> str:
    """One example of Figure 3a in words: columns, carry levels, the product."""
    return render_md(
        "{d} × {x}: the products fill all {n} columns at once, then **{k} carry levels** make every column a "
        "single digit: {r:,}, which is {d} × {x}. `multiplication_levels({d}, {x})` = {m}.",
        d=d, x=x, n=len(levels[0]) - 1, k=len(levels) - 1, r=product_of(levels), m=multiplication_levels(d, x))


def levels_text(short: int = 5, long: int = 15, hard: int = 3) -> str:
    """How often a multiplicand of ``short`` and of ``long`` digits needs ``hard`` or more carry levels (exact
    distributions, multiplier uniform on 1..9)."""
    p_short = multiplication_levels_distribution(short)[hard:].sum()
    p_long = multiplication_levels_distribution(long)[hard:].sum()
    return render_md(
        "With the multiplier uniform on 1..9 (as in Appendix C.4), a multiplicand of {s} digits needs {h} or more "
        "levels in {ps:pct2} of the problems, one of {l} digits in {pl:pct2}: longer multiplicands are not only "
        "longer, they are harder (the paper's Figure 14 shows the same distributions; notebook 06 has them in full).",
        s=short, l=long, h=hard, ps=p_short, pl=p_long)


def check_offsets(offset: Mapping[int, int], frame: int) -> None:
    """Under RPE each multiplicand digit s sees the multiplier through its own offset s - l - 1."""
    got = [offset[s] for s in sorted(offset)]
    claim(got == list(range(-(frame + 1), -1)), f"in the frame l = {frame} digit s should see the multiplier at "
          f"offset s - l - 1, from {-(frame + 1)} (units) to -2", f"{got}",
          "Then the position IDs do not follow eq. 3.2's layout.")


def offsets_text(offset: Mapping[int, int], frame: int, trained: int) -> str:
    """Which of the multiplier's offsets training uses, and which a longer multiplicand needs."""
    return render_md(
        "In the frame $l = {L}$, the multiplier sits at offset {o0} from the units digit and at {o4} from digit "
        "{s4} (the top digit of a {t}-digit multiplicand), so training on at most {t} digits uses the offsets "
        "{o0} to {o4} with a digit as the query. A {n}-digit multiplicand also needs {o5} to {on}: RPE has vectors "
        "for them, but in training those offsets only ever separated the multiplier from a `pad`. UPE replaces all "
        "of them by one vector $c_1$.", L=frame, o0=offset[0], o4=offset[trained - 1], s4=trained - 1, t=trained,
        n=frame - 1, o5=offset[trained], on=offset[frame - 2])


def check_vector_table(pairs: VectorTable) -> None:
    """Eq. 3.3 read off the encoding module: a multiplier digit's column holds its c_r for every other query, and
    every other cell holds p_{j-i}."""
    T = len(pairs.tokens)
    for i in range(T):
        for j in range(T):
            want = f"c_{{{pairs.slots[j]}}}" if pairs.slots[j] and i != j else f"p_{{{j - i}}}"
            claim(pairs.labels[i][j] == want, f"query {i} should add ${want}$ to key {j} (eq. 3.3: the multiplier "
                  "digit of slot r takes c_r from every other query, every other pair p_{j-i})",
                  f"${pairs.labels[i][j]}$")


def vector_text(pairs: VectorTable) -> str:
    """How to read the table of eq. 3.3, and how many distinct vectors one example uses."""
    used = sorted({v for row in pairs.labels for v in row}, key=lambda v: (v[0], int(v[3:-1])))
    return render_md(
        "Read the table by columns and by diagonals. The two **orange columns** are the multiplier's digits: "
        "every query reads the units digit `6` through $c_1$ and the tens digit `5` through $c_2$, wherever the "
        "query sits (only a token looking at itself uses $p_0$). Everywhere else one **diagonal** is one vector "
        "$p_{{j-i}}$: the translation symmetry of RPE. This example uses {n} distinct vectors: {used}.",
        n=len(used), used=", ".join(f"${v}$" for v in used))


__all__ = ["check_offsets", "check_parallel", "check_vector_table", "levels_text", "offsets_text", "parallel_text",
           "product_of", "vector_text"]

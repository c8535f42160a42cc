"""Notebook 07, sections 2 and 3: Cho et al.'s Proposition 5.2 and Theorem 5.1, and a trained model's heads."""
from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..common.claims import claim
from ..common.paper_claims import ClaimRow


def check_nope_bound(bounds: Mapping, brute2) -> list[ClaimRow]:
    """Proposition 5.2: the fast count equals brute force, and the bounds round to the paper's values."""
    claim(brute2 == bounds[2].exact, "the fast count should equal brute force over all 8,100 queries at m = 2",
          f"{bounds[2].exact} against {brute2}")
    claim(round(bounds[3].em, 3) == 0.062, "the best NoPE exact match at m = 3 should round to the paper's 6.2%",
          f"{bounds[3].em:.3%}")
    claim(round(bounds[4].em, 2) == 0.01, "the best NoPE exact match at m = 4 should round to the paper's 1%",
          f"{bounds[4].em:.3%}")
    claim(abs(bounds[5].em - 0.0013) < 0.0001, "the best NoPE exact match at m = 5 should be within 0.01 points of "
          "the paper's 0.13%", f"{bounds[5].em:.3%}")
    return [ClaimRow("Prop 5.2: best NoPE EM, 3 digits", "6.2%", f"{bounds[3].em:.2%}",
                     "exact count, m-digit operands, ordered pairs (live)"),
            ClaimRow("Prop 5.2: best NoPE EM, 4 digits", "1%", f"{bounds[4].em:.3%}", "exact count (live)"),
            ClaimRow("Prop 5.2: best NoPE EM, 5 digits", "0.13%", f"{bounds[5].em:.3%}",
                     "exact count (cached; rerun with use_cache=False)")]


def check_accounting(bounds: Mapping, padded3: float) -> None:
    """Where the counts part from the paper: m = 5 rounds to 0.12%, the other reading misses 6.2%."""
    claim(round(bounds[5].em, 4) == 0.0012, "the exact count at m = 5 should round to 0.12%, one unit below the "
          "paper's 0.13%", f"{bounds[5].em:.3%}", "If it rounds to 0.13% now, the honest accounting has no gap to report.")
    claim(round(padded3, 3) != 0.062, "the other reading (operands uniform on 0..999) should not give the paper's 6.2% "
          "at m = 3", f"{padded3:.3%}", "Then that reading fits the paper as well, and the choice needs another reason.")


def check_adder(em: float, greedy: Sequence[bool], agree: bool, n: int, d: int) -> list[ClaimRow]:
    """Theorem 5.1: the hand-built adder gets every sampled long sum right, teacher-forced and greedy alike."""
    claim(em == 1.0, f"the hand-built adder should add all {n:,} random 100-digit sums (teacher-forced)",
          f"exact match {em:.3f}", "A wrong weight in the construction; see `constructions?`.")
    claim(all(greedy) and agree, "greedy decoding should get the subset right and agree with teacher forcing "
          "example by example", f"{sum(greedy)} of {len(greedy)} right, agreement {agree}")
    return [ClaimRow("Thm 5.1: a 1-layer 2-head coupled decoder adds long numbers", "existence (construction)",
                     f"EM {em:.3f} on {n:,} random 100-digit sums (d = {d})",
                     "hand-built weights, teacher-forced; greedy = teacher-forced on 30")]


def check_limit(limit: int, em: float, refused: bool, cho_bound: float, d: int, expected: int) -> list[ClaimRow]:
    """The adder reaches its longest operands (``expected`` digits) exactly, and one digit more is refused."""
    claim(limit == expected, f"with these position bits the longest operands should have {expected} digits",
          str(limit))
    claim(em == 1.0, f"the adder should add {limit}-digit operands exactly", f"exact match {em:.3f}")
    claim(refused, f"a {limit + 1}-digit operand should be refused with PositionRangeError", "no error")
    return [ClaimRow("Thm 5.1: operand length exponential in d", f"2^((d-17)/2) - 2 = {cho_bound:.0f} at d = {d}",
                     f"{limit} = 2^((d-18)/2) - 3 (EM {em:.2f}); {limit + 1} refused",
                     "our bit encoding of coupled IDs, d = 2n + 18")]


def check_two_heads(below, same) -> list[ClaimRow]:
    """Figure 7: the trained model splits into a digit-sum head (ID p - 1) and a carry head (ID p)."""
    sum_head = max(range(len(below)), key=lambda h: below[h])
    carry_head = max(range(len(same)), key=lambda h: same[h])
    claim(sum_head != carry_head, "the trained model's digit-sum head and carry head should be different heads",
          f"head {sum_head} for both")
    claim(below[sum_head] > 0.8, "the digit-sum head should put more than 80% of its attention on ID p − 1",
          f"{below[sum_head]:.3f}")
    claim(same[carry_head] > 0.6, "the carry head should put more than 60% of its attention on ID p",
          f"{same[carry_head]:.3f}")
    return [ClaimRow("Fig. 7: trained 1-layer 2-head model splits into a digit-sum head and a carry head",
                     "qualitative (heatmaps)", f"head {sum_head}: {below[sum_head]:.2f} of attention on ID p-1; "
                     f"head {carry_head}: {same[carry_head]:.2f} on ID p",
                     "`mean_attention` over 6-digit sums, zoo model nb07-coupled-1l2h")]

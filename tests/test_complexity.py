"""Tests for lengen_utils.analysis.complexity: cascades of carries and multiplication carry levels (Sabbaghi et al.)."""
from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lengen_utils.core.carries import cascade_lengths_from_sums
from lengen_utils.analysis.complexity import (
    brute_force_cascade_distribution,
    brute_force_multiplication_levels_distribution,
    carry_propagation_levels,
    cascade_length,
    cascade_length_distribution,
    digit_sums,
    longest_carry_run,
    monte_carlo_cascade_distribution,
    multiplication_levels,
    multiplication_levels_distribution,
    sample_by_cascade_length,
    sample_mixed_complexity,
    sample_uniform_over_complexity,
)
from lengen_utils.analysis.complexity import addition as addition_dp
from lengen_utils.core.complexity import _completions
from lengen_utils.core.problems import Problem, ProblemError

# ---------------------------------------------------------------------------------------------------
# Golden examples, worked by hand. Digit sums are listed least significant first;
# G = generate (>= 10), P = propagate (== 9), K = kill (<= 8).
# ---------------------------------------------------------------------------------------------------

ADDITION_GOLDEN = [
    # (a, b, cascade, longest carry run, why)
    (0, 0, 0, 0, "no carry at all"),
    (123, 456, 0, 0, "sums 9,7,5 -> the 9 at the bottom is not triggered"),
    (9, 90, 0, 0, "sums 9,9: a run of 9-sums with no carry below is no cascade"),
    (5, 5, 1, 1, "sums 10: one generating position, cascade of length 1 (trigger counted)"),
    (55, 55, 1, 2, "sums 10,10: two independent generators; 2 consecutive carries but cascade 1"),
    (99, 1, 2, 2, "sums 10,9: G then one P"),
    (19, 81, 2, 2, "sums 10,9 -> 100"),
    (999, 1, 3, 3, "sums 10,9,9 -> 1000"),
    (1999, 1, 3, 3, "sums 10,9,9,1: the carry lands on the 1 (kill), cascade G P P"),
    (909, 91, 3, 3, "sums 10,9,9 -> 1000"),
    (4950, 5050, 3, 3, "sums 0,10,9,9 -> 10000"),
    (9999, 1, 4, 4, "sums 10,9,9,9 -> 10000"),
    (9_090_999, 1, 3, 3, "sums 10,9,9,0,9,0,9: the 0 kills the cascade; the later 9-sums are not triggered"),
]


def _from_sums(sums_lsb_first: list[int]) -> tuple[int, int]:
    """Operands whose column sums are the given list (least significant first)."""
    a = b = 0
    for i, s in enumerate(sums_lsb_first):
        x = min(s, 9)
        a += x * 10**i
        b += (s - x) * 10**i
    return a, b


SUMS_GOLDEN = [
    # (column sums, least significant first, cascade, longest carry run)
    ([10, 9, 5, 10, 9, 9, 9], 4, 4),  # two cascades, lengths 2 and 4
    ([10, 9, 9, 10, 9], 3, 5),  # G P P then a new G P: cascades 3 and 2, five carries in a row
    ([9, 9, 10, 8, 9], 1, 1),  # untriggered 9s below; the 8 absorbs the carry (8 + 1 = 9, no carry)
    ([18, 18, 18], 1, 3),  # every position generates on its own
    ([10, 9, 9, 9, 9, 9, 9, 9, 9, 9], 10, 10),  # maximal cascade over 10 positions
    ([0, 0, 0, 0], 0, 0),
]


@pytest.mark.parametrize("a,b,cascade,run,why", ADDITION_GOLDEN)
def test_addition_golden_examples(a: int, b: int, cascade: int, run: int, why: str) -> None:
    assert cascade_length(a, b) == cascade, why
    assert longest_carry_run(a, b) == run, why
    assert carry_propagation_levels(digit_sums(a, b)) == cascade, why


@pytest.mark.parametrize("sums,cascade,run", SUMS_GOLDEN)
def test_golden_examples_from_column_sums(sums: list[int], cascade: int, run: int) -> None:
    a, b = _from_sums(sums)
    assert digit_sums(a, b, len(sums)) == sums
    assert cascade_length(a, b, len(sums)) == cascade
    assert longest_carry_run(a, b) == run
    assert carry_propagation_levels(sums) == cascade


def test_padding_does_not_change_cascade_and_short_length_is_an_error() -> None:
    assert cascade_length(1999, 1, length=10) == cascade_length(1999, 1) == 3
    with pytest.raises(ProblemError, match="shorter than the operands"):
        cascade_length(1999, 1, length=3)
    with pytest.raises(ProblemError):
        cascade_length(-1, 3)


@settings(max_examples=30, deadline=None)
@given(a=st.integers(0, 10**40), b=st.integers(0, 10**40))
def test_cascade_is_number_of_levels_of_parallel_addition(a: int, b: int) -> None:
    """Figure 1: the parallel carry algorithm needs exactly `cascade_length` levels; a cascade is a run of
    carries, so it never exceeds the longest run of consecutive carries (C1)."""
    c = cascade_length(a, b)
    assert carry_propagation_levels(digit_sums(a, b)) == c
    assert c <= longest_carry_run(a, b)


def test_vectorised_cascade_matches_scalar_definition_on_all_two_digit_pairs() -> None:
    pairs = [(a, b) for a in range(100) for b in range(100)]
    sums = np.array([digit_sums(a, b, 2) for a, b in pairs])
    expected = [cascade_length(a, b) for a, b in pairs]
    assert cascade_lengths_from_sums(sums).tolist() == expected


# ---------------------------------------------------------------------------------------------------
# Exact distribution of the cascade length
# ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("length", [1, 2, 3])
def test_dp_equals_brute_force(length: int) -> None:
    exact = cascade_length_distribution(length, exact=True)
    assert list(exact) == list(brute_force_cascade_distribution(length, exact=True))
    assert sum(exact) == 1
    floats = cascade_length_distribution(length)
    assert np.max(np.abs(floats - brute_force_cascade_distribution(length))) < 1e-12


def test_dp_hand_computed_five_digits() -> None:
    """Length 5 = G then four 9-sums: 0.45 * 0.1**4. Length 4: G at position 0, P at 1..3 and no P at 4
    (0.45 * 0.1**3 * 0.9), or G at position 1 and P at 2..4 (0.45 * 0.1**3, anything at position 0)."""
    exact = cascade_length_distribution(5, exact=True)
    assert exact[5] == Fraction(45, 100) * Fraction(1, 10) ** 4
    assert exact[4] == Fraction(45, 100) * Fraction(1, 10) ** 3 * (Fraction(9, 10) + 1) == Fraction(171, 200_000)
    assert exact[0] == (1 - Fraction(45, 100)) ** 5  # no generating position anywhere


def test_dp_matches_monte_carlo_at_20_digits() -> None:
    n, length = 20_000, 20
    p = cascade_length_distribution(length)
    q = monte_carlo_cascade_distribution(np.random.default_rng(12345), length, n)
    se = np.sqrt(p * (1 - p) / n) + 1e-12
    assert np.all(np.abs(q - p) <= 5 * se + 1.0 / n)
    assert q.sum() == pytest.approx(1.0)


def _max_cascade_cdf(length: int, k: int) -> float:
    """P(maximum cascade <= k) by an independent method: a transfer matrix over the current cascade
    length r = 0..k (generate 0.45 -> 1, propagate 0.10 -> r + 1 inside a cascade, kill 0.45 -> 0)."""
    T = np.zeros((k + 1, k + 1))
    for r in range(k + 1):
        T[r, 0] += 0.45 + (0.10 if r == 0 else 0.0)
        if k >= 1:
            T[r, 1] += 0.45
        if 0 < r < k:
            T[r, r + 1] += 0.10
    v = np.zeros(k + 1)
    v[0] = 1.0
    for _ in range(length):
        v = v @ T
    return float(v.sum())


def test_dp_at_200_digits_matches_a_transfer_matrix_and_is_linear_in_length(monkeypatch) -> None:
    """Replaces a wall-clock bound (flaky on a shared machine) by a count of DP steps: the forward DP
    takes one vectorised step per digit position, so its cost at 200 digits is 200 table updates."""
    steps = []
    triu = np.triu

    def counting_triu(*args, **kwargs):
        steps.append(1)
        return triu(*args, **kwargs)

    monkeypatch.setattr(addition_dp.np, "triu", counting_triu)
    p = cascade_length_distribution(200)
    monkeypatch.undo()
    assert len(steps) == 200
    assert p.shape == (201,)
    assert p.sum() == pytest.approx(1.0, abs=1e-12)
    assert np.all(p >= 0)
    assert p[200] == pytest.approx(0.45 * 0.1**199, rel=1e-9)
    for k in range(9):
        assert p[: k + 1].sum() == pytest.approx(_max_cascade_cdf(200, k), abs=1e-12), k


def test_float_dp_equals_exact_dp_at_60_digits() -> None:
    exact = cascade_length_distribution(60, exact=True)
    assert sum(exact) == 1
    assert np.max(np.abs(cascade_length_distribution(60) - np.array([float(x) for x in exact]))) < 1e-13


def test_paper_numbers_for_addition() -> None:
    """Sabbaghi Appendix C.4: cascades up to length 4 cover 0.998 for 50-digit sums; P(length 4) is
    roughly 8.3e-4 for 5-digit sums (our exact value 8.55e-4 is within 3%, consistent with sampling)."""
    p50 = cascade_length_distribution(50)
    assert 0.997 <= p50[:5].sum() <= 0.999
    p5 = cascade_length_distribution(5)
    assert p5[4] == pytest.approx(8.3e-4, rel=0.10)
    assert len(p5) == 6 and p5[5] > 0  # 5-digit training data reaches cascades "of length up to 5"


# ---------------------------------------------------------------------------------------------------
# Sampling by complexity
# ---------------------------------------------------------------------------------------------------


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), max_digits=st.integers(1, 30), data=st.data())
def test_sampler_gives_exactly_the_requested_cascade(seed: int, max_digits: int, data: st.DataObject) -> None:
    cascade = data.draw(st.integers(0, max_digits))
    problems = sample_by_cascade_length(np.random.default_rng(seed), max_digits, cascade, 5)
    assert len(problems) == 5
    for p in problems:
        assert isinstance(p, Problem) and p.op == "+"
        assert 0 <= p.a < 10**max_digits and 0 <= p.b < 10**max_digits
        assert cascade_length(p.a, p.b, max_digits) == cascade


def test_sampler_counts_match_exact_distribution() -> None:
    """The backward table of the sampler counts exactly the pairs with each cascade length."""
    for max_digits in (1, 2, 3, 6):
        p = cascade_length_distribution(max_digits, exact=True)
        for cascade in range(max_digits + 1):
            start = _completions(max_digits, cascade)[0][0 * 2 + (cascade == 0)]
            assert Fraction(start, 100**max_digits) == p[cascade]


def test_sampler_is_uniform_on_the_conditional_set() -> None:
    """All pairs with 2 digits and cascade 1 must be equally likely: chi-square over every one of them."""
    pairs = [(a, b) for a in range(100) for b in range(100) if cascade_length(a, b) == 1]
    index = {pair: i for i, pair in enumerate(pairs)}
    n = 10 * len(pairs)
    counts = np.zeros(len(pairs))
    for p in sample_by_cascade_length(np.random.default_rng(7), 2, 1, n):
        counts[index[(p.a, p.b)]] += 1
    expected = n / len(pairs)
    chi2 = float(((counts - expected) ** 2 / expected).sum())
    dof = len(pairs) - 1
    assert abs(chi2 - dof) < 5 * np.sqrt(2 * dof)


@pytest.mark.parametrize("cascade", [-1, 6, 100])
def test_impossible_cascade_is_a_clear_error(cascade: int) -> None:
    with pytest.raises(ValueError, match=r"feasible cascade lengths are 0\.\.5"):
        sample_by_cascade_length(np.random.default_rng(0), 5, cascade, 3)


def test_sampler_handles_long_sums_and_rare_levels() -> None:
    rng = np.random.default_rng(3)
    for p in sample_by_cascade_length(rng, 200, 150, 3):  # probability ~1e-150 under uniform sampling
        assert cascade_length(p.a, p.b) == 150


def test_uniform_over_complexity_covers_all_levels_evenly() -> None:
    max_digits, n = 5, 1200
    problems = sample_uniform_over_complexity(np.random.default_rng(11), max_digits, n)
    levels = np.bincount([cascade_length(p.a, p.b) for p in problems], minlength=max_digits + 1)
    assert len(levels) == max_digits + 1
    expected = n / (max_digits + 1)
    assert np.all(np.abs(levels - expected) < 5 * np.sqrt(expected))
    assert all(p.a < 10**max_digits and p.b < 10**max_digits for p in problems)


def test_mixed_complexity_is_a_mixture() -> None:
    max_digits, n = 5, 2000
    problems = sample_mixed_complexity(np.random.default_rng(5), max_digits, n)
    assert len(problems) == n
    levels = np.bincount([cascade_length(p.a, p.b) for p in problems], minlength=max_digits + 1)
    target = 0.5 * cascade_length_distribution(max_digits) + 0.5 / (max_digits + 1)
    se = np.sqrt(target * (1 - target) / n)
    assert np.all(np.abs(levels / n - target) < 5 * se)
    all_uniform = sample_mixed_complexity(np.random.default_rng(5), 3, 50, p_uniform=1.0)
    assert all(p.a < 1000 and p.b < 1000 for p in all_uniform)
    with pytest.raises(ValueError):
        sample_mixed_complexity(np.random.default_rng(5), 3, 5, p_uniform=1.5)


# ---------------------------------------------------------------------------------------------------
# Single-digit multiplier
# ---------------------------------------------------------------------------------------------------

MULTIPLICATION_GOLDEN = [
    # (multiplier digit, multiplicand, levels, trace least significant first)
    (1, 987654321, 0, "products are digits: nothing to propagate"),
    (2, 1234, 0, "products 8,6,4,2"),
    (2, 5, 1, "products (10, 0) -> (0, 1)"),
    (5, 19, 1, "products (45, 5, 0) -> (5, 9, 0): the carry 4 fits"),
    (9, 99, 1, "products (81, 81, 0) -> (1, 9, 8)"),
    (9, 19, 2, "products (81, 9, 0) -> (1, 17, 0) -> (1, 7, 1) = 171"),
    (9, 119, 3, "products (81, 9, 9, 0) -> (1, 17, 9, 0) -> (1, 7, 10, 0) -> (1, 7, 0, 1) = 1071"),
    (0, 999, 0, "multiplier 0"),
]


@pytest.mark.parametrize("d,x,levels,trace", MULTIPLICATION_GOLDEN)
def test_multiplication_golden_examples(d: int, x: int, levels: int, trace: str) -> None:
    assert multiplication_levels(d, x) == levels, trace


@settings(max_examples=30, deadline=None)
@given(d=st.integers(0, 9), x=st.integers(0, 10**30))
def test_multiplication_levels_structure(d: int, x: int) -> None:
    """After the first level every column is <= 17, so the rest is an addition cascade on those columns."""
    digits = [int(ch) for ch in reversed(str(x))] + [0]
    if all(d * xi < 10 for xi in digits):
        expected = 0
    else:
        u = [d * xi % 10 + (d * digits[i - 1] // 10 if i else 0) for i, xi in enumerate(digits)]
        assert max(u) <= 17
        expected = 1 + carry_propagation_levels(u)
    assert multiplication_levels(d, x) == expected


@pytest.mark.parametrize("length", [1, 2, 3, 4])
def test_multiplication_dp_equals_brute_force(length: int) -> None:
    exact = multiplication_levels_distribution(length, exact=True)
    assert list(exact) == list(brute_force_multiplication_levels_distribution(length, exact=True))
    assert sum(exact) == 1
    for digits in ([7], [0, 3]):
        assert list(multiplication_levels_distribution(length, digits, exact=True)) == list(
            brute_force_multiplication_levels_distribution(length, digits, exact=True))


def test_multiplication_brute_force_uses_the_scalar_definition() -> None:
    counts = np.zeros(4)
    for x in range(1000):
        for d in range(1, 10):
            counts[multiplication_levels(d, x)] += 1
    assert np.allclose(counts / 9000, brute_force_multiplication_levels_distribution(3))


def test_paper_numbers_for_multiplication() -> None:
    """Appendix C.4, Figure 14 (multiplier uniform on 1..9): levels <= 4 cover 99.8% for 20-digit
    multiplicands; P(levels = 4) = 1.9e-3 for 5-digit multiplicands (reproduced exactly)."""
    p5 = multiplication_levels_distribution(5)
    assert np.max(np.abs(p5 - brute_force_multiplication_levels_distribution(5))) < 1e-12
    assert p5[4] == pytest.approx(1.9e-3, rel=1e-9)
    assert multiplication_levels_distribution(5, exact=True)[4] == Fraction(19, 10_000)
    p20 = multiplication_levels_distribution(20)
    assert p20.sum() == pytest.approx(1.0)
    assert p20[:5].sum() == pytest.approx(0.998, abs=1e-3)


def test_multiplication_argument_errors() -> None:
    with pytest.raises(ProblemError):
        multiplication_levels(10, 5)
    with pytest.raises(ProblemError):
        multiplication_levels(3, -5)
    with pytest.raises(ProblemError):
        multiplication_levels_distribution(3, [])

"""The expected answer of notebook 07's check() exercise on position bits comes from its solutions module."""
from lengen_utils.analysis.constructions import max_operand_digits
from lengen_utils.course.ch07_theory import solutions


def test_position_bits_for_is_the_smallest_n_whose_construction_reaches_the_digits():
    for digits in (1, 5, 29, 30, 1000, 10**6):
        n = solutions.position_bits_for(digits)
        assert max_operand_digits(n) >= digits and (n == 1 or max_operand_digits(n - 1) < digits)


def test_same_multiset_pairs_counts_the_orderings_of_four_distinct_digits():
    count, summing = solutions.same_multiset_pairs((1, 2, 3, 4), 46)
    assert count == 24                                   # 4! orderings of distinct digits, each a distinct pair
    brute = [(a, b) for a in range(10, 100) for b in range(10, 100) if sorted(f"{a}{b}") == list("1234")]
    assert (count, summing) == (len(brute), sum(a + b == 46 for a, b in brute))

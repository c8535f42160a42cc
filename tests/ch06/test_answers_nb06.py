"""The expected answer of notebook 06's check() exercise on cascades comes from its solutions module."""
from lengen_utils.analysis.complexity.addition import cascade_length_distribution
from lengen_utils.course.ch06_complexity import solutions


def test_sums_for_cascades_divides_by_the_library_probability():
    expected = 1000 / float(cascade_length_distribution(5)[5])
    assert abs(solutions.sums_for_cascades(1000, 5, 5) - expected) < 1e-6 * expected



def test_exact_multiplier_has_no_leading_zero_and_covers_its_range():
    """Sabbaghi et al. draw a 1-digit multiplier from 1..9; `multiplier_exact` does that (and 100..999 for 3)."""
    import numpy as np
    from lengen_utils.core.problems import random_multiplier, sample_balanced, sample_exact_length
    rng = np.random.default_rng(0)
    ones = {random_multiplier(rng, 1, exact=True) for _ in range(500)}
    assert ones == set(range(1, 10))
    threes = [random_multiplier(rng, 3, exact=True) for _ in range(500)]
    assert min(threes) >= 100 and max(threes) <= 999
    assert 0 in {random_multiplier(rng, 1) for _ in range(500)}          # default keeps 0..9 (Cho's N x 2)
    for probs in (sample_balanced(rng, 5, 300, "*", 1, multiplier_exact=True),
                  sample_exact_length(rng, 7, 300, "*", 1, multiplier_exact=True)):
        assert {p.b for p in probs} == set(range(1, 10))


def test_multiplier_exact_needs_a_multiplier_width():
    import pytest
    from lengen_utils.core.tasks import ConfigError, TaskConfig
    with pytest.raises(ConfigError, match="multiplier_exact=True needs multiplier_digits"):
        TaskConfig(op="*", format="sabbaghi", positions="consecutive", max_digits=3, frame_width=8,
                   random_start=False, max_position=20, multiplier_exact=True)

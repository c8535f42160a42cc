"""The expected answers of notebook 03's check() exercises come from its solutions module: checked here against
Sabbaghi's frame as the library writes it, not against the same formula."""
from lengen_utils.core.formats import encode
from lengen_utils.core.problems import Problem
from lengen_utils.course.ch03_rpe import solutions


def test_the_drop_sits_at_the_frame_width():
    assert solutions.drop_length(30) == 30 and solutions.drop_length(22) == 22


def test_same_significance_offset_matches_the_frame_positions():
    for l in (5, 22, 30):
        ex = encode(Problem(123, 4567), "sabbaghi", frame_width=l)
        for s in range(l):
            a_at = next(i for i, (r, g) in enumerate(zip(ex.roles, ex.significance)) if r == "a" and g == s)
            b_at = next(i for i, (r, g) in enumerate(zip(ex.roles, ex.significance)) if r == "b" and g == s)
            assert a_at - b_at == solutions.same_significance_offset(l)    # key (a) minus query (b)

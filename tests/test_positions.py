"""Position IDs: Cho et al.'s Figure 2, coupling invariants, Abacus, and range errors."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lengen_utils.formats import encode
from lengen_utils.positions import PositionRangeError, PositionScheme, abacus_ids, consecutive_ids, coupled_ids
from lengen_utils.problems import Problem


def test_cho_figure_2_ids():
    # $653+049=2070$ with the operands' digits at 6, 7, 8 and '+', '=' at 9 (Cho et al. Figure 2)
    ex = encode(Problem(653, 49), "cho")
    assert coupled_ids(ex, start=5) == [0, 6, 7, 8, 9, 6, 7, 8, 9, 8, 7, 6, 5, 0]


def test_cho_n_by_2_coupling():
    # 1234*56 at evaluation start 1: IDs 3 4 5 6 | 7 | 5 6 | 7 | 6 5 4 3 2 1
    ex = encode(Problem(1234, 56, "*"), "cho", multiplier_digits=2)
    assert coupled_ids(ex, start=1) == [0, 3, 4, 5, 6, 7, 5, 6, 7, 6, 5, 4, 3, 2, 1, 0]


def test_abacus_runs():
    ex = encode(Problem(356, 94), "reversed")   # 356+94=054
    assert abacus_ids(ex) == [1, 2, 3, 0, 1, 2, 0, 1, 2, 3]
    assert abacus_ids(ex, start=49)[:4] == [50, 51, 52, 0]


def test_consecutive_with_start():
    ex = encode(Problem(1, 2), "plain")
    assert consecutive_ids(ex, 7) == list(range(7, 7 + len(ex)))


@settings(max_examples=200, deadline=None)
@given(a=st.integers(0, 10**40), b=st.integers(0, 10**40), start=st.integers(1, 50))
def test_equal_significance_shares_an_id(a, b, start):
    ex = encode(Problem(a, b), "cho")
    ids = coupled_ids(ex, start)
    by_sig: dict[int, set[int]] = {}
    for role, sig, pid in zip(ex.roles, ex.significance, ids):
        if sig is not None:
            by_sig.setdefault(sig, set()).add(pid)
    assert all(len(v) == 1 for v in by_sig.values())              # one ID per significance
    assert len({next(iter(v)) for v in by_sig.values()}) == len(by_sig)  # different significance, different ID
    op_ids = {pid for role, pid in zip(ex.roles, ids) if role in ("op", "eq")}
    assert op_ids == {max(ids)}                                     # '+' and '=' share the top ID
    assert ids[0] == ids[-1] == 0                                   # '$' gets 0


def test_random_start_stays_in_range_and_varies():
    scheme = PositionScheme("coupled", random_start=True, max_position=40)
    ex = encode(Problem(12345, 678), "cho")
    rng = np.random.default_rng(0)
    tops = {max(scheme.assign(ex, rng)) for _ in range(300)}
    assert max(tops) <= 40 and len(tops) > 20
    assert scheme.assign(ex) == coupled_ids(ex, 1)                  # evaluation: fixed start 1


def test_too_long_for_the_table_is_a_clear_error():
    scheme = PositionScheme("coupled", max_position=12)
    with pytest.raises(PositionRangeError, match="max_position=12"):
        scheme.assign(encode(Problem(10**20, 1), "cho"))


def test_unknown_scheme():
    with pytest.raises(ValueError, match="unknown position scheme"):
        PositionScheme("zigzag")

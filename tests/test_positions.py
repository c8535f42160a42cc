"""Position IDs: Cho et al.'s Figure 2, coupling invariants, Abacus, and range errors."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lengen_utils.core.formats import encode
from lengen_utils.core.positions import (PositionRangeError, PositionScheme, abacus_ids, consecutive_ids, coupled_ids,
                                   coupled_sink_ids, uniform_slots)
from lengen_utils.core.problems import Problem


def test_cho_figure_2_ids():
    # $653+049=2070$ (Cho et al. Figure 2, start 5): digits 6 5 3 at 6 7 8, so the units digits hold the
    # top digit ID 8; "+" and "=" sit one past it, at 9 (not next to the most significant digit)
    ex = encode(Problem(653, 49), "cho")
    assert coupled_ids(ex, start=5) == [0, 6, 7, 8, 9, 6, 7, 8, 9, 8, 7, 6, 5, 0]


def test_cho_n_by_2_coupling():
    # 1234*56 at evaluation start 1: IDs 3 4 5 6 | 7 | 5 6 | 7 | 6 5 4 3 2 1
    ex = encode(Problem(1234, 56, "*"), "cho", multiplier_digits=2)
    assert coupled_ids(ex, start=1) == [0, 3, 4, 5, 6, 7, 5, 6, 7, 6, 5, 4, 3, 2, 1, 0]


def test_abacus_golden_cho():
    # Worked by hand. $653+049=2070$: the answer 0702 is written reversed (units first). McLeish et al.
    # index every number from its least significant digit, so the units digits 3 (a), 9 (b) and 2
    # (answer) all get 1, the tens 5, 4, 0 get 2, the hundreds 6, 0, 7 get 3, the answer's thousands 4.
    #          $  6  5  3  +  0  4  9  =  2  0  7  0  $
    golden = [0, 3, 2, 1, 0, 3, 2, 1, 0, 1, 2, 3, 4, 0]
    ex = encode(Problem(653, 49), "cho")
    assert abacus_ids(ex) == golden
    assert abacus_ids(ex, start=49) == [0 if g == 0 else g + 49 for g in golden]   # the random offset


def test_abacus_golden_unpadded_and_forward():
    # 356+94=054 (reversed answer, no padding): 3 5 6 -> 3 2 1; 9 4 -> 2 1; answer 0 5 4 (units first) -> 1 2 3
    assert abacus_ids(encode(Problem(356, 94), "reversed")) == [3, 2, 1, 0, 2, 1, 0, 1, 2, 3]
    # plain: 653+49=702, every number forwards: 3 2 1 | 2 1 | 3 2 1
    assert abacus_ids(encode(Problem(653, 49), "plain")) == [3, 2, 1, 0, 2, 1, 0, 3, 2, 1]


@settings(max_examples=100, deadline=None)
@given(a=st.integers(0, 10**30), b=st.integers(0, 10**30), fmt=st.sampled_from(["plain", "reversed", "padded", "cho"]))
def test_abacus_id_is_significance_plus_one(a, b, fmt):
    ex = encode(Problem(a, b), fmt)
    for role, sig, pid in zip(ex.roles, ex.significance, abacus_ids(ex)):
        assert pid == (sig + 1 if role in ("a", "b", "answer") else 0)


def test_uniform_slots_golden():
    # Sabbaghi eq. 3.2: 56 x 4297 in a frame of l = 6 is  5 6 * pad pad 4 2 9 7 (multiplier unpadded).
    # Slots by significance: the units digit 6 gets c_1, the tens digit 5 gets c_2.
    ex = encode(Problem(4297, 56, "*"), "sabbaghi", frame_width=6)
    assert uniform_slots(ex) == [2, 1, 0, 0, 0, 0, 0, 0, 0]
    # a 1-digit multiplier is a units digit too: 7 x 4297 -> the 7 gets c_1, like the 6 above
    assert uniform_slots(encode(Problem(4297, 7, "*"), "sabbaghi", frame_width=6)) == [1] + [0] * 7
    # Cho's N x 2 decoder format pads the multiplier: $1234*05=...$ -> 0 (tens) gets c_2, 5 gets c_1
    ex = encode(Problem(1234, 5, "*"), "cho", multiplier_digits=2)
    assert uniform_slots(ex)[6:8] == [2, 1] and sum(uniform_slots(ex)) == 3
    assert uniform_slots(encode(Problem(12, 34), "cho")) == [0] * len(encode(Problem(12, 34), "cho"))


@settings(max_examples=100, deadline=None)
@given(a=st.integers(0, 10**12), b=st.integers(0, 999))
def test_uniform_slot_means_one_significance(a, b):
    ex = encode(Problem(a, b, "*"), "sabbaghi", frame_width=13)
    slots = uniform_slots(ex)
    for role, sig, slot in zip(ex.roles, ex.significance, slots):
        assert slot == (sig + 1 if role == "b" else 0)


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
    assert op_ids == {max(ids)}                                     # '+' and '=' share the top ID...
    assert max(ids) == by_sig[0].pop() + 1                          # ...one past the units digits' ID
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


def test_coupled_sink_golden_and_equal_to_cho_at_evaluation():
    # $653+049=2070$ at s = 4: '$' gets the start, every other token its coupled ID from s + 1
    ex = encode(Problem(653, 49), "cho")
    assert coupled_sink_ids(ex, 4) == [4, 6, 7, 8, 9, 6, 7, 8, 9, 8, 7, 6, 5, 4]
    sink = PositionScheme("coupled_sink", random_start=True, max_position=64)
    assert sink.assign(ex) == coupled_ids(ex, 1)                    # evaluation: Cho's IDs at start 1


@settings(max_examples=100, deadline=None)
@given(a=st.integers(0, 10**30), b=st.integers(0, 10**30), seed=st.integers(0, 1000))
def test_coupled_sink_keeps_the_bos_one_below_the_lowest_digit_at_every_start(a, b, seed):
    ex = encode(Problem(a, b), "cho")
    ids = PositionScheme("coupled_sink", random_start=True, max_position=100).assign(ex, np.random.default_rng(seed))
    digits = [pid for pid, sig in zip(ids, ex.significance) if sig is not None]
    assert ids[0] == ids[-1] == min(digits) - 1                     # '$' moves with the start
    shifted = [pid - ids[0] for pid in ids]
    assert [p for p, r in zip(shifted, ex.roles) if r not in ("bos", "eos")] == \
           [p for p, r in zip(coupled_ids(ex, 1), ex.roles) if r not in ("bos", "eos")]


def test_coupled_sink_packs_problems_into_disjoint_id_ranges():
    from lengen_utils.core.formats import TOKEN_ID
    from lengen_utils.core.tasks import Task, TaskConfig
    task = Task(TaskConfig(positions="coupled_sink", max_position=128, pack=4))
    batch = task.train_batch(np.random.default_rng(0), 16)
    for tokens, ids in zip(batch.tokens.tolist(), batch.position_ids.tolist()):
        dollars = [i for i, t in enumerate(tokens) if t == TOKEN_ID["$"]]
        assert len(dollars) == 8                                    # four problems, each $ ... $
        ranges = []
        for open_, close in zip(dollars[::2], dollars[1::2]):
            span = ids[open_:close + 1]
            assert span[0] == span[-1] == min(span)                 # each '$' sits at its own problem's bottom
            ranges.append((min(span), max(span)))
        ranges.sort()
        assert all(hi < lo for (_, hi), (lo, _) in zip(ranges, ranges[1:]))   # disjoint
        assert ranges[-1][1] <= 128


def test_a_task_evaluated_at_another_start():
    from lengen_utils.core.tasks import ConfigError, Task, TaskConfig
    task = Task(TaskConfig(max_position=64))
    ex = task.example(Problem(653, 49))
    assert task.position_ids(ex) == coupled_ids(ex, 1)
    assert task.at_start(5).position_ids(ex) == coupled_ids(ex, 5)
    assert task.position_ids(ex) == coupled_ids(ex, 1)              # the original is unchanged
    with pytest.raises(ConfigError, match="start"):
        task.at_start(-1)
    with pytest.raises(PositionRangeError, match="max_position=64"):
        task.at_start(61).position_ids(ex)                          # the operators would need ID 65


def test_abacus_eq_puts_the_equals_sign_one_below_the_units_digits():
    """Notebook 08's departure: Abacus IDs, with ``=`` (the query of the units digit) at the offset itself."""
    from lengen_utils.core.positions import abacus_eq_ids, abacus_ids
    example = encode(Problem(653, 49), "cho")
    for start in (0, 4, 17):
        ids, plain = abacus_eq_ids(example, start), abacus_ids(example, start)
        eq = example.roles.index("eq")
        assert ids[eq] == start and plain[eq] == 0
        assert [i for k, i in enumerate(ids) if k != eq] == [i for k, i in enumerate(plain) if k != eq]
        units = [i for i, s in zip(ids, example.significance) if s == 0]
        assert units and all(u == start + 1 for u in units)
    assert PositionScheme("abacus_eq").assign(example, start=4) == [0, 7, 6, 5, 0, 7, 6, 5, 4, 5, 6, 7, 8, 0]


@pytest.mark.parametrize("name", ["consecutive", "coupled", "coupled_sink", "abacus", "abacus_eq"])
def test_shifts_with_start_says_whether_every_id_moves_with_the_start(name):
    """Packing shifts the IDs at start 0 instead of assigning twice; that is right exactly when the scheme says so."""
    scheme = PositionScheme(name, max_position=64)
    examples = [encode(Problem(a, b), "cho") for a, b in ((653, 49), (7, 5), (99999, 1))]
    shifted = all(scheme.assign(e, start=s) == [i + s for i in scheme.assign(e, start=0)]
                  for e in examples for s in (1, 5, 20))
    assert shifted == scheme.shifts_with_start

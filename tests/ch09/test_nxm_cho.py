"""Cho et al.'s N x M scratchpad (partial products, then running sums) and its three channels of coupled IDs:
the layout against a product worked by hand, the couplings the paper's IDs promise, the random starts, the refusals,
and a small model trained through the usual path."""
from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from lengen_utils.analysis.nxm_measures import _cho_place, cho_first_errors, end_decision_share
from lengen_utils.core.compatibility import check_compatible
from lengen_utils.core.evaluate import evaluate_problems
from lengen_utils.core.model import ConfigError, ModelConfig, Transformer
from lengen_utils.core.nxm import decode_product, encode_nxm
from lengen_utils.core.nxm.cho import ChoPositions, cho_ids, partial_products, running_sums
from lengen_utils.core.positions import PositionRangeError
from lengen_utils.core.problems import Problem
from lengen_utils.core.tasks import Task, TaskConfig
from lengen_utils.core.train import TrainConfig, fit
from lengen_utils.core.vocab import SUM_SEPARATOR, TOKEN_ID

DIGITS, OPERANDS, SUMS = range(3)


def cho_task(**kw) -> TaskConfig:
    return TaskConfig(**{**dict(task="nxm", op="*", format="cho_scratchpad", positions="cho_coupled", min_digits=1,
                                max_digits=3, max_position=16, random_start=True), **kw})


def cho_model(**kw) -> ModelConfig:
    return ModelConfig(**{**dict(vocab_size=TOKEN_ID[SUM_SEPARATOR] + 1, d_model=32, n_layers=1, n_heads=4, d_ff=64,
                                 encoding="learned", max_positions=17, position_channels=3), **kw})


def example(a: int, b: int):
    return encode_nxm(Problem(a, b, "*"), "cho_scratchpad")


# -- the format -----------------------------------------------------------------------------------
def test_golden_scratchpad():
    """12 x 34: P_1 = 12 x 4 = 048, P_2 = 12 x 3 = 036 (3 = N + 1 digits, reversed); S_1 = 0048, S_2 = 48 + 360 =
    0408 (4 = N + M digits, reversed); the product is S_2."""
    assert partial_products(12, 34) == [48, 36] and running_sums(12, 34) == [48, 408]
    ex = example(12, 34)
    assert ex.text() == "$12*34=840+630=8400>8040$"
    assert decode_product(ex) == 408
    assert ex.targets[:6] == (None,) * 6 and ex.targets[6] == "8" and ex.targets[-2] == "$"


@pytest.mark.parametrize("a,b", [(7, 8), (99, 9), (9, 99), (1234567, 89), (10 ** 12 - 1, 10 ** 9 + 7)])
def test_the_last_running_sum_is_the_product(a, b):
    ex = example(a, b)
    assert decode_product(ex) == a * b
    n, m = len(str(a)), len(str(b))
    assert len(ex.supervised) == m * (n + 2) + m * (n + m + 1)     # rows and their separators, then the closing $


# -- the IDs --------------------------------------------------------------------------------------
def slots(a: int, b: int, starts=(1, 1, 1)):
    ex = example(a, b)
    return list(zip(ex.tokens, ex.roles, ex.significance, cho_ids(ex, starts))), ex


@pytest.mark.parametrize("a,b", [(12, 34), (908, 7), (4321, 56789)])
def test_each_partial_product_digit_is_coupled_as_the_paper_couples_it(a, b):
    """Digit t of P_k shares its digits ID with a_t, its operands ID with b_k, and its sums ID with the running-sum
    digit of the same power of ten; the operands, the running sums and the operands' channels stay apart."""
    n, m = len(str(a)), len(str(b))
    table, ex = slots(a, b)
    eq = ex.roles.index("eq")
    a_ids = {sig: ids for _, role, sig, ids in table if role == "a"}
    b_ids = {sig: ids for _, role, sig, ids in table if role == "b"}
    partial = table[eq:eq + m * (n + 2)]
    sums = table[eq + m * (n + 2):-1]
    sum_ids = {(sig, ids[SUMS]) for _, role, sig, ids in sums if role == "answer"}
    for k in range(m):
        row = partial[k * (n + 2):(k + 1) * (n + 2)]
        assert row[0][0] == ("=" if k == 0 else "+")
        for t, (_, role, sig, ids) in enumerate(row[1:]):
            assert role == "answer" and sig == k + t
            if t < n:
                assert ids[DIGITS] == a_ids[t][DIGITS]
            assert ids[OPERANDS] == b_ids[k][OPERANDS]
            assert (k + t, ids[SUMS]) in sum_ids
    assert all(ids[DIGITS] == 0 for *_, ids in sums) and all(ids[SUMS] == 0 for _, role, _, ids in table[:eq])
    assert all(ids[OPERANDS] == 0 for _, role, _, ids in table if role == "a")


def test_running_sum_k_shares_its_operands_id_with_partial_product_k():
    table, ex = slots(45, 678)
    rows = [ids[OPERANDS] for _, role, _, ids in table if role in ("eq", "sep")]
    assert rows == [1, 2, 3, 1, 2, 3]


def test_random_starts_shift_each_channel_and_stay_in_the_table():
    scheme = ChoPositions(random_start=True, max_position=30)
    ex = example(4321, 987)
    base = np.array(cho_ids(ex))
    seen = set()
    rng = np.random.default_rng(0)
    for _ in range(200):
        ids = np.array(scheme.assign(ex, rng))
        assert ids.max() <= 30 and (ids[base == 0] == 0).all()
        shift = ids - base
        starts = tuple(int(shift[base[:, c] > 0, c][0]) + 1 for c in range(3))
        assert all(len(set(shift[base[:, c] > 0, c])) == 1 for c in range(3))
        seen.add(starts)
    top = {c: max(s[c] for s in seen) for c in range(3)}
    assert top == {0: 30 - 5, 1: 30 - 2, 2: 30 - 7}                     # each channel reaches the table's last ID
    assert scheme.assign(ex) == cho_ids(ex, (1, 1, 1))                   # evaluation: the paper's start 1


def test_ids_past_max_position_are_refused_by_channel():
    scheme = ChoPositions(max_position=16)
    scheme.check_fits(7, 8)
    with pytest.raises(PositionRangeError, match=r"sums IDs up to 17 .*max_position=16"):
        scheme.check_fits(8, 8)
    assert scheme.longest_square() == 7
    with pytest.raises(PositionRangeError, match="digits IDs"):
        ChoPositions(max_position=16).check_fits(15, 1)


# -- the task, the configs, a model ---------------------------------------------------------------
def test_task_tests_squares_up_to_what_its_ids_hold():
    task = Task(cho_task(max_position=64))
    assert task.longest_operand() == 31
    assert len(task.cell_problems(20, 20, 3)) == 3
    with pytest.raises(PositionRangeError, match="max_position=64"):
        task.cell_problems(32, 32, 1)


@pytest.mark.parametrize("change,message", [
    (dict(format="fused_rows"), "numbers the 'cho_scratchpad' format"),
    (dict(positions="row_coupled"), "numbers the 'fused_rows' format"),
    (dict(max_digits=8), "sums IDs up to 17"),
])
def test_config_refuses_a_format_and_ids_that_do_not_match(change, message):
    with pytest.raises(ConfigError, match=message):
        cho_task(**change)


def test_model_needs_the_running_sum_separator_in_its_vocabulary():
    check_compatible(cho_model(), cho_task())
    with pytest.raises(ConfigError, match=r"writes '>' .*vocab_size"):
        check_compatible(cho_model(vocab_size=TOKEN_ID[SUM_SEPARATOR]), cho_task())


def test_a_small_model_trains_on_the_paper_format():
    task = Task(cho_task(max_digits=2, max_position=8))
    model = Transformer(cho_model(max_positions=9))
    result = fit(model, task, TrainConfig(steps=60, batch_size=16, lr=3e-3, warmup_steps=3), progress=False,
                 log_every=10)
    assert result.losses[-1] < result.losses[0]
    batch = task.train_batch(np.random.default_rng(0), 4)
    assert batch.position_ids.shape[-1] == 3 and int(batch.position_ids.max()) <= 8
    problems = task.cell_problems(2, 2, 10)
    scored = evaluate_problems(model, task, problems)
    places = cho_first_errors(model, task, problems)
    assert sum(places.values()) == round((1 - scored.exact_match) * 10)       # one first error per wrong product
    assert all(p == "the closing $" or p[:2] in ("P_", "S_") for p in places)


def test_first_errors_are_named_by_row_and_digit():
    """$12*34=840+630=8400>8040$: position 10 is the + that opens P_2, 9 the top digit of P_1 (digit N = 2, where
    A has no digit), 14 the = before S_1, 21 digit 1 of S_2, the last the closing $."""
    ex = example(12, 34)
    assert [_cho_place(ex, i) for i in (7, 9, 10, 14, 21, len(ex) - 1)] == [
        "P_1: digit 0", "P_1: its top digit, past A's last", "P_2: the separator that opens it",
        "S_1: the separator that opens it", "S_2: digit 1", "the closing $"]
    places = Counter({"P_2: the separator that opens it": 2, "P_1: its top digit, past A's last": 1, "S_2: digit 1": 1})
    assert end_decision_share(places) == 0.75 and end_decision_share(Counter()) == 0.0


def test_marked_ends_give_the_operands_ends_an_id_one_past_their_top_digit():
    """cho_ends (ours): the opening $ sits one past a's top digit in the digits channel, * one past b's top digit in
    the operands channel; every other ID is the paper's."""
    ex = example(4321, 987)
    paper, ends = cho_ids(ex), cho_ids(ex, (1, 1, 1), mark_ends=True)
    changed = {i for i, (p, e) in enumerate(zip(paper, ends)) if p != e}
    assert changed == {0, ex.tokens.index("*")}
    top_a = max(ids[DIGITS] for ids, role in zip(paper, ex.roles) if role == "a")
    top_b = max(ids[OPERANDS] for ids, role in zip(paper, ex.roles) if role == "b")
    assert ends[0] == (top_a + 1, 0, 0) and ends[ex.tokens.index("*")] == (0, top_b + 1, 0)
    assert ChoPositions("cho_ends").spans(4, 3) == (5, 3, 7) and ChoPositions().spans(4, 3) == (5, 2, 7)
    with pytest.raises(ValueError, match="cho_coupled"):
        ChoPositions("row_coupled")

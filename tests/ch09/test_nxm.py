"""N x M multiplication (notebook 09): the fused-row scratchpad, its three channels of IDs, the task, and a model
reading it through the usual training and evaluation path."""
from __future__ import annotations

import numpy as np
import pytest

from lengen_utils.core.compatibility import check_compatible
from lengen_utils.core.evaluate import evaluate_lengths, evaluate_problems
from lengen_utils.core.model import ConfigError, ModelConfig, Transformer
from lengen_utils.core.nxm import RowPositions, decode_product, encode_nxm, fused_rows, row_ids, scratchpad_tokens
from lengen_utils.core.positions import PositionRangeError
from lengen_utils.core.problems import Problem, ProblemError
from lengen_utils.core.tasks import Task, TaskConfig
from lengen_utils.core.train import TrainConfig, fit
from lengen_utils.core.vocab import FormatError


def nxm_task(**kw) -> TaskConfig:
    return TaskConfig(**{**dict(task="nxm", op="*", format="fused_rows", positions="row_coupled", min_digits=1,
                                max_digits=3, max_position=16, random_start=False), **kw})


def nxm_model(**kw) -> ModelConfig:
    return ModelConfig(**{**dict(d_model=32, n_layers=1, n_heads=4, d_ff=64, encoding="none", position_channels=3,
                                 relative_bias=True, relative_bias_max_distance=2), **kw})


# -- the format -----------------------------------------------------------------------------------
def test_golden_scratchpad():
    """12 x 34: U_1 = 12 x 4 = 48, U_2 = 48 // 10 + 12 x 3 = 40; the product 408 is 8 then 40."""
    assert fused_rows(12, 34) == [0, 48, 40]
    example = encode_nxm(Problem(12, 34, "*"))
    assert example.text() == "$12*34=000+840+040$"
    assert decode_product(example) == 408
    assert example.targets[:6] == (None,) * 6 and example.targets[6] == "0" and example.targets[-2] == "$"


def test_rows_are_running_products_without_their_final_digits():
    rng = np.random.default_rng(0)
    for _ in range(300):
        a, b = int(rng.integers(1, 10**9)), int(rng.integers(1, 10**9))
        rows = fused_rows(a, b)
        digits = [int(d) for d in reversed(str(b))]
        for k in range(1, len(rows)):
            partial = a * int("".join(map(str, reversed(digits[:k]))))
            assert rows[k] == partial // 10 ** (k - 1)          # the running product, k - 1 final digits dropped
            assert rows[k] < 10 ** (len(str(a)) + 1)            # so every row fits N + 1 digits
        assert decode_product(encode_nxm(Problem(a, b, "*"))) == a * b


def test_every_row_has_n_plus_one_digits_and_a_place_in_the_product():
    example = encode_nxm(Problem(987, 65, "*"))
    assert [len(row) for row in scratchpad_tokens(987, 65)] == [4, 4, 4]
    answer = [s for role, s in zip(example.roles, example.significance) if role == "answer"]
    assert answer == [None] * 4 + [0, 1, 2, 3] + [1, 2, 3, 4]


def test_decode_refuses_a_prediction_that_is_not_digits():
    example = encode_nxm(Problem(12, 34, "*"))
    bad = list(example.targets)
    bad[example.supervised[5]] = "="
    with pytest.raises(FormatError, match="not a digit"):
        decode_product(example, bad)
    with pytest.raises(FormatError, match="positions"):
        decode_product(example, bad[:-1])


def test_encode_refuses_other_problems():
    with pytest.raises(FormatError, match="multiplication"):
        encode_nxm(Problem(12, 34, "+"))
    with pytest.raises(FormatError, match="unknown N x M format"):
        encode_nxm(Problem(12, 34, "*"), "cho")


# -- the IDs ---------------------------------------------------------------------------------------
def test_golden_ids():
    ids = row_ids(encode_nxm(Problem(12, 34, "*")))
    assert ids == [(0, 3, 0), (0, 2, 0), (0, 1, 0), (3, 0, 1), (2, 0, 1), (1, 0, 1), (0, 0, 1),
                   (0, 1, 2), (0, 2, 2), (0, 3, 2), (1, 0, 2), (1, 1, 2), (1, 2, 2), (1, 3, 2),
                   (2, 0, 2), (2, 1, 2), (2, 2, 2), (2, 3, 2), (3, 0, 2)]


@pytest.mark.parametrize("n,m", [(3, 2), (7, 5), (12, 11)])
def test_what_a_row_digit_needs_sits_at_fixed_offsets(n, m):
    """From the token that writes digit t+1 of row k: the row above at (-1, +1) and (-1, +2), a_t and a_{t+1} at
    column offsets 0 and +1 on level 0, b_k on the same row at level 1, whatever N and M are."""
    example = encode_nxm(Problem(10**n - 1, 10**m - 1, "*"))
    ids = row_ids(example)
    where = {(tok_role, ident): tok for tok_role, ident, tok in zip(example.roles, ids, example.tokens)}
    a = [int(d) for d in reversed(str(example.problem.a))]
    rows = scratchpad_tokens(example.problem.a, example.problem.b)
    for i in example.supervised[:-1]:
        row, col, level = ids[i]
        if level != 2 or example.roles[i + 1] != "answer" or row == 0:
            continue
        t = col - 1                                            # the query writes digit t + 1 of row `row`
        assert where[("b", (row, 0, 1))] == str(example.problem.b)[::-1][row - 1]
        if t + 1 < n:
            assert where[("a", (0, col + 1, 0))] == str(a[t + 1])
        if t + 2 <= n:
            assert where[("answer", (row - 1, col + 2, 2))] == rows[row - 1][t + 2]
        assert example.tokens[i + 1] == rows[row][t + 1]


def test_random_starts_move_row_and_column_not_level():
    scheme = RowPositions(random_start=True, max_position=20)
    example = encode_nxm(Problem(123, 45, "*"))
    plain = scheme.assign(example)
    moved = scheme.assign(example, np.random.default_rng(3))
    shifts = {(p[0] - q[0], p[1] - q[1], p[2] - q[2]) for p, q in zip(moved, plain)}
    assert len(shifts) == 1 and next(iter(shifts))[2] == 0


def test_ids_past_max_position_are_refused_by_channel():
    scheme = RowPositions(max_position=8)
    with pytest.raises(PositionRangeError, match="column IDs up to 9.*multiplicand.*max_position=8"):
        scheme.assign(encode_nxm(Problem(10**7, 3, "*")))
    with pytest.raises(PositionRangeError, match="row IDs up to 10.*multiplier"):
        scheme.assign(encode_nxm(Problem(3, 10**8, "*")))


# -- the task and its config -----------------------------------------------------------------------
def test_task_draws_both_lengths_apart_and_tests_squares():
    task = Task(nxm_task(max_digits=6, max_position=16))
    problems = task.sample_train_problems(np.random.default_rng(0), 400)
    shapes = {(len(str(p.a)), len(str(p.b))) for p in problems}
    assert {n for n, _ in shapes} == set(range(1, 7)) and {m for _, m in shapes} == set(range(1, 7))
    assert all(p.op == "*" and p.a > 0 and p.b > 0 for p in problems)
    square = task.eval_problems(5, 20)
    assert all(len(str(p.a)) == 5 == len(str(p.b)) for p in square)
    assert task.eval_problems(5, 20) == square                       # a fixed test set
    cell = task.cell_problems(7, 2, 10)
    assert all(len(str(p.a)) == 7 and len(str(p.b)) == 2 for p in cell)


def test_task_refuses_cells_past_its_ids_and_bad_counts():
    task = Task(nxm_task(max_position=16))
    with pytest.raises(PositionRangeError, match="max_position=16"):
        task.cell_problems(20, 3, 5)
    with pytest.raises(ProblemError, match="count"):
        task.cell_problems(3, 3, 0)


@pytest.mark.parametrize("change,message", [
    (dict(format="cho"), "format"), (dict(positions="coupled"), "position scheme"), (dict(op="+"), "operation"),
    (dict(multiplier_digits=2), "arithmetic task"), (dict(pack=2), "arithmetic task"),
    (dict(max_digits=20, max_position=16), "does not fit"), (dict(min_digits=4), "exceeds"),
    (dict(random_start="no"), "random_start"),
])
def test_config_refuses_what_the_task_cannot_do(change, message):
    with pytest.raises(ConfigError, match=message):
        nxm_task(**change)


def test_model_needs_three_channels_and_a_decoder():
    with pytest.raises(ConfigError, match="position_channels=3"):
        check_compatible(nxm_model(position_channels=2), nxm_task())
    with pytest.raises(ConfigError, match="decoder"):
        check_compatible(nxm_model(causal=False), nxm_task())


def test_batches_have_three_id_channels_and_no_uniform_slots():
    batch = Task(nxm_task()).train_batch(np.random.default_rng(0), 8)
    assert batch.position_ids.shape[-1] == 3 and batch.uniform_slots is None
    assert batch.position_ids.shape[:2] == batch.tokens.shape


def test_a_small_model_trains_and_is_scored_on_squares_and_cells():
    task = Task(nxm_task(max_digits=2, max_position=8))
    model = Transformer(nxm_model())
    result = fit(model, task, TrainConfig(steps=60, batch_size=16, lr=3e-3, warmup_steps=3), progress=False,
                 log_every=10)
    assert result.losses[-1] < result.losses[0]
    square = evaluate_lengths(model, task, [2], n=20)[2]
    assert 0.0 <= square.exact_match <= 1.0 and square.per_digit
    cell = evaluate_problems(model, task, task.cell_problems(2, 1, 20))
    assert cell.n == 20


def test_training_batches_are_bucketed_by_length_without_changing_the_distribution():
    """A batch keeps one of four length-sorted slices of a pool four times its size: batches pad less, and over
    many batches each operand length is as frequent as the uniform sampler makes it."""
    task = Task(nxm_task(max_digits=8, max_position=16))
    rng = np.random.default_rng(0)
    counts, padding = np.zeros(9), []
    for _ in range(300):
        batch = task.train_batch(rng, 16)
        for ex in batch.examples:
            counts[len(str(ex.problem.a))] += 1
        real = batch.key_padding.sum(1).float().mean()                # key_padding marks the real tokens
        padding.append(1 - float(real) / batch.tokens.shape[1])
    shares = counts[1:] / counts.sum()
    assert np.all(np.abs(shares - 1 / 8) < 0.02), shares
    assert np.mean(padding) < 0.25


# -- measures (analysis.nxm_measures) --------------------------------------------------------------------------
@pytest.fixture(scope="module")
def small_model():
    task = Task(nxm_task(max_digits=2, max_position=8))
    model = Transformer(nxm_model())
    fit(model, task, TrainConfig(steps=80, batch_size=16, lr=3e-3, warmup_steps=3), progress=False)
    return model, task


def test_cell_exact_match_is_greedy_decoding_of_the_whole_scratchpad(small_model):
    from lengen_utils.analysis.nxm_measures import evaluate_cell
    from lengen_utils.core.evaluate import greedy_predictions
    from lengen_utils.core.evaluate.lengths import eval_batches
    model, task = small_model
    cell = evaluate_cell(model, task, 2, 2, 40)
    problems = task.cell_problems(2, 2, 40)
    greedy_right = 0
    for batch in eval_batches(model, task, problems, 40):
        preds = greedy_predictions(model, batch)
        supervised = batch.targets != -100
        greedy_right += int(((preds == batch.targets) | ~supervised).all(1).sum())
    assert cell.exact_match == greedy_right / 40
    assert 0 <= cell.exact_match <= cell.token_accuracy <= 1


def test_error_map_places_each_error_by_row_and_column(small_model):
    from lengen_utils.analysis.nxm_measures import error_map, evaluate_grid
    model, task = small_model
    problems = task.cell_problems(2, 1, 30)
    errors = error_map(model, task, problems)
    assert errors.shape == (3, 4)                          # rows 0..M+1, columns 0..N+1
    assert np.isnan(errors[0, 0]) and np.nanmax(errors) <= 1 and np.nanmin(errors) >= 0
    assert not np.isnan(errors[1, 1:]).any()               # every digit of row 1 is predicted
    with pytest.raises(ValueError, match="one shape"):
        error_map(model, task, problems + task.cell_problems(1, 1, 2))
    grid = evaluate_grid(model, task, [1, 2], [1], 10)
    assert sorted(grid) == [(1, 1), (2, 1)] and grid[(2, 1)].count == 10


# -- the row window ------------------------------------------------------------------------------------
def test_row_window_hides_only_older_rows_of_the_scratchpad():
    """A row digit sees its own row, the row above and the operands; rows further up get no attention at all."""
    import torch
    task = Task(nxm_task(max_digits=4))
    model = Transformer(nxm_model(row_window=1)).eval()
    batch = task.batch(task.cell_problems(3, 4, 2))
    with torch.no_grad():
        _, weights = model(batch.tokens, batch.position_ids, batch.key_padding, return_attention=True)
    ids = batch.position_ids[0]
    w = weights[0][0]                                   # layer 0, [H, T, T] of the first product
    for q in range(len(ids)):
        for k in range(q + 1):
            older = ids[k, 2] == ids[q, 2] and ids[k, 0] < ids[q, 0] - 1
            assert (w[:, q, k] == 0).all() if older else True
    row3 = [i for i in range(len(ids)) if ids[i, 0] == 3 and ids[i, 2] == 2]
    operands = [i for i in range(len(ids)) if ids[i, 2] < 2]
    assert (w[:, row3[-1], operands] > 0).all()         # the operands stay visible from any row


def _greedy_exact_match(model, task, n: int, m: int, count: int) -> float:
    """The share of ``count`` products of one cell whose whole scratchpad greedy decoding writes right."""
    from lengen_utils.core.evaluate import greedy_predictions
    from lengen_utils.core.evaluate.lengths import eval_batches
    right = 0
    for batch in eval_batches(model, task, task.cell_problems(n, m, count), count):
        preds = greedy_predictions(model, batch)
        right += int(((preds == batch.targets) | (batch.targets == -100)).all(1).sum())
    return right / count


def test_row_window_keeps_greedy_decoding_equal_to_teacher_forcing():
    from lengen_utils.analysis.nxm_measures import evaluate_cell
    task = Task(nxm_task(max_digits=2, max_position=8))
    model = Transformer(nxm_model(row_window=1))
    fit(model, task, TrainConfig(steps=60, batch_size=16, lr=3e-3, warmup_steps=3), progress=False)
    assert evaluate_cell(model, task, 2, 2, 30).exact_match == _greedy_exact_match(model, task, 2, 2, 30)


def test_row_window_needs_three_channels_in_a_decoder():
    with pytest.raises(ConfigError, match="row_window"):
        ModelConfig(position_channels=2, encoding="none", row_window=1)
    with pytest.raises(ConfigError, match="row_window"):
        nxm_model(row_window=-1)


def test_row_window_with_the_scalable_softmax_trains_without_nan():
    """The window's -inf is added after the scalable softmax's factor: scaled, the factor's gradient would be
    0 x -inf = NaN (it was, on the first try of this recipe)."""
    import math
    task = Task(nxm_task(max_digits=3))
    model = Transformer(nxm_model(row_window=1, length_scale=True))
    result = fit(model, task, TrainConfig(steps=20, batch_size=8, lr=3e-3, warmup_steps=2), progress=False,
                 log_every=5)
    assert all(math.isfinite(loss) for loss in result.losses)
    assert all(p.isfinite().all() for p in model.parameters())


# -- the lookup window and the scalable softmax over visible keys -----------------------------------------
def test_lookup_window_shows_a_row_digit_only_its_neighbourhood():
    """A scratchpad query sees the multiplicand and the scratchpad within `lookup_window` columns, the multiplier
    within that many rows; a query in the operands sees every earlier key."""
    import torch
    task = Task(nxm_task(max_digits=6))
    model = Transformer(nxm_model(lookup_window=1)).eval()
    batch = task.batch(task.cell_problems(6, 5, 1))
    with torch.no_grad():
        _, weights = model(batch.tokens, batch.position_ids, batch.key_padding, return_attention=True)
    ids, w = batch.position_ids[0], weights[0][0]
    for q in range(len(ids)):
        for k in range(q + 1):
            channel = 0 if ids[k, 2] == 1 else 1
            far = ids[q, 2] == 2 and abs(int(ids[k, channel]) - int(ids[q, channel])) > 1
            if far:
                assert (w[:, q, k] == 0).all()


def test_visible_length_scale_keeps_greedy_decoding_equal_to_teacher_forcing():
    from lengen_utils.analysis.nxm_measures import evaluate_cell
    task = Task(nxm_task(max_digits=3, max_position=8))
    model = Transformer(nxm_model(row_window=1, lookup_window=1, length_scale=True, length_scale_visible=True))
    fit(model, task, TrainConfig(steps=60, batch_size=16, lr=3e-3, warmup_steps=3), progress=False, log_every=10)
    assert all(p.isfinite().all() for p in model.parameters())
    assert evaluate_cell(model, task, 3, 2, 30).exact_match == _greedy_exact_match(model, task, 3, 2, 30)


def test_visible_length_scale_counts_the_keys_a_window_leaves():
    """With every key hidden but the query's own few, n is that count, not the query's position."""
    import torch
    from lengen_utils.core.model.attention import SelfAttention
    cfg = nxm_model(row_window=1, lookup_window=1, length_scale=True, length_scale_visible=True)
    attention = SelfAttention(cfg)
    task = Task(nxm_task(max_digits=5))
    batch = task.batch(task.cell_problems(5, 5, 1))
    ids = batch.position_ids
    hidden = sum(m(torch.zeros(1), ids) for m in attention.biases if getattr(m, "hides_keys", False))
    last = ids.shape[1] - 1
    visible = int(torch.isfinite(hidden[0, 0, last, :last + 1]).sum())
    assert 1 < visible < last + 1
    T = ids.shape[1]
    factor = attention._length_factor(T, T, 0, None, ids.device, hidden)           # [B, H, T]: s_h log(n)
    expected = attention.length_scale.detach() * torch.log(torch.tensor(float(visible)))
    torch.testing.assert_close(factor[0, :, last].detach(), expected)
    seen = {}
    attention.length_scale.register_hook(lambda g: seen.setdefault("g", g))
    x = torch.randn(1, ids.shape[1], cfg.d_model, requires_grad=True)
    attention(x, ids)[0].sum().backward()
    assert torch.isfinite(seen["g"]).all()


def test_visible_length_scale_needs_a_window_and_the_scalable_softmax():
    with pytest.raises(ConfigError, match="length_scale_visible"):
        nxm_model(length_scale=True, length_scale_visible=True)
    with pytest.raises(ConfigError, match="length_scale_visible"):
        nxm_model(row_window=1, length_scale_visible=True)
    with pytest.raises(ConfigError, match="lookup_window"):
        ModelConfig(position_channels=2, encoding="none", lookup_window=1)

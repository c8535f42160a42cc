"""Carry targets: each answer column's incoming carry, as a second training target of a multiplication encoder."""
import numpy as np
import pytest
import torch

from lengen_utils.core.carries import column_carries, column_products
from lengen_utils.core.compatibility import check_compatible
from lengen_utils.core.config_checks import ConfigError
from lengen_utils.core.constants import IGNORE_INDEX
from lengen_utils.core.model import ModelConfig, Transformer
from lengen_utils.core.problems import ProblemError
from lengen_utils.core.task_config import TaskConfig
from lengen_utils.core.tasks import Task
from lengen_utils.core.train import loss_on

FRAME, K = 12, 3


def _task(**changes) -> TaskConfig:
    base = dict(op="*", format="sabbaghi", positions="consecutive", max_digits=4, multiplier_digits=K,
                multiplier_exact=True, frame_width=FRAME, random_start=False, max_position=FRAME + K + 2,
                carry_targets=True)
    return TaskConfig(**{**base, **changes})


def _model(**changes) -> ModelConfig:
    base = dict(d_model=16, n_layers=1, n_heads=2, d_ff=32, causal=False, encoding="upe", upe_slots=K,
                rpe_max_distance=FRAME + K + 2, max_positions=FRAME + K + 3, carry_classes=9 * K)
    return ModelConfig(**{**base, **changes})


def _column_sum(a: int, b: int, s: int) -> int:
    xs, ys = [int(d) for d in str(a)[::-1]], [int(d) for d in str(b)[::-1]]
    return sum(xs[i] * ys[s - i] for i in range(len(xs)) if 0 <= s - i < len(ys))


def test_column_carries_rebuild_every_product_digit():
    rng = np.random.default_rng(0)
    for _ in range(300):
        a, b = int(rng.integers(0, 10 ** 9)), int(rng.integers(1, 1000))
        width = len(str(a * b)) + 2
        carries = column_carries(a, b, width)
        assert carries[0] == 0
        assert max(carries) <= 9 * len(str(b)) - 1
        for s in range(width):
            assert (_column_sum(a, b, s) + carries[s]) % 10 == (a * b // 10 ** s) % 10


def test_column_carries_known_value_and_refusals():
    assert column_carries(99, 99, 4) == [0, 8, 17, 9]          # 81, 162 + 8, 81 + 17 -> 9801
    assert column_carries(999, 999, 6)[3] == 26                # the largest carry of a 3-digit multiplier
    with pytest.raises(ProblemError, match="non-negative"):
        column_carries(-1, 3, 2)


def test_batch_carries_sit_at_the_answer_positions_only():
    task = Task(_task(curriculum="multiplier"))
    rng = np.random.default_rng(1)
    for progress in (0.05, 0.25, 0.45, 0.9):                    # 1-, 2-, 3-digit multipliers
        batch = task.train_batch(rng, 16, progress=progress)
        assert batch.carry_targets.shape == batch.targets.shape
        for ex, carries in zip(batch.examples, batch.carry_targets.tolist()):
            supervised = set(ex.supervised)
            assert all(c == IGNORE_INDEX for i, c in enumerate(carries) if i not in supervised)
            for pos, s in zip(ex.supervised, ex.target_significance):
                digit = (ex.problem.a * ex.problem.b // 10 ** s) % 10
                assert (_column_sum(ex.problem.a, ex.problem.b, s) + carries[pos]) % 10 == digit


def test_a_task_without_carry_targets_has_none():
    batch = Task(_task(carry_targets=False)).train_batch(np.random.default_rng(0), 4)
    assert batch.carry_targets is None


@pytest.mark.parametrize("changes, words", [
    (dict(op="+", multiplier_digits=None, multiplier_exact=False, max_position=40), "op='\\*'"),
    (dict(format="cho", positions="coupled", frame_width=None, max_position=64), "encoder format"),
])
def test_carry_targets_refuse_what_has_no_column_carries(changes, words):
    with pytest.raises(ConfigError, match=words):
        _task(**changes)


def test_model_and_task_must_agree_on_the_carry_head():
    check_compatible(_model(), _task())
    with pytest.raises(ConfigError, match="carry_classes=27"):
        check_compatible(_model(carry_classes=9), _task())
    with pytest.raises(ConfigError, match="no carry targets"):
        check_compatible(_model(), _task(carry_targets=False))


def test_the_loss_adds_the_carry_term_and_trains_the_carry_head():
    torch.manual_seed(0)
    model = Transformer(_model())
    batch = Task(_task()).train_batch(np.random.default_rng(0), 8)
    with torch.no_grad():
        with_carry = loss_on(model, batch)
        batch.carry_targets = None
        answer_only = loss_on(model, batch)
    assert float(with_carry) > float(answer_only) + 1.0      # an untrained 27-way head adds about log(27)
    batch = Task(_task()).train_batch(np.random.default_rng(0), 8)
    loss_on(model, batch).backward()
    assert model.carry_head.weight.grad is not None and float(model.carry_head.weight.grad.abs().sum()) > 0


def test_product_targets_are_the_columns_products_and_train_the_product_heads():
    task = Task(_task(product_targets=True))
    batch = task.train_batch(np.random.default_rng(2), 8)
    assert batch.product_targets.shape == (*batch.targets.shape, K)
    for ex, products, carries in zip(batch.examples, batch.product_targets.tolist(), batch.carry_targets.tolist()):
        for pos, s in zip(ex.supervised, ex.target_significance):
            assert (sum(products[pos]) + carries[pos]) % 10 == (ex.problem.a * ex.problem.b // 10 ** s) % 10
            assert products[pos][0] == int(str(ex.problem.a).zfill(FRAME + K)[::-1][s]) * (ex.problem.b % 10)
    assert column_products(47, 36, 3, 2) == [[42, 0], [24, 21], [0, 12]]
    model = Transformer(_model(product_heads=K))
    loss_on(model, batch).backward()
    assert float(model.product_head.weight.grad.abs().sum()) > 0
    with pytest.raises(ConfigError, match="product_heads=3"):
        check_compatible(_model(), _task(product_targets=True))
    with pytest.raises(ConfigError, match="product_heads=0"):
        check_compatible(_model(product_heads=K), _task())


def test_forward_returns_the_hidden_state_the_heads_read():
    batch = Task(_task(carry_targets=False)).train_batch(np.random.default_rng(0), 2)
    model = Transformer(_model(product_heads=K))
    logits, hidden = model(**batch.model_inputs(), return_hidden=True)
    assert torch.equal(logits, model(**batch.model_inputs()))
    carry, products = model.column_logits(hidden)
    assert carry.shape == (*logits.shape[:2], 9 * K) and products.shape == (*logits.shape[:2], K, 82)
    assert Transformer(_model(carry_classes=0)).column_logits(hidden) == (None, None)
    with pytest.raises(ValueError, match="one of them per call"):
        model(**batch.model_inputs(), return_hidden=True, return_attention=True)


def test_column_scores_split_each_column_and_refuse_a_model_without_a_carry_head():
    from lengen_utils.core.evaluate import column_scores
    torch.manual_seed(0)
    task = Task(_task())
    scores = column_scores(Transformer(_model()), task, 3, n=20)
    assert sorted(scores) == list(range(3 + K))
    for score in scores.values():
        assert 0 <= score.digit <= 1 and 0 <= score.carry <= 1
    assert scores[0].carry in (0.0, 1.0)                        # column 0 receives no carry: always 0
    with pytest.raises(ValueError, match="has none.*carry_targets=True"):
        column_scores(Transformer(_model(carry_classes=0)), Task(_task(carry_targets=False)), 3, n=5)
    with pytest.raises(ValueError, match="length"):
        column_scores(Transformer(_model()), task, 0, n=5)

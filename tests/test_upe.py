"""Sabbaghi et al.'s multiplication format (eq. 3.2) and uniform positional encoding (eq. 3.3)."""
from __future__ import annotations

import math

import torch

from lengen_utils.core.formats import PAD, decode_answer, encode
from lengen_utils.core.model import ModelConfig, Transformer
from lengen_utils.core.model.encodings import RelativeKeys, UniformKeys
from lengen_utils.core.positions import consecutive_ids, uniform_slots
from lengen_utils.core.problems import Problem
from lengen_utils.core.tasks import Task, TaskConfig


def test_eq_3_2_layout_56_times_4297() -> None:
    """The paper's own example, l = 20: (5, 6, x, pad x16, 4, 2, 9, 7) -> (_, pad x16, 2, 4, 0, 6, 3, 2)."""
    ex = encode(Problem(4297, 56, "*"), "sabbaghi", frame_width=20)
    assert ex.tokens == ("5", "6", "*", *[PAD] * 16, "4", "2", "9", "7")
    assert ex.targets == (None, *[PAD] * 16, "2", "4", "0", "6", "3", "2")
    assert ex.answer_width == 22 and decode_answer(ex) == 56 * 4297
    # "indexing from right to left, the first digit of the answer corresponds to the first position of the input"
    assert ex.targets[-1] == "2" and ex.tokens[-1] == "7"


def test_one_digit_multiplier_answer_covers_the_operator_and_the_frame() -> None:
    ex = encode(Problem(99999, 9, "*"), "sabbaghi", frame_width=6)
    assert ex.tokens == ("9", "*", PAD, "9", "9", "9", "9", "9")
    assert ex.targets == (None, PAD, "8", "9", "9", "9", "9", "1")


def test_slots_follow_the_multiplier_digits_by_significance() -> None:
    ex = encode(Problem(4297, 56, "*"), "sabbaghi", frame_width=20)
    assert uniform_slots(ex) == [2, 1] + [0] * 21
    one = encode(Problem(4297, 7, "*"), "sabbaghi", frame_width=20)
    assert uniform_slots(one) == [1] + [0] * 21          # a 1-digit multiplier is always c_1
    assert uniform_slots(encode(Problem(12, 34, "+"), "sabbaghi", frame_width=4)) == [0] * 9


def _upe(scale: float = 1.0, slots: int = 3) -> UniformKeys:
    torch.manual_seed(0)
    cfg = ModelConfig(d_model=16, n_heads=2, causal=False, encoding="upe", upe_slots=slots,
                      rpe_max_distance=30, rpe_scale=scale)
    return UniformKeys(cfg)


def test_uniform_key_vector_is_the_same_for_every_other_query() -> None:
    """Eq. 3.3: p_{j,i} = c_i for every j != i when key i is a multiplier digit; RPE p_{i-j} elsewhere."""
    upe = _upe()
    ex = encode(Problem(4297, 56, "*"), "sabbaghi", frame_width=8)
    T = len(ex)
    ids = torch.tensor([consecutive_ids(ex)])
    slots = torch.tensor([uniform_slots(ex)])
    q = torch.randn(1, 2, T, 8)
    bias = upe(q, ids, ids, slots)
    rpe = RelativeKeys.forward(upe, q, ids, ids)
    c = upe.uniform_table
    for i in range(T):             # key
        for j in range(T):         # query
            r = int(slots[0, i])
            if r > 0 and i != j:
                want = q[0, :, j] @ c[r] / math.sqrt(8)
            else:
                want = q[0, :, j] @ upe.table[i - j + 30] / math.sqrt(8)
                assert torch.allclose(rpe[0, :, j, i], want, atol=1e-6)
            assert torch.allclose(bias[0, :, j, i], want, atol=1e-6), (i, j)


def test_uniform_bias_does_not_depend_on_the_distance_to_the_multiplier() -> None:
    """Moving the multiplicand further away (a wider frame) leaves every query's score on c_r unchanged."""
    upe = _upe()
    q_row = torch.randn(2, 8)
    scores = []
    for frame in (6, 12):
        ex = encode(Problem(4297, 7, "*"), "sabbaghi", frame_width=frame)
        T = len(ex)
        q = q_row[None, :, None, :].expand(1, 2, T, 8)
        ids = torch.tensor([consecutive_ids(ex)])
        bias = upe(q, ids, ids, torch.tensor([uniform_slots(ex)]))
        scores.append(bias[0, :, 1:, 0])      # every query but the multiplier itself, key = the multiplier
    assert torch.allclose(scores[0][:, :1], scores[1][:, :1])
    assert torch.allclose(scores[0], scores[0][:, :1].expand_as(scores[0]))
    assert torch.allclose(scores[1], scores[1][:, :1].expand_as(scores[1]))


def test_rpe_scale_multiplies_the_uniform_vectors_too() -> None:
    """ModelConfig says rpe_scale applies to the RPE/UPE key vectors: c = rpe_scale x parameter, with the
    parameter initialised 1/rpe_scale smaller so that the vectors in use start at the same size."""
    upe = _upe(scale=10.0)
    assert torch.allclose(upe.uniform_table, upe.uniform * 10.0)
    assert upe.uniform_table.std() < 0.05 and upe.uniform.std() < 0.005
    q = torch.randn(1, 2, 4, 8)
    ids = torch.arange(4)[None]
    slots = torch.tensor([[1, 0, 0, 0]])
    with torch.no_grad():
        upe.uniform[1] = 1.0
    bias = upe(q, ids, ids, slots)
    assert torch.allclose(bias[0, :, 2, 0], q[0, :, 2].sum(-1) * 10.0 / math.sqrt(8), atol=1e-5)


def test_upe_model_runs_on_a_sabbaghi_batch_and_ignores_nothing_it_should_see() -> None:
    task = Task(TaskConfig(op="*", format="sabbaghi", positions="consecutive", sampler="balanced", max_digits=3,
                           multiplier_digits=1, frame_width=6, random_start=False, max_position=10))
    torch.manual_seed(0)
    model = Transformer(ModelConfig(d_model=16, n_heads=2, d_ff=32, causal=False, encoding="upe", upe_slots=1,
                                    rpe_max_distance=9))
    batch = task.batch([Problem(123, 7, "*"), Problem(5, 3, "*")])
    assert batch.uniform_slots[:, 0].tolist() == [1, 1] and int(batch.uniform_slots[:, 1:].sum()) == 0
    logits = model(**batch.model_inputs())
    assert logits.shape[:2] == batch.tokens.shape
    # changing the multiplier digit changes every output position (the uniform key reaches all of them)
    other = task.batch([Problem(123, 2, "*"), Problem(5, 3, "*")])
    moved = model(**other.model_inputs())
    assert bool(((moved[0] - logits[0]).abs().amax(-1) > 0).all())

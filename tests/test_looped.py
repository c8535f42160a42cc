"""The looped (weight-shared) block with input injection: equal to a plain model at one pass, different and
trainable with more, and the same under a KV cache, blocked passes and greedy decoding."""
import numpy as np
import pytest
import torch

from lengen_utils.core.compatibility import check_compatible
from lengen_utils.core.evaluate import evaluate_length
from lengen_utils.core.evaluate.lengths import greedy_predictions, teacher_forced_predictions
from lengen_utils.core.model import ModelConfig, Transformer, greedy_decode
from lengen_utils.core.model.blocked import blocked_forward
from lengen_utils.core.problems import Problem
from lengen_utils.core.tasks import ConfigError, Task, TaskConfig
from lengen_utils.core.train import TrainConfig, fit

TASK = TaskConfig(format="cho", positions="coupled", max_digits=5, max_position=20)
SMALL = dict(d_model=32, n_heads=2, d_ff=64, max_positions=21)


def model(seed=0, **changes) -> Transformer:
    torch.manual_seed(seed)
    return Transformer(ModelConfig(**{**SMALL, **changes})).eval()


def mixed_batch(task=TASK):
    """Problems of 1 to 5 digits in one batch, so rows of a length-dependent loop make different passes."""
    problems = [Problem(a, b) for a, b in [(7, 5), (123, 98765), (0, 0), (99999, 1), (31415, 2718), (12345, 6789)]]
    return Task(task).batch(problems)


def test_one_pass_equals_a_plain_one_layer_model_with_the_same_weights():
    plain = model(n_layers=1)
    looped = Transformer(ModelConfig(**SMALL, n_layers=1, loops=1)).eval()
    looped.load_state_dict(plain.state_dict())
    batch = mixed_batch()
    with torch.no_grad():
        torch.testing.assert_close(looped(**batch.model_inputs()), plain(**batch.model_inputs()), rtol=0, atol=0)


@pytest.mark.parametrize("inject", [False, True])
def test_more_passes_differ_and_repeat_the_shared_block(inject):
    one = model(n_layers=1)
    three = Transformer(ModelConfig(**SMALL, n_layers=1, loops=3, input_injection=inject)).eval()
    three.load_state_dict(one.state_dict())             # the same parameters: looping adds none
    assert three.num_parameters() == one.num_parameters()
    batch = mixed_batch()
    inputs = batch.model_inputs()
    with torch.no_grad():
        out = three(**inputs)
        assert not torch.allclose(out, one(**inputs), atol=1e-3)
        # by hand: embed, then the block three times (the embedding added back before passes 2 and 3)
        e = one.embed(batch.tokens) + one.position(batch.position_ids)
        x = e
        for t in range(3):
            x, _ = one.blocks[0](x + e if t and inject else x, batch.position_ids, batch.key_padding)
        torch.testing.assert_close(out, one.head(one.norm(x)), rtol=1e-5, atol=1e-5)


def test_loops_grow_with_the_operand_length():
    cfg = ModelConfig(**SMALL, loops=2, loops_per_digit=0.5, input_injection=True)
    assert [cfg.loops_for(d) for d in (1, 4, 5, 10, 40)] == [2, 2, 3, 5, 20]
    m = Transformer(cfg).eval()
    batch = mixed_batch()
    with torch.no_grad():
        full = m(**batch.model_inputs(digits=True))
        for r in range(len(batch.examples)):         # a row's result does not depend on the rest of the batch
            one_row = {k: None if v is None else v[r:r + 1] for k, v in batch.model_inputs(digits=True).items()}
            torch.testing.assert_close(m(**one_row), full[r:r + 1], rtol=1e-5, atol=1e-5)
    with pytest.raises(ValueError, match="pass digits"):
        m(**batch.model_inputs())


@pytest.mark.parametrize("changes", [dict(loops=3, input_injection=True),
                                     dict(n_layers=2, loops=1, loops_per_digit=0.4, input_injection=True),
                                     dict(loops=2, encoding="none", relative_bias=True)])
def test_cache_blocks_and_greedy_equal_a_full_pass(changes):
    m = model(**changes)
    batch = mixed_batch()
    inputs = batch.model_inputs(digits=True)
    T = batch.tokens.shape[1]
    keep = batch.key_padding
    with torch.no_grad():
        full = m(**inputs)
        blocked = blocked_forward(m, batch.tokens, batch.position_ids, batch.key_padding, block=3,
                                  digits=batch.digits)
    torch.testing.assert_close(blocked[keep], full[keep], rtol=1e-4, atol=1e-4)
    # greedy decoding (KV cache) equals the teacher-forced argmax of the sequence it wrote itself
    sup = batch.targets >= 0
    greedy = greedy_decode(m, batch.tokens, batch.position_ids, sup, batch.key_padding, digits=batch.digits)
    plain = greedy_decode(m, batch.tokens, batch.position_ids, sup, batch.key_padding, digits=batch.digits,
                          use_cache=False)
    assert torch.equal(greedy, plain)
    own = batch.tokens.clone()
    own[:, 1:][sup[:, :-1]] = greedy[:, :-1][sup[:, :-1]]         # its own outputs fed back
    with torch.no_grad():
        forced = m(own, batch.position_ids, batch.key_padding, digits=batch.digits).argmax(-1)
    assert torch.equal(forced[sup], greedy[sup]) and T > 10


def test_a_looped_model_trains_and_evaluates():
    task = Task(TaskConfig(format="cho", positions="coupled", max_digits=3, max_position=12))
    m = Transformer(ModelConfig(d_model=32, n_heads=2, d_ff=64, max_positions=13, loops=1, loops_per_digit=1.0,
                                input_injection=True))
    torch.manual_seed(0)
    result = fit(m, task, TrainConfig(steps=60, batch_size=32, lr=3e-3, warmup_steps=5, seed=0), progress=False,
                 log_every=20)
    assert result.losses[-1] < 0.8 * result.losses[0]
    for length in (2, 3, 5):         # 5 digits: more passes than any training row made
        forced = evaluate_length(m, task, length, n=50)
        greedy = evaluate_length(m, task, length, n=50, greedy=True)
        assert forced.exact_match == greedy.exact_match
    batch = task.batch(task.eval_problems(3, 50))
    sup = batch.targets >= 0
    right_forced = teacher_forced_predictions(m, batch)[sup] == batch.targets[sup]
    assert bool(right_forced.any())                                  # it learned something in 60 steps
    assert greedy_predictions(m, batch).shape == batch.tokens.shape


@pytest.mark.parametrize("changes, message", [
    (dict(loops=0), "loops must be >= 1"),
    (dict(loops=2.0), "loops must be a whole number"),
    (dict(loops_per_digit=-1), "loops_per_digit must be a finite number >= 0"),
    (dict(loops_per_digit=float("inf")), "loops_per_digit"),
    (dict(loops_per_digit=True), "loops_per_digit"),
    (dict(input_injection=1), "input_injection must be True or False"),
    (dict(input_injection=True), "there is none"),
])
def test_model_refusals(changes, message):
    with pytest.raises(ConfigError, match=message):
        ModelConfig(**changes)


def test_length_dependent_loops_refuse_packed_rows():
    packed = TaskConfig(format="cho", positions="coupled", max_digits=5, max_position=64, pack=4)
    with pytest.raises(ConfigError, match="pack=4"):
        check_compatible(ModelConfig(loops_per_digit=0.5), packed)
    check_compatible(ModelConfig(loops=3), packed)         # a fixed number of passes is fine


def test_batches_carry_each_rows_operand_length():
    batch = mixed_batch()
    assert batch.digits[:, 0].tolist() == [1, 5, 1, 5, 5, 5]
    assert bool((batch.digits == batch.digits[:, :1]).all())
    assert tuple(batch.digits.shape) == tuple(batch.tokens.shape)
    np.testing.assert_array_equal(batch.to("cpu").digits.numpy(), batch.digits.numpy())

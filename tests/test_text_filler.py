"""Text around the numbers (Sabbaghi Section 3.3): the filled format, frame IDs, arithmetic heads, errors."""
from __future__ import annotations

import math

import numpy as np
import pytest
import torch

from lengen_utils.core.formats import TEXT_TOKENS, VOCAB, decode_answer, encode, render
from lengen_utils.core.model import ModelConfig, Transformer
from lengen_utils.core.model.arithmetic_heads import ArithmeticKeys
from lengen_utils.core.model.encodings import RelativeKeys
from lengen_utils.core.problems import Problem
from lengen_utils.core.tasks import ConfigError, Task, TaskConfig
from lengen_utils.core.text_filler import TEXT_ROLE, add_filler, frame_ids, number_significance
from lengen_utils.core.train import TrainConfig, fit


class ScriptedRng:
    """Stands in for numpy's generator: returns the scripted draws in order (golden tests need no numpy
    stream)."""

    def __init__(self, *draws):
        self.draws = list(draws)

    def integers(self, low, high, size):
        if size == 0:
            return np.zeros(0, dtype=int)
        out = np.asarray(self.draws.pop(0))
        assert out.shape == (size,) and ((low <= out) & (out < high)).all()
        return out


def filled(counts, words, a=12, b=345, l=4):
    return add_filler(encode(Problem(a, b), "sabbaghi", frame_width=l), ScriptedRng(counts, *words), 3)


def text_task(filler_max=3, l=6, max_position=None):
    return TaskConfig(op="+", format="sabbaghi", positions="consecutive", max_digits=3, frame_width=l,
                      random_start=False, max_position=max_position or 2 * l + 3 * filler_max, filler_max=filler_max)


# -- the format ---------------------------------------------------------------------------------------
def test_golden_filled_addition():
    ex = filled([1, 2, 1], [[5], [6, 1], [4]])
    assert ex.tokens == ("what", "pad", "pad", "1", "2", "so", "sum", "+", "pad", "3", "4", "5", "is")
    assert render(ex.tokens) == "what ··12 so sum +·345 is"
    assert ex.targets == (None,) * 7 + ("pad", "pad", "3", "5", "7") + (None,)
    assert ex.roles == (TEXT_ROLE, "a", "a", "a", "a", TEXT_ROLE, TEXT_ROLE, "op", "b", "b", "b", "b", TEXT_ROLE)
    assert decode_answer(ex) == 357
    assert ex.target_significance == [4, 3, 2, 1, 0]      # still read right to left, text after b or not


def test_golden_frame_ids_and_significance():
    ex = filled([1, 2, 1], [[5], [6, 1], [4]])
    assert frame_ids(ex) == [0, 1, 2, 3, 4, 0, 0, 5, 6, 7, 8, 9, 0]
    assert number_significance(ex) == [None, 3, 2, 1, 0, None, None, None, 3, 2, 1, 0, None]
    plain = encode(Problem(12, 345), "sabbaghi", frame_width=4)
    assert frame_ids(plain) == list(range(1, 10))       # without text: the raw positions + 1
    assert [f for f in frame_ids(ex) if f] == frame_ids(plain)


def test_no_filler_is_the_plain_format():
    plain = encode(Problem(12, 345), "sabbaghi", frame_width=4)
    assert filled([0, 0, 0], []) == plain
    assert add_filler(plain, np.random.default_rng(0), 0) is plain


def test_task_filler_in_training_and_fixed_at_evaluation():
    task = Task(text_task(filler_max=3))
    problems = task.eval_problems(5, 40)
    one, two = task.batch(problems), task.batch(problems[:17])
    assert torch.equal(one.tokens[:17, :two.tokens.shape[1]], two.tokens)      # fixed per problem, any batch
    assert [e.tokens for e in one.examples] == [e.tokens for e in task.batch(problems).examples]
    rng = np.random.default_rng(1)
    gaps = []
    for ex in task.batch(problems, rng).examples:
        roles = "".join("t" if r == TEXT_ROLE else "n" for r in ex.roles)
        runs = roles.split("n")
        gaps.append((len(runs[0]), len(runs[-1]), len(ex) - (2 * 6 + 1) - len(runs[0]) - len(runs[-1])))
        assert all(tok in TEXT_TOKENS for tok, r in zip(ex.tokens, ex.roles) if r == TEXT_ROLE)
    gaps = np.array(gaps)
    assert gaps.min() == 0 and gaps.max() == 3           # 0..filler_max words per gap, both ends reached
    b = task.batch(problems)
    assert b.number_ids is not None and "number_ids" in b.model_inputs()
    assert int((b.number_ids > 0).sum(1).max()) == 2 * 6 + 1


# -- the arithmetic heads ---------------------------------------------------------------------------------
def _arith(h=2, heads=4, l=4):
    torch.manual_seed(0)
    cfg = ModelConfig(d_model=32, n_heads=heads, causal=False, encoding="learned", arithmetic_heads=h,
                      rpe_max_distance=2 * l + 1)
    return cfg, ArithmeticKeys(cfg)


def test_arithmetic_bias_depends_on_significance_not_on_text():
    cfg, keys = _arith()
    short = filled([0, 0, 0], [])
    long = filled([3, 2, 1], [[0, 0, 0], [7, 7], [2]])
    q_vec = torch.randn(cfg.n_heads, cfg.d_head)

    def bias(ex):
        ids = torch.tensor([frame_ids(ex)])
        q = q_vec[None, :, None, :].expand(1, -1, len(ex), -1)     # the same query everywhere
        return keys(q, ids)[0]

    def at(ex, role_i, sig_i, role_j, sig_j):
        i = next(k for k, (r, s) in enumerate(zip(ex.roles, ex.significance)) if r == role_i and s == sig_i)
        j = next(k for k, (r, s) in enumerate(zip(ex.roles, ex.significance)) if r == role_j and s == sig_j)
        return i, j

    b_short, b_long = bias(short), bias(long)
    for pair in [("b", 0, "a", 0), ("a", 0, "b", 0), ("b", 2, "a", 1), ("a", 3, "a", 0), ("b", 1, "b", 1)]:
        (i, j), (i2, j2) = at(short, *pair), at(long, *pair)
        assert abs(j - i) != abs(j2 - i2) or pair[0] == pair[2]      # text changed the raw distance ...
        torch.testing.assert_close(b_short[:, i, j], b_long[:, i2, j2])   # ... not the vector
    # the vector is p_{f(j) - f(i)}: b's units digit to a's units digit is l + 1 = 5 places left
    i, j = at(short, "b", 0, "a", 0)
    expected = q_vec[:2] @ keys.table[keys.max_distance - 5] / math.sqrt(cfg.d_head)
    torch.testing.assert_close(b_short[:2, i, j], expected)
    # raw distance would pick another vector: with text, a's units digit sits 2 words further away
    i2, j2 = at(long, "b", 0, "a", 0)
    assert (i2 - j2) - (i - j) == 2
    raw = q_vec[:2] @ keys.table[keys.max_distance - 7] / math.sqrt(cfg.d_head)
    assert not torch.allclose(b_long[:2, i2, j2], raw)


def test_arithmetic_bias_is_zero_for_text_and_other_heads():
    cfg, keys = _arith(h=1)
    ex = filled([2, 1, 2], [[0, 1], [2], [3, 4]])
    ids = torch.tensor([frame_ids(ex)])
    bias = keys(torch.randn(1, cfg.n_heads, len(ex), cfg.d_head), ids)[0]
    text = ids[0] == 0
    assert bias[1:].abs().sum() == 0                      # heads 1..3: APE heads, no pairwise vector
    assert bias[0][text].abs().sum() == 0 and bias[0][:, text].abs().sum() == 0
    assert bias[0][~text][:, ~text].abs().min() > 0


def test_without_text_an_arithmetic_head_is_an_rpe_head():
    cfg, keys = _arith(h=4)
    rpe = RelativeKeys(ModelConfig(d_model=32, n_heads=4, causal=False, encoding="rpe", rpe_max_distance=9))
    rpe.vectors.data.copy_(keys.vectors.data)
    q = torch.randn(2, 4, 9, cfg.d_head)
    pos = torch.arange(9)[None].expand(2, -1)
    torch.testing.assert_close(keys(q, pos + 1), rpe(q, pos))


def test_model_with_arithmetic_heads_trains_and_defaults_are_unchanged():
    assert ModelConfig().arithmetic_heads == 0 and TaskConfig().filler_max == 0
    assert not any("arithmetic" in k for k in Transformer(ModelConfig()).state_dict())
    tc = text_task(filler_max=2, l=5)
    mc = ModelConfig(vocab_size=len(VOCAB), d_model=32, n_layers=1, n_heads=2, d_ff=64, causal=False,
                     encoding="learned", arithmetic_heads=1, rpe_max_distance=11, max_positions=tc.max_position + 1)
    torch.manual_seed(0)
    model = Transformer(mc)
    result = fit(model, Task(tc), TrainConfig(steps=60, batch_size=32, lr=3e-3, warmup_steps=5), progress=False,
                 log_every=20)
    assert result.losses[-1] < result.losses[0] * 0.8
    batch = Task(tc).batch([Problem(12, 34)])
    inputs = {k: v for k, v in batch.model_inputs().items() if k != "number_ids"}
    with pytest.raises(ValueError, match="arithmetic heads need number_ids"):
        model(**inputs)


# -- bad configs ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("make, pattern", [
    (lambda: text_task(filler_max=-1, max_position=40), r"filler_max must be >= 0"),
    (lambda: text_task(filler_max=1.5, max_position=40), r"filler_max must be a whole number"),
    (lambda: TaskConfig(format="cho", filler_max=2), r"filler text is implemented for addition in the sabbaghi"),
    (lambda: TaskConfig(op="*", format="sabbaghi", positions="consecutive", max_digits=3, frame_width=6,
                        multiplier_digits=1, random_start=False, filler_max=2), r"not format='sabbaghi' with op='\*'"),
    (lambda: text_task(filler_max=3).with_(max_position=20),
     r"needs position IDs up to 21, but the IDs stop at max_position=20; use filler_max <= 2"),
    (lambda: ModelConfig(n_heads=4, causal=False, arithmetic_heads=5), r"arithmetic_heads=5 exceeds n_heads=4"),
    (lambda: ModelConfig(n_heads=4, causal=False, arithmetic_heads=-1), r"arithmetic_heads must be >= 0"),
    (lambda: ModelConfig(n_heads=4, causal=True, arithmetic_heads=2), r"implemented for the encoder"),
    (lambda: ModelConfig(n_heads=4, causal=False, encoding="rpe", arithmetic_heads=2), r"not 'rpe'"),
], ids=["negative", "float", "decoder format", "multiplication", "too long for the IDs", "too many heads",
        "negative heads", "decoder", "pairwise encoding"])
def test_bad_configs_name_the_limit(make, pattern):
    with pytest.raises(ConfigError, match=pattern):
        make()


def test_check_compatible_refuses_text_without_its_tokens():
    """Caught before training, not at the first forward pass."""
    import pytest as _pytest
    from lengen_utils.core.compatibility import check_compatible
    from lengen_utils.core.formats import VOCAB
    from lengen_utils.core.model import ConfigError, ModelConfig
    from lengen_utils.lab.zoo import entry
    e = entry("nb04-text-add-s0")
    small = ModelConfig.from_dict({**e.model.to_dict(), "vocab_size": 80})
    from lengen_utils.core.vocab import TEXT_VOCAB_SIZE
    with _pytest.raises(ConfigError, match=rf"vocab_size=80; use ModelConfig\(vocab_size={TEXT_VOCAB_SIZE}\) or more"):
        check_compatible(small, e.task)
    check_compatible(e.model, e.task)

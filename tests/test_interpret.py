"""Tests for lengen_utils.interpret (mean attention maps, Sabbaghi's relative map) and the part-3 plots."""
from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pytest
import torch

from lengen_utils import plots
from lengen_utils.complexity import cascade_length_distribution, multiplication_levels_distribution
from lengen_utils.constructions import build_coupled_adder
from lengen_utils.formats import encode
from lengen_utils.interpret import attention_by_offset, mean_attention, role_labels, sigma_rel
from lengen_utils.model import ModelConfig, Transformer
from lengen_utils.problems import Problem, sample_exact_length
from lengen_utils.tasks import Task, TaskConfig


def test_role_labels():
    assert role_labels(encode(Problem(653, 49), "cho")) == \
        ["$", "a2", "a1", "a0", "+", "b2", "b1", "b0", "=", "s0", "s1", "s2", "s3", "$"]
    lab = role_labels(encode(Problem(12, 3), "sabbaghi", frame_width=3))
    assert lab == ["pad", "a1", "a0", "+", "pad", "pad", "b0"]


def test_mean_attention_of_the_hand_built_adder_is_coupled():
    model = build_coupled_adder(5)
    task = Task(TaskConfig(format="cho", positions="coupled", random_start=False, max_position=31))
    probs = sample_exact_length(np.random.default_rng(0), 6, 40)
    weights, labels = mean_attention(model, task, probs, batch_size=16)
    assert len(weights) == 1 and weights[0].shape == (2, 23, 23)
    assert np.allclose(weights[0].sum(-1), 1.0, atol=1e-4)
    q = labels.index("s2")                       # predicts s3: head 0 reads a3, b3; head 1 reads a2, b2, s2
    assert weights[0][0, q, [labels.index("a3"), labels.index("b3")]].sum() > 0.99
    assert weights[0][1, q, [labels.index("a2"), labels.index("b2"), q]].sum() > 0.7


def test_mean_attention_refuses_mixed_shapes():
    model = build_coupled_adder(5)
    task = Task(TaskConfig(format="cho", positions="coupled", random_start=False, max_position=31))
    with pytest.raises(ValueError, match="one shape"):
        mean_attention(model, task, [Problem(12, 34), Problem(123, 456)])


def test_sigma_rel_matches_appendix_e():
    assert sigma_rel(20, 2) == [-2, -1, 0, 19, 20, 21]
    assert sigma_rel(5, 0) == [0, 6]
    with pytest.raises(ValueError):
        sigma_rel(5, 6)


def test_attention_by_offset_indexing():
    """Build an encoder whose single head attends exactly to a fixed relative offset, and read it back."""
    l = 6
    cfg = ModelConfig(d_model=8, n_heads=1, d_ff=8, causal=False, encoding="rpe", rpe_max_distance=2 * l + 1,
                      norm="none")
    torch.manual_seed(0)
    model = Transformer(cfg).eval()
    with torch.no_grad():
        for p in model.parameters():
            p.zero_()
        model.embed.weight[:, 0] = 1.0                   # a constant query direction
        model.blocks[0].attn.qkv.weight[0, 0] = 1.0       # q = x[0] = 1
        vec = model.blocks[0].attn.biases[0].vectors
        K = cfg.rpe_max_distance
        vec[K - (l + 1), 0] = 100.0                      # key l+1 tokens to the LEFT (token offset -(l+1))
    task = Task(TaskConfig(format="sabbaghi", positions="consecutive", max_digits=3, frame_width=l,
                           random_start=False, max_position=2 * l + 2))
    oa = attention_by_offset(model, task, sample_exact_length(np.random.default_rng(0), 3, 8))
    assert oa.weights[0].shape == (1, l + 1, 4 * l + 1)
    # right-to-left offset = query index - key index = +(l+1): the digit a_k of the same significance
    assert oa.top_offsets(0, 0, k=1) == [l + 1]
    assert oa.profile(0)[0, list(oa.offsets).index(l + 1)] > 0.8
    with pytest.raises(ValueError, match="sabbaghi"):
        attention_by_offset(model, Task(TaskConfig(format="cho")), [Problem(1, 2)])


# -- part-3 plots: each returns a Figure --------------------------------------------------------------
def test_part3_plots_return_figures():
    import matplotlib.pyplot as plt
    from lengen_utils.complexity import GroupResult

    figs = [
        plots.complexity_histogram({"50 digits": cascade_length_distribution(50),
                                    "mult": multiplication_levels_distribution(5)}, max_level=10, annotate_from=4),
        plots.accuracy_by_level({"a": {1: 0.9, 2: 0.5}, "b": {1: GroupResult(1, 10, 0.5, 1.0, 1.0)}}, trained_max=5),
        plots.per_position_loss({"ape": np.linspace(0.1, 1, 11)}, seen=np.arange(11) < 4, reference={"x": 1.3}),
        plots.gram_heatmaps({"ape": np.eye(5), "rpe": -np.eye(5)}, block=2),
        plots.attention_side_by_side({"m1": np.full((2, 4, 4), 0.25), "m2": np.eye(4)[None]}, list("abcd"), rows=[2, 3]),
    ]
    l = 4
    from lengen_utils.interpret import OffsetAttention
    oa = OffsetAttention(l, np.arange(-2 * l, 2 * l + 1), [np.random.default_rng(0).random((2, l + 1, 4 * l + 1))])
    figs.append(plots.offset_attention_map(oa, 0, max_offset=6, marks=sigma_rel(l, 1)))
    for f in figs:
        assert isinstance(f, matplotlib.figure.Figure)
        plt.close(f)
    with pytest.raises(ValueError):
        plots.complexity_histogram({})


def test_attention_mass_by_id_offset_on_the_adder():
    """Cho 5.1.1: head 0 of the construction reads the digits with ID one below the query, head 1 the
    digits with the query's own ID."""
    from lengen_utils.interpret import attention_mass_by_id_offset

    model = build_coupled_adder(5)
    task = Task(TaskConfig(format="cho", positions="coupled", random_start=False, max_position=31))
    probs = sample_exact_length(np.random.default_rng(1), 6, 30)
    weights, labels = mean_attention(model, task, probs)
    ex = task.example(probs[0])
    ids = task.position_ids(ex)
    queries = [i for i in ex.supervised if ex.roles[i + 1] == "answer" and ex.significance[i + 1] < ex.answer_width - 1]
    below = attention_mass_by_id_offset(weights[0], ids, queries, -1, ex.roles)
    same = attention_mass_by_id_offset(weights[0], ids, queries, 0, ex.roles)
    assert below[0] > 0.95 and same[1] > 0.6 and same[0] < 0.05   # head 1 also rests 1/4 on $

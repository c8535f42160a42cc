"""Tests for lengen_utils.analysis.interpret: attention extraction, mean attention maps, Sabbaghi's relative map."""
from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pytest
import torch

from lengen_utils.course import plots
from lengen_utils.analysis.complexity import cascade_length_distribution, multiplication_levels_distribution
from lengen_utils.analysis.constructions import build_coupled_adder
from lengen_utils.core.formats import encode, render
from lengen_utils.analysis.interpret import (OffsetAttention, attention_by_offset, attention_maps, mean_attention, relative_vectors, role_labels,
                                   sigma_rel)
from lengen_utils.core.model import ModelConfig, Transformer
from lengen_utils.core.problems import Problem, sample_exact_length
from lengen_utils.core.tasks import Task, TaskConfig


def test_relative_vectors_and_attention_maps():
    cfg = ModelConfig(d_model=16, n_heads=2, d_ff=32, n_layers=2, causal=False, encoding="rpe", rpe_max_distance=6)
    torch.manual_seed(0)
    model = Transformer(cfg)
    vecs = relative_vectors(model)
    assert len(vecs) == 2 and vecs[0].shape == (13, 8)
    assert np.array_equal(vecs[1], model.blocks[1].attn.biases[0].vectors.detach().numpy())
    task = Task(TaskConfig(format="sabbaghi", positions="consecutive", sampler="uniform", max_digits=3,
                           frame_width=4, random_start=False))
    weights, tokens = attention_maps(model, task, Problem(12, 345))
    assert tokens == [render([t]) or " " for t in task.example(Problem(12, 345)).tokens]
    assert len(weights) == 2 and weights[0].shape == (2, len(tokens), len(tokens))
    assert np.allclose(weights[0].sum(-1), 1, atol=1e-5)
    fig = plots.attention_heatmap(weights[1], tokens, rows=[5, 6, 7], title="attn")
    assert plots.check_figure(fig) == []
    with pytest.raises(ValueError, match="no relative vectors"):
        relative_vectors(Transformer(ModelConfig(d_model=16, n_heads=2, d_ff=32)))


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


# -- the analysis figures, fed with real distributions and results -----------------------------------
def test_analysis_figures_meet_the_standard():
    import matplotlib.pyplot as plt
    from lengen_utils.analysis.complexity import GroupResult

    figs = [
        plots.complexity_histogram({"50 digits": cascade_length_distribution(50),
                                    "mult": multiplication_levels_distribution(5)}, max_level=10, annotate_from=4),
        plots.accuracy_by_level({"a": {1: 0.9, 2: 0.5}, "b": {1: GroupResult(1, 10, 0.5, 1.0, 1.0)}}, trained_max=5),
    ]
    l = 4
    oa = OffsetAttention(l, np.arange(-2 * l, 2 * l + 1), [np.random.default_rng(0).random((2, l + 1, 4 * l + 1))])
    figs.append(plots.offset_attention_map(oa, 0, max_offset=6, marks=sigma_rel(l, 1)))
    for f in figs:
        assert plots.check_figure(f) == []
        plt.close(f)
    errorbars = figs[1].axes[0].containers
    assert len(errorbars) == 2 and errorbars[1].lines[0].get_color() != errorbars[0].lines[0].get_color()


def test_attention_mass_by_id_offset_on_the_adder():
    """Cho 5.1.1: head 0 of the construction reads the digits with ID one below the query, head 1 the
    digits with the query's own ID."""
    from lengen_utils.analysis.interpret import attention_mass_by_id_offset

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

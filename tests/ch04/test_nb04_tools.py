"""Notebook 04's package code: the UPE vector table (eq. 3.3), positional maps (Figures 11, 12) and
their plots."""
import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pytest  # noqa: E402
import torch  # noqa: E402

from lengen_utils.course import plots  # noqa: E402
from lengen_utils.course.ch04_upe import plots as ch04_plots  # noqa: E402
from lengen_utils.analysis.interpret import (PositionalMaps, effective_offsets, positional_maps,  # noqa: E402
                                    vector_table)
from lengen_utils.core.model import ModelConfig, Transformer  # noqa: E402
from lengen_utils.core.problems import Problem  # noqa: E402
from lengen_utils.core.tasks import Task, TaskConfig  # noqa: E402


def _task(k=2, frame=5):
    return Task(TaskConfig(op="*", format="sabbaghi", positions="consecutive", max_digits=5, multiplier_digits=k,
                           frame_width=frame, max_position=frame + k + 2, eval_sampler="exact"))


def _model(encoding, layers=2, slots=2, K=8, seed=0):
    torch.manual_seed(seed)
    return Transformer(ModelConfig(d_model=32, n_heads=2, d_ff=32, n_layers=layers, causal=False,
                                   encoding=encoding, upe_slots=slots, rpe_max_distance=K, max_positions=20))


# -- eq. 3.3: which vector each pair uses ---------------------------------------------------------
def test_vector_table_of_the_papers_example():
    vt = vector_table(_task(), Problem(4297, 56, "*"))        # 56 x 4297 at l = 5: 5 6 * pad 4 2 9 7
    assert vt.tokens[:3] == ["5", "6", "*"] and vt.tokens[4:] == ["4", "2", "9", "7"]
    assert vt.slots == [2, 1, 0, 0, 0, 0, 0, 0]
    T = len(vt.tokens)
    for i in range(T):
        for j in range(T):
            if vt.slots[j] and i != j:        # a multiplier digit as key: its uniform vector, any distance
                assert vt.labels[i][j] == f"c_{{{vt.slots[j]}}}"
            else:                             # everything else, and the pair (i, i): Shaw's p_{j-i}
                assert vt.labels[i][j] == f"p_{{{j - i}}}"
    assert vt.labels[7][0] == "c_{2}" and vt.labels[0][1] == "c_{1}" and vt.labels[1][1] == "p_{0}"


def test_vector_table_clips_like_rpe_max_distance():
    vt = vector_table(_task(), Problem(4297, 56, "*"), max_distance=2)
    assert vt.labels[7][2] == "p_{-2}" and vt.labels[2][7] == "p_{2}"      # -5 and +5 clipped to the table's ends


def test_vector_table_for_addition_has_no_uniform_vectors():
    task = Task(TaskConfig(op="+", format="sabbaghi", positions="consecutive", max_digits=3, frame_width=3,
                           max_position=9))
    vt = vector_table(task, Problem(12, 34))
    assert not any(x.startswith("c_") for row in vt.labels for x in row)


# -- positional maps -------------------------------------------------------------------------------
def test_positional_maps_shapes_and_values_equal_the_parameters():
    m = _model("upe", layers=3, slots=3, K=8)
    pm = positional_maps(m)
    assert pm.encoding == "upe" and len(pm.p) == len(pm.c) == 3
    assert pm.p[0].shape == (17, 16) and pm.c[0].shape == (3, 16) and pm.max_distance == 8
    mod = m.blocks[1].attn.biases[0]
    np.testing.assert_allclose(pm.p[1], mod.table.detach().numpy())
    np.testing.assert_allclose(pm.c[1], mod.uniform_table[1:].detach().numpy())     # c_1..c_3, not row 0
    with torch.no_grad():
        mod.vectors.zero_()
        mod.vectors[8 + 1, 0] = 3.0                                                   # only p_{+1}
    pm = positional_maps(m)
    assert pm.largest(1, 1) == [1] and pm.norms(1)[pm.offsets.tolist().index(1)] == pytest.approx(3.0)


def test_positional_maps_of_rpe_and_refusal_of_ape():
    pm = positional_maps(_model("rpe"))
    assert pm.c[0].shape == (0, 16) and pm.uniform_norms(0).shape == (0,)
    with pytest.raises(ValueError, match="no relative vectors"):
        positional_maps(_model("learned"))


def test_effective_offsets():
    assert effective_offsets([0, 0, 5, 0]) == pytest.approx(1.0)
    assert effective_offsets([1, 1, 1, 1]) == pytest.approx(4.0)
    assert 1 < effective_offsets([3, 1, 1]) < 3
    with pytest.raises(ValueError, match="every vector is zero"):
        effective_offsets([0, 0])
    with pytest.raises(ValueError, match="non-empty"):
        effective_offsets([])


# -- plots -----------------------------------------------------------------------------------------
def _maps():
    return {"RPE": positional_maps(_model("rpe", layers=3, K=10)),
            "UPE": positional_maps(_model("upe", layers=3, slots=1, K=10, seed=1))}


def test_positional_map_grid_and_norm_profiles_are_legible():
    plots.use_course_style()
    maps = _maps()
    fig = ch04_plots.positional_map_grid(maps, max_offset=6, marks={"carry": 1}, title="p_d per layer")
    assert plots.check_figure(fig) == [] and len([a for a in fig.axes if a.get_visible()]) == 6 + 1
    assert "$c_1$" in [t.get_text() for t in fig.axes[3].get_yticklabels()]
    marked = [t for t in fig.axes[0].get_yticklabels() if t.get_text() == "+1 carry"]
    assert len(marked) == 1 and marked[0].get_color() == plots.PALETTE[9]
    fig = ch04_plots.norm_profiles(maps, max_offset=6, marks={"carry": 1})
    assert plots.check_figure(fig) == []
    ys = fig.axes[0].get_lines()[0].get_ydata()                   # layer 1 of RPE: the norms it was given
    np.testing.assert_allclose(ys, maps["RPE"].norms(0)[10 - 6:10 + 7])
    import matplotlib.pyplot as plt
    plt.close("all")


def test_positional_plots_refuse_empty_input():
    with pytest.raises(ValueError, match="at least one model"):
        ch04_plots.positional_map_grid({})
    with pytest.raises(ValueError, match="no relative vectors"):
        ch04_plots.norm_profiles({"APE": PositionalMaps("learned", [], [])})


def test_vector_pair_table_is_legible_and_refuses_wide_tables():
    plots.use_course_style()
    vt = vector_table(_task(), Problem(4297, 56, "*"))
    fig = ch04_plots.vector_pair_table(vt, title="56 x 4297")
    assert plots.check_figure(fig) == []
    texts = [t.get_text() for t in fig.axes[0].texts]
    assert texts.count("$c_{2}$") == 7 and texts.count("$p_{0}$") == 8
    wide = vector_table(_task(k=1, frame=16), Problem(10**15, 7, "*"))
    with pytest.raises(ValueError, match="smaller frame"):
        ch04_plots.vector_pair_table(wide)
    import matplotlib.pyplot as plt
    plt.close("all")

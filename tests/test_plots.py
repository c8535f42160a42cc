"""Smoke tests: every figure function draws without error and returns a Figure."""
import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
import torch  # noqa: E402

from lengen_utils import plots  # noqa: E402
from lengen_utils.formats import FORMATS, encode  # noqa: E402
from lengen_utils.model import ModelConfig, Transformer  # noqa: E402
from lengen_utils.positions import abacus_ids, consecutive_ids, coupled_ids  # noqa: E402
from lengen_utils.problems import Problem  # noqa: E402
from lengen_utils.tasks import Task, TaskConfig  # noqa: E402


@pytest.fixture(autouse=True)
def _close():
    yield
    plt.close("all")


def test_course_style_applies():
    plots.use_course_style()


def test_accuracy_vs_length_variants():
    curves = {"APE": {1: 1.0, 5: 1.0, 6: 0.0, 20: 0.0}, "RPE": {"1": 1.0, "5": 1.0, "6": 0.99, "20": 0.97}}
    fig = plots.accuracy_vs_length(curves, trained_length=5, marks={"l": 20}, title="t")
    assert isinstance(fig, matplotlib.figure.Figure) and len(fig.axes[0].lines) >= 2
    fig = plots.accuracy_vs_length(curves, trained_length={"APE": 5, "RPE": 3}, styles={"APE": {"linestyle": "--"}})
    assert fig.axes
    with pytest.raises(ValueError):
        plots.accuracy_vs_length({})


def test_format_and_position_tables():
    p = Problem(653, 49)
    examples = {name: encode(p, name, frame_width=5) for name in FORMATS}
    assert plots.format_table(examples, title="formats").axes
    ex = encode(p, "cho")
    fig = plots.position_table(ex, {"consecutive": consecutive_ids(ex), "coupled": coupled_ids(ex),
                                    "abacus": abacus_ids(ex)})
    assert len(fig.axes[0].texts) == 4 * len(ex)
    with pytest.raises(ValueError, match="IDs"):
        plots.position_table(ex, {"short": [0, 1]})


def test_per_digit_heatmap():
    per = {"5": {"0": 1.0, "1": 0.9, "2": 1.0}, "10": {"0": 0.5, "1": 0.8, "2": 1.0, "3": 1.0}}
    fig = plots.per_digit_heatmap(per, title="per digit", max_significance=2)
    assert fig.axes


def test_relative_vectors_map_and_attention():
    cfg = ModelConfig(d_model=16, n_heads=2, d_ff=32, n_layers=2, causal=False, encoding="rpe", rpe_max_distance=6)
    torch.manual_seed(0)
    model = Transformer(cfg)
    vecs = plots.relative_vectors(model)
    assert len(vecs) == 2 and vecs[0].shape == (13, 8)
    assert plots.relative_vector_map(vecs, max_offset=4, marks={"l+1": 3}, title="maps").axes
    task = Task(TaskConfig(format="sabbaghi", positions="consecutive", sampler="uniform", max_digits=3,
                           frame_width=4, random_start=False))
    weights, tokens = plots.attention_maps(model, task, Problem(12, 345))
    assert weights[0].shape == (2, len(tokens), len(tokens))
    assert np.allclose(weights[0].sum(-1), 1, atol=1e-5)
    assert plots.attention_heatmap(weights[1], tokens, rows=[5, 6, 7], title="attn").axes
    with pytest.raises(ValueError, match="no relative vectors"):
        plots.relative_vectors(Transformer(ModelConfig(d_model=16, n_heads=2, d_ff=32)))


def test_loss_curve():
    assert plots.loss_curve({"a": [1.0, 0.5, 0.1], "b": [2.0, 1.0]}).axes


def test_part3_marker_is_last_section():
    text = open(plots.__file__).read()
    assert "# == part 3 ==" in text


def test_sigma_and_highlight_table():
    from lengen_utils.formats import FormatError, sabbaghi_sigma, sigma_indices

    assert sabbaghi_sigma(2, 20) == [1, 2, 22, 23]          # Sabbaghi Section 3.1
    ex = encode(Problem(123, 4095), "sabbaghi", frame_width=20)
    assert [ex.tokens[i] for i in sigma_indices(ex, 2)] == ["2", "3", "9", "5"]
    with pytest.raises(FormatError):
        sabbaghi_sigma(22, 20)
    with pytest.raises(FormatError):
        sigma_indices(encode(Problem(1, 2), "cho"), 1)
    fig = plots.highlight_table(ex, {"σ(1)": sigma_indices(ex, 1)}, outline={"σ(1)": [len(ex) - 1]})
    assert fig.axes


def test_notebook_check_and_table(capsys):
    from lengen_utils.notebook import check, table

    assert check(..., 3) is None and check([1, 2], (1, 2)) is True and check(5, 4, hint="h") is False
    assert check(1e-6, (100 / 10**5) ** 2) is True
    out = capsys.readouterr().out
    assert "Not attempted" in out and "Hint: h" in out
    md = table({"ours": {"k=5": 0.995, "n": 3}, "paper": {"k=5": "≈100%"}})
    text = getattr(md, "data", md)
    assert "99.5%" in text and "≈100%" in text and "| 3 |" in text

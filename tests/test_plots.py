"""The figure standard, asserted on every figure function: text >= MIN_FONT, figures no
wider than the notebook column, one colour per series, legends and landmark labels off the data."""
import itertools

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from matplotlib.colors import to_rgb  # noqa: E402

from lengen_utils.analysis import interpret  # noqa: E402
from lengen_utils.course import plots
from lengen_utils.core.formats import FORMATS, encode, sigma_indices  # noqa: E402
from lengen_utils.analysis.interpret import OffsetAttention  # noqa: E402
from lengen_utils.course.plots import style  # noqa: E402
from lengen_utils.core.positions import abacus_ids, consecutive_ids, coupled_ids  # noqa: E402
from lengen_utils.core.problems import Problem  # noqa: E402


@pytest.fixture(autouse=True)
def _close():
    yield
    plt.close("all")


def _lab(colour):
    c = np.asarray(to_rgb(colour))
    lin = np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
    xyz = np.array([[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722], [0.0193, 0.1192, 0.9505]]) @ lin
    t = xyz / np.array([0.9505, 1.0, 1.089])
    f = np.where(t > 0.008856, np.cbrt(t), 7.787 * t + 16 / 116)
    return np.array([116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])])


def test_palette_has_ten_clearly_different_colours():
    """Notebook 05 compares nine methods: ten colours, every pair at least 25 CIELAB units apart
    (the old pair of oranges #de8f05 / #d55e00 was 25.6 apart and still confused readers: so is none here)."""
    assert len(set(plots.PALETTE)) >= 10 and len(set(style.MARKERS)) >= 10
    gaps = {(a, b): np.linalg.norm(_lab(a) - _lab(b)) for a, b in itertools.combinations(plots.PALETTE, 2)}
    assert min(gaps.values()) >= 25, min(gaps.items(), key=lambda kv: kv[1])
    assert "#de8f05" not in plots.PALETTE or "#d55e00" not in plots.PALETTE
    with pytest.raises(ValueError, match="at most 10"):
        plots.series_styles([str(i) for i in range(11)])


def test_course_style_sets_readable_fonts_and_the_palette():
    plots.use_course_style()
    rc = matplotlib.rcParams
    for key in ("xtick.labelsize", "ytick.labelsize", "legend.fontsize", "font.size"):
        assert float(rc[key]) >= plots.MIN_FONT, key
    assert [c.lower() for c in rc["axes.prop_cycle"].by_key()["color"]] == [c.lower() for c in plots.PALETTE]


def test_check_figure_catches_breaches():
    """The checker the tests and scripts/render_figures.py rely on can fail."""
    fig, ax = plt.subplots(figsize=(12, 3))
    ax.plot([0, 1], [0, 1], color="C0", label="a")
    ax.plot([0, 1], [1, 0], color="C0", label="b")
    ax.text(0.5, 0.5, "tiny", fontsize=5)
    problems = plots.check_figure(fig)
    assert any("wide" in p for p in problems) and any("'tiny'" in p for p in problems)
    assert any("share colour" in p for p in problems)


def test_thin_ticks_and_every_kth():
    assert plots.thin_ticks(range(1, 41)) == [1, 5, 10, 15, 20, 25, 30, 35, 40]
    assert plots.thin_ticks([1, 2, 3, 5, 8]) == [1, 2, 3, 5, 8]
    assert len(plots.thin_ticks(range(1, 23), max_ticks=12)) <= 12
    assert style.every_kth(45, 8.0) >= 2           # > 30 labels: every k-th
    assert style.every_kth(20, 8.0) == 1


def test_math_renders_symbols_but_not_identifiers():
    assert plots.math("Learned relative vectors p_{j-i}, per layer") == "Learned relative vectors $p_{j-i}$, per layer"
    assert plots.math("seen D_s") == "seen $D_s$"
    assert plots.math("frame_width and max_position") == "frame_width and max_position"
    assert plots.math("$x_1$ kept") == "$x_1$ kept"


# -- every figure function, with data shaped like the notebooks' ------------------------------------
RNG = np.random.default_rng(0)
L = 22
CURVE = {k: 1.0 if k <= 5 else max(0.0, 1 - 0.05 * (k - 5)) for k in range(1, L + 1)}
_MED = {i: {k: float(np.clip(1.1 - 0.04 * k + 0.1 * i, 0, 1)) for k in (5, 10, 15, 20, 25, 30, 40)} for i in range(4)}
BANDS = {m: {k: (v, max(0.0, v - 0.15), min(1.0, v + 0.1)) for k, v in _MED[i].items()}
         for i, m in enumerate(["plain", "+ bias", "+ packing", "both"])}
NINE = {f"method {i}": {k: v * (1 - 0.05 * i) for k, v in CURVE.items()} for i in range(9)}


def _sab_attention():
    T = 2 * L + 1
    w = RNG.random((4, T, T))
    return w / w.sum(-1, keepdims=True), [str(i % 10) for i in range(T)]


FIGURES = {
    "accuracy_vs_length": lambda: plots.accuracy_vs_length(
        {"RPE, trained on ≤ 5 digits": CURVE, "RPE + shift augmentation, ≤ 5 digits": CURVE,
         "RPE, trained on ≤ 8 digits": CURVE, "APE, trained on ≤ 5 digits": {k: float(k <= 5) for k in CURVE}},
        trained_length=5, marks={f"frame width l = {L}": L}, title="t"),
    "leaderboard of nine": lambda: plots.accuracy_vs_length(NINE, trained_length=5),
    "median_band": lambda: plots.median_band(BANDS, trained_length=10, marks={"generalizable length": 20}, title="t"),
    "accuracy_vs_length per-curve length": lambda: plots.accuracy_vs_length(
        {"APE": {1: 1.0, 5: 1.0, 6: 0.0, 20: 0.0}, "RPE": {"1": 1.0, "5": 1.0, "6": 0.99, "20": 0.97}},
        trained_length={"APE": 5, "RPE": 3}, styles={"APE": {"linestyle": "--"}}),
    "format_table": lambda: plots.format_table({n: encode(Problem(4297, 56, "*"), n, frame_width=6) for n in FORMATS}),
    "position_table": lambda: plots.position_table(encode(Problem(653, 49), "cho"), {
        "consecutive": consecutive_ids(encode(Problem(653, 49), "cho")),
        "coupled": coupled_ids(encode(Problem(653, 49), "cho")), "abacus": abacus_ids(encode(Problem(653, 49), "cho"))}),
    "per_digit_heatmap": lambda: plots.per_digit_heatmap(
        {k: {s: RNG.random() for s in range(L + 3)} for k in (5, 10, 15, 20, 21, 22)}, max_significance=L),
    "relative_vector_map": lambda: plots.relative_vector_map(
        [RNG.normal(size=(2 * 46 + 1, 16)) for _ in range(2)], marks={"-(l+1)": -23, "l+1": 23},
        title="Learned relative vectors p_{j-i}, per layer"),
    "attention_heatmap (45 tokens)": lambda: plots.attention_heatmap(_sab_attention()[0][:2], _sab_attention()[1],
                                                                     rows=list(range(L, 2 * L + 1))),
    "attention_heatmap (14 tokens)": lambda: plots.attention_heatmap(np.full((2, 14, 14), 1 / 14), list("$653+049=2070$")),
    "loss_curve": lambda: plots.loss_curve({"a": [1.0, 0.5, 0.1], "b": [2.0, 1.0]}),
    "complexity_histogram": lambda: plots.complexity_histogram(
        {"(a)": [10.0 ** -k for k in range(12)], "(b)": [0.5, 0.3, 0.1, 0.05, 0.04, 0.01]}, max_level=10, annotate_from=4),
    "accuracy_by_level": lambda: plots.accuracy_by_level({"cascade (C2)": {k: 1 - 0.05 * k for k in range(11)},
                                                          "carry run (C1)": {k: 1 - 0.04 * k for k in range(1, 13)}},
                                                         trained_max=5, title="Figure 8"),
    "per_position_loss": lambda: plots.per_position_loss({"APE": np.linspace(0.1, 1, 51), "RPE": np.full(51, 1e-4)},
                                                         seen=np.arange(51) < 10, reference={"α²+2β²": 1.32}),
    "gram_heatmaps": lambda: plots.gram_heatmaps({"(a)": np.eye(51), "(b)": -np.eye(51), "(c)": np.eye(51)}, block=10),
    "attention_side_by_side": lambda: plots.attention_side_by_side(
        {"m1": np.full((2, 23, 23), 1 / 23), "m2": np.full((2, 23, 23), 1 / 23)}, [f"t{i}" for i in range(23)],
        rows=list(range(14, 22))),
    "offset_attention_map": lambda: plots.offset_attention_map(
        OffsetAttention(4, np.arange(-8, 9), [RNG.random((2, 5, 17))]), 0, max_offset=6, marks=interpret.sigma_rel(4, 1)),
}


@pytest.mark.parametrize("name", list(FIGURES))
def test_every_figure_meets_the_standard(name):
    fig = FIGURES[name]()
    assert isinstance(fig, matplotlib.figure.Figure)
    fig.canvas.draw()
    assert plots.check_figure(fig) == []
    for ax in fig.axes:                                      # every visible tick label, explicitly
        for label in ax.get_xticklabels() + ax.get_yticklabels():
            if label.get_text():
                assert label.get_fontsize() >= plots.MIN_FONT, (name, label.get_text(), label.get_fontsize())


def _data_points_px(ax):
    pts = [ax.transData.transform(np.column_stack(line.get_data()).astype(float)) for line in ax.get_lines()
           if line.get_transform() == ax.transData]
    return np.vstack(pts)


@pytest.mark.parametrize("name", ["accuracy_vs_length", "leaderboard of nine", "median_band", "accuracy_by_level",
                                  "per_position_loss"])
def test_legend_is_off_the_data(name):
    fig = FIGURES[name]()
    fig.canvas.draw()
    ax = fig.axes[0]
    box = ax.get_legend().get_window_extent()
    pts = _data_points_px(ax)
    inside = (pts[:, 0] >= box.x0) & (pts[:, 0] <= box.x1) & (pts[:, 1] >= box.y0) & (pts[:, 1] <= box.y1)
    assert not inside.any()
    assert box.y1 <= ax.get_window_extent().y0 + 1          # below the axes
    fig_box = fig.bbox
    assert box.x0 >= fig_box.x0 - 1 and box.x1 <= fig_box.x1 + 1 and box.y0 >= fig_box.y0 - 1


def test_landmark_labels_sit_above_the_axes_inside_the_figure():
    """Regression: 'seen D_s' was covered by the legend and 'l = 22' jammed into the corner."""
    fig = FIGURES["accuracy_vs_length"]()
    fig.canvas.draw()
    ax = fig.axes[0]
    top = ax.get_window_extent().y1
    labels = [t for t in ax.texts if t.get_text()]
    assert {t.get_text() for t in labels} == {r"seen $\mathcal{D}_s$", f"frame width l = {L}"}
    boxes = [t.get_window_extent() for t in labels]
    for b in boxes:
        assert b.y0 >= top and b.x0 >= 0 and b.x1 <= fig.bbox.x1
    title = ax.title.get_window_extent()
    assert all(not b.overlaps(title) for b in boxes)
    assert not boxes[0].overlaps(boxes[1])


def test_nine_series_get_nine_colours_and_markers():
    fig = FIGURES["leaderboard of nine"]()
    lines = [line for line in fig.axes[0].get_lines() if not line.get_label().startswith("_")]
    assert len({line.get_color() for line in lines}) == 9 and len({line.get_marker() for line in lines}) == 9


def test_long_rows_wrap_instead_of_shrinking():
    """Regression: the index-hints row made nb01's table so wide that the browser shrank its text to ~7 px."""
    fig = FIGURES["format_table"]()
    assert fig.get_figwidth() <= plots.MAX_WIDTH
    labels = [t.get_text() for t in fig.axes[0].get_yticklabels()]
    assert "index_hints" in labels and "↳ index_hints" in labels
    n_hints = len(encode(Problem(4297, 56, "*"), "index_hints"))
    assert len([t for t in fig.axes[0].texts]) == sum(len(encode(Problem(4297, 56, "*"), n, frame_width=6)) for n in FORMATS)
    assert n_hints > 30


def test_position_table_cells_and_mismatch():
    ex = encode(Problem(653, 49), "cho")
    fig = FIGURES["position_table"]()
    assert len(fig.axes[0].texts) == 4 * len(ex)
    with pytest.raises(ValueError, match="IDs"):
        plots.position_table(ex, {"short": [0, 1]})


def test_big_heatmaps_label_every_kth_cell():
    fig = FIGURES["attention_heatmap (45 tokens)"]()
    ax = fig.axes[0]
    assert 3 <= len(ax.get_xticks()) <= 30 and len(ax.get_yticks()) <= 30
    fig = FIGURES["attention_heatmap (14 tokens)"]()
    assert [t.get_text() for t in fig.axes[0].get_xticklabels()] == list("$653+049=2070$")


def test_relative_vector_map_renders_math_and_keeps_labels_apart():
    fig = FIGURES["relative_vector_map"]()
    assert fig._suptitle.get_text() == "Learned relative vectors $p_{j-i}$, per layer"
    fig.canvas.draw()
    for ax in fig.axes[2:4]:                                 # the norm panels
        boxes = [t.get_window_extent() for t in ax.texts]
        assert len(boxes) == 2 and not boxes[0].overlaps(boxes[1])
        assert "largest:" in ax.get_xlabel()
    with pytest.raises(ValueError):
        plots.relative_vector_map([])


def test_empty_inputs_raise():
    for call in (lambda: plots.accuracy_vs_length({}), lambda: plots.complexity_histogram({}),
                 lambda: plots.per_digit_heatmap({}), lambda: plots.gram_heatmaps({}),
                 lambda: plots.attention_side_by_side({}, []), lambda: plots.token_table({})):
        with pytest.raises(ValueError):
            call()


def test_sigma_and_highlight_table():
    from lengen_utils.core.formats import FormatError, sabbaghi_sigma

    assert sabbaghi_sigma(2, 20) == [1, 2, 22, 23]          # Sabbaghi Section 3.1
    ex = encode(Problem(123, 4095), "sabbaghi", frame_width=20)
    assert [ex.tokens[i] for i in sigma_indices(ex, 2)] == ["2", "3", "9", "5"]
    with pytest.raises(FormatError):
        sabbaghi_sigma(22, 20)
    with pytest.raises(FormatError):
        sigma_indices(encode(Problem(1, 2), "cho"), 1)
    fig = plots.highlight_table(ex, {"σ(1)": sigma_indices(ex, 1)}, outline={"σ(1)": [len(ex) - 1]})
    coloured = [p for p in fig.axes[0].patches if p.get_facecolor()[:3] != (1.0, 1.0, 1.0) and p.get_fill()]
    assert len(coloured) == len(sigma_indices(ex, 1))
    assert plots.check_figure(fig) == []


def test_plots_reexports_the_extraction_helpers_from_interpret():
    assert plots.attention_maps is interpret.attention_maps and plots.relative_vectors is interpret.relative_vectors


def test_notebook_check_and_table(capsys):
    from lengen_utils.course.notebook import check, table

    assert check(..., 3) is None and check([1, 2], (1, 2)) is True and check(5, 4, hint="h") is False
    assert check(1e-6, (100 / 10**5) ** 2) is True
    assert check(np.array([1, 2]), [1, 2]) is True and check(np.int64(3), 3) is True     # arrays, numpy scalars
    assert check(np.array([1, 3]), [1, 2]) is False and check(object(), [1]) is False     # no traceback
    out = capsys.readouterr().out
    assert "Not attempted" in out and "Hint: h" in out
    md = table({"ours": {"k=5": 0.995, "n": 3}, "paper": {"k=5": "≈100%"}})
    text = getattr(md, "data", md)
    assert "99.5%" in text and "≈100%" in text and "| 3 |" in text
    band = getattr(table({"UPE": {"10 dig": (0.9, 0.855, 1.0)}}), "data", None)
    assert "| 90.0 [85.5–100.0] |" in band                  # a (median, min, max) triple, as leaderboards show it


def test_median_band_draws_one_band_per_method_and_checks_its_input():
    """Notebook 05 (Cho et al. Figure 1): median line, seeds' min-max band in the same colour, 95% line."""
    fig = FIGURES["median_band"]()
    ax = fig.axes[0]
    bands = [c for c in ax.collections if c.get_array() is None and len(c.get_paths())]
    lines = {line.get_label(): line for line in ax.get_lines()}
    assert all(m in lines for m in BANDS) and "95% threshold" in lines
    assert len(bands) >= len(BANDS)
    for label, style_ in plots.series_styles(list(BANDS)).items():
        assert any(np.allclose(to_rgb(b.get_facecolor()[0][:3]), to_rgb(style_["color"])) for b in bands), label
    assert [t.get_text() for t in ax.get_legend().get_texts()] == list(BANDS) + ["95% threshold"]
    with pytest.raises(ValueError, match="min <= median <= max"):
        plots.median_band({"x": {5: (0.5, 0.6, 0.9)}})
    with pytest.raises(ValueError, match="at least one"):
        plots.median_band({})

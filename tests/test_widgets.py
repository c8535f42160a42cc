"""The course's shared widgets (lengen_utils.course.widgets), driven programmatically (no browser): controls,
messages, error propagation. Notebook 01's format explorer is tested in tests/ch01/test_format_explorer.py."""
import pytest

pytest.importorskip("ipywidgets")

import matplotlib  # noqa: E402

matplotlib.use("Agg")

from lengen_utils.course import widgets as W  # noqa: E402

FAKE = {
    "ape-2": {1: 1.0, 2: 1.0, 3: 0.0, 4: 0.0},
    "ape-3": {1: 1.0, 2: 1.0, 3: 0.99, 4: 0.02},
}


# -- trained-length explorer -------------------------------------------------------------------------
def make_explorer(**kw):
    calls = []

    def retrain(name):
        calls.append(name)
        return {1: 1.0, 2: 0.5, 3: 0.25, 4: 0.0}

    ex = W.TrainedLengthExplorer({2: "ape-2", 3: "ape-3"}, metrics=FAKE.__getitem__, retrain=retrain, **kw)
    return ex, calls


def test_trained_length_explorer_slider_redraws():
    ex, _ = make_explorer()
    ex.show(2)
    assert "ape-2" in ex.status.value and "First unseen length 3: EM 0.0%" in ex.status.value
    # each fact is kept on one line: a number never wraps away from its label
    assert "<span style='white-space:nowrap'>longest tested (4): EM 0.0%</span>" in ex.status.value
    assert list(ex.last_curves) == ["trained on <= 2 digits (cached)"]
    assert ex.last_figure is not None and len(ex.last_figure.axes[0].lines) == 1
    ex.slider.value = 3          # the observer path
    assert "ape-3" in ex.status.value and "First unseen length 4: EM 2.0%" in ex.status.value
    assert ex.last_curves["trained on <= 3 digits (cached)"][3] == 0.99


def test_trained_length_explorer_unknown_length_message():
    ex, _ = make_explorer(draw=False)
    ex.show(7)
    assert "&#9888;" in ex.status.value and "7" in ex.status.value


@pytest.mark.parametrize("k", [99, 2.5, "3", None])
def test_retrain_unknown_length_names_the_choices(k):
    ex, calls = make_explorer(draw=False)
    with pytest.raises(ValueError, match=r"choose one of \[2, 3\]"):
        ex.retrain(k)
    assert calls == []


def test_axes_and_legend_stay_put_across_slider_positions():
    """The legend once jumped between slider positions and sat on the curve at some of them."""
    ex, _ = make_explorer(reference={"RPE, trained on <= 5": {1: 1.0, 6: 1.0}})
    boxes = []
    for k in (2, 3):
        ex.show(k)
        fig = ex.last_figure
        ax = fig.axes[0]
        assert ax.get_xlim() == pytest.approx((0.3, 6.7))
        fig.canvas.draw()
        leg = ax.get_legend().get_window_extent()
        assert leg.y1 <= ax.get_window_extent().y0           # below the axes, never over a curve
        boxes.append((round(leg.x0), round(leg.y0), round(leg.x1), round(leg.y1)))
    assert boxes[0] == boxes[1]


def test_trained_length_explorer_retrain_button_adds_fresh_curve():
    ex, calls = make_explorer()
    ex.show(3)
    ex._on_retrain()
    assert calls == ["ape-3"]
    assert "trained on <= 3 digits (retrained now)" in ex.last_curves
    assert "differs from the cached one by up to 74.0 points (at length 3)" in ex.status.value
    assert len(ex.last_figure.axes[0].lines) == 2
    colours = [line.get_color() for line in ex.last_figure.axes[0].lines]
    assert colours[0] != colours[1]


def test_retrain_that_reproduces_the_cache_says_so_in_words():
    ex = W.TrainedLengthExplorer({2: "ape-2", 3: "ape-3"}, metrics=FAKE.__getitem__, draw=False,
                                 retrain=lambda name: dict(FAKE[name]))
    ex.retrain(3)
    assert "lies on the cached one" in ex.status.value and "reproduced the cached model" in ex.status.value


def test_retrain_progress_shows_elapsed_and_remaining_time():
    seen = []

    def retrain(name, on_step=None):
        for step in (50, 100, 150, 200):
            on_step(step, 200)
            seen.append(ex.clock.value)
        assert ex.button.disabled and ex.progress.value == 200
        return FAKE[name]

    ex = W.TrainedLengthExplorer({2: "ape-2", 3: "ape-3"}, metrics=FAKE.__getitem__, retrain=retrain, draw=False,
                                 expected=lambda name: "expected about 7 s")
    ex.retrain(2)
    assert "step 50/200" in seen[0] and "elapsed" in seen[0] and "left" in seen[0]
    assert "0 s of training left" in seen[-1]
    assert not ex.button.disabled and ex.clock.value == ""


def test_expected_time_scales_the_recorded_time(monkeypatch):
    from lengen_utils.course.widgets import length_explorer as LE

    monkeypatch.setattr(LE.zoo, "entry_record", lambda name: {"train_seconds": 60.0, "threads": 2})
    monkeypatch.setattr(LE, "_load_factor", lambda: (0.0, 4))
    assert LE.expected_seconds("x", threads=2) == pytest.approx(66.0)      # + 10% for the evaluation
    assert LE.expected_seconds("x", threads=1) == pytest.approx(132.0)     # half the threads it was timed on
    monkeypatch.setattr(LE, "_load_factor", lambda: (6.0, 4))              # 6 busy + 2 ours on 4 cores
    assert LE.expected_seconds("x", threads=2) == pytest.approx(132.0)
    monkeypatch.setattr(LE.torch, "get_num_threads", lambda: 2)
    note = LE.expected_note("x")
    assert "expected about 2:12" in note and "60 s on 2 thread(s)" in note


def test_trained_length_explorer_reference_curves():
    ref = {"RPE, trained on <= 5": {1: 1.0, 4: 1.0}}
    ex, _ = make_explorer(reference=ref, draw=False)
    ex.show(2)
    assert "RPE, trained on <= 5" in ex.last_curves


def test_unexpected_exception_in_slider_callback_propagates():
    def broken(name):
        raise RuntimeError(f"manifest broken for {name}")

    ex = W.TrainedLengthExplorer({2: "ape-2", 3: "ape-3"}, metrics=broken, draw=False)
    with pytest.raises(RuntimeError, match="manifest broken"):
        ex.slider.value = 3 if ex.slider.value != 3 else 2
    with pytest.raises(RuntimeError):
        ex.show()


def test_trained_length_explorer_with_the_real_zoo():
    from lengen_utils.lab import zoo

    built = [n for n in zoo.catalog() if n.startswith("nb02-ape-")]
    manifest = zoo.read_manifest()
    names = {zoo.entry(n).task.max_digits: n for n in built if n in manifest and not zoo.entry(n).task.shift_augment}
    if not names:
        pytest.skip("notebook 02's zoo entries are not built")
    ex = W.TrainedLengthExplorer(names, draw=False)
    k = sorted(names)[0]
    ex.show(k)
    assert names[k] in ex.status.value
    assert ex.expected(k).startswith("expected about ")

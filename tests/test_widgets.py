"""The course widgets, driven programmatically (no browser): controls, messages, error propagation."""
import pytest

pytest.importorskip("ipywidgets")

from lengen_utils import widgets as W  # noqa: E402
from lengen_utils.formats import encode  # noqa: E402
from lengen_utils.problems import Problem  # noqa: E402

FAKE = {
    "ape-2": {1: 1.0, 2: 1.0, 3: 0.0, 4: 0.0},
    "ape-3": {1: 1.0, 2: 1.0, 3: 0.99, 4: 0.02},
}


# -- format explorer ---------------------------------------------------------------------------------
def test_format_explorer_shows_tokens_ids_and_targets():
    ex = W.FormatExplorer(a="653", b="49", fmt="cho", scheme="coupled (Cho)")
    html = ex.html.value
    assert "653+49=702" in html and "$653+049=2070$" in html
    assert "position ID" in html and "target (supervised)" in html
    # Cho's Figure 2 at start 1: $=0, operand digits 2 3 4, operators 5, answer 4 3 2 1
    _, ids = ex.render()
    assert ids == [0, 2, 3, 4, 5, 2, 3, 4, 5, 4, 3, 2, 1, 0]


@pytest.mark.parametrize("fmt", ["plain", "reversed", "padded", "bos_eos", "index_hints", "cho", "sabbaghi"])
@pytest.mark.parametrize("scheme", list(W.SCHEME_CHOICES))
@pytest.mark.parametrize("op", ["+", "*"])
def test_format_explorer_every_combination(fmt, scheme, op):
    ex = W.FormatExplorer(a="1234", b="56", op=op, fmt=fmt, scheme=scheme, frame_width=6)
    assert "<table" in ex.html.value, ex.html.value
    example, ids = ex.render()
    assert len(ids) == len(example)


@pytest.mark.parametrize("a, b, needle", [("12a", "5", "'a'"), ("", "5", "nothing"), ("-3", "4", "negative"),
                                          ("1 2", "4", "' '")])
def test_format_explorer_bad_input_gives_message(a, b, needle):
    ex = W.FormatExplorer()
    html = ex.show(a=a, b=b) and ex.html.value
    assert "&#9888;" in html and needle.replace("'", "&#x27;") in html, html
    assert "<table" not in html


def test_format_explorer_frame_too_small_and_ids_beyond_table():
    ex = W.FormatExplorer()
    ex.show(a="123456", b="7", fmt="sabbaghi", frame_width=3)
    assert "frame width l is 3" in ex.html.value
    ex.show(a="9" * 70, b="1", fmt="plain", scheme="consecutive (APE)")
    assert "max_position" in ex.html.value


def test_format_explorer_observer_redraws_on_change():
    ex = W.FormatExplorer(a="1", b="2", fmt="plain", scheme="consecutive (APE)")
    ex.a.value = "77"
    assert "77+2=79" in ex.html.value
    ex.fmt.value = "reversed"
    assert "77+2=97" in ex.html.value


def test_format_explorer_random_start_changes_with_button():
    ex = W.FormatExplorer(a="12", b="34", fmt="cho", scheme="coupled, random start")
    before = ex.render()[1]
    seen = {tuple(before)}
    for _ in range(5):
        ex._on_redraw()
        seen.add(tuple(ex.render()[1]))
    assert len(seen) > 1


def test_unexpected_exception_in_format_callback_propagates(monkeypatch):
    ex = W.FormatExplorer()

    def broken(*args, **kwargs):
        raise RuntimeError("bug in the library")

    monkeypatch.setattr(W, "example_html", broken)
    with pytest.raises(RuntimeError, match="bug in the library"):
        ex.a.value = "99"          # the traitlets observer path
    with pytest.raises(RuntimeError):
        ex.show(a="5")


def test_scheme_ids_matches_positions_module():
    e = encode(Problem(653, 49), "cho")
    assert W.scheme_ids(e, "consecutive (APE)") == list(range(len(e)))
    with pytest.raises(ValueError, match="unknown scheme"):
        W.scheme_ids(e, "nope")


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
    assert list(ex.last_curves) == ["trained on <= 2 digits (cached)"]
    assert ex.last_figure is not None and len(ex.last_figure.axes[0].lines) == 1
    ex.slider.value = 3          # the observer path
    assert "ape-3" in ex.status.value and "First unseen length 4: EM 2.0%" in ex.status.value
    assert ex.last_curves["trained on <= 3 digits (cached)"][3] == 0.99


def test_trained_length_explorer_unknown_length_message():
    ex, _ = make_explorer(draw=False)
    ex.show(7)
    assert "&#9888;" in ex.status.value and "7" in ex.status.value


def test_trained_length_explorer_retrain_button_adds_fresh_curve():
    ex, calls = make_explorer()
    ex.show(3)
    ex._on_retrain()
    assert calls == ["ape-3"]
    assert "trained on <= 3 digits (retrained now)" in ex.last_curves
    assert "just retrained" in ex.status.value
    assert len(ex.last_figure.axes[0].lines) == 2


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
    from lengen_utils import zoo

    built = [n for n in zoo.catalog() if n.startswith("nb02-ape-")]
    manifest = zoo.read_manifest()
    names = {zoo.entry(n).task.max_digits: n for n in built if n in manifest and not zoo.entry(n).task.shift_augment}
    if not names:
        pytest.skip("notebook 02's zoo entries are not built")
    ex = W.TrainedLengthExplorer(names, draw=False)
    k = sorted(names)[0]
    ex.show(k)
    assert names[k] in ex.status.value

"""Notebook 01's format explorer, driven programmatically (no browser): controls, messages, error propagation."""
import pytest

pytest.importorskip("ipywidgets")

import matplotlib  # noqa: E402

matplotlib.use("Agg")

from lengen_utils.core.formats import FormatError, encode  # noqa: E402
from lengen_utils.core.problems import Problem, ProblemError  # noqa: E402
from lengen_utils.course.ch01_formats import widget as format_explorer  # noqa: E402


# -- format explorer ---------------------------------------------------------------------------------
def test_format_explorer_shows_tokens_ids_and_targets():
    ex = format_explorer.FormatExplorer(a="653", b="49", fmt="cho", scheme="coupled (Cho)")
    html = ex.html.value
    assert "653+49=702" in html and "$653+049=2070$" in html
    assert "position ID" in html and "target (supervised)" in html
    # Cho's Figure 2 at start 1: $=0, operand digits 2 3 4, operators 5, answer 4 3 2 1
    _, ids = ex.render()
    assert ids == [0, 2, 3, 4, 5, 2, 3, 4, 5, 4, 3, 2, 1, 0]


@pytest.mark.parametrize("fmt", ["plain", "reversed", "padded", "bos_eos", "index_hints", "cho", "sabbaghi"])
@pytest.mark.parametrize("scheme", list(format_explorer.SCHEME_CHOICES))
@pytest.mark.parametrize("op", ["+", "*"])
def test_format_explorer_every_combination(fmt, scheme, op):
    ex = format_explorer.FormatExplorer(a="1234", b="56", op=op, fmt=fmt, scheme=scheme, frame_width=6)
    assert "<table" in ex.html.value, ex.html.value
    example, ids = ex.render()
    assert len(ids) == len(example)


@pytest.mark.parametrize("a, b, needle", [("12a", "5", "'a'"), ("", "5", "nothing"), ("-3", "4", "negative"),
                                          ("1 2", "4", "' '")])
def test_format_explorer_bad_input_gives_message(a, b, needle):
    ex = format_explorer.FormatExplorer()
    html = ex.show(a=a, b=b) and ex.html.value
    assert "&#9888;" in html and needle.replace("'", "&#x27;") in html, html
    assert "<table" not in html


def test_format_explorer_frame_too_small_and_ids_beyond_table():
    ex = format_explorer.FormatExplorer()
    ex.show(a="123456", b="7", fmt="sabbaghi", frame_width=3)
    assert "frame width l is 3" in ex.html.value
    ex.show(a="9" * 70, b="1", fmt="plain", scheme="consecutive (APE)")
    assert "max_position" in ex.html.value


def test_format_explorer_observer_redraws_on_change():
    ex = format_explorer.FormatExplorer(a="1", b="2", fmt="plain", scheme="consecutive (APE)")
    ex.a.value = "77"
    assert "77+2=79" in ex.html.value
    ex.fmt.value = "reversed"
    assert "77+2=97" in ex.html.value


def test_format_explorer_random_start_changes_with_button():
    ex = format_explorer.FormatExplorer(a="12", b="34", fmt="cho", scheme="coupled, random start")
    before = ex.render()[1]
    seen = {tuple(before)}
    for _ in range(5):
        ex._on_redraw()
        seen.add(tuple(ex.render()[1]))
    assert len(seen) > 1


def test_unexpected_exception_in_format_callback_propagates(monkeypatch):
    ex = format_explorer.FormatExplorer()

    def broken(*args, **kwargs):
        raise RuntimeError("bug in the library")

    monkeypatch.setattr(format_explorer, "example_html", broken)
    with pytest.raises(RuntimeError, match="bug in the library"):
        ex.a.value = "99"          # the traitlets observer path
    with pytest.raises(RuntimeError):
        ex.show(a="5")


@pytest.mark.parametrize("kwargs, error, needle", [
    ({"frame_width": 40}, FormatError, "1..30"),
    ({"frame_width": 0}, FormatError, "1..30"),
    ({"frame_width": 2.5}, FormatError, "whole number"),
    ({"fmt": "bogus"}, FormatError, "index_hints"),
    ({"op": "-"}, ProblemError, "'-'"),
    ({"scheme": "rope"}, ValueError, "coupled (Cho)"),
])
def test_format_explorer_refuses_bad_choices_from_code(kwargs, error, needle):
    """No silent clamp, no traitlets error: the message names the limit or the choices."""
    with pytest.raises(error, match=needle.replace("(", r"\(").replace(")", r"\)").replace(".", r"\.")):
        format_explorer.FormatExplorer(**kwargs)
    ex = format_explorer.FormatExplorer(a="12", b="34", fmt="sabbaghi", frame_width=6)
    before = (ex.frame.value, ex.fmt.value, ex.op.value, ex.scheme.value, ex.html.value)
    with pytest.raises(error):
        ex.show(a="99", **kwargs)
    assert (ex.frame.value, ex.fmt.value, ex.op.value, ex.scheme.value, ex.html.value) == before  # nothing changed
    assert ex.a.value == "12"


def test_format_explorer_accepts_the_slider_limits():
    ex = format_explorer.FormatExplorer(a="1", b="2", fmt="sabbaghi", frame_width=format_explorer.FormatExplorer.MAX_FRAME)
    assert ex.frame.value == 30 and "<table" in ex.html.value
    ex.show(frame_width=1)
    assert ex.frame.value == 1


def test_scheme_ids_matches_positions_module():
    e = encode(Problem(653, 49), "cho")
    assert format_explorer.scheme_ids(e, "consecutive (APE)") == list(range(len(e)))
    with pytest.raises(ValueError, match="unknown scheme"):
        format_explorer.scheme_ids(e, "nope")

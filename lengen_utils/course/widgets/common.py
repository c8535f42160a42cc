"""What both widgets share: the ipywidgets import (7.7 and 8), hover texts, durations, error messages."""
from __future__ import annotations

import html as _html
from typing import Callable

import numpy as np

from ...core.positions import PositionRangeError
from ...core.problems import ProblemError
from ...core.vocab import FormatError

USER_ERRORS = (ProblemError, FormatError, PositionRangeError)


def _widgets():
    import ipywidgets

    return ipywidgets


def _tip(widget, text: str):
    """Set a hover text on ipywidgets 7 (``description_tooltip``; ``tooltip`` on buttons) and 8 (``tooltip``)."""
    if widget.has_trait("tooltip"):
        widget.tooltip = text
    elif widget.has_trait("description_tooltip"):
        widget.description_tooltip = text
    return widget


def _duration(seconds: float) -> str:
    seconds = max(0, int(round(seconds)))
    return f"{seconds // 60}:{seconds % 60:02d}" if seconds >= 60 else f"{seconds} s"


def show_figure(out, make_figure):
    """Replace what the Output ``out`` shows with the figure ``make_figure()`` draws; return the figure
    (closed after display, so it is not drawn a second time by the notebook's inline backend)."""
    import matplotlib.pyplot as plt
    from IPython.display import display

    out.clear_output(wait=True)
    with out:
        fig = make_figure()
        display(fig)
        plt.close(fig)
    return fig


def error_html(message: str) -> str:
    return f"<div style='color:#b00020;font-weight:bold'>&#9888; {_html.escape(message)}</div>"


def on_screen(status, action: Callable[..., object]) -> Callable[..., None]:
    """A widget callback running ``action``: an exception is written into ``status`` (an HTML widget the
    learner sees, instead of a stale "Evaluating ..."), then re-raised so that the log has it too
    (ipywidgets swallows a callback's exception into its log)."""
    def callback(*args) -> None:
        try:
            action(*args)
        except Exception as err:
            status.value = error_html(f"{type(err).__name__}: {err}")
            raise
    return callback


def check_positive(value, name: str) -> int:
    """``value`` if it is a whole number >= 1, else ``ValueError`` naming ``name`` (for constructors)."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
        raise ValueError(f"{name} must be a whole number >= 1, got {value!r}")
    return int(value)


__all__ = ["USER_ERRORS", "error_html", "show_figure", "on_screen", "check_positive"]

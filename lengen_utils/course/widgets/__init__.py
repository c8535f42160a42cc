"""The course's interactive widgets (the ipywidgets 7.7 API, so they also run on Colab; tested on 8).

The widgets that serve several notebooks are here; a chapter's own widget lives in its folder (``widget.py``),
listed last.

* :class:`TrainedLengthExplorer` -- a slider over the trained length that redraws accuracy against
  test length from cached zoo results (instant), and a button that retrains the chosen setting live
  on this machine (never writes ``assets/``). The button states the expected time up front, from the
  entry's recorded training time and this machine's threads and load (:func:`expected_seconds`),
  and shows elapsed and remaining time with its progress bar.
* :class:`FlagshipRetrainer` -- notebooks 00 and 05: pick a seed of the one-minute flagship, retrain it live with a
  progress bar (the recorded time said up front), and test it on 10- to 1000-digit sums beside the cached model.
* :class:`~lengen_utils.course.ch01_formats.widget.FormatExplorer` -- notebook 01: type two operands, pick an
  operation, a format and a position-ID scheme, and see the tokens, the position IDs and the supervised positions.
* :class:`~lengen_utils.course.ch04_upe.widget.MultiplicationExplorer` -- notebook 04: pick the encoding, the
  multiplier's length and the trained length, see the median exact-match curve over seeds, re-evaluate one
  checkpoint live.
* :class:`~lengen_utils.course.ch05_coupling.widget.CouplingExplorer` -- notebooks 05 and 08: pick a trained length
  and a position-coupling method, see the median exact match over seeds with its spread and Cho et al.'s
  generalizable length.
* :class:`~lengen_utils.course.ch09_nxm.widget.GridExplorer` -- notebook 09: pick N and M, see the cached seeds
  multiply an N-digit by an M-digit number (recorded and live exact match, the scratchpad with its wrong tokens in
  red).

Every widget takes its data as arguments and keep what they last showed in plain attributes
(``html.value``, ``status.value``, ``last_figure``, ``last_curves``), so they are tested without a
browser. Only expected input errors (:class:`ProblemError`, :class:`FormatError`,
:class:`PositionRangeError`) are caught and shown as a message; any other exception in a callback is
written on the widget (:func:`~lengen_utils.course.widgets.common.on_screen`, so the learner sees it, not only
the log) and propagates, so a broken widget fails the notebook test instead of failing silently.
Constructors check their arguments as ``show`` does. Bad arguments
from code (an unknown format, a frame width outside the slider, a trained length with no entry) raise
at once with a message that names the valid choices; nothing is clamped or guessed.
"""
from __future__ import annotations

from .common import USER_ERRORS, error_html
from .flagship_retrain import FlagshipRetrainer, retrain_flagship
from .length_explorer import TrainedLengthExplorer, expected_note, expected_seconds, retrain_entry

__all__ = ["TrainedLengthExplorer", "USER_ERRORS", "error_html", "retrain_entry", "expected_seconds", "expected_note",
           "FlagshipRetrainer", "retrain_flagship"]

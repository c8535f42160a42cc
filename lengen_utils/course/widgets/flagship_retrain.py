"""The flagship's retrain button (notebooks 00 and 05): train the one-minute flagship from scratch here, with a
progress bar, and test it on 10- to 1000-digit sums beside the cached model.

The button says up front how long the recorded training took (the manifest's ``train_seconds``, on its recorded
threads) and what that predicts here (:func:`~lengen_utils.course.widgets.length_explorer.expected_note`). Training
stops when the recipe's stopping rule finds the trained lengths mastered, so the bar may end before its last step.
Nothing is written to ``assets/``.
"""
from __future__ import annotations

import html as _html
import time
from typing import Callable, Mapping

import torch

from ...core.device import device_label, pick_device
from ...core.evaluate import evaluate_length
from ...core.tasks import Task
from ...lab import zoo
from .common import _duration, _tip, _widgets, check_positive, on_screen
from .length_explorer import expected_note

ENTRY = "flagship-minute-s0"
LIVE_LENGTHS = (10, 100, 500, 1000)     # operand lengths tested after a live retrain
LIVE_N = 100                            # problems per length (1000-digit sums: a few seconds on one thread)


def retrain_flagship(name: str = ENTRY, lengths=LIVE_LENGTHS, n: int = LIVE_N,
                     on_step: Callable[[int, int], None] | None = None, device: torch.device | str | None = None,
                     steps: int | None = None) -> dict:
    """Train zoo entry ``name`` from its seed here and test it; returns ``{"seconds", "steps", "planned_steps",
    "em": {length: exact match}}``. ``on_step(step, planned)`` is called at every logged step; ``steps`` shortens
    the schedule (a test). The cached file and the manifest are not touched."""
    e = zoo.entry(name)
    planned = steps or e.train.steps
    callback = None if on_step is None else (lambda step, _loss: on_step(step, planned))
    model, result = zoo.train_entry(e, progress=on_step is None, callback=callback, steps=steps,
                                    device=pick_device(None if device is None else str(device)))
    task = Task(e.task)
    em = {k: evaluate_length(model, task, k, n=n).exact_match for k in lengths}
    return {"seconds": result.seconds, "steps": result.steps, "planned_steps": planned, "em": em}


class FlagshipRetrainer:
    """A button that retrains the one-minute flagship live and a table of its exact match beside the cached model's.

    ``retrain`` (default :func:`retrain_flagship`) and ``cached`` (default: the manifest's metrics of ``name``) can
    be replaced, e.g. in tests; ``n`` is the number of live test problems per length."""

    def __init__(self, name: str = ENTRY, n: int = LIVE_N, *, retrain: Callable[..., Mapping] | None = None,
                 cached: Mapping[int, float] | None = None, device: torch.device | str | None = None):
        w = _widgets()
        zoo.entry(name)                            # an unknown name is refused here, with the zoo's names
        self.name, self.n = name, check_positive(n, "n (live test problems per length)")
        self.retrain_fn = retrain or retrain_flagship
        self.cached = ({int(k): float(v) for k, v in cached.items()} if cached is not None
                       else {int(k): float(v) for k, v in zoo.metrics(name).items()})
        self.device = pick_device(None if device is None else str(device))
        self.last: dict | None = None
        self.button = _tip(w.Button(description=f"retrain the flagship live on {self.device.type.upper()}",
                                    button_style="warning", icon="play", layout=w.Layout(width="auto")),
                           f"train {name} from scratch on this machine's {device_label(self.device)} "
                           f"(the cached file is not touched)")
        self.progress = w.IntProgress(value=0, min=0, max=1, layout=w.Layout(width="240px", visibility="hidden"))
        self.clock, self.status, self.table = w.HTML(), w.HTML(), w.HTML()
        self.status.value = self.promise()
        self.button.on_click(on_screen(self.status, lambda _b: self.retrain()))
        self.widget = w.VBox([w.HBox([self.button, self.progress, self.clock]), self.status, self.table])

    def promise(self) -> str:
        """What the button promises before it runs: the recorded time and the estimate here."""
        return (f"<b>{_html.escape(self.name)}</b>: {_html.escape(expected_note(self.name, self.device))}. "
                f"Training stops as soon as the validation sums at the trained lengths are all right.")

    def retrain(self) -> dict:
        """Train here (progress bar, elapsed time), then show the live exact match beside the cached one."""
        t0 = time.perf_counter()
        self.progress.layout.visibility = "visible"

        def on_step(step: int, planned: int) -> None:
            self.progress.max, self.progress.value = planned, step
            self.clock.value = f"step {step} of at most {planned} &middot; {_duration(time.perf_counter() - t0)}"

        self.button.disabled = True
        self.status.value = f"Training <b>{_html.escape(self.name)}</b> from scratch here..."
        try:
            kwargs = {"n": self.n, "on_step": on_step}
            if self.retrain_fn is retrain_flagship:
                kwargs["device"] = self.device
            result = self.retrain_fn(self.name, **kwargs)
        finally:
            self.button.disabled = False
            self.progress.layout.visibility = "hidden"
        self.last = {**result, "em": {int(k): float(v) for k, v in result["em"].items()}}
        stopped = (f"the stopping rule ended it at step {result['steps']} of {result['planned_steps']}"
                   if result["steps"] < result["planned_steps"] else f"all {result['steps']} steps ran")
        self.clock.value = ""
        self.status.value = (f"Trained here in <b>{result['seconds']:.0f} s</b> ({stopped}), then tested on "
                             f"{self.n} sums per length.")
        self.table.value = self.table_html()
        return self.last

    def table_html(self) -> str:
        """Exact match per length: the cached model's (its own test sets) and the one trained here."""
        rows = "".join(f"<tr><td>{k}</td><td>{self._pct(self.cached.get(k))}</td>"
                       f"<td>{self._pct(self.last['em'][k])}</td></tr>" for k in self.last["em"])
        return ("<table><tr><th>operand digits</th><th>cached model</th><th>trained here</th></tr>"
                f"{rows}</table>")

    @staticmethod
    def _pct(value: float | None) -> str:
        return "-" if value is None else f"{100 * value:.1f}%"

    def _ipython_display_(self):
        from IPython.display import display

        display(self.widget)


__all__ = ["ENTRY", "FlagshipRetrainer", "retrain_flagship"]

"""The flagship's retrain button (notebooks 00 and 05): pick a seed of the one-minute flagship, train it from scratch
here with a progress bar, and test it on 10- to 1000-digit sums beside the cached model.

The button says up front how long the recorded training took (the manifest's ``train_seconds``, on its recorded
threads) and what that predicts here (:func:`~lengen_utils.course.widgets.length_explorer.expected_note`).
Nothing is written to ``assets/``.
"""
from __future__ import annotations

import html as _html
import inspect
import time
from typing import Callable, Mapping

import torch

from ...core.device import device_label, pick_device
from ...core.evaluate import evaluate_length
from ...core.tasks import Task
from ...lab import zoo
from .common import _duration, _tip, _widgets, check_positive, on_screen
from .length_explorer import expected_note

RECIPE = zoo.with_one_role("flagship:one-minute").id     # the one-minute flagship (lab.zoo.flagship.minute_recipe)
ENTRY = zoo.entry_for(RECIPE, 0).name                     # its seed 0
LIVE_LENGTHS = (10, 100, 500, 1000)     # operand lengths tested after a live retrain
LIVE_N = 100                            # problems per length (1000-digit sums: a few seconds on one thread)


def retrain_flagship(name: str = ENTRY, lengths=LIVE_LENGTHS, n: int = LIVE_N,
                     on_step: Callable[[int, int], None] | None = None, device: torch.device | str | None = None,
                     steps: int | None = None) -> dict:
    """Train zoo entry ``name`` from its seed here and test it; returns ``{"seconds", "steps", "em": {length: exact
    match}}``. ``on_step(step, steps)`` is called at every logged step; ``steps`` shortens the schedule (a test).
    The cached file and the manifest are not touched."""
    e = zoo.entry(name)
    planned = steps or e.train.steps
    callback = None if on_step is None else (lambda step, _loss: on_step(step, planned))
    model, result = zoo.train_entry(e, progress=on_step is None, callback=callback, steps=steps,
                                    device=pick_device(None if device is None else str(device)))
    task = Task(e.task)
    em = {k: evaluate_length(model, task, k, n=n).exact_match for k in lengths}
    return {"seconds": result.seconds, "steps": result.steps, "em": em}


class FlagshipRetrainer:
    """A seed menu, a button that retrains that seed of the one-minute flagship live, and a table of its exact match
    beside the cached model's.

    ``retrain`` (default :func:`retrain_flagship`) and ``cached`` (``name -> {length: EM}``, default the manifest's
    metrics) can be replaced, e.g. in tests; ``n`` is the number of live test problems per length."""

    def __init__(self, recipe: str = RECIPE, seed: int = 0, n: int = LIVE_N, *,
                 retrain: Callable[..., Mapping] | None = None,
                 cached: Callable[[str], Mapping[int, float]] | None = None,
                 device: torch.device | str | None = None, noun: str = "sums", what: str = "the flagship"):
        w = _widgets()
        self.noun = noun
        self.entries = zoo.recipe_entries(recipe)
        if not self.entries:
            raise ValueError(f"no zoo recipe {recipe!r}; the flagship's is {RECIPE!r}")
        zoo.entry_for(recipe, seed)                # a seed the recipe lacks is refused here, naming its seeds
        self.recipe, self.n = recipe, check_positive(n, "n (live test problems per length)")
        self.retrain_fn = retrain or retrain_flagship
        self.cached_fn = cached or zoo.metrics
        self.device = pick_device(None if device is None else str(device))
        self.last: dict | None = None
        self.seed = w.Dropdown(options=list(self.entries), value=seed, description="seed")
        self.button = _tip(w.Button(description=f"retrain {what} live on {self.device.type.upper()}",
                                    button_style="warning", icon="play", layout=w.Layout(width="auto")),
                           f"train the chosen seed from scratch on this machine's {device_label(self.device)} "
                           f"(the cached file is not touched)")
        self.progress = w.IntProgress(value=0, min=0, max=1, layout=w.Layout(width="240px", visibility="hidden"))
        self.clock, self.status, self.table = w.HTML(), w.HTML(), w.HTML()
        self.seed.observe(on_screen(self.status, lambda _change: self.show()), names="value")
        self.button.on_click(on_screen(self.status, lambda _b: self.retrain()))
        self.widget = w.VBox([w.HBox([self.seed, self.button, self.progress, self.clock]), self.status, self.table])
        self.show()

    @property
    def name(self) -> str:
        """The zoo entry of the chosen seed."""
        return self.entries[self.seed.value]

    def cached(self) -> dict[int, float]:
        """The chosen seed's recorded exact match per length (its own test sets)."""
        return {int(k): float(v) for k, v in self.cached_fn(self.name).items()}

    def promise(self) -> str:
        """What the button promises before it runs: the recorded time and the estimate here."""
        return f"<b>{_html.escape(self.name)}</b>: {_html.escape(expected_note(self.name, self.device))}."

    def show(self) -> None:
        """The chosen seed's promise and its cached exact match (the live column once it is retrained)."""
        self.last = None
        self.status.value = self.promise()
        self.table.value = self.table_html()

    def retrain(self) -> dict:
        """Train the chosen seed here (progress bar, elapsed time), then show its exact match beside the cached one."""
        t0 = time.perf_counter()
        self.progress.layout.visibility = "visible"

        def on_step(step: int, planned: int) -> None:
            self.progress.max, self.progress.value = planned, step
            self.clock.value = f"step {step} of {planned} &middot; {_duration(time.perf_counter() - t0)}"

        self.button.disabled = self.seed.disabled = True
        self.status.value = f"Training <b>{_html.escape(self.name)}</b> from scratch here..."
        try:
            kwargs = {"n": self.n, "on_step": on_step}
            if "device" in inspect.signature(self.retrain_fn).parameters:
                kwargs["device"] = self.device
            result = self.retrain_fn(self.name, **kwargs)
        finally:
            self.button.disabled = self.seed.disabled = False
            self.progress.layout.visibility = "hidden"
        self.last = {**result, "em": {int(k): float(v) for k, v in result["em"].items()}}
        self.clock.value = ""
        self.status.value = (f"<b>{_html.escape(self.name)}</b> trained here in <b>{result['seconds']:.0f} s</b> "
                             f"({result['steps']} steps), then tested on {self.n} fresh {self.noun} per length.")
        self.table.value = self.table_html()
        return self.last

    def table_html(self) -> str:
        """Exact match per length: the cached model's (its own test sets) and, after a retrain, the one trained here."""
        cached = self.cached()
        lengths = list(self.last["em"]) if self.last else [k for k in LIVE_LENGTHS if k in cached] or sorted(cached)
        live = "<th>trained here</th>" if self.last else ""
        rows = "".join(f"<tr><td>{k}</td><td>{self._pct(cached.get(k))}</td>"
                       + (f"<td>{self._pct(self.last['em'][k])}</td>" if self.last else "") + "</tr>"
                       for k in lengths)
        return f"<table><tr><th>operand digits</th><th>cached model</th>{live}</tr>{rows}</table>"

    @staticmethod
    def _pct(value: float | None) -> str:
        return "-" if value is None else f"{100 * value:.1f}%"

    def _ipython_display_(self):
        from IPython.display import display

        display(self.widget)


__all__ = ["ENTRY", "RECIPE", "FlagshipRetrainer", "retrain_flagship"]

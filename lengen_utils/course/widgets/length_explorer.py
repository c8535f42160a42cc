"""The trained-length explorer: a slider over the trained length (cached zoo results, instant) and a
button that retrains the chosen entry live, with an honest time estimate (notebooks 02, 03)."""
from __future__ import annotations

import functools
import html as _html
import inspect
import os
import time
from typing import Callable, Mapping, Sequence

import numpy as np
import torch

from ...lab import zoo
from ...lab.experiment.entry import ZooEntry
from ...lab.experiment.recipe import RecipeTable
from ...core.config_checks import int_refusal
from ...core.device import device_label, pick_device
from ...core.evaluate import evaluate_lengths
from ..plots import accuracy_vs_length
from ...core.tasks import Task
from .common import _duration, _tip, _widgets, error_html, on_screen, show_figure

class TrainedLengthExplorer:
    """Accuracy against test length for the model trained on lengths <= the slider's value.

    ``names[trained_length]`` is a zoo entry; ``metrics(name)`` returns its cached ``{length: EM}``
    (default :func:`lengen_utils.lab.zoo.metrics`, no model loading, so the slider answers at once);
    ``retrain(name)`` trains that entry from scratch here and returns the fresh ``{length: EM}``
    (default :func:`retrain_entry`; a callable with an ``on_step`` parameter feeds the progress bar).
    ``reference`` curves (e.g. another encoding) are drawn too, in grey. The axes, the colours and the
    legend (below the plot) stay put while the slider moves. ``expected(name)`` says in words how
    long a retrain takes (default :func:`expected_note` for the real zoo; none for custom metrics).
    ``device`` is where the button trains (default :func:`~lengen_utils.core.device.pick_device`: CUDA when
    there is a GPU, as in a Colab GPU runtime); the button and its status name it, and ``retrain``
    receives it when it has a ``device`` parameter. ``unseen[trained_length]`` is an entry that is not cached (a
    table's variant at a value no row has, :meth:`RecipeTable.at`): the slider offers it, and the button trains
    it here. :meth:`from_table` builds both from a recipe table's axis.
    """

    SAME = 0.005          # curves closer than half a percentage point everywhere "coincide"

    def __init__(self, names: Mapping[int, str], *, metrics: Callable[[str], Mapping[int, float]] | None = None,
                 retrain: Callable[..., Mapping[int, float]] | None = None, title: str = "",
                 reference: Mapping[str, Mapping[int, float]] | None = None, marks: Mapping[str, float] | None = None,
                 label: str = "trained on <= {k} digits", draw: bool = True,
                 expected: Callable[[str], str] | None = None, device: torch.device | str | None = None,
                 unseen: Mapping[int, ZooEntry] | None = None):
        if not names:
            raise ValueError("TrainedLengthExplorer needs at least one zoo entry")
        unseen = dict(unseen or {})
        odd = {k: v for k, v in unseen.items() if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or k < 1
               or k in names or not isinstance(v, ZooEntry)}
        if odd:
            raise ValueError(f"unseen maps a trained length that has no cached entry (a whole number >= 1) to the "
                             f"ZooEntry to train there; got {odd!r}")
        bad = {k: v for k, v in names.items()
               if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or k < 1 or not isinstance(v, str)}
        if bad:
            raise ValueError(f"names maps a trained length (a whole number >= 1) to a zoo entry name (a string); "
                             f"got {bad!r}")
        w = _widgets()
        self.names = {int(k): v for k, v in sorted(names.items())}
        self.unseen = {int(k): v for k, v in sorted(unseen.items())}
        self.metrics_fn = metrics or zoo.metrics
        self.retrain_fn = retrain or retrain_entry
        self.device = pick_device(None if device is None else str(device))
        self.expected_fn = expected or (functools.partial(expected_note, device=self.device) if metrics is None
                                        else None)
        self.title, self.reference, self.marks, self.label, self.draw = title, dict(reference or {}), marks, label, draw
        self.fresh: dict[int, dict[int, float]] = {}          # live retrained curves, by trained length
        self.last_curves: dict[str, dict[int, float]] = {}
        self.last_figure = None
        self.slider = w.SelectionSlider(options=sorted({*self.names, *self.unseen}),
                                        value=list(self.names)[len(self.names) // 2],
                                        description="trained ≤", continuous_update=False)
        self.button = _tip(w.Button(description=f"retrain live on {self.device.type.upper()}", button_style="warning",
                                    icon="play", layout=w.Layout(width="auto")),
                           f"train this setting from scratch on this machine's {device_label(self.device)} "
                           f"(the cached file is not touched)")
        self.status = w.HTML()
        self.progress = w.IntProgress(value=0, min=0, max=1, layout=w.Layout(width="240px", visibility="hidden"))
        self.clock = w.HTML()
        self.out = w.Output()
        self.slider.observe(on_screen(self.status, self._on_slide), names="value")
        self.button.on_click(on_screen(self.status, self._on_retrain))
        self.widget = w.VBox([w.HBox([self.slider, self.button]), w.HBox([self.progress, self.clock]),
                              self.status, self.out])

    @classmethod
    def from_table(cls, table: RecipeTable, axis: str = "trained_length", *, where: Mapping[str, object] | None = None,
                   unseen: Sequence[int] = (), **kwargs) -> "TrainedLengthExplorer":
        """The explorer of ``table``'s rows along ``axis`` (those matching ``where``): each cached row's first seed,
        and at each ``unseen`` value the table's variant there (:meth:`RecipeTable.at`), which the button trains
        live. A value the configs refuse raises ``ValueError`` naming the limit."""
        where = dict(where or {})
        names = {value: table.one(**{**where, axis: value}).entries()[0].name for value in table.along(axis, **where)}
        fresh = {value: table.at(axis, value, **where).entries()[0] for value in unseen}
        return cls(names, unseen=fresh, **kwargs)

    def _on_slide(self, change) -> None:
        self.show(change["new"])

    def _on_retrain(self, _button=None) -> None:
        self.retrain(self.slider.value)

    def refusal(self, k: object) -> str | None:
        """Why trained length ``k`` cannot be shown (a sentence), or None when it can: a ``k`` that is not an int
        (``'10'``, as ``input()`` returns it) is refused by its type, not reported missing among the choices."""
        why = int_refusal(k, "the trained length")
        if why is None and int(k) not in self.names and int(k) not in self.unseen:
            why = f"no cached model trained on {k!r} digits"
        return None if why is None else f"{why}; choose one of {sorted({*self.names, *self.unseen})}"

    def _check(self, k: object) -> int:
        why = self.refusal(k)
        if why is not None:
            raise ValueError(why)
        return int(k)

    def cached(self, k: int) -> dict[int, float]:
        """The cached ``{length: EM}`` of the model trained on lengths <= ``k`` (``ValueError`` for another ``k``, and
        for an unseen one, which only the button trains)."""
        if self._check(k) not in self.names:
            raise ValueError(f"no model trained on at most {k} digits is cached; the retrain button trains one here")
        return {int(x): float(y) for x, y in self.metrics_fn(self.names[k]).items()}

    def curves(self, k: int) -> dict[str, dict[int, float]]:
        if k in self.names:
            curves = {self.label.format(k=k) + " (cached)": self.cached(k)}
        else:       # an unseen value: its cached neighbours, between which its curve should fall once trained
            below, above = [v for v in self.names if v < k][-1:], [v for v in self.names if v > k][:1]
            curves = {self.label.format(k=v) + " (cached)": self.cached(v) for v in below + above}
        if k in self.fresh:
            curves[self.label.format(k=k) + " (retrained now)"] = self.fresh[k]
        curves.update(self.reference)
        return curves

    def agreement(self, k: int) -> str:
        """In words: does the curve retrained here lie on the cached one?"""
        cached, fresh = self.cached(k), self.fresh[k]
        gaps = {x: abs(fresh[x] - cached[x]) for x in fresh if x in cached}
        if not gaps:
            return "The retrained model was tested at other lengths than the cached one."
        worst = max(gaps, key=gaps.get)
        if gaps[worst] <= self.SAME:
            return (f"The retrained curve lies on the cached one (largest gap {100 * gaps[worst]:.1f} points), "
                    f"so the dashed line hides under it: from the same seed, this machine reproduced the cached model.")
        why = (": small gaps come from another machine, thread count or library version" if gaps[worst] <= 0.05
               else "")
        return (f"The retrained curve (dashed) differs from the cached one by up to {100 * gaps[worst]:.1f} "
                f"points (at length {worst}){why}.")

    def summary(self, k: int) -> str:
        if k not in self.names and k not in self.fresh:
            return (f"<b>{_html.escape(self.unseen[k].name)}</b>: no model trained on at most {k} digits is cached; "
                    f"the button trains one here ({_html.escape(self.unseen[k].description)}).")
        em = self.cached(k) if k in self.names else self.fresh[k]
        inside = [v for x, v in em.items() if x <= k]
        outside = {x: v for x, v in em.items() if x > k}
        facts = []
        if inside:
            facts.append(f"Seen lengths: mean EM {100 * np.mean(inside):.1f}%")
        if outside:
            first, last = min(outside), max(outside)
            facts.append(f"First unseen length {first}: EM {100 * outside[first]:.1f}%")
            facts.append(f"longest tested ({last}): EM {100 * outside[last]:.1f}%")
        span = "<span style='white-space:nowrap'>{}</span>"
        name = self.names[k] if k in self.names else f"{self.unseen[k].name} (trained here, not cached)"
        lines = [f"<b>{_html.escape(name)}</b>: trained on operands of at most {k} digits.",
                 " &middot; ".join(span.format(f) for f in facts)]
        if k in self.fresh and k in self.names:
            lines.append(_html.escape(self.agreement(k)))
        return "<div style='line-height:1.5'>" + "<br>".join(x for x in lines if x) + "</div>"

    def xlim(self) -> tuple[float, float]:
        """One x range for every slider position (all entries and references), so the axes never jump."""
        xs = [int(x) for k in self.names for x in self.metrics_fn(self.names[k])]
        xs += [int(x) for e in self.unseen.values() for x in e.eval_lengths]
        xs += [int(x) for c in self.reference.values() for x in c]
        return (min(xs) - 0.7, max(xs) + 0.7)

    def show(self, k: int | None = None):
        """Select trained length ``k`` (or keep the current one), redraw, and return the widget."""
        if k is not None:
            why = self.refusal(k)
            if why is not None:
                self.status.value = error_html(why)
                return self.widget
            if self.slider.value != int(k):
                self.slider.value = int(k)      # the observer redraws
                return self.widget
        k = self.slider.value
        self.last_curves = self.curves(k)
        self.status.value = self.summary(k)
        if self.draw:
            self._plot(k)
        return self.widget

    def figure(self, k: int):
        """The figure the widget shows at slider position ``k``."""
        k = self._check(k)
        curves = self.curves(k)
        styles = {lab: {"linestyle": "--", "marker": "o", "markersize": 9, "markerfacecolor": "none",
                        "markeredgewidth": 1.5} for lab in curves if "retrained" in lab}
        styles.update({lab: {"color": "0.55", "linewidth": 1.4, "marker": "."} for lab in self.reference})
        return accuracy_vs_length(curves, trained_length=k, marks=self.marks, styles=styles, xlim=self.xlim(),
                                  title=self.title or f"trained on at most {k} digits")

    def _plot(self, k: int) -> None:
        self.last_figure = show_figure(self.out, lambda: self.figure(k))

    def expected(self, k: int) -> str:
        """The time the retrain button promises, in words (empty when unknown); for an unseen value, that of the
        nearest cached one (the same recipe but for the axis)."""
        k = self._check(k)
        if self.expected_fn is None:
            return ""
        if k in self.names:
            return self.expected_fn(self.names[k])
        nearest = min(self.names, key=lambda have: (abs(have - k), have))
        return f"as for {nearest} digits, {self.expected_fn(self.names[nearest])}"

    def retrain(self, k: int) -> dict[int, float]:
        """Train the entry for ``k`` from scratch here (progress bar with elapsed and remaining time), then redraw."""
        k = self._check(k)
        target = self.names[k] if k in self.names else self.unseen[k]      # an unseen value: its ZooEntry
        name = target if isinstance(target, str) else target.name
        promise = self.expected(k)
        self.status.value = (f"Retraining <b>{_html.escape(name)}</b> on this machine's "
                             f"{_html.escape(device_label(self.device))} (the cached file is not touched)"
                             f"{': ' + _html.escape(promise) if promise else ''}.")
        kwargs = {}
        parameters = inspect.signature(self.retrain_fn).parameters
        if "device" in parameters:
            kwargs["device"] = self.device
        if "on_step" in parameters:
            t0 = time.perf_counter()
            self.progress.layout.visibility = "visible"

            def on_step(step: int, total: int) -> None:
                elapsed = time.perf_counter() - t0
                self.progress.max, self.progress.value = total, step
                left = elapsed / max(step, 1) * (total - step)
                self.clock.value = (f"step {step}/{total} &middot; elapsed {_duration(elapsed)} &middot; "
                                    f"about {_duration(left)} of training left")
            kwargs["on_step"] = on_step
        self.button.disabled = True
        failure: Exception | None = None
        try:
            with self.out:        # an Output widget swallows exceptions raised inside it: carry them out
                try:
                    fresh = self.retrain_fn(target, **kwargs)
                except Exception as err:
                    failure = err
        finally:
            self.button.disabled = False
            self.progress.layout.visibility = "hidden"
        if failure is not None:
            raise failure
        self.fresh[k] = {int(x): float(y) for x, y in fresh.items()}
        self.clock.value = ""
        self.show(k)
        return self.fresh[k]

    def _ipython_display_(self):
        from IPython.display import display

        display(self.widget)


def _load_factor() -> tuple[float, int]:
    cores = os.cpu_count() or 1
    try:
        load = os.getloadavg()[0]
    except (AttributeError, OSError):
        load = 0.0
    return load, cores


def expected_seconds(name: str, threads: int | None = None) -> float:
    """Seconds a live retrain of zoo entry ``name`` should take here: the manifest's ``train_seconds``
    (measured on ``threads`` recorded there), times recorded/available threads when this process has
    fewer, times the CPU oversubscription (1-minute load average plus our threads, over the cores),
    plus 10% for the evaluation. An estimate: the progress bar then measures the real rate."""
    record = zoo.entry_record(name)
    base, recorded = float(record["train_seconds"]), int(record.get("threads") or 1)
    here = threads or torch.get_num_threads()
    load, cores = _load_factor()
    return base * max(1.0, recorded / here) * max(1.0, (load + here) / cores) * 1.1


def expected_note(name: str, device: torch.device | str | None = None) -> str:
    """:func:`expected_seconds` in words, with what it was computed from. Training on another kind of
    device than the recorded one (a GPU for a time measured on CPU threads) gets no estimate, only the
    recorded time: the progress bar then measures the rate. ``device`` defaults to :func:`pick_device`'s."""
    record = zoo.entry_record(name)
    here = pick_device() if device is None else torch.device(device)     # where retrain_entry trains
    recorded_on = torch.device(record.get("device") or "cpu")
    if here.type != recorded_on.type:
        return (f"no estimate for {here.type}: the recorded training took {float(record['train_seconds']):.0f} s "
                f"on {recorded_on.type} with {record.get('threads') or 1} thread(s); the progress bar shows the "
                f"rate here")
    load, cores = _load_factor()
    return (f"expected about {_duration(expected_seconds(name))}: the recorded training took "
            f"{float(record['train_seconds']):.0f} s on {record.get('threads') or 1} thread(s); this kernel uses "
            f"{torch.get_num_threads()} thread(s) on {cores} core(s) with a load of {load:.1f}")


def retrain_entry(name: str | ZooEntry, n: int | None = None, progress: bool = True,
                  on_step: Callable[[int, int], None] | None = None,
                  device: torch.device | str | None = None) -> dict[int, float]:
    """Train zoo entry ``name`` (or an unregistered :class:`ZooEntry`, a table's variant) from its seed in this
    process and measure EM at its lengths.

    Trains with ``zoo.train_entry`` (the entry's seeded initialisation and training config) on
    ``device`` (default :func:`~lengen_utils.core.device.pick_device`: CUDA when there is a GPU).
    Nothing is written to ``assets/`` (the cached checkpoint and manifest stay as they are).
    ``n`` overrides the number of test problems per length (default: the entry's own ``eval_n``);
    ``on_step(step, total)`` is called every 50 steps (and replaces the text progress bar).
    """
    e = name if isinstance(name, ZooEntry) else zoo.entry(name)
    callback = None if on_step is None else (lambda step, _loss: on_step(step, e.train.steps))
    model, _ = zoo.train_entry(e, progress=progress and on_step is None, callback=callback,
                               device=pick_device(None if device is None else str(device)))
    results = evaluate_lengths(model, Task(e.task), e.eval_lengths, n=n or e.eval_n)
    return {k: r.exact_match for k, r in results.items()}


__all__ = ["TrainedLengthExplorer", "expected_seconds", "expected_note", "retrain_entry"]

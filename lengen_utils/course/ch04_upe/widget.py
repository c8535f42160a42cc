"""The multiplication explorer of notebook 04: pick the encoding (APE, RPE, UPE), the multiplier's
length and the trained multiplicand length, and see exact match against the multiplicand's length
(median over the seeds in the zoo, the seeds' range as a band), from the manifest, at once. A button
re-evaluates one seed's cached checkpoint live on a few problems per length.

Only combinations that exist in the zoo can be shown; any other choice gives a message that lists
them, never a traceback."""
from __future__ import annotations

import html as _html
from typing import Callable, Mapping, Sequence

import numpy as np

from ...analysis.generalization import median_and_range
from ...core.config_checks import int_refusal, is_int, type_phrase
from ...lab import zoo
from ..plots import median_band
from ..plots.style import legend_below
from ..widgets.common import _widgets, check_positive, error_html, on_screen, show_figure

ENCODINGS = {"learned": "APE", "rpe": "RPE", "upe": "UPE"}

Key = tuple[str, int, int]          # (encoding label, multiplier digits, trained multiplicand length)

NB04_FRAME = 16        # Sabbaghi's l of notebook 04's plain recipes (its recipes.MULTIPLICATION)


def nb04_entries(names: Sequence[str] | None = None, built_only: bool = True) -> dict[Key, list[str]]:
    """The plain (no augmentation, no weight decay) notebook-04 entries by (encoding, k, trained length),
    each a list of seeds' names. Read from the entries' configs; ``built_only`` keeps those in the
    manifest (``names`` defaults to the whole catalog; a name that is not a plain entry is skipped)."""
    built = set(zoo.read_manifest()) if built_only else None
    out: dict[Key, list[str]] = {}
    for name in sorted(names if names is not None else zoo.catalog()):
        e = zoo.catalog().get(name)
        if e is None or not _plain(e) or (built is not None and name not in built):
            continue
        key = (ENCODINGS[e.model.encoding], int(e.task.multiplier_digits), int(e.task.max_digits))
        out.setdefault(key, []).append(name)
    return out


def _plain(e: zoo.ZooEntry) -> bool:
    """A seed of a plain notebook-04 recipe: Sabbaghi's multiplication format in the frame l = ``NB04_FRAME``,
    no zero-shift augmentation, no weight decay, no attention window, no curriculum (the explorer's grid)."""
    t, m = e.task, e.model
    return ("nb04" in e.tags and e.seeded and t.op == "*" and t.format == "sabbaghi" and m.encoding in ENCODINGS
            and t.frame_width == NB04_FRAME and not t.shift_augment and e.train.weight_decay == 0
            and not m.attention_window and t.curriculum == "none")


class MultiplicationExplorer:
    """Exact match against multiplicand length for one (encoding, multiplier length, trained length).

    ``entries[(encoding, k, trained)]`` lists zoo names (one per seed), e.g. :func:`nb04_entries`;
    ``metrics(name)`` gives a cached ``{length: EM}`` (default :func:`lengen_utils.lab.zoo.metrics`);
    ``evaluate(name, lengths, n)`` re-measures a checkpoint live (default: :func:`evaluate_live`).
    ``reference`` curves are drawn in grey in every view (e.g. the paper's trained length)."""

    def __init__(self, entries: Mapping[Key, Sequence[str]], *, metrics: Callable[[str], Mapping[int, float]] | None = None,
                 evaluate: Callable[[str, Sequence[int], int], Mapping[int, float]] | None = None, n_live: int = 200,
                 draw: bool = True, marks: Mapping[str, float] | None = None):
        if not entries:
            raise ValueError("MultiplicationExplorer needs at least one (encoding, multiplier, trained) entry; "
                             "none is built: train them with python -m lengen_utils.lab.zoo train NAME")
        for key, names in entries.items():
            if len(key) != 3 or key[0] not in ENCODINGS.values() or not names:
                raise ValueError(f"bad entry {key!r}: {list(names)!r}; keys are (one of "
                                 f"{sorted(ENCODINGS.values())}, multiplier digits, trained length) with >= 1 name")
            wrong = [v for v in key[1:] if not is_int(v)]
            if wrong:
                raise ValueError(f"bad entry {key!r}: the multiplier digits and the trained length must be ints, "
                                 f"got {type_phrase(wrong[0])}")
        for fn, what in ((metrics, "metrics"), (evaluate, "evaluate")):
            if fn is not None and not callable(fn):
                raise ValueError(f"{what} must be a function, got {type(fn).__name__} {fn!r}")
        w = _widgets()
        self.entries = {(str(a), int(b), int(c)): list(v) for (a, b, c), v in entries.items()}
        self.metrics_fn = metrics or zoo.metrics
        self.evaluate_fn = evaluate or evaluate_live
        self.n_live = check_positive(n_live, "n_live (problems per length in a live re-evaluation)")
        self.draw, self.marks = draw, marks
        self.fresh: dict[Key, dict[int, float]] = {}
        self.last_curves: dict[str, dict[int, tuple[float, float, float]]] = {}
        self.last_figure = None
        keys = sorted(self.entries)
        first = next((k for k in keys if k[0] == "UPE"), keys[0])
        self.encoding = w.Dropdown(options=["APE", "RPE", "UPE"], value=first[0], description="encoding")
        self.multiplier = w.Dropdown(options=sorted({1, 3} | {k[1] for k in keys}), value=first[1],
                                     description="multiplier")
        self.trained = w.Dropdown(options=sorted({k[2] for k in keys}), value=first[2], description="trained ≤")
        self.button = w.Button(description="re-evaluate live", button_style="warning", icon="refresh")
        self.status = w.HTML()
        self.out = w.Output()
        self._on_change = on_screen(self.status, self._redraw)       # one callback object: unobserve finds it
        for control in (self.encoding, self.multiplier, self.trained):
            control.observe(self._on_change, names="value")
        self.button.on_click(on_screen(self.status, lambda _b: self.reevaluate()))
        self.widget = w.VBox([w.HBox([self.encoding, self.multiplier, self.trained]), self.button, self.status,
                              self.out])

    # -- choices -------------------------------------------------------------------------------------
    def available(self) -> str:
        return "; ".join(f"{e}, {k}-digit multiplier, trained ≤ {t}" for e, k, t in sorted(self.entries))

    def key(self) -> Key:
        return (self.encoding.value, int(self.multiplier.value), int(self.trained.value))

    def problem(self, key: Key) -> str | None:
        """Why ``key`` cannot be shown (a sentence), or None when it can."""
        enc, k, t = key
        if enc not in ENCODINGS.values():
            return f"unknown encoding {enc!r}: choose APE, RPE or UPE"
        if key not in self.entries:
            return (f"no zoo entry for {enc} with a {k}-digit multiplier trained on ≤ {t} digits. "
                    f"Available: {self.available()}.")
        return None

    def _redraw(self, _change) -> None:
        self.show()

    # -- drawing -------------------------------------------------------------------------------------
    def band(self, key: Key) -> dict[int, tuple[float, float, float]]:
        return median_and_range({n: self.metrics_fn(n) for n in self.entries[key]})

    def summary(self, key: Key) -> str:
        enc, k, t = key
        band = self.band(key)
        inside = [band[L][0] for L in band if L <= t]
        far = max(band)
        parts = [f"<b>{enc}</b>, {k}-digit multiplier, trained on multiplicands of ≤ {t} digits: "
                 f"{len(self.entries[key])} seed(s) ({_html.escape(', '.join(self.entries[key]))})."]
        facts = []
        if inside:
            facts.append(f"median EM over the trained lengths {100 * np.mean(inside):.1f}%")
        facts.append(f"at {far} digits {100 * band[far][0]:.1f}% (seeds {100 * band[far][1]:.1f}–{100 * band[far][2]:.1f}%)")
        if key in self.fresh:
            live = self.fresh[key]
            facts.append("live re-evaluation of " + _html.escape(self.entries[key][0]) + ": " +
                         ", ".join(f"{L}: {100 * v:.1f}%" for L, v in sorted(live.items())))
        return "<div style='line-height:1.5'>" + "<br>".join(parts + [" &middot; ".join(facts)]) + "</div>"

    def figure(self, key: Key):
        """The figure shown for ``key`` (cached median and band, plus the live points if any)."""
        enc, k, t = key
        label = f"{enc}, {k}-digit multiplier (median of {len(self.entries[key])})"
        self.last_curves = {label: self.band(key)}
        fig = median_band(self.last_curves, trained_length=t, marks=self.marks, xlabel="multiplicand length (digits)",
                          title=f"{enc}, {k}-digit multiplier, trained on ≤ {t} digits")
        if key in self.fresh:
            ax = fig.axes[0]
            xs = sorted(self.fresh[key])
            ax.plot(xs, [100 * self.fresh[key][x] for x in xs], linestyle="none", marker="o", markersize=9,
                    markerfacecolor="none", markeredgewidth=1.5, color="#CC3311",
                    label=f"live: {self.entries[key][0]} (one seed)")
            legend_below(ax)
            fig.tight_layout()
        return fig

    def show(self, encoding: str | None = None, multiplier: int | None = None, trained: int | None = None):
        """Select a combination (or keep the current one), redraw, and return the widget. A combination
        with no entry shows a message naming the available ones."""
        for control, value, what in ((self.multiplier, multiplier, "the multiplier's digit count"),
                                     (self.trained, trained, "the trained length")):
            why = None if value is None else int_refusal(value, what)
            if why is not None:                        # '3' is refused by its type, not as "not offered"
                return self._refuse(f"{why}; choose one of {list(control.options)}. Available: {self.available()}.")
        for control, value in ((self.encoding, encoding), (self.multiplier, multiplier), (self.trained, trained)):
            if value is not None and value not in control.options:
                return self._refuse(f"{control.description} {value!r} is not offered; choose one of "
                                    f"{list(control.options)}. Available: {self.available()}.")
        controls = (self.encoding, self.multiplier, self.trained)
        for control in controls:                       # set all values first, then draw once
            control.unobserve(self._on_change, names="value")
        try:
            for control, value in zip(controls, (encoding, multiplier, trained)):
                if value is not None:
                    control.value = value
        finally:
            for control in controls:
                control.observe(self._on_change, names="value")
        key = self.key()
        why = self.problem(key)
        self.button.disabled = why is not None
        if why:
            return self._refuse(why)
        self.status.value = self.summary(key)
        if self.draw:
            self.last_figure = show_figure(self.out, lambda: self.figure(key))
        return self.widget

    def _refuse(self, why: str):
        """Show ``why`` instead of a figure (and disable the live button until a valid choice)."""
        self.status.value = error_html(why)
        self.button.disabled = True
        self.out.clear_output()
        self.last_figure = None
        return self.widget

    def live_lengths(self, key: Key) -> list[int]:
        """The lengths the button re-evaluates: the trained length, then up to five longer ones."""
        lengths = sorted(self.band(key))
        t = key[2]
        longer = [L for L in lengths if L > t]
        step = max(1, -(-len(longer) // 5))
        return ([t] if t in lengths else []) + longer[step - 1::step]

    def reevaluate(self) -> dict[int, float] | None:
        """Load the first seed's checkpoint and measure EM live on ``n_live`` problems per length."""
        key = self.key()
        why = self.problem(key)
        if why:
            self.status.value = error_html(why)
            return None
        self.status.value = f"Evaluating {_html.escape(self.entries[key][0])} live on {self.n_live} problems per length…"
        self.fresh[key] = {int(L): float(v) for L, v in
                           self.evaluate_fn(self.entries[key][0], self.live_lengths(key), self.n_live).items()}
        self.show()
        return self.fresh[key]

    def _ipython_display_(self):
        from IPython.display import display

        display(self.widget)


def evaluate_live(name: str, lengths: Sequence[int], n: int) -> dict[int, float]:
    """EM of the cached checkpoint ``name`` at ``lengths`` on ``n`` fresh problems each (seed 2024)."""
    return zoo.live_curves([name], lengths, n, seed=2024)[name]


__all__ = ["MultiplicationExplorer", "nb04_entries", "evaluate_live", "ENCODINGS"]

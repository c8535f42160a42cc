"""Linear probes for the sub-tasks of addition in a decoder's residual stream (thesis Chapter 4).

The compositionality gap asks whether a model that fails at long sums still computes the sub-tasks of
:mod:`~lengen_utils.core.addition_steps` inside. This module reads the answer: at the **query position** of
column ``k`` (the token just before answer digit ``k`` in Cho et al.'s format ``$653+049=2070$``, the
position whose logits predict it, teacher-forced with the true answer) it takes the residual stream after
every layer and fits a linear probe (multinomial logistic regression) for

* ``carry``: the carry into column ``k`` (2 classes);
* ``a`` and ``b``: the aligned digits ``a_k`` and ``b_k`` (10 classes each); ``pair`` is right when both are;
* (optional, for comparison) ``modsum``, ``(a_k + b_k) mod 10``, and ``digit``, the answer digit ``s_k`` itself:
  at the last layer of a model that adds correctly ``digit`` is the ceiling, since the read-out is linear too.

Two 10-class probes rather than one 100-class probe for the pair: a linear 100-class probe has 100 classes
to fill from a few thousand positions (tens of examples per class), and the product of the two probes is
already the 100-class probe whose logits split as ``u_a + v_b`` - the form an additive representation of
the two digits would take. A target that is constant by construction is left out where it is: the carry
into column 0 (always 0) and the pair of the last column (the zero padding above both operands).

Probes are fit at the trained lengths and tested at each length; a probe that stays accurate at lengths
where the model's sums fail says the sub-task is computed and the composition breaks, a probe that fails
with the sum says the sub-task itself is lost. Layer 0 is the input (token + position embedding); layer
``j`` the stream after ``j`` block applications (a looped model applies its blocks several times; a row
that has stopped looping keeps its last state, as the model's read-out does).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

import numpy as np
import torch

from ..core.addition_steps import columns
from ..core.problems import Problem, num_digits

#: probe targets and their classes; ``pair`` combines the ``a`` and ``b`` probes
CLASSES = {"carry": 2, "a": 10, "b": 10, "modsum": 10, "digit": 10}
TARGETS = ("carry", "a", "b", "pair", "modsum", "digit")
DEFAULT_TARGETS = ("carry", "a", "b", "pair")

__all__ = ["CLASSES", "TARGETS", "DEFAULT_TARGETS", "ResidualStreams", "residual_streams", "Probe", "fit_probe",
           "ProbeReport", "probe_by_length"]


def _check_task(model, task) -> None:
    c = task.config
    if getattr(task, "board", False) or c.format != "cho" or c.op != "+":
        raise ValueError(f"probes read Cho et al.'s decoder format for addition (format='cho', op='+'), got "
                         f"format={c.format!r}, op={c.op!r}")
    if not model.cfg.causal:
        raise ValueError("probes read a decoder (causal=True): the query of column k is the token before answer "
                         "digit k")


@dataclass
class ResidualStreams:
    """The residual stream at the query position of every answer column, with that column's labels.

    ``features[j]`` is ``[N, d_model]`` after ``j`` block applications (``j = 0``: the input embedding);
    ``column``, ``carry``, ``a``, ``b``, ``digit``, ``length`` (the longest operand's digits) and ``width`` (the
    answer's columns) are ``[N]`` integer arrays, one entry per (problem, column)."""

    features: list[torch.Tensor]
    column: np.ndarray
    carry: np.ndarray
    a: np.ndarray
    b: np.ndarray
    digit: np.ndarray
    length: np.ndarray
    width: np.ndarray

    @property
    def n_layers(self) -> int:
        """Layers read, the input included."""
        return len(self.features)

    def mask(self, target: str) -> np.ndarray:
        """Positions where ``target`` is not constant by construction (no carry into column 0, no pair in the
        last, padded, column)."""
        if target == "carry":
            return self.column > 0
        if target == "digit":
            return np.ones_like(self.column, dtype=bool)
        if target in ("a", "b", "pair", "modsum"):
            return self.column < self.width - 1
        raise ValueError(f"unknown probe target {target!r}; choose one of {TARGETS}")

    def labels(self, target: str) -> np.ndarray:
        """Labels of ``target`` at every position (``pair``: ``10 * a + b``)."""
        if target == "pair":
            return 10 * self.a + self.b
        if target == "modsum":
            return (self.a + self.b) % 10
        if target not in CLASSES:
            raise ValueError(f"unknown probe target {target!r}; choose one of {TARGETS}")
        return getattr(self, target)


@torch.no_grad()
def _layer_states(model, batch) -> list[torch.Tensor]:
    """``[B, T, d]`` after each block application (the input first); rows that stopped looping keep their state."""
    captured: list[torch.Tensor] = []
    hooks = [model.blocks[0].register_forward_pre_hook(lambda m, args: captured.append(args[0].detach())
                                                        if not captured else None)]
    hooks += [b.register_forward_hook(lambda m, i, o: captured.append(o[0].detach())) for b in model.blocks]
    try:
        model(**batch.model_inputs(digits=True))
    finally:
        for h in hooks:
            h.remove()
    embedded, captured = captured[0], captured[1:]
    depth, states = len(model.blocks), [embedded]
    if model.cfg.loops_per_digit:
        passes = [model.cfg.loops_for(int(d)) for d in batch.digits[:, 0].tolist()]
        last = embedded
        for j, h in enumerate(captured):
            run = torch.tensor([j // depth < p for p in passes], device=h.device)[:, None, None]
            states.append(torch.where(run, h, last))
            if j % depth == depth - 1:
                last = states[-1]
        return states
    return states + captured


@torch.no_grad()
def residual_streams(model, task, problems: Sequence[Problem], batch_size: int = 250) -> ResidualStreams:
    """:class:`ResidualStreams` of ``problems`` (teacher-forced, at the task's evaluation positions)."""
    _check_task(model, task)
    problems = list(problems)
    if not problems:
        raise ValueError("residual_streams needs at least one problem")
    model.eval()
    chunks: list[list[torch.Tensor]] = []
    meta: list[tuple[int, ...]] = []
    for start in range(0, len(problems), batch_size):
        batch = task.batch(problems[start:start + batch_size]).to(model.device)
        rows, cols = [], []
        for r, ex in enumerate(batch.examples):
            width = ex.answer_width
            steps = columns(ex.problem, width)
            length = max(num_digits(ex.problem.a), num_digits(ex.problem.b))
            for i in range(len(ex) - 1):
                if ex.roles[i + 1] == "answer":
                    k = ex.significance[i + 1]
                    rows.append(r)
                    cols.append(i)
                    meta.append((k, steps[k].carry, steps[k].a, steps[k].b, steps[k].digit, length, width))
        index = (torch.tensor(rows, device=model.device), torch.tensor(cols, device=model.device))
        chunks.append([s[index].float().cpu() for s in _layer_states(model, batch)])
    depth = max(len(c) for c in chunks)   # a looped model's later batches may loop more: pad with the last state
    features = [torch.cat([c[min(j, len(c) - 1)] for c in chunks]) for j in range(depth)]
    return ResidualStreams(features, *(np.array(x, dtype=np.int64) for x in zip(*meta)))


@dataclass
class Probe:
    """A multinomial logistic regression on standardized features: ``softmax(((x - mean) / std) @ weight + bias)``."""

    weight: torch.Tensor
    bias: torch.Tensor
    mean: torch.Tensor
    std: torch.Tensor

    def predict(self, features: torch.Tensor) -> np.ndarray:
        """The most likely class of every row of ``features`` ``[N, d]``."""
        x = (torch.as_tensor(features, dtype=torch.float32) - self.mean) / self.std
        return (x @ self.weight + self.bias).argmax(-1).numpy()

    def accuracy(self, features: torch.Tensor, labels: Sequence[int]) -> float:
        """Fraction of rows whose predicted class is the label."""
        labels = np.asarray(labels)
        if len(labels) != len(features) or not len(labels):
            raise ValueError(f"accuracy needs one label per row and at least one row, got {len(labels)} labels "
                             f"for {len(features)} rows")
        return float((self.predict(features) == labels).mean())


def fit_probe(features: torch.Tensor, labels: Sequence[int], n_classes: int | None = None, l2: float = 1e-4,
              steps: int = 300) -> Probe:
    """Fit a :class:`Probe` by full-batch L-BFGS (``steps`` iterations, L2 penalty ``l2`` on the weights), the
    features standardized by their own mean and std. Deterministic: zero start, full batch, no sampling."""
    x = torch.as_tensor(features, dtype=torch.float32)
    y = torch.as_tensor(np.asarray(labels), dtype=torch.long)
    if x.ndim != 2 or len(y) != len(x) or not len(x):
        raise ValueError(f"fit_probe needs features [N, d] and N labels (N >= 1), got {tuple(x.shape)} and {len(y)}")
    n_classes = int(y.max()) + 1 if n_classes is None else int(n_classes)
    if int(y.min()) < 0 or int(y.max()) >= n_classes:
        raise ValueError(f"labels must lie in 0..{n_classes - 1}, got {int(y.min())}..{int(y.max())}")
    if l2 < 0 or steps < 1:
        raise ValueError(f"need l2 >= 0 and steps >= 1, got l2={l2}, steps={steps}")
    mean, std = x.mean(0), x.std(0, unbiased=False).clamp_min(1e-6)
    z = (x - mean) / std
    weight = torch.zeros(x.shape[1], n_classes, requires_grad=True)
    bias = torch.zeros(n_classes, requires_grad=True)
    opt = torch.optim.LBFGS([weight, bias], lr=1.0, max_iter=steps, line_search_fn="strong_wolfe",
                            tolerance_grad=1e-9, tolerance_change=1e-12)

    def closure():
        opt.zero_grad()
        loss = torch.nn.functional.cross_entropy(z @ weight + bias, y) + l2 * weight.pow(2).sum()
        loss.backward()
        return loss

    with torch.enable_grad():
        opt.step(closure)
    return Probe(weight.detach(), bias.detach(), mean, std)


@dataclass
class ProbeReport:
    """Probe accuracy per (target, layer, length), with the majority-class baseline per (target, length)."""

    accuracy: dict[tuple[str, int, int], float] = field(default_factory=dict)
    chance: dict[tuple[str, int], float] = field(default_factory=dict)
    count: dict[tuple[str, int], int] = field(default_factory=dict)

    @property
    def targets(self) -> list[str]:
        return [t for t in TARGETS if any(key[0] == t for key in self.accuracy)]

    @property
    def layers(self) -> list[int]:
        return sorted({key[1] for key in self.accuracy})

    @property
    def lengths(self) -> list[int]:
        return sorted({key[2] for key in self.accuracy})

    def rows(self) -> list[dict]:
        """One dict per (target, layer, length): ``accuracy``, ``chance`` and ``n`` (positions tested)."""
        return [{"target": t, "layer": j, "length": n, "accuracy": acc, "chance": self.chance[t, n],
                 "n": self.count[t, n]} for (t, j, n), acc in sorted(self.accuracy.items())]

    def series(self, target: str, layer: int) -> tuple[list[int], list[float]]:
        """Lengths and accuracies of one probe, for a plot against length."""
        return self.lengths, [self.accuracy[target, layer, n] for n in self.lengths]

    def table(self) -> str:
        """A text table: one row per (target, layer), one column per length, and the chance row per target."""
        head = f"{'target':<7}{'layer':>7}" + "".join(f"{n:>8}" for n in self.lengths)
        lines = [head]
        for t in self.targets:
            for j in self.layers:
                lines.append(f"{t:<7}{j:>7}" + "".join(f"{self.accuracy[t, j, n]:>8.3f}" for n in self.lengths))
            lines.append(f"{t:<7}{'chance':>7}" + "".join(f"{self.chance[t, n]:>8.3f}" for n in self.lengths))
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.table()


def _majority(labels: np.ndarray) -> float:
    return float(np.unique(labels, return_counts=True)[1].max() / len(labels))


def probe_by_length(model, task, train_problems: Sequence[Problem], test_sets: dict[int, Sequence[Problem]],
                    layers: Sequence[int] | None = None, targets: Sequence[str] = DEFAULT_TARGETS,
                    l2: float = 1e-4, steps: int = 300) -> ProbeReport:
    """Fit the probes on ``train_problems`` (the trained lengths) and test them on each ``test_sets[length]``.

    ``layers`` picks layers of :class:`ResidualStreams` (default: all); ``targets`` among :data:`TARGETS`
    (``pair`` fits the ``a`` and ``b`` probes). The chance row is the test set's majority class. A looped
    model that loops more on longer inputs has more layers there: every stream is padded with its last state,
    so the last layer is always the state the read-out sees."""
    unknown = [t for t in targets if t not in TARGETS]
    if unknown or not targets:
        raise ValueError(f"unknown probe targets {unknown or targets!r}; choose among {TARGETS}")
    if not test_sets:
        raise ValueError("probe_by_length needs at least one test set (length -> problems)")
    train = residual_streams(model, task, train_problems)
    tests = {n: residual_streams(model, task, probs) for n, probs in sorted(test_sets.items())}
    depth = max([train.n_layers] + [s.n_layers for s in tests.values()])
    at = lambda s, j: s.features[min(j, s.n_layers - 1)]  # noqa: E731
    layers = list(range(depth)) if layers is None else list(layers)
    bad = [j for j in layers if not 0 <= j < depth]
    if bad:
        raise ValueError(f"layers {bad} out of range: the streams have layers 0..{depth - 1} (0 is the input)")
    report = ProbeReport()
    fitted = sorted({t for t in targets if t != "pair"} | ({"a", "b"} if "pair" in targets else set()))
    for j in layers:
        probes = {}
        for t in fitted:
            m = train.mask(t)
            probes[t] = fit_probe(at(train, j)[m], train.labels(t)[m], CLASSES[t], l2, steps)
        for n, s in tests.items():
            for t in targets:
                m = s.mask(t)
                x, y = at(s, j)[m], s.labels(t)[m]
                if t == "pair":
                    right = (probes["a"].predict(x) == s.a[m]) & (probes["b"].predict(x) == s.b[m])
                    report.accuracy[t, j, n] = float(right.mean())
                else:
                    report.accuracy[t, j, n] = probes[t].accuracy(x, y)
                report.chance[t, n], report.count[t, n] = _majority(y), int(m.sum())
    return report

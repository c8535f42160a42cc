"""The vocabulary of a paper's setup: where a value comes from, the values' types, and the fields compared.

A :class:`Stated` value says where it comes from (:data:`SOURCES`: ``paper``, ``implied``, ``code``, ``not
stated``; see :mod:`lengen_utils.lab.papers`); :class:`Span`, :class:`Positions`, :class:`OneOf`,
:class:`Schedule` and :class:`Checkpoint` are the values that are not plain numbers or names, and :func:`matches`
maps the papers' words to our configs:

* sampler: Sabbaghi's "samples are generated uniformly from D_s" is ``task.sampler='uniform'`` (both operands
  uniform below ``10^l_s``); Cho's "balanced sampling" (digit count uniform, then the number) is ``'balanced'``;
* test distribution: Sabbaghi's "uniform distribution of numbers up to l digits" is ``task.eval_sampler='uniform'``;
  Cho's test operands "of the same length" are ``'exact'``;
* checkpoint selection: a paper's "best checkpoint on (a validation set of) longer lengths" is any
  ``train.select_every > 0`` (:class:`Checkpoint`: the kind, and the validation lengths and the metric where the paper
  states them); ``select_every == 0`` is the final checkpoint; the validation set's size is its own row;
* batch size: problems per step, so a packed recipe counts ``train.batch_size x task.pack``;
* seeds: the runs a claim rests on (ours: the recipe's seeds; Cho et al.: 2 data seeds x 4 model seeds);
* norm placement: ``'pre'`` and ``'post'`` are ``model.norm_placement``; Cho's code's ``pre_post`` (a norm before and
  after each sub-layer) is ``'pre+post'``, which no ModelConfig builds;
* weight decay: Sabbaghi name four (:class:`OneOf`); ours matches if it is one of them;
* schedule: Cho's code warms up linearly for 1% of the steps, then decays by a cosine to 0.1 x lr
  (:class:`Schedule`: ``warmup_steps / steps`` and ``min_lr_ratio``);
* ``"none"`` (:data:`NONE`): the setup has no such thing (no frame in a decoder's format, no multiplier in a sum).

:data:`COMPARED` lists the rows of every departures table (one :class:`Compared` per field, with the recipe field
paths it reads), and :class:`PaperSetup` holds one :class:`Stated` value per row.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable, Generic, TypeVar

from ..zoo import Recipe

T = TypeVar("T")

PAPER, IMPLIED, CODE, NOT_STATED = "paper", "implied", "code", "not stated"
SOURCES = (PAPER, IMPLIED, CODE, NOT_STATED)
#: the setup has no such thing: no frame in a decoder's format, no multiplier in a sum
NONE = "none"


# == typed values ===================================================================================================
@dataclass(frozen=True)
class Stated(Generic[T]):
    """One field of a paper's setup: its value, where it comes from (:data:`SOURCES`) and a note (where it is said,
    how it maps to our config). ``value is None`` exactly when the source is ``"not stated"``."""
    value: T | None
    source: str = PAPER
    note: str = ""

    def __post_init__(self) -> None:
        if self.source not in SOURCES:
            raise ValueError(f"a stated value's source is one of {SOURCES}, got {self.source!r}")
        if (self.value is None) != (self.source == NOT_STATED):
            raise ValueError(f"value None means 'not stated' (and only it): got value={self.value!r}, "
                             f"source={self.source!r}")

    @property
    def stated(self) -> bool:
        return self.value is not None


def paper(value: T, note: str = "") -> Stated[T]:
    """A value the paper's text states."""
    return Stated(value, PAPER, note)


def implied(value: T, note: str) -> Stated[T]:
    """A value that follows from what the paper names, without being written out; ``note`` says how."""
    return Stated(value, IMPLIED, note)


def code(value: T, note: str = "") -> Stated[T]:
    """A value the authors' public code sets, not the paper's text."""
    return Stated(value, CODE, note)


def not_stated(note: str = "") -> Stated:
    """A field the paper (and its code, where we use it) does not state: ``None``, with a note."""
    return Stated(None, NOT_STATED, note)


@dataclass(frozen=True)
class Span:
    """Trained lengths: operands (the multiplicand; board sides) of ``low..high`` digits."""
    low: int
    high: int

    def __str__(self) -> str:
        return f"{self.low}-{self.high}"


@dataclass(frozen=True)
class Positions:
    """A position-ID scheme (``task.positions``) and whether training draws a random start (``task.random_start``)."""
    scheme: str
    random_start: bool

    def __str__(self) -> str:
        return f"{self.scheme}, {'random start' if self.random_start else 'fixed start'}"


@dataclass(frozen=True)
class OneOf:
    """The paper names several values (Sabbaghi's four weight decays): ours matches if it is one of them."""
    options: tuple[float, ...]

    def __str__(self) -> str:
        return "one of {" + ", ".join(f"{x:g}" for x in self.options) + "}"


@dataclass(frozen=True)
class Schedule:
    """Linear warm-up for ``warmup_fraction`` of the steps, then cosine decay to ``min_lr_ratio`` x lr."""
    warmup_fraction: float
    min_lr_ratio: float

    def __str__(self) -> str:
        return f"warm-up {100 * self.warmup_fraction:.3g}% of steps, cosine to {self.min_lr_ratio:g} x lr"


@dataclass(frozen=True)
class Checkpoint:
    """Which checkpoint is kept: ``"final"``, or ``"best"`` on a validation set of (longer) ``lengths`` by
    ``metric``. Two selections match when their kinds do and, for ``"best"``, when the lengths and the metric do
    wherever the paper states them (empty: not stated, not compared)."""
    kind: str
    lengths: tuple[int, ...] = ()
    metric: str = ""

    def __post_init__(self) -> None:
        if self.kind not in ("final", "best"):
            raise ValueError(f"a checkpoint is 'final' or 'best', got {self.kind!r}")

    def __str__(self) -> str:
        if self.kind == "final":
            return "final checkpoint"
        where = ", ".join(map(str, self.lengths)) if self.lengths else "longer lengths"
        return f"best on {where}" + (f" ({self.metric})" if self.metric else "")


BEST_ON_LONGER = Checkpoint("best")


def matches(paper_value: Any, ours: Any) -> bool:
    """Whether our value is the paper's (see the module's mappings): :class:`OneOf` -> ours is one of them,
    :class:`Checkpoint` -> the same kind, :class:`Schedule` and numbers -> equal up to rounding, else ``==``."""
    if isinstance(paper_value, OneOf):
        return any(matches(x, ours) for x in paper_value.options)
    if isinstance(paper_value, Checkpoint):
        return (isinstance(ours, Checkpoint) and ours.kind == paper_value.kind
                and (not paper_value.lengths or ours.lengths == paper_value.lengths)
                and (not paper_value.metric or ours.metric == paper_value.metric))
    if isinstance(paper_value, Schedule):
        return (isinstance(ours, Schedule) and math.isclose(ours.warmup_fraction, paper_value.warmup_fraction,
                                                            rel_tol=0.05)
                and math.isclose(ours.min_lr_ratio, paper_value.min_lr_ratio))
    if isinstance(paper_value, float) and not isinstance(ours, (bool, str)) and isinstance(ours, (int, float)):
        return math.isclose(paper_value, ours, rel_tol=1e-9, abs_tol=1e-12)
    if isinstance(paper_value, tuple) and isinstance(ours, tuple) and len(paper_value) == len(ours):
        return all(matches(a, b) for a, b in zip(paper_value, ours))
    return type(paper_value) is type(ours) and paper_value == ours


# == the compared fields ============================================================================================
@dataclass(frozen=True)
class Compared:
    """One compared field: the :class:`PaperSetup` attribute ``name``, the table's ``label``, the recipe field
    ``paths`` it reads (``"task.sampler"``; ``"eval_lengths"`` is the recipe's own) and ``read``, which gives our
    value in the setup's vocabulary."""
    name: str
    label: str
    paths: tuple[str, ...]
    read: Callable[[Recipe], Any]


def _task_name(r: Recipe) -> str:
    return "minesweeper" if r.task.task == "minesweeper" else f"a{r.task.op}b"


def _selection(r: Recipe) -> Checkpoint:
    t = r.train
    return Checkpoint("best", t.select_lengths, "exact match") if t.selects else Checkpoint("final")


#: the rows of every departures table, in order
COMPARED: tuple[Compared, ...] = (
    Compared("task", "task", ("task.task", "task.op"), _task_name),
    Compared("format", "format", ("task.format",), lambda r: r.task.format),
    Compared("positions", "position IDs", ("task.positions", "task.random_start"),
             lambda r: Positions(r.task.positions, r.task.random_start)),
    Compared("encoding", "position encoding", ("model.encoding",), lambda r: r.model.encoding),
    Compared("max_position", "largest position ID", ("task.max_position",), lambda r: r.task.max_position),
    Compared("frame_width", "frame width l", ("task.frame_width",), lambda r: r.task.frame_width or NONE),
    Compared("trained_digits", "trained lengths", ("task.min_digits", "task.max_digits"),
             lambda r: Span(r.task.min_digits, r.task.max_digits)),
    Compared("multiplier_digits", "multiplier digits", ("task.multiplier_digits",),
             lambda r: NONE if r.task.multiplier_digits is None else r.task.multiplier_digits),
    Compared("multiplier_exact", "multiplier without leading zeros", ("task.multiplier_exact",),
             lambda r: NONE if r.task.multiplier_digits is None else r.task.multiplier_exact),
    Compared("sampler", "training sampler", ("task.sampler",), lambda r: r.task.sampler),
    Compared("train_set_size", "training set (0: fresh every step)", ("task.train_set_size",),
             lambda r: r.task.train_set_size),
    Compared("test_sampler", "test distribution", ("task.eval_sampler",), lambda r: r.task.eval_sampler),
    Compared("test_up_to", "longest test length", ("eval_lengths",), lambda r: max(r.eval_lengths)),
    Compared("architecture", "architecture", ("model.causal",), lambda r: "decoder" if r.model.causal else "encoder"),
    Compared("n_layers", "layers", ("model.n_layers",), lambda r: r.model.n_layers),
    Compared("n_heads", "heads", ("model.n_heads",), lambda r: r.model.n_heads),
    Compared("d_model", "width d_model", ("model.d_model",), lambda r: r.model.d_model),
    Compared("d_ff", "MLP width d_ff", ("model.d_ff",), lambda r: r.model.d_ff),
    Compared("dropout", "dropout", ("model.dropout",), lambda r: float(r.model.dropout)),
    Compared("norm", "norm", ("model.norm",), lambda r: r.model.norm),
    Compared("norm_placement", "norm placement", ("model.norm_placement",), lambda r: r.model.norm_placement),
    Compared("activation", "MLP activation", ("model.activation",), lambda r: r.model.activation),
    Compared("lr", "learning rate", ("train.lr",), lambda r: float(r.train.lr)),
    Compared("batch_size", "batch size (problems per step)", ("train.batch_size", "task.pack"),
             lambda r: r.train.batch_size * r.task.pack),
    Compared("weight_decay", "weight decay", ("train.weight_decay",), lambda r: float(r.train.weight_decay)),
    Compared("betas", "AdamW betas", ("train.betas",), lambda r: tuple(r.train.betas)),
    Compared("steps", "steps", ("train.steps",), lambda r: r.train.steps),
    Compared("schedule", "lr schedule", ("train.warmup_steps", "train.min_lr_ratio"),
             lambda r: Schedule(r.train.warmup_steps / r.train.steps, r.train.min_lr_ratio)),
    Compared("grad_clip", "gradient clipping", ("train.grad_clip",), lambda r: float(r.train.grad_clip)),
    Compared("precision", "precision", ("train.amp",), lambda r: "bf16 autocast" if r.train.amp else "float32"),
    Compared("selection", "checkpoint selection", ("train.select_every", "train.select_lengths"), _selection),
    Compared("select_n", "validation set size (problems per length)", ("train.select_n",),
             lambda r: r.train.select_n if r.train.selects else NONE),
    Compared("augmentation", "shift augmentation (zeros appended)", ("task.shift_augment",),
             lambda r: r.task.shift_augment),
    Compared("channel_table", "position table of the 2-D IDs", ("model.shared_channel_table",),
             lambda r: ("shared by the channels" if r.model.shared_channel_table else "one per channel")
             if r.model.position_channels > 1 else NONE),
    Compared("seeds", "seeds (runs)", ("seeds",), lambda r: len(r.seeds)),
)
#: every recipe field path a compared row reads
COMPARED_PATHS: frozenset[str] = frozenset(p for c in COMPARED for p in c.paths)
#: config fields that are never a departure: the run's seed (a recipe's seeds) and how the batches' random draws are
#: seeded (the same distribution either way)
NOT_SETUP_FIELDS: dict[str, str] = {
    "train.seed": "the seed of one run (a recipe's seeds)",
    "train.data_seeding": "how the random draws of the batches are seeded, not what they are drawn from",
}


# == the papers' setups =============================================================================================
@dataclass(frozen=True)
class PaperSetup:
    """The setup of one paper claim, as the paper (or its code) states it, field by field (:data:`COMPARED`).

    Every field must be given: a field the sources do not state is :func:`not_stated` with a note, never a guess."""
    claim: str
    paper: str
    statement: str
    task: Stated[str]
    format: Stated[str]
    positions: Stated[Positions]
    encoding: Stated[str]
    max_position: Stated[int]
    frame_width: Stated[int | str]
    trained_digits: Stated[Span]
    multiplier_digits: Stated[int | str]
    multiplier_exact: Stated[bool | str]
    sampler: Stated[str]
    train_set_size: Stated[int]
    test_sampler: Stated[str]
    test_up_to: Stated[int]
    architecture: Stated[str]
    n_layers: Stated[int]
    n_heads: Stated[int]
    d_model: Stated[int]
    d_ff: Stated[int]
    dropout: Stated[float]
    norm: Stated[str]
    norm_placement: Stated[str]
    activation: Stated[str]
    lr: Stated[float]
    batch_size: Stated[int]
    weight_decay: Stated[float | OneOf]
    betas: Stated[tuple[float, float]]
    steps: Stated[int]
    schedule: Stated[Schedule]
    grad_clip: Stated[float]
    precision: Stated[str]
    selection: Stated[Checkpoint]
    select_n: Stated[int | str]
    augmentation: Stated[bool]
    channel_table: Stated[str]
    seeds: Stated[int]

    def __post_init__(self) -> None:
        for c in COMPARED:
            if not isinstance(getattr(self, c.name), Stated):
                raise TypeError(f"{self.claim}: {c.name} must be a Stated value (paper(), implied(), code() or "
                                f"not_stated()), got {getattr(self, c.name)!r}")

    def field(self, name: str) -> Stated:
        """The stated value of the compared field ``name``."""
        return getattr(self, name)


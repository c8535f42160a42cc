"""Departures as data: each reproduced paper claim's setup, written once, and the table that compares a recipe to it.

A paper's setup is a :class:`PaperSetup`: the claim (``"sabbaghi-a2"``), the citation, the claim in the paper's
words, and one :class:`Stated` value per compared field (:data:`COMPARED`: format, position IDs, frame, trained
lengths, sampler, training set, sizes, dropout, norm, optimizer, schedule, steps, checkpoint selection...). A
:class:`Stated` value says where it comes from:

* ``paper``: the paper's text states it;
* ``implied``: it follows from what the paper names without being written out (Huggingface BERT's post-LN blocks);
* ``code``: the authors' public code at the paper's time states it, not the paper (Cho et al.'s hyper-parameters are
  in their Appendix C, which the course's copy of the paper lacks; their scripts, HanseulJo/position-coupling at the
  v1 commit 0c72d14, set them);
* ``not stated`` (:func:`not_stated`, value ``None``): nothing says it; the row shows our value and "not stated".
  A value is never made up to fill a field.

:func:`departures` compares a recipe with a setup, one :class:`Departure` row per compared field, and
:func:`departures_table` renders them as plain dicts (:func:`to_markdown` turns them into a Markdown table).

What the table does not compare, the completeness check catches. Each claim has one *reference recipe*
(:func:`reference_recipe`): the recipe closest to the paper. It is the zoo's paper-faithful recipe where one exists
(``sabbaghi-a2-paper``, ``cho-plain-1to30``); otherwise the reproduction recipe with the course's own additions
switched off (:data:`REFERENCE_OF` lists those overrides, e.g. no attention window, no curriculum). For every recipe
of :data:`REPRODUCTIONS`, :func:`unlabelled_departures` lists the config fields (``task.*``, ``model.*``,
``train.*``) in which it differs from the reference recipe and which are neither read by a compared row nor
labelled for that recipe in :data:`EXTRA_DEPARTURES` (``{recipe id: {field path: why}}``; these labels become
rows of the table too). tests/test_departures.py asserts that list is empty, so a recipe tagged as a reproduction
cannot differ from its paper's setup in a field that its table does not show. Only :data:`NOT_SETUP_FIELDS`
(the run's seed, how batches are seeded) are never departures. A reference recipe itself switches on nothing that
no row shows (:func:`reference_additions`: every such field at its config default, but for the sizes that follow
from the frame or the IDs, :data:`IMPLEMENTATION_FIELDS`), so an addition cannot hide in the reference either.

Mappings between the papers' words and our configs (:func:`matches` compares them):

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
"""
from __future__ import annotations

import math
from dataclasses import dataclass, fields, replace
from typing import Any, Callable, Generic, Iterable, Mapping, Sequence, TypeVar

from ..core.model import ModelConfig
from ..core.task_config import TaskConfig
from ..core.train import TrainConfig
from .zoo import Recipe, get_recipe, variant_id
from ..course.ch03_rpe.recipes import A2_LADDER

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


_APP_B = "App. B"
_BERT = "Huggingface BERT (App. B)"
#: Sabbaghi et al.'s App. B, shared by every setting; the 3-digit multiplier changes the depth and the data
_SABBAGHI_COMMON: dict[str, Stated] = dict(
    format=paper("sabbaghi", "our name for the paper's format (eq. 3.1): both operands left-padded to the frame l"),
    positions=implied(Positions("consecutive", False), "RPE reads differences of token indices in the fixed "
                      "frame (Section 2); no random start is mentioned"),
    max_position=not_stated("the frame fixes it: one ID per token of the frame"),
    sampler=paper("uniform", "'samples are generated uniformly from D_s' (Section 3): our 'uniform'"),
    test_sampler=paper("uniform", "'a uniform distribution of numbers up to l digits' (Section 3)"),
    architecture=paper("encoder", "'a BERT-based encoder-only attention model' (Section 3)"),
    n_heads=paper(8, _APP_B),
    d_model=paper(768, f"embedding dimension d_z = 768 ({_APP_B})"),
    d_ff=not_stated("Huggingface BERT's default for d 768 is 3072; the paper does not say"),
    dropout=paper(0.1, _APP_B),
    norm=implied("layernorm", f"{_BERT}: LayerNorm"),
    norm_placement=implied("post", f"{_BERT}: a norm after each residual sum; the paper names the model, not "
                           f"the placement"),
    activation=implied("gelu", f"{_BERT}: GELU"),
    lr=paper(1e-4, _APP_B),
    batch_size=paper(64, _APP_B),
    weight_decay=paper(OneOf((3e-6, 1e-5, 3e-5, 1e-4)), f"'weight-decays in {{3e-6, 1e-5, 3e-5, 1e-4}}' "
                       f"({_APP_B})"),
    betas=not_stated("AdamW, no betas named"),
    steps=not_stated("no step count is named"),
    schedule=not_stated("no warm-up or schedule is named"),
    grad_clip=not_stated(),
    precision=not_stated("one NVIDIA RTX A5000; no precision named"),
    selection=paper(BEST_ON_LONGER, "'a small validation set with longer sequences to choose the best "
                    "checkpoint' (Section 3)"),
    select_n=not_stated("'a small validation set' (Section 3): its size is not named"),
    augmentation=paper(False, "A2 and M2 train without augmentation; A3 and M3 add it"),
    channel_table=implied(NONE, "sums and products have one-dimensional positions"),
    seeds=not_stated("no number of runs or seeds is named"),
)

SABBAGHI_A2 = PaperSetup(
    claim="sabbaghi-a2", paper="Sabbaghi et al. 2024, Section 3.1 (A2), App. B",
    statement="RPE allows the Transformer to achieve length generalization from adding two numbers with up to "
              "5-digit to two numbers with up to 50-digit",
    task=paper("a+b"), encoding=paper("rpe", "relative position encoding (Shaw et al.), eq. 2.1"),
    frame_width=implied(50, "the test reaches 50-digit sums, whose operands fill the frame ('the abrupt fall in "
                        "50-digit sums is due to the input format', A2)"),
    trained_digits=paper(Span(1, 5), "l_s = 5: D_s holds both operands below 10^5"),
    multiplier_digits=paper(NONE), multiplier_exact=paper(NONE),
    train_set_size=paper(100_000, f"'100k number of samples for the addition' ({_APP_B})"),
    test_up_to=paper(50, "Section 1 (F1)"),
    n_layers=paper(6, f"'6 attention layer' throughout the addition section ({_APP_B})"),
    **_SABBAGHI_COMMON)

SABBAGHI_M2_K3 = PaperSetup(
    claim="sabbaghi-m2-k3", paper="Sabbaghi et al. 2024, Section 3.2 (M2, Figure 5b), App. B",
    statement="UPE allows the Transformer to length generalize from multiplication of 3-digit numbers with 5-digit "
              "numbers to multiplication of a 3-digit number with 20-digit numbers",
    task=paper("a*b"), encoding=paper("upe", "three uniform vectors c_1..c_3 for the multiplier, RPE among the rest "
                                              "(eq. 3.3)"),
    frame_width=implied(20, "'for multiplying a 3-digit number by a 20-digit number ... p_-21..p_21' (Section 3.2) "
                        "and 'the fall in accuracy in 20-digit sums is inevitable considering our input format' (M2)"),
    trained_digits=paper(Span(1, 5), "multiplicands 'trained only up to 5-digit' (Figure 5)"),
    multiplier_digits=paper(3, "the three-digit multiplier (M2)"),
    multiplier_exact=not_stated("whether a multiplier may have leading zeros is not said"),
    train_set_size=paper(500_000, f"'500k number of samples for the 3-digit multipliers setting' ({_APP_B})"),
    test_up_to=paper(20, "Section 1 (F1)"),
    n_layers=paper(9, f"'we increase the number of attention layers from 6 to 9' ({_APP_B})"),
    **_SABBAGHI_COMMON)

_V1 = "HanseulJo/position-coupling v1 (0c72d14)"
#: Cho et al.'s code (their Appendix C is not in the course's copy of the paper): the settings all three scripts share
_CHO_CODE: dict[str, Stated] = dict(
    architecture=paper("decoder", "'We focus on decoder-only Transformers' (Section 2)"),
    d_model=code(512, f"{_V1} default"),
    d_ff=code(2048, _V1),
    dropout=code(0.0, f"{_V1}: dropout_rate 0"),
    norm=code("rmsnorm", _V1),
    norm_placement=code("pre+post", f"{_V1}: layer_norm_position=pre_post, a norm before and after each sub-layer"),
    activation=code("gated-gelu", f"{_V1}: T5's gated GELU MLP"),
    lr=code(1e-4, _V1),
    weight_decay=code(0.0, _V1),
    betas=code((0.9, 0.999), f"{_V1}; (0.9, 0.95) from 2024-09"),
    schedule=code(Schedule(0.01, 0.1), f"{_V1}: linear warm-up for 1% of the steps, cosine to 0.1 x lr"),
    grad_clip=code(1.0, _V1),
    precision=code("bf16 autocast", f"{_V1}: bf16 autocast on CUDA"),
    augmentation=paper(False, "'We do not use packing or shifting' (Section 4)"),
    seeds=paper(8, "'We run each experiment 8 times with 2 different random seeds for data generation and 4 different "
                   "random seeds for model initialization' (Section 4)"),
    select_n=not_stated("the size of the validation set is not named in the paper"),
)

CHO_ADDITION = PaperSetup(
    claim="cho-addition", paper="Cho et al. 2024, Section 4",
    statement="a Transformer trained on 1-30 digit addition can generalize up to 200-digit addition",
    task=paper("a+b"),
    format=paper("cho", "our name for the paper's format (Sections 2 and 3.1): zero-padded operands, reversed "
                 "zero-padded answer, BOS/EOS"),
    positions=paper(Positions("coupled", True), "position coupling with a random starting ID in training "
                    "(Section 3)"),
    encoding=paper("learned", "position coupling is a learned absolute embedding read with coupled IDs"),
    max_position=code(202, f"{_V1} scripts/addition/run_coupling.sh; the paper: 'max_pos so that the maximum "
                      f"testable length of summands is 200'"),
    frame_width=implied(NONE, "a decoder's format has no frame"),
    trained_digits=paper(Span(1, 30), "Section 4"),
    multiplier_digits=paper(NONE), multiplier_exact=paper(NONE),
    sampler=paper("balanced", "'balanced sampling in terms of the number of digits' (Section 4): our 'balanced'"),
    train_set_size=code(1_000_000, f"{_V1}: a pool drawn once per data seed"),
    test_sampler=paper("exact", "'each test sample contains the operands of the same length' (Section 4.1)"),
    test_up_to=paper(200, "Section 4"),
    n_layers=paper(1, "'1-layer 4-head models' (Section 4.1)"), n_heads=paper(4, "Section 4.1"),
    batch_size=code(1000, _V1),
    steps=code(50_000, _V1),
    selection=paper(Checkpoint("best", (200,), "validation loss"),
                    "'the best model in terms of the validation loss for 200-digit additions' (Section 4.1); "
                    f"{_V1} keeps the best loss at 100 digits"),
    channel_table=implied(NONE, "sums have one-dimensional positions"),
    **_CHO_CODE)

CHO_NX2 = PaperSetup(
    claim="cho-nx2", paper="Cho et al. 2024, Section 6.1 (Figure 8)",
    statement="as the depth increases to 2 or more, it immediately becomes capable of length generalization",
    task=paper("a*b"),
    format=paper("cho", "the answer reversed and zero-padded to N + 2 digits (Section 6.1)"),
    positions=paper(Positions("coupled", True), "coupled from the least significant digits (Section 6.1)"),
    encoding=paper("learned", "position coupling is a learned absolute embedding read with coupled IDs"),
    max_position=code(203, f"{_V1} scripts/Nx2multiplication/run_coupling.sh"),
    frame_width=implied(NONE, "a decoder's format has no frame"),
    trained_digits=paper(Span(1, 40), "'trained on sequences of length 1-40' (Figure 8)"),
    multiplier_digits=paper(2, "'fixing the length of the second operand by 2' (Section 6.1)"),
    multiplier_exact=code(False, f"{_V1}: the multiplier is uniform over 00-99, leading zeros allowed"),
    sampler=code("balanced", f"{_V1}: the multiplicand drawn as the addition's operands"),
    train_set_size=code(1_000_000, _V1),
    test_sampler=code("exact", f"{_V1}: multiplicands of exactly n digits"),
    test_up_to=code(200, f"{_V1} eval scripts: 5..200 digits"),
    n_layers=paper(2, "'as the depth increases to 2 or more' (Section 6.1); the script: 2"),
    n_heads=code(8, _V1),
    batch_size=code(1000, _V1),
    steps=code(50_000, _V1),
    selection=code(Checkpoint("best", (100,), "validation loss"), f"{_V1}: the best loss on 100-digit products"),
    channel_table=implied(NONE, "products have one-dimensional positions"),
    **_CHO_CODE)

_MINE = "scripts/minesweeper_generator/run_coupling.sh (2024-06)"
CHO_MINESWEEPER = PaperSetup(
    claim="cho-minesweeper", paper="Cho et al. 2024, Section 6.2 (Figure 10)",
    statement="Position coupling maintains over 98% accuracy until a width of 12 and near 90% accuracy even at a "
              "width of 14",
    task=paper("minesweeper"), format=paper("minesweeper", "our name for the paper's board format"),
    positions=paper(Positions("coupled2d", True), "two-dimensional position coupling (row, column), a random start "
                    "in training (Sections 3 and 6.2)"),
    encoding=paper("learned", "one embedding layer shared by both coupled channels (Section 6.2)"),
    max_position=code(16, _MINE),
    frame_width=implied(NONE, "a decoder's format has no frame"),
    trained_digits=paper(Span(5, 9), "width and height between 5 and 9, drawn apart (Section 6.2)"),
    multiplier_digits=paper(NONE), multiplier_exact=paper(NONE),
    sampler=not_stated("boards: width and height drawn in 5-9 (TaskConfig.sampler does not apply to boards)"),
    train_set_size=code(1_000_000, _MINE),
    test_sampler=not_stated("square boards (Section 6.2), as every board test of ours"),
    test_up_to=paper(14, "square boards of width 5-14 (Section 6.2)"),
    n_layers=paper(4, "'a 4-layer 8-head model for position coupling' (Section 6.2)"),
    n_heads=paper(8, "Section 6.2"),
    batch_size=code(800, _MINE),
    steps=code(100_000, _MINE),
    selection=code(Checkpoint("best", (12,), "validation loss"), f"{_MINE}: val_long boards of width 12"),
    channel_table=paper("shared by the channels", "one embedding layer shared by both coupled channels (Section "
                        "6.2): the token vector plus both position vectors from one table"),
    **_CHO_CODE)

# -- the claims the course tests only at its own scale (no reproduction recipe; their departures tables and the
# claims ledger compare against them): each is a setup above with what the claim changes ---------------------------
SABBAGHI_A1 = replace(
    SABBAGHI_A2, claim="sabbaghi-a1", paper="Sabbaghi et al. 2024, Section 3.1 (A1, Figure 2a), App. B",
    statement="while APE can succeed in generalizing to in-distribution data, its performance degrades significantly "
              "on longer length sequences",
    encoding=paper("learned", "absolute position embedding (A1): a learned table, our 'learned'"),
    test_up_to=paper(20, "'lengths varying from 6 to 20' (Figure 2a)"))
SABBAGHI_A3 = replace(
    SABBAGHI_A1, claim="sabbaghi-a3", paper="Sabbaghi et al. 2024, Section 3.1 (A3, Figure 2c), App. C.1",
    statement="augmentation does not lead to generalization on the unseen positions",
    augmentation=paper(True, "'shifting a pair of integers in the training data by adding the same number of zeros "
                             "from the right' (A3)"))
SABBAGHI_M1 = replace(
    SABBAGHI_M2_K3, claim="sabbaghi-m1", paper="Sabbaghi et al. 2024, Section 3.2 (M1, M2; Figure 4), App. B",
    statement="APE fails to generalize on the unseen positions, and RPE shows a decline in accuracy; UPE shows a "
              "significant improvement over RPE in the single-digit multiplier scenario",
    encoding=paper("upe", "Figure 4c (4a: APE, 4b: RPE)"),
    frame_width=not_stated("the frame of the single-digit multiplier setting is not named"),
    multiplier_digits=paper(1, "the single-digit multiplier scenario (M1)"),
    train_set_size=paper(100_000, f"'100k number of samples for the addition and the single-digit multiplier "
                                  f"settings' ({_APP_B})"),
    test_up_to=not_stated("Figure 4's longest length is not stated in the text"),
    n_layers=paper(6, f"'A model with the same specification [6 layers] was also employed for the single-digit "
                      f"multiplier setting' ({_APP_B})"))
SABBAGHI_M1_APE = replace(SABBAGHI_M1, claim="sabbaghi-m1-ape",
                          paper="Sabbaghi et al. 2024, Section 3.2 (M1, Figure 4a)",
                          encoding=paper("learned", "APE (Figure 4a): a learned table, our 'learned'"))
SABBAGHI_M1_RPE = replace(SABBAGHI_M1, claim="sabbaghi-m1-rpe",
                          paper="Sabbaghi et al. 2024, Section 3.2 (M1, Figure 4b)",
                          encoding=paper("rpe", "RPE (Figure 4b)"))
SABBAGHI_M3 = replace(
    SABBAGHI_M2_K3, claim="sabbaghi-m3", paper="Sabbaghi et al. 2024, Section 3.2 (M3, Figures 5c and 5d)",
    statement="the model utilizing APE fails similarly to the same attempt in the addition task. As for the model "
              "with RPE, despite extensive training data, it still falls short of the performance of our UPE",
    encoding=paper("rpe", "Figure 5d (5c: APE, our 'learned')"),
    augmentation=paper(True, "'some zeros are added to the end of the multiplicand while keeping the multiplier "
                             "unchanged' (M3)"))
SABBAGHI_M3_APE = replace(SABBAGHI_M3, claim="sabbaghi-m3-ape",
                          paper="Sabbaghi et al. 2024, Section 3.2 (M3, Figure 5c)",
                          encoding=paper("learned", "APE with augmentation (Figure 5c): our 'learned'"))
CHO_FIG3 = replace(
    CHO_ADDITION, claim="cho-fig3", paper="Cho et al. 2024, Section 4.1 (Figure 3)",
    statement="The generalizable length is 70 for the models trained on additions involving 1-10 digits",
    trained_digits=paper(Span(1, 10), "the 1-10 digit model of Figure 3"))
CHO_FIG4 = replace(
    CHO_ADDITION, claim="cho-fig4", paper="Cho et al. 2024, Section 4.1 (Figure 4)",
    statement="Overall, the performances are well extrapolated to test lengths (longer than trained lengths)",
    n_layers=not_stated("Figure 4 trains several depths; Table 2, which lists them, is not in the course's copy"),
    n_heads=not_stated("Table 2 (not in the course's copy)"))
THESIS_AGENDA = PaperSetup(
    claim="thesis-agenda", paper="the thesis (003), Sections 2.1.3, 3.1-3.4 and Chapter 4",
    statement="strategies beyond position encodings (random spaces, a scratchpad, a curriculum, looping) as the "
              "thesis surveys and proposes them",
    task=paper("a+b"), format=not_stated("each strategy's source uses its own format"),
    positions=not_stated("each strategy's source uses its own"), encoding=not_stated("each strategy's own"),
    max_position=not_stated(), frame_width=implied(NONE, "a decoder's format has no frame"),
    trained_digits=paper(Span(1, 17), "the thesis's experiments train on 1-17 (or 1-19) digits"),
    multiplier_digits=paper(NONE), multiplier_exact=paper(NONE), sampler=not_stated(), train_set_size=not_stated(),
    test_sampler=not_stated(), test_up_to=not_stated(), architecture=not_stated(), n_layers=not_stated(),
    n_heads=not_stated(), d_model=not_stated(), d_ff=not_stated(), dropout=not_stated(), norm=not_stated(),
    norm_placement=not_stated(), activation=not_stated(), lr=not_stated(), batch_size=not_stated(),
    weight_decay=not_stated(), betas=not_stated(), steps=not_stated(), schedule=not_stated(),
    grad_clip=not_stated(), precision=not_stated(), selection=not_stated(), select_n=not_stated(),
    augmentation=not_stated(), channel_table=implied(NONE, "sums have one-dimensional positions"),
    seeds=not_stated())

#: ``{claim: setup}``
PAPER_SETUPS: dict[str, PaperSetup] = {s.claim: s for s in (
    SABBAGHI_A2, SABBAGHI_M2_K3, CHO_ADDITION, CHO_NX2, CHO_MINESWEEPER, SABBAGHI_A1, SABBAGHI_A3, SABBAGHI_M1,
    SABBAGHI_M1_APE, SABBAGHI_M1_RPE, SABBAGHI_M3, SABBAGHI_M3_APE, CHO_FIG3, CHO_FIG4, THESIS_AGENDA)}
#: the claims reproduced by a recipe of :data:`REPRODUCTIONS` (the others are tested only at the course's scale)
REPRODUCED_CLAIMS = ("sabbaghi-a2", "sabbaghi-m2-k3", "cho-addition", "cho-nx2", "cho-minesweeper")

#: ``{recipe id: claim}``: the recipes that reproduce a paper claim (tests/test_departures.py: every recipe tagged
#: ``paper-scale`` or ``sabbaghi-a2`` is one of them)
REPRODUCTIONS: dict[str, str] = {
    "sabbaghi-a2-paper": "sabbaghi-a2", "sabbaghi-rpe-add-5to50": "sabbaghi-a2",
    **{recipe_id: "sabbaghi-a2" for recipe_id in A2_LADDER.ids()},
    "sabbaghi-upe-m3-9l": "sabbaghi-m2-k3", "sabbaghi-upe-m3-masked": "sabbaghi-m2-k3",
    "sabbaghi-upe-m3-annealed": "sabbaghi-m2-k3", "sabbaghi-upe-m3-b256": "sabbaghi-m2-k3",
    "cho-plain-1to30": "cho-addition", "cho-addition-1to30": "cho-addition",
    "cho-mul-nx2-1to40": "cho-nx2",
    "cho-minesweeper-5to9": "cho-minesweeper",
}

#: config fields that a reference recipe may set away from their defaults without adding anything to the paper's
#: setup: sizes that follow from the frame, the IDs or the task
IMPLEMENTATION_FIELDS: dict[str, str] = {
    "model.vocab_size": "the tokens of the task (a board's mine token)",
    "model.max_positions": "one row of the learned table per position ID",
    "model.rpe_max_distance": "the RPE clip, wide enough for every distance in the frame",
    "model.upe_slots": "one uniform vector per multiplier digit",
    "model.position_channels": "one ID channel per axis of a board",
}
#: fields with no effect unless another is set: ``{field: (the switch, its "off" value)}``
INERT_UNLESS: dict[str, tuple[str, Any]] = {
    "model.relative_bias_max_distance": ("model.relative_bias", False),
    "model.relative_bias_scale": ("model.relative_bias", False),
}

#: ``{claim: (recipe id, overrides)}``: the reference recipe of each claim, the closest to the paper. With no
#: overrides it is the zoo's paper-faithful recipe; otherwise the overrides switch the course's own additions off
#: (config fields no compared row reads), so that a reproduction must label each one in :data:`EXTRA_DEPARTURES`.
REFERENCE_OF: dict[str, tuple[str, tuple[str, ...]]] = {
    "sabbaghi-a2": ("sabbaghi-a2-paper", ()),
    "sabbaghi-m2-k3": ("sabbaghi-upe-m3-9l", (
        "model.attention_window=0", "task.curriculum=\"none\"", "task.carry_targets=false",
        "task.product_targets=false", "model.carry_classes=0", "model.product_heads=0")),
    "cho-addition": ("cho-plain-1to30", ()),
    "cho-nx2": ("cho-mul-nx2-1to40", ("model.encoding=\"learned\"", "model.relative_bias=false",
                                      "model.relative_bias_uniform=false")),
    "cho-minesweeper": ("cho-minesweeper-5to9", ("model.encoding=\"learned\"", "model.relative_bias=false",
                                                  "model.shared_channel_table=true")),
}

_WINDOW = "the aligned attention window (notebook 03's structural fix), on top of the paper's recipe"
_M3_RECIPE = "the course's best CPU recipe for M2 (notebook 04)"
#: ``{recipe id: {config field path: why}}``: departures that no compared row shows, labelled by hand; each becomes
#: a row of the recipe's table (its "paper" value is the reference recipe's)
EXTRA_DEPARTURES: dict[str, dict[str, str]] = {
    "a2-window": {"model.attention_window": _WINDOW + ": keys within 2 IDs of the query's centres",
                  "model.window_offsets": _WINDOW + ": centres +-(l + 1), the query's column in both operands"},
    "cho-addition-1to30": {"model.relative_bias": "our flagship's coupled relative bias (clip 8)"},
    "sabbaghi-upe-m3-9l": {
        "model.attention_window": _M3_RECIPE + ": an attention window of 3 IDs",
        "task.curriculum": _M3_RECIPE + ": the multiplier curriculum (1, 2, then 3 digits)",
        "task.carry_targets": _M3_RECIPE + ": each answer column's carry supervised",
        "model.carry_classes": _M3_RECIPE + ": the carry read-out",
        "task.product_targets": _M3_RECIPE + ": each column's digit products supervised",
        "model.product_heads": _M3_RECIPE + ": the product read-outs"},
    "cho-mul-nx2-1to40": {"model.relative_bias": "our N x 2 recipe (notebook 05): a relative bias on coupled IDs",
                          "model.relative_bias_uniform": "our N x 2 recipe: one bias per multiplier digit, at any "
                                                         "distance"},
    "cho-minesweeper-5to9": {"model.relative_bias": "our recipe: the 2-D relative bias (clip 2) on next-cell IDs"},
}
EXTRA_DEPARTURES["sabbaghi-upe-m3-masked"] = {
    **EXTRA_DEPARTURES["sabbaghi-upe-m3-9l"],
    "task.mask_operator": "the operator x hidden from every query (the fix for the collapse past 14 digits)"}
EXTRA_DEPARTURES["sabbaghi-upe-m3-annealed"] = EXTRA_DEPARTURES["sabbaghi-upe-m3-masked"]
EXTRA_DEPARTURES["sabbaghi-upe-m3-b256"] = EXTRA_DEPARTURES["sabbaghi-upe-m3-masked"]


def reference_recipe(claim: str) -> Recipe:
    """The recipe closest to the paper's setup of ``claim`` (:data:`REFERENCE_OF`)."""
    if claim not in REFERENCE_OF:
        raise KeyError(f"no reference recipe for claim {claim!r}; known: {', '.join(sorted(REFERENCE_OF))}")
    recipe_id, overrides = REFERENCE_OF[claim]
    recipe = get_recipe(recipe_id)
    return recipe.derive(variant_id(claim, "reference"), *overrides) if overrides else recipe


def reference_additions(reference: Recipe) -> list[str]:
    """The config fields of a reference recipe that no compared row reads and that are switched on (away from the
    config's default), except :data:`IMPLEMENTATION_FIELDS` and fields inert in that config (:data:`INERT_UNLESS`).
    Empty for every claim (tests/test_departures.py): a reference adds nothing the table does not show, so a recipe
    derived from a reproduction cannot carry an addition into its own reference unseen."""
    values = config_fields(reference)
    defaults = config_fields(Recipe(id="defaults", task=TaskConfig(), model=ModelConfig(), train=TrainConfig(),
                                    eval_lengths=(1,)))
    found = []
    for path, value in values.items():
        if path in COMPARED_PATHS or path in NOT_SETUP_FIELDS or path in IMPLEMENTATION_FIELDS:
            continue
        switch = INERT_UNLESS.get(path)
        if switch is not None and values[switch[0]] == switch[1]:
            continue
        if not _same_value(value, defaults[path]):
            found.append(path)
    return sorted(found)


def setup_of(claim: str) -> PaperSetup:
    """The :class:`PaperSetup` of ``claim`` (``KeyError`` naming the known claims)."""
    if claim not in PAPER_SETUPS:
        raise KeyError(f"no paper setup {claim!r}; known: {', '.join(sorted(PAPER_SETUPS))}")
    return PAPER_SETUPS[claim]


# == comparing =====================================================================================================
@dataclass(frozen=True)
class Departure:
    """One row of a departures table: the field, the paper's value and its source, ours, and whether they differ
    (``None``: the paper does not state it). A hand-labelled row (:data:`EXTRA_DEPARTURES`) has the reference
    recipe's value in ``paper`` and ``source`` ``"reference <id>"``."""
    field: str
    paths: tuple[str, ...]
    paper: Any
    source: str
    ours: Any
    differs: bool | None
    note: str = ""

    @property
    def status(self) -> str:
        return NOT_STATED if self.differs is None else ("differs" if self.differs else "same")


def read_path(recipe: Recipe, path: str) -> Any:
    """The value of ``path`` in ``recipe``: ``"task.sampler"`` (a config's field) or ``"eval_lengths"`` (its own)."""
    section, _, name = path.partition(".")
    return getattr(getattr(recipe, section), name) if name else getattr(recipe, section)


def config_fields(recipe: Recipe) -> dict[str, Any]:
    """Every config field of ``recipe`` by path: ``{"task.op": "+", ..., "train.select_every": 0}``."""
    return {f"{section}.{f.name}": getattr(getattr(recipe, section), f.name)
            for section in ("task", "model", "train") for f in fields(getattr(recipe, section))}


def _same_value(a: Any, b: Any) -> bool:
    if isinstance(a, float) or isinstance(b, float):
        return isinstance(a, (int, float)) and isinstance(b, (int, float)) and math.isclose(a, b)
    return a == b


def config_differences(recipe: Recipe, reference: Recipe) -> list[str]:
    """The config field paths in which ``recipe`` differs from ``reference``, sorted."""
    ours, theirs = config_fields(recipe), config_fields(reference)
    return sorted(p for p in ours if not _same_value(ours[p], theirs[p]))


def labelled_departures(recipe: Recipe) -> dict[str, str]:
    """``{path: why}``: the departures labelled by hand for ``recipe`` (:data:`EXTRA_DEPARTURES`)."""
    return dict(EXTRA_DEPARTURES.get(recipe.id, {}))


def unlabelled_departures(recipe: Recipe, setup: PaperSetup, reference: Recipe | None = None,
                          labelled: Mapping[str, str] | None = None) -> list[str]:
    """The config fields in which ``recipe`` differs from the reference recipe of ``setup``'s claim
    (:func:`reference_recipe`, or ``reference``) that its departures table would not show: read by no compared row,
    not labelled (:data:`EXTRA_DEPARTURES` of the recipe's id, and ``labelled``, more ``{path: why}``) and not in
    :data:`NOT_SETUP_FIELDS`. Empty for every recipe of :data:`REPRODUCTIONS` (tests/test_departures.py)."""
    reference = reference_recipe(setup.claim) if reference is None else reference
    labelled = {**labelled_departures(recipe), **(labelled or {})}
    return [p for p in config_differences(recipe, reference)
            if p not in COMPARED_PATHS and p not in labelled and p not in NOT_SETUP_FIELDS]


def stale_labels(recipe: Recipe, setup: PaperSetup, reference: Recipe | None = None) -> list[str]:
    """The hand-labelled departures of ``recipe`` in which it does not differ from the reference recipe (a label
    left behind), or that a compared row already shows."""
    reference = reference_recipe(setup.claim) if reference is None else reference
    differing = set(config_differences(recipe, reference))
    return sorted(p for p in labelled_departures(recipe) if p not in differing or p in COMPARED_PATHS)


def departures(recipe: Recipe, setup: PaperSetup) -> list[Departure]:
    """One row per compared field (:data:`COMPARED`, in order), then one per hand-labelled departure of the recipe
    (:data:`EXTRA_DEPARTURES`)."""
    rows = []
    for c in COMPARED:
        stated, ours = setup.field(c.name), c.read(recipe)
        differs = None if not stated.stated else not matches(stated.value, ours)
        rows.append(Departure(c.label, c.paths, stated.value, stated.source, ours, differs, stated.note))
    labelled = labelled_departures(recipe)
    if labelled:
        reference = reference_recipe(setup.claim)
        for path, why in labelled.items():
            theirs, ours = read_path(reference, path), read_path(recipe, path)
            rows.append(Departure(path, (path,), theirs, f"reference {reference.id}", ours,
                                  not _same_value(theirs, ours), why))
    return rows


def _show(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, int):
        return f"{value:,}" if value >= 10_000 else str(value)
    if isinstance(value, tuple):
        return "(" + ", ".join(_show(x) for x in value) + ")"
    return str(value)


COLUMNS = ("field", "paper", "source", "ours", "status", "note")


def departures_table(recipe_id: str, claim: str | None = None, *, only_departures: bool = False) -> list[dict]:
    """The departures table of the zoo recipe ``recipe_id`` against the paper setup of ``claim`` (default: the claim
    it reproduces, :data:`REPRODUCTIONS`): one dict of strings per row (:data:`COLUMNS`). ``only_departures`` keeps
    the rows that differ or that the paper does not state. Render it with :func:`to_markdown`."""
    if claim is None:
        if recipe_id not in REPRODUCTIONS:
            raise KeyError(f"{recipe_id!r} reproduces no claim in REPRODUCTIONS; name the claim "
                           f"({', '.join(sorted(PAPER_SETUPS))})")
        claim = REPRODUCTIONS[recipe_id]
    rows = departures(get_recipe(recipe_id), setup_of(claim))
    return [{"field": d.field, "paper": _show(d.paper), "source": d.source, "ours": _show(d.ours),
             "status": d.status, "note": d.note}
            for d in rows if not only_departures or d.status != "same"]


def to_markdown(rows: Sequence[Mapping[str, Any]], columns: Iterable[str] | None = None) -> str:
    """``rows`` (dicts, e.g. :func:`departures_table`'s) as a Markdown table of ``columns`` (default: the first
    row's keys); ``|`` inside a cell is escaped."""
    if not rows:
        raise ValueError("no rows to render")
    columns = list(rows[0] if columns is None else columns)

    def cell(value: Any) -> str:
        return str(value).replace("|", "\\|").replace("\n", " ")

    lines = ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    lines += ["| " + " | ".join(cell(row.get(c, "")) for c in columns) + " |" for row in rows]
    return "\n".join(lines)


__all__ = [
    "BEST_ON_LONGER", "CHO_ADDITION", "CHO_FIG3", "CHO_FIG4", "CHO_MINESWEEPER", "CHO_NX2", "COLUMNS", "COMPARED",
    "COMPARED_PATHS",
    "Checkpoint", "Compared", "Departure", "EXTRA_DEPARTURES", "IMPLEMENTATION_FIELDS", "INERT_UNLESS", "NONE",
    "NOT_SETUP_FIELDS", "OneOf", "PAPER_SETUPS", "PaperSetup", "Positions", "REFERENCE_OF", "REPRODUCED_CLAIMS",
    "REPRODUCTIONS", "SABBAGHI_A1", "SABBAGHI_A2", "SABBAGHI_A3", "SABBAGHI_M1", "SABBAGHI_M1_APE", "SABBAGHI_M1_RPE",
    "SABBAGHI_M2_K3", "SABBAGHI_M3", "SABBAGHI_M3_APE",
    "THESIS_AGENDA", "SOURCES", "Schedule", "Span", "Stated", "code", "config_differences",
    "config_fields", "departures", "departures_table", "implied", "labelled_departures", "matches", "not_stated",
    "paper", "read_path", "reference_additions", "reference_recipe", "setup_of", "stale_labels", "to_markdown",
    "unlabelled_departures",
]

"""A task ties a problem sampler, a format and a position-ID scheme into model-ready batches.

:class:`TaskConfig` is the whole data side of an experiment; :class:`Task` draws training batches
(random position starts, augmentation) and evaluation sets (fixed start, fixed seed).
"""
from __future__ import annotations

import math
from dataclasses import asdict, dataclass, fields, replace

import numpy as np
import torch

from . import problems as P
from .board_format import BOARD_FORMATS, encode_board
from .boards import sample_boards, sample_square_boards
from .complexity_sampling import sample_mixed_complexity, sample_uniform_over_complexity
from .constants import EVAL_SEED, IGNORE_INDEX
from .curriculum import CURRICULA, DEFAULT_FRACTION, curriculum_cap, sample_cascade_stage
from .formats import FILL_ID, FORMATS, N_HINTS, Example, answer_width, encode, get_format, tokens_to_ids
from .positions import COUPLED_SCHEMES, SCHEMES, PositionRangeError, PositionScheme, uniform_slots
from .positions2d import BOARD_SCHEMES, CHANNELS, BoardPositions
from .spaces import add_spaces, most_blanks, spaces_config_problem
from .text_filler import add_filler, filler_config_problem, filler_rng, frame_ids

SAMPLERS = ("uniform", "exact", "balanced", "uniform_complexity", "mixed_complexity")
# uniform_complexity / mixed_complexity (addition only): Sabbaghi C3, see lengen_utils.complexity
COMPLEXITY_SAMPLERS = ("uniform_complexity", "mixed_complexity")
#: Largest position ID a default task uses; a default model's table has rows 0..DEFAULT_MAX_POSITION.
DEFAULT_MAX_POSITION = 64
#: "arithmetic" (a Problem: a + b, a x b) or "minesweeper" (a Board, Cho et al. Section 6.2)
TASKS = ("arithmetic", "minesweeper")


class ConfigError(ValueError):
    """A config that cannot be built, or two configs that contradict each other; the message names the
    field and its limit. Shared by TaskConfig, ModelConfig and TrainConfig."""


def config_from_dict(cls, data: dict):
    """``cls(**data)`` for a config dataclass, refusing unknown keys (one contract for every config)."""
    if not isinstance(data, dict):
        raise ConfigError(f"{cls.__name__}.from_dict needs a dict, got {type(data).__name__}")
    known = [f.name for f in fields(cls)]
    unknown = sorted(set(data) - set(known), key=str)
    if unknown:
        raise ConfigError(f"unknown {cls.__name__} field(s) {unknown}; valid fields are {known}")
    return cls(**data)


def check_int(owner: str, name: str, value, minimum: int = 1, optional: bool = False) -> None:
    """Refuse a config field that is not a whole number ``>= minimum`` (``None`` too, when ``optional``)."""
    if value is None and optional:
        return
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise ConfigError(f"{owner}.{name} must be a whole number >= {minimum}, got {value!r} "
                          f"({type(value).__name__})")
    if value < minimum:
        raise ConfigError(f"{owner}.{name} must be >= {minimum}, got {value}")


def check_bool(owner: str, name: str, value) -> None:
    if not isinstance(value, (bool, np.bool_)):
        raise ConfigError(f"{owner}.{name} must be True or False, got {value!r} ({type(value).__name__})")


def check_choice(owner: str, name: str, value, choices, label: str | None = None) -> None:
    if not isinstance(value, str) or value not in choices:
        raise ConfigError(f"unknown {label or name} {value!r} ({owner}.{name}); choose one of {tuple(choices)}")


#: Row IDs left free between two packed boards: with the 2-D relative bias clipped at 2, a cell two rows away
#: from every cell of another board is never read as its neighbour.
BOARD_PACK_GAP = 2


@dataclass(frozen=True)
class TaskConfig:
    """What the model sees. ``max_digits`` is the trained length (operands of ``min_digits..max_digits``
    digits; for multiplication, the multiplicand ``a``). ``frame_width`` is Sabbaghi's l.
    ``shift_augment`` is Sabbaghi's A3: append zeros to both operands (M3: to the multiplicand) so that
    the numbers slide to random places of the frame. ``max_position`` is the largest position ID the
    task may use (Cho's max_pos): a learned table needs ``max_position + 1`` rows. ``filler_max`` puts 0..N
    random text tokens before, between and after the operands (Sabbaghi Section 3.3, :mod:`.text_filler`).

    Every field is checked when the config is built, and so is the longest training problem: it must fit
    the frame and the position IDs ``1..max_position``.

    ``task="minesweeper"`` (Cho et al. Section 6.2) trains on boards of ``min_digits..max_digits`` cells per
    side (width and height drawn apart) in the ``minesweeper`` format with ``coupled2d`` IDs (row, column);
    an evaluation length is the width of a square test board.

    Notebook 08's options: ``spaces=p`` puts a blank in each gap between two operand digits with probability
    ``p``, in training only (random spaces, :mod:`.spaces`); the formats ``cho_scratchpad``, ``cho_align``,
    ``cho_modsum`` and ``cho_carries`` write a scratchpad or one sub-task of addition
    (:mod:`~lengen_utils.addition_steps`); ``curriculum='length'`` or ``'cascade'`` holds long or carry-heavy
    problems back during the first ``curriculum_fraction`` of training (:mod:`.curriculum`)."""

    op: str = "+"
    format: str = "cho"
    positions: str = "coupled"
    sampler: str = "balanced"
    min_digits: int = 1
    max_digits: int = 10
    multiplier_digits: int | None = None
    frame_width: int | None = None
    random_start: bool = True
    max_position: int = DEFAULT_MAX_POSITION
    shift_augment: bool = False
    eval_sampler: str = "exact"
    pack: int = 1
    shift_max_width: int | None = None   # shift_augment: widest shifted number (default: the frame width)
    multiplier_exact: bool = False       # multiplier of exactly multiplier_digits digits (1..9 for one), Sabbaghi
    filler_max: int = 0                  # Sabbaghi 3.3: 0..filler_max text tokens before a, between, after b
    task: str = "arithmetic"             # "minesweeper": boards with min_digits..max_digits cells per side
    spaces: float = 0.0                  # random spaces: P(a blank) per gap between operand digits, training only
    curriculum: str = "none"             # "length" (short to long) or "cascade" (easy to hard by carries)
    curriculum_fraction: float = DEFAULT_FRACTION   # share of training the curriculum's stages take

    def __post_init__(self) -> None:
        own = "TaskConfig"
        check_choice(own, "task", self.task, TASKS)
        if self.task == "minesweeper":
            return self._check_board_task()
        check_choice(own, "op", self.op, P.OPERATIONS, "operation")
        check_choice(own, "format", self.format, FORMATS)
        check_choice(own, "positions", self.positions, SCHEMES, "position scheme")
        for name in ("sampler", "eval_sampler"):
            check_choice(own, name, getattr(self, name), SAMPLERS)
        for name in ("min_digits", "max_digits", "max_position", "pack"):
            check_int(own, name, getattr(self, name))
        for name in ("multiplier_digits", "frame_width", "shift_max_width"):
            check_int(own, name, getattr(self, name), optional=True)
        for name in ("random_start", "shift_augment", "multiplier_exact"):
            check_bool(own, name, getattr(self, name))
        if self.min_digits > self.max_digits:
            raise ConfigError(f"min_digits={self.min_digits} exceeds max_digits={self.max_digits}")
        if self.multiplier_digits is not None and self.op != "*":
            raise ConfigError(f"multiplier_digits={self.multiplier_digits} is for multiplication; op is {self.op!r}")
        if self.multiplier_exact and self.multiplier_digits is None:
            raise ConfigError("multiplier_exact=True needs multiplier_digits (the multiplier's exact width), "
                              f"got multiplier_digits=None with op={self.op!r}")
        if self.sampler in COMPLEXITY_SAMPLERS and self.op != "+":
            raise ConfigError(f"sampler {self.sampler!r} is defined for addition only (cascades of carries), "
                              f"not op={self.op!r}")
        spec = get_format(self.format)
        if self.pack > 1 and (self.positions not in COUPLED_SCHEMES or spec.layout != "decoder"):
            raise ConfigError(f"pack={self.pack} > 1 is implemented for decoder formats with coupled positions "
                              f"only, not format={self.format!r} with positions={self.positions!r}")
        if spec.layout == "encoder" and not self.frame_width:
            raise ConfigError(f"the {self.format} format needs frame_width (Sabbaghi's l)")
        width = self.train_width
        if width < self.max_digits:
            raise ConfigError(f"shift_max_width={width} is narrower than max_digits={self.max_digits}: "
                              f"shift_augment has no room to shift")
        if spec.layout == "encoder" and width > self.frame_width:
            what = "max_digits" if width == self.max_digits else "the shifted width"
            raise ConfigError(f"{what}={width} exceeds the frame: frame_width l={self.frame_width}")
        if spec.column_output and self.op != "+":
            raise ConfigError(f"the {self.format} format writes the column steps of an addition; op={self.op!r} "
                              f"has none (use op='+')")
        problem = spaces_config_problem(self.spaces, spec, self.positions, self.op)
        if problem:
            raise ConfigError(problem)
        self._check_positions_fit(width)
        self._check_filler()
        self._check_curriculum()

    def _check_curriculum(self) -> None:
        """A curriculum (:mod:`.curriculum`) needs something to hold back and a sampler it can cap."""
        own = "TaskConfig"
        check_choice(own, "curriculum", self.curriculum, CURRICULA)
        f = self.curriculum_fraction
        if isinstance(f, bool) or not isinstance(f, (int, float)) or not math.isfinite(f) or not 0 < f <= 1:
            raise ConfigError(f"{own}.curriculum_fraction must be a share of training in (0, 1], got {f!r}")
        if self.curriculum == "none":
            if f != DEFAULT_FRACTION:
                raise ConfigError(f"curriculum_fraction={f} sets a curriculum's stages; curriculum is 'none'")
            return
        if self.sampler in COMPLEXITY_SAMPLERS:
            raise ConfigError(f"curriculum={self.curriculum!r} caps the sampler's problems; the sampler "
                              f"{self.sampler!r} draws by complexity itself (use 'balanced', 'uniform' or 'exact')")
        if self.curriculum == "length" and self.min_digits == self.max_digits:
            raise ConfigError(f"curriculum='length' goes from min_digits to max_digits, both {self.max_digits}: "
                              f"nothing to hold back")
        if self.curriculum == "cascade" and self.op != "+":
            raise ConfigError(f"curriculum='cascade' orders sums by their carries; op={self.op!r} has none")

    def _check_filler(self) -> None:
        """Filler text (:mod:`~lengen_utils.text_filler`): a whole number >= 0 that the format supports."""
        check_int("TaskConfig", "filler_max", self.filler_max, minimum=0)
        problem = filler_config_problem(self.format, self.op, self.positions, self.frame_width, self.filler_max,
                                        self.max_position)
        if problem:
            raise ConfigError(problem)

    def _check_board_task(self) -> None:
        """Minesweeper (Cho et al. Section 6.2): training boards have min_digits..max_digits cells per side
        (width and height drawn apart); an evaluation "length" is the width of a square board."""
        own, defaults = "TaskConfig", TaskConfig()
        check_choice(own, "format", self.format, BOARD_FORMATS, "board format")
        check_choice(own, "positions", self.positions, BOARD_SCHEMES, "board position scheme")
        for name in ("min_digits", "max_digits", "max_position", "pack"):
            check_int(own, name, getattr(self, name))
        check_bool(own, "random_start", self.random_start)
        unused = [n for n in ("op", "multiplier_digits", "frame_width", "shift_augment", "shift_max_width",
                              "multiplier_exact", "filler_max", "spaces", "curriculum", "curriculum_fraction")
                  if getattr(self, n) != getattr(defaults, n)]
        if unused:
            raise ConfigError(f"{unused} are arithmetic options; the minesweeper task leaves them at their defaults")
        if self.min_digits > self.max_digits:
            raise ConfigError(f"min_digits={self.min_digits} exceeds max_digits={self.max_digits} (board sides)")
        scheme = BoardPositions(self.positions, max_position=max(self.max_position, 2))
        top = 1 + max(scheme.span(c, self.max_digits) for c in range(len(CHANNELS)))
        if top > self.max_position:
            raise ConfigError(f"boards of {self.max_digits} cells per side need position IDs up to "
                              f"{top} in each channel ({self.positions}), but the IDs stop at "
                              f"max_position={self.max_position}")
        rows = self.pack * (scheme.span(0, self.max_digits) + 1 + BOARD_PACK_GAP)
        if self.pack > 1 and rows > self.max_position:
            raise ConfigError(f"{self.pack} packed boards of {self.max_digits} rows need row IDs up to {rows} "
                              f"({BOARD_PACK_GAP} free rows between boards), but the IDs stop at "
                              f"max_position={self.max_position}")

    @property
    def train_width(self) -> int:
        """Digits of the widest training operand (after ``shift_augment``'s zeros)."""
        if not self.shift_augment:
            return self.max_digits
        return self.shift_max_width or self.frame_width or self.max_digits

    def _check_positions_fit(self, width: int) -> None:
        """The widest training problem (``pack`` of them per sequence) must get position IDs within
        ``max_position``: ``width`` at most the scheme's :meth:`~PositionScheme.longest_operand`."""
        scheme = PositionScheme(self.positions, max_position=self.max_position)
        k = self.multiplier_digits if self.multiplier_digits is not None else self.max_digits
        shape = dict(op=self.op, format_name=self.format, multiplier_digits=k if self.op == "*" else None,
                     frame_width=self.frame_width, pack=self.pack)
        limit = f"the IDs stop at max_position={self.max_position}"
        if width <= scheme.longest_operand(**shape):
            blanks = most_blanks(width, width) if self.spaces else 0
            if blanks and scheme.ids_needed(width, **shape) + blanks > self.max_position:
                raise ConfigError(f"the longest training problem ({width} digits) with a blank in each of its "
                                  f"{blanks} gaps (spaces={self.spaces}) needs position IDs up to "
                                  f"{scheme.ids_needed(width, **shape) + blanks}, but {limit}")
            return
        if width > self.max_position:
            raise ConfigError(f"training operands of {width} digits cannot fit position IDs: {limit}")
        needed = scheme.ids_needed(width, **shape)
        packed = f", {self.pack} packed per sequence" if self.pack > 1 else ""
        raise ConfigError(f"the longest training problem ({width} digits{packed}) needs position IDs up to "
                          f"{needed} under {self.positions!r}, but {limit}")

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict) -> "TaskConfig":
        return config_from_dict(cls, data)

    def with_(self, **changes) -> "TaskConfig":
        return replace(self, **changes)


@dataclass
class Batch:
    """Padded tensors for a list of examples. ``targets`` holds ``IGNORE_INDEX`` where nothing is supervised."""

    tokens: torch.Tensor
    targets: torch.Tensor
    position_ids: torch.Tensor
    key_padding: torch.Tensor
    uniform_slots: torch.Tensor | None
    examples: list[Example]
    number_ids: torch.Tensor | None = None   # encoder format: frame IDs, 0 for text (text_filler.frame_ids)
    digits: torch.Tensor | None = None       # [B, T] the row's longest operand (board side): a looped model's loops

    def to(self, device: torch.device | str) -> "Batch":
        move = lambda t: None if t is None else t.to(device, non_blocking=True)  # noqa: E731
        return Batch(move(self.tokens), move(self.targets), move(self.position_ids), move(self.key_padding),
                     move(self.uniform_slots), self.examples, number_ids=move(self.number_ids),
                     digits=move(self.digits))

    def model_inputs(self) -> dict:
        return {"tokens": self.tokens, "position_ids": self.position_ids, "key_padding": self.key_padding,
                "uniform_slots": self.uniform_slots,
                **({} if self.number_ids is None else {"number_ids": self.number_ids}),
                **({} if self.digits is None else {"digits": self.digits})}


def problem_digits(problem) -> int:
    """The size a looped model scales its loops with: the longest operand's digits (a board's longer side)."""
    if isinstance(problem, P.Problem):
        return max(P.num_digits(problem.a), P.num_digits(problem.b))
    return max(problem.width, problem.height)


def collate(examples: list[Example], position_ids: list[list[int]], with_slots: bool = False) -> Batch:
    """Right-pad examples into one :class:`Batch`; padding is excluded from attention and the loss."""
    T = max(len(e) for e in examples)
    B = len(examples)
    tokens = torch.full((B, T), FILL_ID, dtype=torch.long)
    targets = torch.full((B, T), IGNORE_INDEX, dtype=torch.long)
    first = position_ids[0][0] if position_ids and position_ids[0] else 0
    channels = () if isinstance(first, (int, np.integer)) else (len(first),)   # (row, column) IDs: [B, T, 2]
    pos = torch.zeros((B, T, *channels), dtype=torch.long)
    keep = torch.zeros((B, T), dtype=torch.bool)
    slots = torch.zeros((B, T), dtype=torch.long) if with_slots else None
    for b, (ex, ids) in enumerate(zip(examples, position_ids)):
        n = len(ex)
        tokens[b, :n] = torch.tensor(tokens_to_ids(ex.tokens))
        sup = ex.supervised
        targets[b, sup] = torch.tensor(tokens_to_ids(ex.targets[i] for i in sup))
        pos[b, :n] = torch.tensor(ids)
        keep[b, :n] = True
        if slots is not None:
            slots[b, :n] = torch.tensor(uniform_slots(ex))
    digits = torch.tensor([problem_digits(e.problem) for e in examples], dtype=torch.long)[:, None].expand(B, T)
    return Batch(tokens, targets, pos, keep, slots, examples, digits=digits)


class Task:
    """Samples, encodes and batches problems for one :class:`TaskConfig`."""

    def __init__(self, config: TaskConfig):
        if not isinstance(config, TaskConfig):
            raise ConfigError(f"Task needs a TaskConfig, got {type(config).__name__}; "
                              f"use TaskConfig.from_dict for a dict")
        self.config = config
        self.board = config.task == "minesweeper"
        scheme = BoardPositions if self.board else PositionScheme
        self.scheme = scheme(config.positions, config.random_start, config.max_position)

    def at_start(self, start: int) -> "Task":
        """The same task, evaluated with the position IDs starting at ``start`` instead of the scheme's default
        (Cho et al. evaluate at 1): a probe of how a model depends on where its IDs begin. Training is unchanged."""
        if self.board:
            raise ConfigError("at_start is for arithmetic tasks; a board task has one start per ID channel")
        check_int("Task.at_start", "start", start, minimum=0)
        other = Task(self.config)
        other.scheme = PositionScheme(self.config.positions, self.config.random_start, self.config.max_position,
                                      eval_start=start)
        return other

    def longest_operand(self) -> int:
        """The widest test operand (digits) whose problems the position IDs place at the evaluation start;
        a longer test length raises :class:`PositionRangeError`."""
        if self.board:
            raise ConfigError("longest_operand is for arithmetic tasks; a board's size limit is per ID channel")
        c = self.config
        return self.scheme.longest_operand(c.op, c.format, multiplier_digits=c.multiplier_digits,
                                           frame_width=c.frame_width)

    # -- problems -------------------------------------------------------------------------------
    def sample_train_problems(self, rng: np.random.Generator, n: int, progress: float | None = None) -> list[P.Problem]:
        """``n`` training problems; a curriculum task draws them for ``progress`` (``step / steps``) of training."""
        c = self.config
        if self.board:
            return sample_boards(rng, n, c.min_digits, c.max_digits)
        top = c.max_digits
        if c.curriculum != "none":
            if progress is None:
                raise ConfigError(f"the task's curriculum={c.curriculum!r} draws problems by training progress; "
                                  f"pass progress=step/steps (train.fit does)")
            cap = curriculum_cap(c.curriculum, progress, c.curriculum_fraction, c.min_digits, c.max_digits)
            if cap is not None and c.curriculum == "cascade":
                probs = sample_cascade_stage(rng, c.min_digits, c.max_digits, cap, n)
                return [self._shift(p, rng) for p in probs] if c.shift_augment else probs
            top = top if cap is None else cap
        if c.sampler == "uniform":
            probs = P.sample_uniform(rng, top, n, c.op, c.multiplier_digits, c.multiplier_exact)
        elif c.sampler == "exact":
            probs = P.sample_exact_length(rng, top, n, c.op, c.multiplier_digits, c.multiplier_exact)
        elif c.sampler in ("uniform_complexity", "mixed_complexity"):  # Sabbaghi C3: addition only
            probs = (sample_uniform_over_complexity(rng, c.max_digits, n) if c.sampler == "uniform_complexity"
                     else sample_mixed_complexity(rng, c.max_digits, n))
        else:
            probs = P.sample_balanced(rng, top, n, c.op, c.multiplier_digits, c.min_digits,
                                      c.multiplier_exact)
        if c.shift_augment:
            probs = [self._shift(p, rng) for p in probs]
        return probs

    def _shift(self, problem: P.Problem, rng: np.random.Generator) -> P.Problem:
        room = self.config.train_width
        used = max(P.num_digits(problem.a), P.num_digits(problem.b) if problem.op == "+" else 0)
        shift = int(rng.integers(0, room - used + 1))
        return P.shift_with_zeros(problem, shift)

    def eval_problems(self, length: int, n: int, seed: int = EVAL_SEED) -> list[P.Problem]:
        """A fixed test set: operands of exactly ``length`` digits (or uniform below ``10**length``)."""
        rng = np.random.default_rng([seed, length])
        c = self.config
        if self.board:               # square boards of side `length`, as in Cho et al.'s Figure 10
            return sample_square_boards(rng, length, n)
        if c.eval_sampler == "uniform":
            return P.sample_uniform(rng, length, n, c.op, c.multiplier_digits, c.multiplier_exact)
        k = c.multiplier_digits if c.op == "*" else None
        return P.sample_exact_length(rng, length, n, c.op, k, c.multiplier_exact)

    # -- encoding -------------------------------------------------------------------------------
    def example(self, problem: P.Problem, rng: np.random.Generator | None = None) -> Example:
        """``problem`` in the task's format; with ``filler_max`` its filler text is drawn from ``rng``
        (training) or fixed by the problem (evaluation, :func:`~lengen_utils.text_filler.filler_rng`)."""
        c = self.config
        if self.board:
            return encode_board(problem, c.format)
        example = encode(problem, c.format, frame_width=c.frame_width, multiplier_digits=c.multiplier_digits,
                         hint_offset=self._hint_offset(problem, rng))
        if c.filler_max:
            example = add_filler(example, rng if rng is not None else filler_rng(problem), c.filler_max)
        if c.spaces and rng is not None:       # random spaces: training only, the test input is the plain one
            example = add_spaces(example, rng, c.spaces)
        return example

    def _hint_offset(self, problem: P.Problem, rng: np.random.Generator | None) -> int:
        """The first index-hint letter: random in training with ``random_start`` (Zhou et al. draw it, so
        that every hint token is trained, as Cho's random start does for position IDs), else ``a`` (0)."""
        c = self.config
        if rng is None or not c.random_start or not get_format(c.format).index_hints:
            return 0
        return int(rng.integers(0, N_HINTS - answer_width(problem, c.multiplier_digits) + 1))

    def position_ids(self, example: Example, rng: np.random.Generator | None = None) -> list[int]:
        return self.scheme.assign(example, rng)

    def batch(self, problems: list[P.Problem], rng: np.random.Generator | None = None) -> Batch:
        """Encode ``problems``; with ``rng`` the position starts are random (training), else fixed."""
        examples = [self.example(p, rng) for p in problems]
        ids = [self.position_ids(e, rng) for e in examples]
        batch = collate(examples, ids, with_slots=self.config.op == "*")
        if not self.board and get_format(self.config.format).layout == "encoder":   # the arithmetic heads' index (text_filler)
            batch.number_ids = torch.zeros_like(batch.position_ids)
            for b, e in enumerate(examples):
                batch.number_ids[b, :len(e)] = torch.tensor(frame_ids(e))
        return batch

    def train_batch(self, rng: np.random.Generator, batch_size: int, progress: float | None = None) -> Batch:
        """``batch_size`` training sequences (each holding ``config.pack`` problems); ``progress`` (``step /
        steps``) places a curriculum task in its schedule."""
        if self.config.pack == 1:
            return self.batch(self.sample_train_problems(rng, batch_size, progress), rng)
        return self.packed_batch(self.sample_train_problems(rng, batch_size * self.config.pack, progress), rng)

    def packed_batch(self, problems: list[P.Problem], rng: np.random.Generator) -> Batch:
        """Concatenate consecutive groups of ``config.pack`` problems into one sequence each.

        Each problem keeps its own coupled IDs, placed in a random slot of ``1..max_position`` that
        overlaps no other problem of the sequence (random gaps between slots, random order). The
        closing ``$`` of one problem is not trained to predict the next one's opening ``$``.
        """
        k = self.config.pack
        if len(problems) % k:
            raise ValueError(f"{len(problems)} problems do not split into sequences of {k}")
        examples, ids = [], []
        for g in range(0, len(problems), k):
            group = [self.example(p) for p in problems[g:g + k]]
            group_ids = self._packed_board_ids(group, rng) if self.board else self._packed_ids(group, rng)
            examples.append(_concat_examples(group))
            ids.append([i for g_ids in group_ids for i in g_ids])
        return collate(examples, ids, with_slots=self.config.op == "*")

    def _random_slots(self, extents: list[int], first_id: int, rng: np.random.Generator) -> list[int]:
        """Starts for blocks of ``extents`` IDs in ``first_id..max_position``: no overlap, random gaps, random order."""
        k = len(extents)
        slack = self.config.max_position - first_id + 1 - sum(extents)
        if slack < 0:
            raise PositionRangeError(f"{k} packed problems need {sum(extents)} position IDs but "
                                     f"max_position={self.config.max_position}")
        cuts = np.sort(rng.integers(0, slack + 1, size=k))
        gaps = np.diff(np.concatenate([[0], cuts]))            # k non-negative gaps summing to <= slack
        starts, nxt = [0] * k, first_id
        for slot, i in enumerate(rng.permutation(k)):
            nxt += int(gaps[slot])
            starts[i] = nxt
            nxt += extents[i]
        return starts

    def _packed_ids(self, group: list[Example], rng: np.random.Generator) -> list[list[int]]:
        """Coupled IDs of packed arithmetic problems, each in its own slot of IDs."""
        extents = [self.scheme.span(e) + 1 for e in group]      # IDs start..start+span of each
        starts = self._random_slots(extents, self.scheme.default_start, rng)
        return [self.scheme.assign(e, start=s) for e, s in zip(group, starts)]

    def _packed_board_ids(self, group: list[Example], rng: np.random.Generator) -> list[list[tuple[int, int]]]:
        """Packed boards lie one below the other in row IDs, each in its own band of rows (at least
        :data:`BOARD_PACK_GAP` rows apart, so no cell of one board is a neighbour of a cell of another); the column
        start of each board is drawn on its own."""
        rows = [self.scheme.span(0, e.problem.height) + 1 + BOARD_PACK_GAP for e in group]
        row_starts = self._random_slots(rows, self.scheme.default_start, rng)
        ids = []
        for e, row_start in zip(group, row_starts):
            col_start = self.scheme.starts(e, rng)[1]
            ids.append(self.scheme.assign(e, start=(row_start, col_start)))
        return ids


def _concat_examples(group: list[Example]) -> Example:
    """One training sequence made of several examples (``problem`` and ``answer_width`` of the first)."""
    first = group[0]
    cat = lambda name: tuple(x for e in group for x in getattr(e, name))  # noqa: E731
    return Example(cat("tokens"), cat("targets"), cat("roles"), cat("significance"), first.problem,
                   first.format_name, first.causal, first.answer_width)

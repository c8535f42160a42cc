"""The data side of an experiment: :class:`TaskConfig`, checked field by field when it is built.

A task config names the problem (``op``, the operand lengths, or the minesweeper board task), its format,
its position-ID scheme and its samplers, and the options of Sabbaghi's and notebook 08's experiments.
Building one refuses what cannot be trained: an unknown name, a contradiction, or a longest training
problem that does not fit the frame or the position IDs ``1..max_position``. :class:`~lengen_utils.core.tasks.Task`
turns a config into batches.
"""
from __future__ import annotations

import math
from dataclasses import asdict, dataclass, fields, replace

from . import problems as P
from .boards.format import BOARD_FORMATS
from .config_checks import (ConfigError, check_bool, check_choice, check_field_types, check_int,
                            config_from_dict)
from .curriculum import CURRICULA, DEFAULT_FRACTION
from .formats import ALL_FORMATS, get_format
from .positions import COUPLED_SCHEMES, SCHEMES, PositionScheme
from .positions2d import BOARD_SCHEMES, CHANNELS, BoardPositions
from .nxm.format import NXM_FORMATS
from .nxm.positions import NXM_SCHEMES, SCHEME_FORMAT, nxm_scheme
from .spaces import most_blanks, spaces_config_problem
from .text_filler import filler_config_problem

SAMPLERS = ("uniform", "exact", "balanced", "uniform_complexity", "mixed_complexity")
# uniform_complexity / mixed_complexity (addition only): Sabbaghi C3, see lengen_utils.analysis.complexity
COMPLEXITY_SAMPLERS = ("uniform_complexity", "mixed_complexity")
#: Largest position ID a default task uses; a default model's table has rows 0..DEFAULT_MAX_POSITION.
DEFAULT_MAX_POSITION = 64
#: "arithmetic" (a Problem: a + b, a x b), "minesweeper" (a Board, Cho et al. Section 6.2) or "nxm" (N x M
#: multiplication with both operands of min_digits..max_digits digits, notebook 09)
TASKS = ("arithmetic", "minesweeper", "nxm")


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
    (:mod:`~lengen_utils.core.addition_steps`); ``curriculum='length'`` or ``'cascade'`` holds long or carry-heavy
    problems back during the first ``curriculum_fraction`` of training (:mod:`.curriculum`).

    ``carry_targets=True`` (multiplication read by an encoder) adds a second training target at every answer
    position: the carry that column receives from the columns below (:func:`~lengen_utils.core.carries.column_carries`),
    read out by the model's carry head (``ModelConfig.carry_classes``). ``product_targets=True`` adds the column's
    ``k`` digit products ``a_{s-r} b_r`` (:func:`~lengen_utils.core.carries.column_products`), read out by the product
    heads (``ModelConfig.product_heads``). The answer and the test are unchanged.

    ``train_set_size=n > 0`` trains on a fixed set of ``n`` problems drawn once by the sampler (Sabbaghi et al. train
    on 100k samples), each batch drawn from it with replacement; 0 (the default) draws fresh problems every step.

    ``mask_operator=True`` (encoder formats) hides the operator token from every query, as padding is hidden. With an
    attention window (notebook 04) it removes a cue that does not extend: in training every query that saw ``x`` in its
    window had ``pad`` as its target, so past 14 digits the top answer digits, which then sit next to ``x``, read
    "pad here"."""

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
    curriculum: str = "none"             # "length" (short to long), "cascade" (easy to hard by carries), "multiplier"
    curriculum_fraction: float = DEFAULT_FRACTION   # share of training the curriculum's stages take
    carry_targets: bool = False          # training also supervises each answer column's incoming carry (encoder, x)
    product_targets: bool = False        # ... and each of the column's k digit products (encoder, x)
    train_set_size: int = 0              # > 0: a fixed training set of this many problems (Sabbaghi: 100k), else fresh
    mask_operator: bool = False          # encoder: no query attends to the operator token (x or +)

    def __post_init__(self) -> None:
        check_field_types(self)
        own = "TaskConfig"
        check_choice(own, "task", self.task, TASKS)
        if self.task == "minesweeper":
            return self._check_board_task()
        if self.task == "nxm":
            return self._check_nxm_task()
        check_choice(own, "op", self.op, P.OPERATIONS, "operation")
        check_choice(own, "format", self.format, ALL_FORMATS)
        check_choice(own, "positions", self.positions, SCHEMES, "position scheme")
        for name in ("sampler", "eval_sampler"):
            check_choice(own, name, getattr(self, name), SAMPLERS)
        for name in ("min_digits", "max_digits", "max_position", "pack"):
            check_int(own, name, getattr(self, name))
        for name in ("multiplier_digits", "frame_width", "shift_max_width"):
            check_int(own, name, getattr(self, name), optional=True)
        for name in ("random_start", "shift_augment", "multiplier_exact", "carry_targets", "product_targets"):
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
        check_int(own, "train_set_size", self.train_set_size, minimum=0)
        if self.train_set_size > self.most_distinct_problems:
            raise ConfigError(f"train_set_size={self.train_set_size:,} exceeds the distinct training problems: operands "
                              f"of at most {self.max_digits} digit(s) make at most {self.most_distinct_problems:,} "
                              f"(a, b) pairs, so a fixed set that large only repeats them; use train_set_size <= "
                              f"{self.most_distinct_problems:,}, or 0 to draw fresh problems every step")
        check_bool(own, "mask_operator", self.mask_operator)
        if self.mask_operator and spec.layout != "encoder":
            raise ConfigError(f"mask_operator=True hides the operator from an encoder's queries; the {self.format} "
                              f"format is read by a decoder (use an encoder format such as 'sabbaghi')")
        if self.train_set_size and self.curriculum != "none":
            raise ConfigError(f"train_set_size={self.train_set_size} fixes the training problems once; "
                              f"curriculum={self.curriculum!r} changes them as training goes (use one of them)")
        for name in ("carry_targets", "product_targets"):
            if getattr(self, name) and (self.op != "*" or spec.layout != "encoder" or self.shift_augment):
                raise ConfigError(f"{name}=True supervises the columns of a product read by an encoder (op='*', "
                                  f"an encoder format, no shift_augment); got op={self.op!r}, "
                                  f"format={self.format!r}, shift_augment={self.shift_augment}")

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
        if self.curriculum == "multiplier" and (self.op != "*" or (self.multiplier_digits or 0) < 2):
            raise ConfigError(f"curriculum='multiplier' ramps a multiplier of 1..multiplier_digits digits; it needs "
                              f"op='*' and multiplier_digits >= 2, got op={self.op!r}, "
                              f"multiplier_digits={self.multiplier_digits}")

    def _check_filler(self) -> None:
        """Filler text (:mod:`~lengen_utils.core.text_filler`): a whole number >= 0 that the format supports."""
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
                              "multiplier_exact", "filler_max", "spaces", "curriculum", "curriculum_fraction",
                              "carry_targets", "product_targets", "train_set_size", "mask_operator")
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

    def _check_nxm_task(self) -> None:
        """N x M multiplication (notebook 09): both operands of min_digits..max_digits digits, the fused-row
        scratchpad, (row, column, level) IDs; the arithmetic task's other options stay at their defaults."""
        own, defaults = "TaskConfig", {f.name: f.default for f in fields(TaskConfig)}
        check_choice(own, "op", self.op, ("*",), "operation of the N x M task")
        check_choice(own, "format", self.format, NXM_FORMATS, "N x M format")
        check_choice(own, "positions", self.positions, NXM_SCHEMES, "N x M position scheme")
        for name in ("min_digits", "max_digits", "max_position", "pack"):
            check_int(own, name, getattr(self, name))
        check_int(own, "train_set_size", self.train_set_size, minimum=0)
        check_bool(own, "random_start", self.random_start)
        unused = [n for n in ("sampler", "eval_sampler", "multiplier_digits", "frame_width", "shift_augment",
                              "shift_max_width", "multiplier_exact", "filler_max", "spaces", "curriculum",
                              "curriculum_fraction", "carry_targets", "product_targets", "mask_operator", "pack")
                  if getattr(self, n) != defaults[n]]
        if unused:
            raise ConfigError(f"{unused} are options of the arithmetic task; the N x M task leaves them at their "
                              f"defaults (it draws both operand lengths uniformly, one product per sequence)")
        if self.min_digits > self.max_digits:
            raise ConfigError(f"min_digits={self.min_digits} exceeds max_digits={self.max_digits} (operand digits)")
        if SCHEME_FORMAT[self.positions] != self.format:
            raise ConfigError(f"positions={self.positions!r} numbers the {SCHEME_FORMAT[self.positions]!r} format, "
                              f"not format={self.format!r}")
        try:
            nxm_scheme(self.positions, max_position=self.max_position).check_fits(self.max_digits, self.max_digits)
        except ValueError as err:
            raise ConfigError(f"the longest training product does not fit: {err}") from None

    @property
    def most_distinct_problems(self) -> int:
        """An upper bound on the distinct training problems (a, b): ``a`` below ``10**max_digits``, ``b`` below
        ``10**multiplier_digits`` for a multiplication with a fixed multiplier width, else as ``a``."""
        b_digits = self.multiplier_digits if self.op == "*" and self.multiplier_digits else self.max_digits
        return 10 ** self.max_digits * 10 ** b_digits

    @property
    def carry_classes(self) -> int:
        """Values a carry target can take: a column of a ``k``-digit multiplier passes on at most ``9k - 1``."""
        return 9 * (self.multiplier_digits or 1)

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

"""Data formats: how a :class:`~lengen_utils.core.problems.Problem` becomes a sequence of tokens.

Each format turns ``653+49=702`` into tokens plus, per position, the *target* the model must
produce there (``None`` where the position is not supervised). Two layouts exist:

* **decoder** formats (Cho et al. Section 2.1) are read left to right and trained by next-token
  prediction: the target at position i is token i+1, supervised from ``=`` onwards.
* the **encoder** format of Sabbaghi et al. (eq. 3.1 and 3.2) is a fixed-width frame of ``l``
  positions per operand, filled on the left with ``pad`` tokens; the output is read at the same
  positions, right-aligned, so that "indexing from right to left, the first digit of the answer
  corresponds to the first position of the input".

Every token also carries its *role* (``a``, ``b``, ``op``, ``eq``, ``answer``, ...) and, for digits,
its *significance* (the power of ten it stands for). Position-ID schemes (:mod:`positions`) read
these; nothing else needs to re-parse the strings.

**Scratchpad and sub-tasks** (thesis Chapter 4; Lee et al. 2023): ``cho_scratchpad`` writes, before each
answer digit, the step that produces it: the aligned digit pair and the carry in (column ``k`` of
:mod:`~lengen_utils.core.addition_steps`), four supervised tokens per column. ``cho_align``, ``cho_modsum`` and
``cho_carries`` ask for one sub-task of addition instead of the sum. All four keep Cho's prompt.

The vocabulary lives in :mod:`.vocab`, the :class:`~lengen_utils.core.example.Example` record and the reading
of an answer in :mod:`.example`; their names are re-exported here.
"""
from __future__ import annotations

from dataclasses import dataclass

from .addition_steps import TARGETS, column_outputs, columns
from .example import Example, decode_answer, render_columns
from .problems import Problem, ProblemError, num_digits
from .vocab import (ARITHMETIC_VOCAB, BLANK, BOARD_TOKENS, BOS_EOS, DIGITS, FILL, FILL_ID, HINTS, N_HINTS, PAD,
                    SPACE_TOKENS, TEXT_TOKENS, TOKEN_ID, VOCAB, FormatError, ids_to_tokens, render, tokens_to_ids)


@dataclass(frozen=True)
class FormatSpec:
    """Switches that define a decoder format, or ``layout='encoder'`` for Sabbaghi's frame."""

    name: str
    layout: str = "decoder"          # "decoder" or "encoder"
    reverse_answer: bool = False
    zero_pad: bool = False
    bos_eos: bool = False
    index_hints: bool = False
    description: str = ""
    target: str = "sum"              # "sum" or a sub-task of addition: "align", "modsum", "carries"
    scratchpad: bool = False         # each answer digit after its step: aligned pair and carry in

    @property
    def column_output(self) -> bool:
        """True when the output is written column by column (a scratchpad or a sub-task: addition only)."""
        return self.scratchpad or self.target != "sum"


FORMATS: dict[str, FormatSpec] = {spec.name: spec for spec in (
    FormatSpec("plain", description="653+49=702: the way people write it"),
    FormatSpec("reversed", reverse_answer=True, description="653+49=207: answer least-significant digit first (Lee et al.)"),
    FormatSpec("padded", zero_pad=True, description="653+049=0702: operands zero-padded to equal length, answer to length+1"),
    FormatSpec("bos_eos", bos_eos=True, description="$653+49=702$: wrapped in the BOS/EOS token $"),
    FormatSpec("index_hints", zero_pad=True, index_hints=True,
               description="a0b6c5d3+a0b0c4d9=a0b7c0d2: a letter before each digit names its significance (Zhou et al.)"),
    FormatSpec("cho", reverse_answer=True, zero_pad=True, bos_eos=True,
               description="$653+049=2070$: Cho et al.'s format for position coupling"),
    FormatSpec("cho_hints", reverse_answer=True, zero_pad=True, bos_eos=True, index_hints=True,
               description="$a0b6c5d3+a0b0c4d9=d2c0b7a0$: Cho's format with index hints, their index-hinting "
                           "baseline (Cho et al. Section 4.1)"),
    FormatSpec("sabbaghi", layout="encoder",
               description="fixed frame of l positions per operand, pad tokens on the left (Sabbaghi eq. 3.1/3.2)"),
)}
#: Notebook 08's formats, kept apart from :data:`FORMATS` (whose formats write any problem): they write the
#: column steps of an addition (:mod:`~lengen_utils.core.addition_steps`), with Cho's prompt.
COLUMN_FORMATS: dict[str, FormatSpec] = {spec.name: spec for spec in (
    FormatSpec("cho_scratchpad", reverse_answer=True, zero_pad=True, bos_eos=True, scratchpad=True,
               description="$653+049=3902541060170000$: Cho's format, each answer digit after its step: the "
                           "aligned pair and the carry in (3 9 0 -> 2, 5 4 1 -> 0, 6 0 1 -> 7, 0 0 0 -> 0)"),
    FormatSpec("cho_align", reverse_answer=True, zero_pad=True, bos_eos=True, target="align",
               description="$653+049=39546000$: sub-task digit-wise alignment, the aligned pairs, units first"),
    FormatSpec("cho_modsum", reverse_answer=True, zero_pad=True, bos_eos=True, target="modsum",
               description="$653+049=2960$: sub-task modular digit-wise addition (no carries), units first"),
    FormatSpec("cho_carries", reverse_answer=True, zero_pad=True, bos_eos=True, target="carries",
               description="$653+049=0110$: sub-task carries, the carry into each column, units first"),
)}
ALL_FORMATS: dict[str, FormatSpec] = {**FORMATS, **COLUMN_FORMATS}


def get_format(name: str) -> FormatSpec:
    if not isinstance(name, str) or name not in ALL_FORMATS:
        raise FormatError(f"unknown format {name!r}; choose one of {sorted(ALL_FORMATS)}")
    return ALL_FORMATS[name]


def _check_whole(name: str, value, minimum: int, optional: bool = True) -> None:
    if value is None and optional:
        return
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise FormatError(f"{name} must be a whole number >= {minimum}, got {value!r}")


def _digits(n: int, width: int) -> list[str]:
    return list(str(n).zfill(width))


def answer_width(problem: Problem, multiplier_digits: int | None = None) -> int:
    """Digits reserved for the answer: ``L+1`` for addition of L-digit operands, ``N+k`` for N x k."""
    if problem.op == "+":
        return max(num_digits(problem.a), num_digits(problem.b)) + 1
    k = multiplier_digits if multiplier_digits is not None else num_digits(problem.b)
    return num_digits(problem.a) + k


def encode(problem: Problem, format_name: str = "cho", *, frame_width: int | None = None,
           multiplier_digits: int | None = None, hint_offset: int = 0) -> Example:
    """Write ``problem`` in the named format.

    ``frame_width`` is Sabbaghi's ``l`` (required for ``format_name='sabbaghi'``). For multiplication
    ``multiplier_digits`` (k) is the multiplier's width: a wider ``b`` is refused in every format, and
    decoder formats zero-pad ``b`` to k digits (Cho's N x 2 task); the multiplicand ``a`` is never padded
    there. An operand wider than the frame, or than the index hints, is refused too (never truncated). ``hint_offset`` shifts the index-hint letters
    (randomised in training, as Zhou et al. do).
    """
    spec = get_format(format_name)
    if not isinstance(problem, Problem):
        raise FormatError(f"encode needs a Problem, got {type(problem).__name__} {problem!r}; "
                          f"build one with Problem.parse(a, b, op)")
    _check_whole("frame_width", frame_width, 1)
    _check_whole("multiplier_digits", multiplier_digits, 1)
    _check_whole("hint_offset", hint_offset, 0, optional=False)
    if problem.op == "*" and multiplier_digits is not None and num_digits(problem.b) > multiplier_digits:
        # every format: a model trained on k-digit multipliers has never seen a wider one (no silent answer)
        raise FormatError(f"multiplier {problem.b} has {num_digits(problem.b)} digits; this task allows at most "
                          f"{multiplier_digits} (multiplier_digits={multiplier_digits}); use a multiplier of at "
                          f"most {multiplier_digits} digits, or a task and model trained on wider ones")
    if spec.column_output and problem.op != "+":
        raise FormatError(f"the {spec.name} format writes the column steps of an addition; "
                          f"{problem.op!r} problems have no such format")
    if spec.layout == "encoder":
        return _encode_sabbaghi(problem, frame_width, spec.name)
    return _encode_decoder(problem, spec, multiplier_digits, hint_offset)


def _encode_decoder(problem: Problem, spec: FormatSpec, multiplier_digits: int | None, hint_offset: int) -> Example:
    a, b, op = problem.a, problem.b, problem.op
    if spec.zero_pad:
        if op == "+":
            width_a = width_b = max(num_digits(a), num_digits(b))
        else:
            width_a, width_b = num_digits(a), multiplier_digits or num_digits(b)
        width_ans = answer_width(problem, multiplier_digits)
    else:
        width_a, width_b, width_ans = num_digits(a), num_digits(b), num_digits(problem.answer)
    if spec.index_hints:  # every number shares one width so that a letter means one significance
        width_a = width_b = width_ans = answer_width(problem, multiplier_digits)
        if width_ans + hint_offset > N_HINTS:
            raise FormatError(f"index hints cover {N_HINTS} digits (h0..h{N_HINTS - 1}); this problem with "
                              f"hint_offset={hint_offset} needs {width_ans + hint_offset}")

    tokens: list[str] = []
    roles: list[str] = []
    sig: list[int | None] = []

    def put(tok: str, role: str, s: int | None = None) -> None:
        tokens.append(tok), roles.append(role), sig.append(s)

    def put_number(n: int, width: int, role: str, reverse: bool = False) -> None:
        digits = _digits(n, width)
        places = list(range(width - 1, -1, -1))          # significance of each digit, most significant first
        if reverse:
            digits.reverse(), places.reverse()
        if not spec.index_hints:
            tokens.extend(digits), roles.extend([role] * width), sig.extend(places)
            return
        for d, s in zip(digits, places):    # 'a' marks the most significant place, as in Zhou et al.'s a0b6c5d3
            put(HINTS[hint_offset + width - 1 - s], "hint", s)
            put(d, role, s)

    if spec.bos_eos:
        put(BOS_EOS, "bos")
    put_number(a, width_a, "a")
    put(op, "op")
    put_number(b, width_b, "b")
    put("=", "eq")
    eq_index = len(tokens) - 1
    if spec.column_output:       # units first, one column after another (lengen_utils.core.addition_steps)
        for k, col in enumerate(columns(problem, width_ans)):
            if spec.scratchpad:
                for d, role in ((col.a, "pair_a"), (col.b, "pair_b"), (col.carry, "carry")):
                    put(str(d), role, k)
            for d in column_outputs(col, spec.target):
                put(str(d), "answer", k)
    else:
        put_number(problem.answer, width_ans, "answer", reverse=spec.reverse_answer)
    if spec.bos_eos:
        put(BOS_EOS, "eos")
    targets: list[str | None] = [None] * eq_index + tokens[eq_index + 1:] + [None]   # next-token prediction from '='
    return Example(tuple(tokens), tuple(targets), tuple(roles), tuple(sig), problem, spec.name,
                   causal=True, answer_width=width_ans)


def _encode_sabbaghi(problem: Problem, frame_width: int | None, name: str) -> Example:
    if frame_width is None or frame_width < 1:
        raise FormatError("the sabbaghi format needs frame_width=l, the number of positions per operand")
    a, b, op = problem.a, problem.b, problem.op
    for label, n in (("a", a),) + ((("b", b),) if op == "+" else ()):
        if num_digits(n) > frame_width:
            raise FormatError(f"operand {label}={n} has {num_digits(n)} digits; the frame width l is {frame_width}")
    tokens: list[str] = []
    roles: list[str] = []
    sig: list[int | None] = []

    def put_framed(n: int, role: str) -> None:
        digits = list(str(n))
        padded = [PAD] * (frame_width - len(digits)) + digits
        for i, tok in enumerate(padded):
            tokens.append(tok), roles.append(role), sig.append(frame_width - 1 - i)

    if op == "+":  # (pad.. 1 2 3 + pad.. 4 0 9 5), eq. 3.1
        put_framed(a, "a")
        tokens.append("+"), roles.append("op"), sig.append(None)
        put_framed(b, "b")
        width = frame_width + 1
    else:  # multiplier first and unpadded: (5 6 x pad.. 4 2 9 7), eq. 3.2; b is the multiplier
        mult = list(str(b))
        for i, d in enumerate(mult):
            tokens.append(d), roles.append("b"), sig.append(len(mult) - 1 - i)
        tokens.append("*"), roles.append("op"), sig.append(None)
        put_framed(a, "a")
        width = frame_width + len(mult)
    answer = str(problem.answer)
    out = [PAD] * (width - len(answer)) + list(answer)
    targets: list[str | None] = [None] * (len(tokens) - width) + out
    return Example(tuple(tokens), tuple(targets), tuple(roles), tuple(sig), problem, name,
                   causal=False, answer_width=width)


def sabbaghi_sigma(i: int, frame_width: int) -> list[int]:
    """Sabbaghi's σ(i) (Section 3.1): the input positions the i-th answer digit depends on.

    Positions count from the right of the ``2l+1`` addition input, starting at 1 (position 1 is the
    units digit of b, ``l+1`` is ``+``, ``l+2`` the units digit of a); the i-th answer digit is read at
    position i. ``σ(i) = (1, ..., i, l+2, ..., i+l+1)``: the digits of significance < i of both
    operands (the carry) and the pair of significance i-1. ``σ(2) = (1, 2, 22, 23)`` for l = 20.
    """
    if frame_width < 1 or not 1 <= i <= frame_width + 1:
        raise FormatError(f"σ(i) is defined for 1 <= i <= l+1 = {frame_width + 1}, got i={i}")
    top = min(i, frame_width)
    return list(range(1, top + 1)) + list(range(frame_width + 2, top + frame_width + 2))


def sigma_indices(example: Example, i: int) -> list[int]:
    """σ(i) as 0-based indices into ``example.tokens`` (a Sabbaghi addition example)."""
    if example.format_name != "sabbaghi" or example.problem.op != "+":
        raise FormatError("σ(i) is defined here for additions in the sabbaghi format")
    T = len(example.tokens)
    return sorted(T - r for r in sabbaghi_sigma(i, (T - 1) // 2))


__all__ = [
    "VOCAB", "TEXT_TOKENS", "BLANK", "SPACE_TOKENS", "TARGETS", "TOKEN_ID", "COLUMN_FORMATS", "ALL_FORMATS", "FILL", "FILL_ID", "PAD", "BOS_EOS", "HINTS", "FORMATS",
    "FormatSpec", "Example",
    "FormatError", "ProblemError", "encode", "decode_answer", "get_format", "answer_width", "render",
    "tokens_to_ids", "ids_to_tokens", "sabbaghi_sigma", "sigma_indices", "render_columns",
    "ARITHMETIC_VOCAB", "BOARD_TOKENS", "DIGITS", "N_HINTS",
]

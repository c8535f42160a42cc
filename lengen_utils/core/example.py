"""One problem written in one format: the :class:`Example` record, and reading its answer back.

An example keeps, per position, the token, the target the model must produce there (``None``: not
supervised), the token's role and the significance of its digit, so that position-ID schemes and
evaluation read the structure without re-parsing strings. :func:`decode_answer` undoes a format's
reversal, padding and terminator; :func:`render_columns` shows a column-by-column output by its columns.
"""
from __future__ import annotations

from dataclasses import dataclass

from .problems import Problem
from .vocab import BOS_EOS, DIGITS, PAD, FormatError, render


@dataclass(frozen=True)
class Example:
    """One problem written in one format.

    ``targets[i]`` is what the model must output at position i (``None``: unsupervised).
    ``roles[i]`` is one of ``bos, a, op, b, eq, answer, eos, hint`` (and ``pair_a, pair_b, carry`` for the
    scratchpad's steps, ``blank`` for a random space); ``significance[i]`` is the power of ten a digit (or a
    Sabbaghi ``pad``, an index hint, a scratchpad step's token) stands for, else ``None``.
    """

    tokens: tuple[str, ...]
    targets: tuple[str | None, ...]
    roles: tuple[str, ...]
    significance: tuple[int | None, ...]
    problem: Problem
    format_name: str
    causal: bool
    answer_width: int

    def __len__(self) -> int:
        return len(self.tokens)

    @property
    def supervised(self) -> list[int]:
        return [i for i, t in enumerate(self.targets) if t is not None]

    @property
    def target_significance(self) -> list[int | None]:
        """Per supervised position, the power of ten of the answer digit produced there (None: ``$``)."""
        if self.causal:
            return [self.significance[i + 1] if self.roles[i + 1] == "answer" else None for i in self.supervised]
        n = len(self.supervised)   # the answer block, read right to left (text may follow it: text_filler)
        return [n - 1 - k for k in range(n)]

    def text(self) -> str:
        """The sequence as a compact string, e.g. ``$653+049=2070$``."""
        return render(self.tokens)


def decode_answer(example: Example, predicted: list[str] | None = None) -> int:
    """Read the answer back from the supervised positions (the example's own targets by default).

    ``predicted[i]`` is what a model produced at position i; the function undoes reversal, padding
    and the ``$`` terminator. A malformed prediction raises :class:`FormatError`.
    """
    source = example.targets if predicted is None else predicted
    if len(source) != len(example):
        raise FormatError(f"predicted has {len(source)} symbols; the example has {len(example)} positions")
    symbols = [source[i] for i in example.supervised]
    if example.causal:
        if example.tokens[-1] == BOS_EOS:
            if symbols[-1] != BOS_EOS:
                raise FormatError(f"the answer should end with {BOS_EOS!r}, got {symbols[-1]!r}")
            symbols = symbols[:-1]
        # the answer digits, most significant first (a column's digits keep their order)
        sig = [example.significance[i + 1] for i in example.supervised if i + 1 < len(example)]
        found = [(s, k, d) for k, (d, role, s) in enumerate(zip(symbols, _answer_roles(example), sig))
                 if role == "answer"]
        digits = [d for _s, _k, d in sorted(found, key=lambda t: (-t[0], t[1]))]
    else:
        digits = [s for s in symbols if s != PAD]
    if not digits or not all(d in DIGITS for d in digits):
        raise FormatError(f"not a number: {render(symbols)!r}")
    return int("".join(digits))


def render_columns(example: Example) -> str:
    """Like :func:`render`, with the output split into its columns (one per significance) by spaces:
    ``$653+049= 3902 5410 6017 0000 $`` for the scratchpad (pair, carry in, answer digit)."""
    parts, last = [], None
    for i, tok in enumerate(example.tokens):
        s = example.significance[i] if example.roles[i] not in ("a", "b", "hint") else None
        if (s is not None and s != last) or example.roles[i] == "eos":
            parts.append(" ")
        last = s if s is not None else last
        parts.append(render([tok]))
    return "".join(parts)


def _answer_roles(example: Example) -> list[str]:
    # the role of the token each supervised position predicts (the next token)
    return [example.roles[i + 1] for i in example.supervised if i + 1 < len(example.roles)]

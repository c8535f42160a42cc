"""The vocabulary: every token a model reads or writes, its ID, and how a sequence of tokens is shown.

One vocabulary serves every format (arithmetic, the minesweeper board, filler text, random spaces), so a
token keeps its ID across formats and checkpoints: new tokens go at the end. :func:`render` joins tokens
into the compact strings the course prints (``$653+049=2070$``, hints as letters, ``pad`` as ``·``).
:class:`FormatError` is the one error of the format layer, raised for an unknown token here too.
"""
from __future__ import annotations

from .boards.board import MINE

DIGITS = tuple("0123456789")
FILL = "<fill>"   # batch padding: never seen by the loss, never a model output
PAD = "pad"       # Sabbaghi's pad symbol: a real token of the encoder format
BOS_EOS = "$"
N_HINTS = 64      # index-hint tokens h0..h63 (Zhou et al. 2024, shown as letters a, b, c, ...)
HINTS = tuple(f"h{i}" for i in range(N_HINTS))
ARITHMETIC_VOCAB: tuple[str, ...] = (FILL, *DIGITS, "+", "*", "=", BOS_EOS, PAD, *HINTS)
BOARD_TOKENS = (MINE,)  # Cho et al. Section 6.2: 'M' marks a mine ('*', an empty cell, is already a token)
# filler words around the numbers (Sabbaghi Section 3.3, lengen_utils.core.text_filler)
TEXT_TOKENS: tuple[str, ...] = ("the", "sum", "of", "and", "is", "what", "so", "then")
# a blank between operand digits (random spaces, Shen et al. 2023; lengen_utils.core.spaces)
BLANK = "␣"
SPACE_TOKENS: tuple[str, ...] = (BLANK,)
# the separator between running sums in Cho et al.'s N x M scratchpad (lengen_utils.core.nxm.cho)
SUM_SEPARATOR = ">"
SCRATCHPAD_TOKENS: tuple[str, ...] = (SUM_SEPARATOR,)
# new tokens go at the end, so every older token keeps its ID (and older checkpoints their meaning)
VOCAB: tuple[str, ...] = (*ARITHMETIC_VOCAB, *BOARD_TOKENS, *TEXT_TOKENS, *SPACE_TOKENS, *SCRATCHPAD_TOKENS)
TOKEN_ID = {tok: i for i, tok in enumerate(VOCAB)}
FILL_ID = TOKEN_ID[FILL]
#: The vocabulary a model that reads numbers inside text needs: every token up to the last filler word (the blank
#: of notebook 08 comes after it, so the text models trained before it keep their size).
TEXT_VOCAB_SIZE = max(TOKEN_ID[w] for w in TEXT_TOKENS) + 1


class FormatError(ValueError):
    """A problem that does not fit the chosen format (too many digits for the frame, unknown name...)."""


def render(tokens) -> str:
    """Join tokens into a readable string: hints become letters, ``pad`` becomes ``·``."""
    out = []
    for tok in tokens:
        if tok is None:
            out.append("_")
        elif tok.startswith("h") and tok[1:].isdigit():
            k = int(tok[1:])
            out.append(chr(ord("a") + k) if k < 26 else f"<{tok}>")
        elif tok == PAD:
            out.append("·")
        elif tok == FILL:
            out.append("")
        elif tok in TEXT_TOKENS:   # filler words stand apart: "the ··12+·345 so"
            out.append(f" {tok} ")
        else:
            out.append(tok)
    return " ".join("".join(out).split())


def tokens_to_ids(tokens) -> list[int]:
    try:
        return [TOKEN_ID[t] for t in tokens]
    except KeyError as err:
        raise FormatError(f"unknown token {err.args[0]!r}") from None


def ids_to_tokens(ids) -> list[str]:
    ids = [int(i) for i in ids]
    if any(not 0 <= i < len(VOCAB) for i in ids):
        raise FormatError(f"token ids {ids} go outside the vocabulary (ids 0..{len(VOCAB) - 1})")
    return [VOCAB[i] for i in ids]

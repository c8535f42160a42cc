"""Model-ready tensors: :class:`Batch` and :func:`collate`, which right-pads encoded examples into one.

A batch holds the tokens, the targets (``IGNORE_INDEX`` where nothing is supervised), the position IDs
(one channel, or (row, column) for boards), the padding mask and the optional inputs some models read
(uniform slots, frame IDs, each row's operand length). :class:`~lengen_utils.core.tasks.Task` builds them;
the model, training and evaluation read them.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from itertools import chain

import numpy as np
import torch

from . import problems as P
from .carries import column_carries, column_products
from .constants import IGNORE_INDEX
from .example import Example
from .positions import uniform_slots
from .vocab import FILL_ID, tokens_to_ids


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
    carry_targets: torch.Tensor | None = None   # [B, T] each answer column's incoming carry (TaskConfig.carry_targets)
    product_targets: torch.Tensor | None = None  # [B, T, k] each answer column's digit products (product_targets)

    def to(self, device: torch.device | str) -> "Batch":
        move = lambda t: None if t is None else t.to(device, non_blocking=True)  # noqa: E731
        return Batch(move(self.tokens), move(self.targets), move(self.position_ids), move(self.key_padding),
                     move(self.uniform_slots), self.examples, number_ids=move(self.number_ids),
                     digits=move(self.digits), carry_targets=move(self.carry_targets),
                     product_targets=move(self.product_targets))

    def without_examples(self) -> "Batch":
        """The same tensors without the example records: what a training step needs, and quick to pickle (a worker
        process sends its batches so)."""
        return replace(self, examples=[])

    def model_inputs(self, digits: bool = False) -> dict:
        """Keyword arguments of the model's forward pass; ``digits=True`` adds each row's operand length (a
        looped model whose loops grow with it needs them: ``ModelConfig.loops_per_digit``)."""
        return {"tokens": self.tokens, "position_ids": self.position_ids, "key_padding": self.key_padding,
                "uniform_slots": self.uniform_slots,
                **({} if self.number_ids is None else {"number_ids": self.number_ids}),
                **({"digits": self.digits} if digits and self.digits is not None else {})}


def problem_digits(problem) -> int:
    """The size a looped model scales its loops with: the longest operand's digits (a board's longer side)."""
    if isinstance(problem, P.Problem):
        return max(P.num_digits(problem.a), P.num_digits(problem.b))
    return max(problem.width, problem.height)


def collate(examples: list[Example], position_ids: list[list[int]], with_slots: bool = False) -> Batch:
    """Right-pad examples into one :class:`Batch`; padding is excluded from attention and the loss.

    Rows are built as Python lists and converted with one ``torch.tensor`` call per field: training draws a
    batch every step, and a tensor per row and field cost more than the rest of the batch's preparation.
    """
    T = max(len(e) for e in examples)
    B = len(examples)
    first = position_ids[0][0] if position_ids and position_ids[0] else 0
    channels = () if isinstance(first, (int, np.integer)) else (len(first),)   # (row, column) IDs: [B, T, 2]
    id_fill = [0] * (channels[0] if channels else 1)
    tokens, targets, pos, keep, slots = [], [], [], [], []        # flat, row after row
    for ex, ids in zip(examples, position_ids):
        pad = T - len(ex)
        tokens += tokens_to_ids(ex.tokens) + [FILL_ID] * pad
        targets += target_ids(ex.targets) + [IGNORE_INDEX] * pad
        pos += (ids if not channels else [c for i in ids for c in i]) + id_fill * pad
        keep += [True] * len(ex) + [False] * pad
        if with_slots:
            slots += uniform_slots(ex) + [0] * pad
    as_tensor = lambda flat, dtype=np.int64: _from_flat(flat, dtype).view(B, T)  # noqa: E731
    digits = torch.tensor([problem_digits(e.problem) for e in examples], dtype=torch.long)[:, None].expand(B, T)
    return Batch(as_tensor(tokens), as_tensor(targets), _from_flat(pos, np.int64).view(B, T, *channels),
                 as_tensor(keep, np.bool_), as_tensor(slots) if with_slots else None, examples, digits=digits)


def _from_flat(flat: list, dtype) -> torch.Tensor:
    """A flat list of Python ints (or bools) as a tensor: through ``numpy.fromiter``, about 9x faster than
    ``torch.tensor`` on a list (a batch of 1,000 problems of up to 30 digits holds about 95,000 tokens)."""
    return torch.from_numpy(np.fromiter(flat, dtype=dtype, count=len(flat)))


def carry_target_ids(examples: list[Example], length: int) -> torch.Tensor:
    """``[B, length]``: at each supervised position of an encoder example, the carry its answer column receives
    (:func:`~lengen_utils.core.carries.column_carries`), ``IGNORE_INDEX`` elsewhere (padding included)."""
    return _per_column(examples, length, IGNORE_INDEX,
                       lambda ex, width: column_carries(ex.problem.a, ex.problem.b, width))


def product_target_ids(examples: list[Example], length: int, k: int) -> torch.Tensor:
    """``[B, length, k]``: at each supervised position of an encoder example, its answer column's ``k`` digit
    products (:func:`~lengen_utils.core.carries.column_products`), ``IGNORE_INDEX`` elsewhere."""
    return _per_column(examples, length, [IGNORE_INDEX] * k,
                       lambda ex, width: column_products(ex.problem.a, ex.problem.b, width, k))


def _per_column(examples: list[Example], length: int, empty, values) -> torch.Tensor:
    """Each example's ``values(example, width)[s]`` at its supervised position of answer column ``s``, ``empty``
    elsewhere, as one ``[B, length, ...]`` tensor."""
    rows = []
    for ex in examples:
        row = [empty] * length
        sig = ex.target_significance
        per_column = values(ex, max(sig) + 1)
        for pos, s in zip(ex.supervised, sig):
            row[pos] = per_column[s]
        rows.append(row)
    return torch.tensor(rows, dtype=torch.long)


def target_ids(targets) -> list[int]:
    """Token ids of an example's targets, ``IGNORE_INDEX`` where nothing is supervised (``None``)."""
    ids = tokens_to_ids(t for t in targets if t is not None)
    it = iter(ids)
    return [IGNORE_INDEX if t is None else next(it) for t in targets]


def concat_examples(group: list[Example]) -> Example:
    """One training sequence made of several examples (``problem`` and ``answer_width`` of the first)."""
    first = group[0]
    cat = lambda name: tuple(chain.from_iterable(getattr(e, name) for e in group))  # noqa: E731
    return Example(cat("tokens"), cat("targets"), cat("roles"), cat("significance"), first.problem,
                   first.format_name, first.causal, first.answer_width)

"""Measures of N x M multiplication (notebook 09): of the task (how many tokens a product writes, the per-token error
budget of an exact match, the products one answer digit sums without a scratchpad, the ID offsets of each lookup of a
row digit), and of a model (exact match over a grid of operand lengths, and where the errors sit in the fused-row
scratchpad, by row and column).

Every score is teacher-forced: the model reads the true scratchpad and each position's argmax is compared with the
next token. An exact match needs every supervised token right, which is the same event as greedy decoding writing
the whole scratchpad, and so the product, correctly (a greedy run diverges only after its first wrong token).
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Iterable

import numpy as np

from ..core.constants import EVAL_SEED, IGNORE_INDEX
from ..core.evaluate.lengths import eval_batches, teacher_forced_predictions
from ..core.model import Transformer
from ..core.nxm import encode_nxm
from ..core.nxm.cho import cho_layout
from ..core.nxm.positions import row_ids
from ..core.nxm.task import NxMTask
from ..core.problems import Problem


def supervised_tokens(n_digits: int, m_digits: int) -> int:
    """Tokens the model writes for an ``n_digits x m_digits`` product (rows 0..M, separators, the closing ``$``)."""
    example = encode_nxm(Problem(10 ** (n_digits - 1), 10 ** (m_digits - 1), "*"))
    return len(example.supervised)


def error_budget(n_digits: int, m_digits: int, exact_match: float = 0.95) -> float:
    """The per-token error rate at which independent errors leave ``exact_match`` of the products whole."""
    return 1 - exact_match ** (1 / supervised_tokens(n_digits, m_digits))


def products_per_digit(n_digits: int, m_digits: int) -> list[int]:
    """Without a scratchpad: the number of digit products ``a_i b_j`` (``i + j = s``) that answer digit ``s`` sums."""
    return [sum(1 for i in range(n_digits) if 0 <= s - i < m_digits) for s in range(n_digits + m_digits - 1)]


def lookup_offsets(n_digits: int, m_digits: int) -> dict[str, set[tuple[int, int, int]]]:
    """For every token that writes a digit of rows 1..M, the offset (row, column, level) from its IDs to the IDs of
    each token the digit needs: the row above (same column and one to the right of the digit written), the
    multiplicand's digits (same column and the next), the row's multiplier digit. Returns the set of offsets seen per
    lookup, over the whole product ``(10**N - 1) x (10**M - 1)``; a row-offset to the multiplicand is ``-k`` and to
    the multiplier digit the column offset is ``-t``, so those two are reported clipped at 3, as the model's
    relative bias sees them."""
    example = encode_nxm(Problem(10 ** n_digits - 1, 10 ** m_digits - 1, "*"))
    ids = row_ids(example)
    where = {(role, ident) for role, ident in zip(example.roles, ids)}
    seen: dict[str, set[tuple[int, int, int]]] = {"row above, next column": set(), "row above, two columns on": set(),
                                                   "multiplicand, same column": set(), "multiplicand, next column": set(),
                                                   "the row's multiplier digit": set()}
    clip = lambda d: max(-3, min(3, d))  # noqa: E731
    for i in example.supervised[:-1]:
        row, col, level = ids[i]
        if level != 2 or row == 0 or example.roles[i + 1] != "answer":
            continue
        wanted = {"row above, next column": ("answer", (row - 1, col + 1, 2)),
                  "row above, two columns on": ("answer", (row - 1, col + 2, 2)),
                  "multiplicand, same column": ("a", (0, col, 0)), "multiplicand, next column": ("a", (0, col + 1, 0)),
                  "the row's multiplier digit": ("b", (row, 0, 1))}
        for name, (role, target) in wanted.items():
            if (role, target) in where:
                seen[name].add((clip(target[0] - row), clip(target[1] - col), target[2] - level))
    return seen


@dataclass(frozen=True)
class CellResult:
    """One cell of the grid: ``count`` products of an ``n_digits`` by an ``m_digits`` number."""

    n_digits: int
    m_digits: int
    count: int
    exact_match: float       # share of products whose whole scratchpad is right
    token_accuracy: float    # share of supervised tokens right


def _scores(model: Transformer, task: NxMTask, problems: list[Problem], batch_size: int):
    """Per batch: the batch and a ``[B, T]`` array that is True where a supervised token is wrong."""
    for batch in eval_batches(model, task, problems, batch_size):
        preds = teacher_forced_predictions(model, batch)
        supervised = batch.targets != IGNORE_INDEX
        yield batch, ((preds != batch.targets) & supervised).cpu().numpy(), supervised.cpu().numpy()


def evaluate_cell(model: Transformer, task: NxMTask, n_digits: int, m_digits: int, count: int,
                  seed: int = EVAL_SEED, batch_size: int = 200) -> CellResult:
    """Exact match and token accuracy on the task's fixed test set of one cell."""
    problems = task.cell_problems(n_digits, m_digits, count, seed)
    right, wrong_tokens, tokens = 0, 0, 0
    for _batch, wrong, supervised in _scores(model, task, problems, batch_size):
        right += int((~wrong.any(1)).sum())
        wrong_tokens += int(wrong.sum())
        tokens += int(supervised.sum())
    return CellResult(n_digits, m_digits, count, right / count, 1 - wrong_tokens / tokens)


def evaluate_grid(model: Transformer, task: NxMTask, n_values: Iterable[int], m_values: Iterable[int], count: int,
                  seed: int = EVAL_SEED, progress: bool = False) -> dict[tuple[int, int], CellResult]:
    """:func:`evaluate_cell` for every ``(n, m)`` of the grid ``n_values x m_values``."""
    from tqdm.auto import tqdm  # third-party, imported lazily (pulls in ipywidgets in notebooks)

    cells = [(n, m) for n in n_values for m in m_values]
    return {(n, m): evaluate_cell(model, task, n, m, count, seed)
            for n, m in tqdm(cells, desc="grid", disable=not progress, leave=False)}


def error_map(model: Transformer, task: NxMTask, problems: list[Problem], batch_size: int = 200) -> np.ndarray:
    """Error rate of each scratchpad place, ``[rows, columns]``: entry ``[k, c]`` is the share of wrong predictions
    of the token at row ``k`` and column ``c`` (column 0: the ``+`` or ``$`` that closes the row before; column
    ``t + 1``: digit ``t``), over ``problems`` of one shape (a cell of the grid)."""
    shapes = {(len(str(p.a)), len(str(p.b))) for p in problems}
    if len(shapes) != 1:
        raise ValueError(f"error_map reads problems of one shape (one cell of the grid), got shapes {sorted(shapes)}")
    (n, m), = shapes
    wrong_sum, seen = np.zeros((m + 2, n + 2)), np.zeros((m + 2, n + 2))
    for batch, wrong, supervised in _scores(model, task, problems, batch_size):
        for b, example in enumerate(batch.examples):
            ids = row_ids(example)
            for i in np.flatnonzero(supervised[b]):
                row, col, level = ids[i + 1]
                if level == 2:
                    wrong_sum[row, col] += wrong[b, i]
                    seen[row, col] += 1
    with np.errstate(invalid="ignore"):
        return np.where(seen > 0, wrong_sum / np.maximum(seen, 1), np.nan)


def cho_first_errors(model: Transformer, task: NxMTask, problems: list[Problem],
                     batch_size: int = 200) -> Counter[str]:
    """Where each wrong product of Cho et al.'s scratchpad (:mod:`lengen_utils.core.nxm.cho`) goes wrong first, as
    counts of places: ``"P_k: the separator that opens it"``, ``"P_k: digit t"`` (``"P_k: its top digit, past A's
    last"`` for digit ``N``), ``"S_k: ..."`` likewise, ``"the closing $"``. The first error is the one greedy
    decoding would make; later ones follow a scratchpad that is already wrong."""
    places: Counter[str] = Counter()
    for batch, wrong, _supervised in _scores(model, task, problems, batch_size):
        for b, example in enumerate(batch.examples):
            bad = np.flatnonzero(wrong[b])
            if bad.size:
                places[_cho_place(example, int(bad[0]) + 1)] += 1
    return places


#: The two kinds of place that decide where an operand ends: a row opened (or not: the sums begin), and a row's top
#: digit, where the multiplicand has no digit left
OPENS_ROW, TOP_DIGIT = "the separator that opens it", "its top digit, past A's last"


def _cho_place(example, position: int) -> str:
    """A readable name for the token at ``position`` of a Cho-format example."""
    a = example.problem.a
    slot = cho_layout(a, example.problem.b)[position]
    if slot.role == "eos":
        return "the closing $"
    partial = slot.ids[0] is not None
    row = f"{'P' if partial else 'S'}_{slot.ids[1] + 1}"
    if slot.role != "answer":
        return f"{row}: {OPENS_ROW}"
    digit = slot.ids[0] - 1 if partial else slot.ids[2] - 1
    return f"{row}: {TOP_DIGIT}" if partial and digit == len(str(a)) else f"{row}: digit {digit}"


def end_decision_share(places: Counter[str]) -> float:
    """The share of :func:`cho_first_errors`'s first errors that decide where an operand ends (0 when none)."""
    ends = sum(count for place, count in places.items() if place.endswith((OPENS_ROW, TOP_DIGIT)))
    return ends / max(1, sum(places.values()))


def evaluate_cells(models: dict, cells: Iterable[tuple[int, int]], count: int,
                   seed: int = EVAL_SEED) -> dict[tuple[int, int], list[float]]:
    """``{(N, M): [exact match of each model]}`` for ``models`` (``{seed: (model, task)}``) on every cell."""
    return {(a, b): [evaluate_cell(model, task, a, b, count, seed).exact_match for model, task in models.values()]
            for a, b in cells}


__all__ = ["CellResult", "cho_first_errors", "end_decision_share", "error_budget", "error_map", "evaluate_cell", "evaluate_cells", "evaluate_grid",
           "lookup_offsets", "products_per_digit", "supervised_tokens"]

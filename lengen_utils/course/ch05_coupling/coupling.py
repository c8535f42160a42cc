"""Notebook 05, sections 1 and 2: Cho et al.'s method (coupled IDs, ``max_pos``, balanced sampling) and plain
coupling as published, at the course's CPU budget. Measures return numbers; checks fail with a teaching message."""
from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..common.claims import claim
from ..notebook import pct
from ...core.formats import encode
from ...core.problems import Problem
from ...core.tasks import Task, TaskConfig

#: ``{length: (median, min, max)}`` over seeds, as :func:`lengen_utils.analysis.generalization.median_and_range` gives it.
Band = Mapping[int, tuple[float, float, float]]


def check_ids(ids: Sequence[int], example) -> None:
    """At the evaluation start ``$`` has ID 0, and ``+`` / ``=`` sit one past the top digit ID (the answer's width)."""
    claim(ids[0] == 0, "`$` should always get the ID 0 (it is part of no number)", f"ID {ids[0]}")
    claim(max(ids) == example.answer_width + 1,
          f"`+` and `=` should get the ID one past the top digit ID ({example.answer_width} here), i.e. "
          f"{example.answer_width + 1}", f"a largest ID of {max(ids)}",
          "Then an operator is coupled with a digit it has nothing to do with.")


def placement(config: TaskConfig) -> dict[str, object]:
    """What ``max_pos`` bounds: the starts a widest training problem may draw, and the longest operand that the
    table places at evaluation (start 1)."""
    task, k = Task(config), config.max_digits
    widest = encode(Problem(10 ** k - 1, 10 ** k - 1, config.op), config.format)
    return {"max_position": task.scheme.max_position,
            f"starts of a {k}-digit training problem": f"{task.scheme.default_start}–"
                                                       f"{task.scheme.max_position - task.scheme.span(widest)}",
            "longest test operand (digits)": task.longest_operand()}


def check_balanced(share: Mapping[str, Mapping[str, float]], longest: int) -> None:
    """``share[sampler][f"{k} dig"]``: uniform draws nearly all have the longest length; balanced ones give every
    length the same share."""
    uniform, balanced = share["uniform"][f"{longest} dig"], share["balanced"][f"{longest} dig"]
    claim(uniform > 0.85, f"operands drawn uniformly below 10^{longest} should nearly all have {longest} digits "
          "(more than 85%)", pct(uniform))
    claim(abs(balanced - 1 / longest) < 0.02, f"balanced sampling should give {longest}-digit operands a share of "
          f"1/{longest} (within 2 points)", pct(balanced), "Then some lengths are rarer than others in training.")


def setup(entry, records: Sequence[dict]) -> dict[str, object]:
    """A recipe's model and budget (its zoo entry) and its seeds' training seconds (their manifest records)."""
    m, t, seconds = entry.model, entry.train, [r["train_seconds"] for r in records]
    return {"layers": m.n_layers, "heads": m.n_heads, "d_model": m.d_model, "d_ff": m.d_ff, "steps": t.steps,
            "problems per step": t.batch_size, "parameters": records[0]["n_parameters"],
            "train s (one CPU core)": f"{min(seconds):.0f}–{max(seconds):.0f}",
            "test problems per length": records[0]["metrics"]["eval_n"]}


def errors_per_problem(digits: Mapping[int, float], below: int | None = None) -> float:
    """The expected number of wrong answer digits per problem (the sum of the per-digit error rates), counting only
    the significances below ``below`` when it is given."""
    return sum(1 - a for s, a in digits.items() if below is None or s < below)


def check_plain(band: Band, gen: int, trained: int, spread_at: int = 15) -> None:
    """Plain coupling masters the trained length in every seed, generalizes no further, and its seeds are far apart
    just past it."""
    claim(band[trained][1] >= 0.95, f"every seed of plain coupling should master {trained} digits (>= 95%)",
          pct(band[trained][1]), "A model that fails in distribution says nothing about length.")
    claim(gen == trained, f"plain coupling's generalizable length should be its trained length ({trained})", str(gen),
          "If it generalizes further at this budget, say so in the text.")
    lo, hi = band[spread_at][1:]
    claim(hi - lo >= 0.3, f"the seeds should be far apart at {spread_at} digits (range >= 30 points)",
          f"{pct(lo)} to {pct(hi)}")


def check_spread(per_digit_at: Mapping[int, float], trained: int) -> None:
    """Past the trained length plain coupling gets more than one answer digit per problem wrong, and a share of them
    (at least a fifth) among the digits that a trained-length problem also has: the errors are not only new digits."""
    total, low = errors_per_problem(per_digit_at), errors_per_problem(per_digit_at, below=trained)
    claim(total >= 1, "plain coupling should get more than one answer digit per problem wrong here", f"{total:.2f}")
    claim(low >= 0.2 * total, f"at least a fifth of the wrong digits should be among the {trained} lowest",
          f"{low:.2f} of {total:.2f}", "Then the errors sit only in the new digits, not over the whole answer.")

"""Notebook 05, sections 1 and 2: Cho et al.'s method (coupled IDs, ``max_pos``, balanced sampling) and plain
coupling as published, trained at the course's CPU budget.

Measured numbers come from the zoo manifest or from values the notebook computes and passes in; the paper's
numbers are quoted as the paper's.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..common.claims import claim
from ...core.formats import encode
from ..notebook import pct, render_md
from ...core.problems import Problem
from ...core.tasks import Task, TaskConfig

#: ``{length: (median, min, max)}`` over seeds, as :func:`lengen_utils.analysis.generalization.median_and_range` gives it.
Band = Mapping[int, tuple[float, float, float]]


def check_ids(ids: Sequence[int], example) -> None:
    """The coupled IDs of one example at the evaluation start: ``$`` has ID 0, and ``+`` / ``=`` sit one past the
    top digit ID (the answer's width)."""
    claim(ids[0] == 0, "`$` should always get the ID 0 (it is part of no number)", f"ID {ids[0]}")
    claim(max(ids) == example.answer_width + 1,
          f"`+` and `=` should get the ID one past the top digit ID ({example.answer_width} here), i.e. "
          f"{example.answer_width + 1}", f"a largest ID of {max(ids)}",
          "Then an operator is coupled with a digit it has nothing to do with.")


def placement_text(config: TaskConfig) -> str:
    """What ``max_pos`` bounds: how far a training start may go, and the longest test the table places."""
    task = Task(config)
    scheme, k = task.scheme, config.max_digits
    widest = encode(Problem(10 ** k - 1, 10 ** k - 1, config.op), config.format)
    return render_md(
        "With `max_position` = {mp}, a {d}-digit training problem starts anywhere from {s0} to {s1}, and at "
        "evaluation (start 1) problems up to **{n} digits** fit in the table: the longest test this notebook "
        "could run.", mp=scheme.max_position, d=k, s0=scheme.default_start,
        s1=scheme.max_position - scheme.span(widest), n=task.longest_operand())


def check_balanced(share: Mapping[str, Mapping[str, float]], longest: int) -> None:
    """``share[sampler][f"{k} dig"]``: uniform draws are nearly all of the longest length, balanced ones give
    every length the same share."""
    uniform, balanced = share["uniform"][f"{longest} dig"], share["balanced"][f"{longest} dig"]
    claim(uniform > 0.85, f"operands drawn uniformly below 10^{longest} should nearly all have {longest} digits "
          "(more than 85%)", pct(uniform))
    claim(abs(balanced - 1 / longest) < 0.02, f"balanced sampling should give {longest}-digit operands a share of "
          f"1/{longest} (within 2 points)", pct(balanced), "Then some lengths are rarer than others in training.")


def setup_text(entry, records: Sequence[dict]) -> str:
    """Plain coupling's model and budget (the zoo entry) and its training times (the manifest records)."""
    m, t = entry.model, entry.train
    seconds = [r["train_seconds"] for r in records]
    return render_md(
        "{layers} layer, {heads} heads, `d_model` = {d}, `d_ff` = {ff}; {steps:,} steps of {batch} problems "
        "({params:,} parameters); each seed trained in {t0:dur} to {t1:dur} on one CPU core and was tested on "
        "{n:,} problems per length. Rebuild: `{cmd}`",
        layers=m.n_layers, heads=m.n_heads, d=m.d_model, ff=m.d_ff, steps=t.steps, batch=t.batch_size,
        params=records[0]["n_parameters"], t0=min(seconds), t1=max(seconds), n=records[0]["metrics"]["eval_n"],
        cmd=entry.command)


def plain_text(band: Band, gen: int, trained: int = 10) -> str:
    """Plain coupling's curve in words: the worst seed at the trained length, the generalizable length (and the
    next tested length), the median at 15 and 20 digits and the spread at 15."""
    lengths = sorted(band)
    nxt = lengths[lengths.index(gen) + 1]
    return render_md(
        "Plain coupling masters the trained lengths (worst seed {lo10:pct} at {k} digits) and its generalizable "
        "length is **{g}** (between {g} and {nxt_minus} digits): the median falls to {m15:pct} at 15 digits and "
        "{m20:pct} at 20, with the seeds far apart at 15 (from {lo15:pct} to {hi15:pct}).",
        k=trained, lo10=band[trained][1], g=gen, nxt_minus=nxt - 1, m15=band[15][0], m20=band[20][0],
        lo15=band[15][1], hi15=band[15][2])


def errors_per_problem(digits: Mapping[int, float]) -> float:
    """The expected number of wrong answer digits per problem: the sum of the per-digit error rates."""
    return sum(1 - a for a in digits.values())


def errors_text(per_digit: Mapping[int, Mapping[int, float]], length: int, seed: int) -> str:
    """How many answer digits a seed gets wrong per problem at ``length`` (per-digit accuracy, manifest)."""
    return render_md(
        "For example, at {n} digits seed {s} gets **{w:.1f}** answer digits per problem wrong on average (the sum "
        "over the {k} answer digits of their error rates).", n=length, s=seed,
        w=errors_per_problem(per_digit[length]), k=len(per_digit[length]))


def summary(config: TaskConfig, entry, gen_plain: int) -> str:
    """The summary's bullets on the method and on plain coupling at CPU scale."""
    return render_md(
        "* **Position coupling** (Cho et al. Section 3) gives the digits of equal significance the same position\n"
        "  ID in both operands and the answer, starts the IDs at a random number in training (so every row of the\n"
        "  table up to `max_position` = {mp} is trained) and at 1 at evaluation, gives `$` the ID 0 and the "
        "operators\n  the ID one past the units digit. Training data are balanced over operand lengths.\n"
        "* **As published, at CPU scale** (1 layer, `d_model` {d}, {steps:,} steps of {batch}), it masters the "
        "trained\n  1–{ls} digits and its generalizable length over three seeds is **{gp}**; Cho et al. get 70 at "
        "GPU scale\n  (their Figure 3).", mp=config.max_position, d=entry.model.d_model, steps=entry.train.steps,
        batch=entry.train.batch_size, ls=config.max_digits, gp=gen_plain)


__all__ = ["check_ids", "placement_text", "check_balanced", "setup_text", "plain_text", "errors_per_problem",
           "errors_text", "summary"]

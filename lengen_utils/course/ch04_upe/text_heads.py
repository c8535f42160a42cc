"""Notebook 04, section 7: addition inside text with arithmetic heads (Sabbaghi Section 3.3, Figures 6 and 7a),
against the same model without text, notebook 03's text-free RPE model and APE alone.

Measured numbers come from the zoo manifest or from live evaluations the notebook passes in; the paper's claims
are quoted as the paper's.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import torch

from ..common.claims import claim
from ...core.model import Transformer
from ..notebook import pct, render_md
from ...core.tasks import Task
from ...lab.zoo import entry, manifest_record, metrics

#: ``{entry name: {length: exact match}}``, measured live.
Live = Mapping[str, Mapping[int, float]]


def setup_text(text: Sequence[str], plain: Sequence[str]) -> str:
    """The text models' size, filler and budget, their training times (medians over seeds) and test size."""
    rec = {n: manifest_record(n) for n in [*text, *plain]}
    e = entry(text[0])
    return render_md(
        "{params:,} parameters; {h} of the {H} heads of each layer are arithmetic heads; 0 to {N} words per gap "
        "(inputs of up to {T} tokens); {steps:,} steps of {bs}. Trained in {t_text:dur} with text and {t_plain:dur} "
        "without (medians over {seeds} seeds, one thread); tested on {n:,} problems per length. Rebuild: `{cmd}`",
        params=rec[text[0]]["n_parameters"], h=e.model.arithmetic_heads, H=e.model.n_heads, N=e.task.filler_max,
        T=e.task.max_position + 1, steps=e.train.steps, bs=e.train.batch_size,
        t_text=np.median([rec[n]["train_seconds"] for n in text]),
        t_plain=np.median([rec[n]["train_seconds"] for n in plain]), seeds=len(text),
        n=rec[text[0]]["metrics"]["eval_n"], cmd=e.command)


def check_live(live: Live, text: Sequence[str], plain: Sequence[str], rpe: str, ape: str, trained: int) -> None:
    """Live: every seed masters the trained lengths; with text as good as Figure 2b's text-free RPE model at 2x and
    within 10 points at 3x; the same model without text generalizes less far; APE alone does not fit inside text."""
    lengths = sorted(live[rpe])
    worst = min(live[n][trained] for n in [*text, *plain])
    claim(worst >= 0.95, f"every seed with and without text should master {trained} digits", pct(worst))
    med = {k: float(np.median([live[n][k] for n in text])) for k in lengths}
    flat = {k: float(np.median([live[n][k] for n in plain])) for k in lengths}
    two, three = lengths[1], lengths[-1]
    claim(med[two] >= live[rpe][two] - 0.05, f"with text, addition at {two} digits should be as good as notebook 03's "
          "RPE model without text (within 5 points; Figure 7a)", f"{pct(med[two])} vs {pct(live[rpe][two])}")
    claim(med[three] >= max(0.9, live[rpe][three] - 0.1), f"with text, at {three} digits, >= 90% and within 10 points "
          "of the text-free RPE model", f"{pct(med[three])} vs {pct(live[rpe][three])}")
    for k in lengths[1:]:
        claim(med[k] >= flat[k] + 0.1, f"the same model without text should generalize less far (10 points below at "
              f"{k} digits)", f"{pct(flat[k])} without text vs {pct(med[k])} with", "If not, update the reading.")
    claim(live[ape][trained] <= 0.1, f"APE alone should not even fit {trained} digits inside text", pct(live[ape][trained]))


def results_text(text: Sequence[str], plain: Sequence[str], rpe: str, ape: str, frame: int) -> str:
    """The four curves in words, from the manifest (medians and worst seeds)."""
    mt, mp = ({k: float(np.median([metrics(n)[k] for n in names])) for k in metrics(names[0])} for names in (text, plain))
    lo_t, lo_p = ({k: min(metrics(n)[k] for n in names) for k in mt} for names in (text, plain))
    return render_md(
        "* **With text**, the median model adds {mt[10]:pct} of 10-digit and {mt[15]:pct} of 15-digit sums (worst "
        "seed {lo_t[10]:pct} and {lo_t[15]:pct}); notebook 03's RPE encoder, without text, adds {mr[10]:pct} and "
        "{mr[15]:pct}.\n"
        "* **The same model without text** adds {mp[10]:pct} and {mp[15]:pct} (median; worst seed {lo_p[10]:pct} and "
        "{lo_p[15]:pct}), although it fits the trained lengths (worst seed {lo_p[5]:pct} at 5 digits).\n"
        "* **Text, APE only** does not even fit the seen domain at this budget: {ma[1]:pct} at 1 digit, {ma[5]:pct} "
        "at 5.\n"
        "* At the full frame width ({L} digits), where no pad separates the operands, the models of this section drop "
        "({mt[16]:pct} with text, {mp[16]:pct} without; median), as in notebook 03.",
        mt=mt, mp=mp, lo_t=lo_t, lo_p=lo_p, mr=metrics(rpe), ma=metrics(ape), L=frame)


@torch.no_grad()
def attention_on_text(model: Transformer, task: Task, length: int, n: int) -> tuple[dict[str, float], float]:
    """From the number tokens, the share of each head's attention on text (mean over queries and problems), and the
    share of text among the tokens."""
    batch = task.batch(task.eval_problems(length, n))
    _, weights = model(**batch.model_inputs(), return_attention=True)
    is_text = (batch.number_ids == 0) & batch.key_padding          # text keys (not batch padding)
    from_numbers = (batch.number_ids > 0).float()                  # queries: the number tokens
    H, h = model.cfg.n_heads, model.cfg.arithmetic_heads
    on_text = {}
    for layer, w in enumerate(weights, start=1):                   # w: [B, H, T, T]
        mass = (w * is_text[:, None, None, :]).sum(-1)             # attention on text, per query
        per_head = (mass * from_numbers[:, None]).sum((0, 2)) / from_numbers.sum()
        for head in range(H):
            on_text[f"layer {layer}, head {head + 1} ({'arithmetic' if head < h else 'APE'})"] = float(per_head[head])
    return on_text, float((is_text.sum(1) / batch.key_padding.sum(1)).mean())


def _means(on_text: Mapping[str, float]) -> tuple[float, float]:
    return (float(np.mean([v for k, v in on_text.items() if "arithmetic" in k])),
            float(np.mean([v for k, v in on_text.items() if "APE" in k])))


def check_attention(on_text: Mapping[str, float], share: float) -> None:
    """The arithmetic heads look past the text: less than half the text's share, and less than the APE heads."""
    arith, ape = _means(on_text)
    claim(arith < share / 2 and arith < ape, "from the number tokens, the arithmetic heads should put less than half "
          "of the text's share of the tokens on it, and less than the APE heads", f"{pct(arith)} (text is "
          f"{pct(share)} of the tokens, APE heads {pct(ape)})", "Then the heads do not ignore the text, as "
          "Sabbaghi et al. describe: update the text.")


def attention_text(on_text: Mapping[str, float], share: float) -> str:
    arith, ape = _means(on_text)
    return render_md(
        "Text is {share:pct} of the tokens of these inputs. From the number tokens, the arithmetic heads put "
        "{arith:pct} of their attention on it (mean over heads and layers), the APE heads {ape:pct}.",
        share=share, arith=arith, ape=ape)


__all__ = ["attention_on_text", "attention_text", "check_attention", "check_live", "results_text", "setup_text"]

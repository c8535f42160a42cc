"""Notebook 04, section 7: addition inside text with arithmetic heads (Sabbaghi Section 3.3, Figures 6 and 7a)."""
from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import torch

from ...core.model import Transformer
from ...core.tasks import Task
from ...lab.zoo import entry
from ..common.claims import claim
from ..notebook import pct
from .upe_m1 import recipe


def setup_rows(names_by_label: Mapping[str, Sequence[str]]) -> dict[str, dict[str, str]]:
    """:func:`~.upe_m1.recipe` of each label's seeds, with its arithmetic heads, words per gap and longest input."""
    rows = {}
    for label, names in names_by_label.items():
        e = entry(names[0])
        rows[label] = {**recipe(names), "arithmetic heads": f"{e.model.arithmetic_heads} of {e.model.n_heads}",
                       "words per gap": f"0-{e.task.filler_max}", "longest input": str(e.task.max_position + 1)}
    return rows


def check_live(live: Mapping[str, Mapping[int, float]], text: Sequence[str], plain: Sequence[str], rpe: str, ape: str,
               trained: int) -> None:
    """Live: with text as good as notebook 03's RPE model (Figure 7a), better than without; APE alone fails."""
    lengths = sorted(live[rpe])
    worst = min(live[n][trained] for n in [*text, *plain])
    claim(worst >= 0.95, f"every seed with and without text should master {trained} digits", pct(worst))
    med, flat = ({k: float(np.median([live[n][k] for n in names])) for k in lengths} for names in (text, plain))
    two, three = lengths[1], lengths[-1]
    claim(med[two] >= live[rpe][two] - 0.05, f"with text, addition at {two} digits should be as good as notebook 03's "
          "RPE model without text (within 5 points; Figure 7a)", f"{pct(med[two])} vs {pct(live[rpe][two])}")
    claim(med[three] >= max(0.9, live[rpe][three] - 0.1), f"with text, at {three} digits, >= 90% and within 10 points "
          "of the text-free RPE model", f"{pct(med[three])} vs {pct(live[rpe][three])}")
    for k in lengths[1:]:
        claim(med[k] >= flat[k] + 0.1, f"the same model without text should generalize less far (10 points below at "
              f"{k} digits)", f"{pct(flat[k])} without text vs {pct(med[k])} with", "If not, update the reading.")
    claim(live[ape][trained] <= 0.1, f"APE alone should not even fit {trained} digits inside text",
          pct(live[ape][trained]))


def check_frame_drop(at_frame: Mapping[str, Sequence[float]]) -> None:
    """At the full frame width (no pad between the operands) every model's median drops below 50% (manifest)."""
    for label, values in at_frame.items():
        claim(np.median(values) < 0.5, f"{label} should drop at the full frame width (median below 50%), as in "
              "notebook 03", pct(np.median(values)), "Then the pad between the operands is no longer a cue.")


@torch.no_grad()
def attention_on_text(model: Transformer, task: Task, length: int, n: int) -> tuple[dict[str, float], float]:
    """From the number tokens, each head's share of attention on text, and the share of text among the tokens."""
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
    return tuple(float(np.mean([v for k, v in on_text.items() if kind in k])) for kind in ("arithmetic", "APE"))


def attention_rows(on_text: Mapping[str, float], share: float) -> dict[str, float]:
    """Each head's attention on text, the mean of each kind of head, and the text's share of the tokens."""
    arith, ape = _means(on_text)
    return {**on_text, "arithmetic heads, mean": arith, "APE heads, mean": ape, "text's share of the tokens": share}


def check_attention(on_text: Mapping[str, float], share: float) -> None:
    """The arithmetic heads look past the text: less than half the text's share, and less than the APE heads."""
    arith, ape = _means(on_text)
    claim(arith < share / 2 and arith < ape, "from the number tokens, the arithmetic heads should put less than half "
          "the text's share of the tokens on it, and less than the APE heads", f"{pct(arith)} (text {pct(share)} of "
          f"the tokens, APE heads {pct(ape)})", "Else they do not ignore the text, as Sabbaghi et al. describe.")

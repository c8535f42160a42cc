"""Notebook 03: relative position encoding (Shaw-style RPE, Sabbaghi et al. eq. 2.1 and A2) carries addition past
the trained length, fails at the full frame width, and beats APE, NoPE, RoPE and ALiBi at equal budget.

Measured numbers come from the zoo entries, the manifest, or live results the notebook computes and passes in;
the paper's statements (Figure 2b) are typed here once, labelled as the paper's.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..common.claims import claim
from ..notebook import pct, render_md

Curve = Mapping[int, float]
#: Sabbaghi et al. Figure 2b (RPE, trained on at most 5 digits, frame l = 50), in words.
FIGURE_2B = {5: "≈100%", 10: "high", 15: "high", 20: "high, fluctuating", "l-1": "(declines slowly to k=49)",
             "l": "(abrupt fall at k=50)"}
#: The course's target for "generalizes": at least this exact match at 4x the trained length.
TARGET = 0.95


def setup_text(entry, record: Mapping, n_parameters: int) -> str:
    """The model's size, encoding and budget (zoo entry), its training time and test size (manifest record)."""
    return render_md(
        "{params:,} parameters, {layers} layers, `d_model` = {d}, `encoding={enc!r}` (K = {K}); {steps:,} steps; "
        "trained in {t:dur}, tested on {n:,} problems per length. Rebuild: `{cmd}`",
        params=n_parameters, layers=entry.model.n_layers, d=entry.model.d_model, enc=entry.model.encoding,
        K=entry.model.rpe_max_distance, steps=entry.train.steps, t=record["train_seconds"],
        n=record["metrics"]["eval_n"], cmd=entry.command)


def check_curves(live: Mapping[str, Curve], frame: int) -> None:
    """``live[model][length]`` for ``rpe``, ``rpe8``, ``rpe_shift`` and ``ape``: RPE carries addition past the
    trained length, APE does not, and every RPE model falls at the full frame width."""
    r, r8, rs, a = (live[k] for k in ("rpe", "rpe8", "rpe_shift", "ape"))
    claim(r[5] >= 0.98 and r[10] >= 0.9, "plain RPE trained on ≤ 5 digits should master 5 digits (98%) and hold "
          "90% at 10, twice the trained length", f"{pct(r[5])} and {pct(r[10])}")
    claim(a[10] <= 0.05, "APE, same task and budget, should add nothing at 10 digits (at most 5%)", pct(a[10]))
    claim(rs[20] >= 0.95, "RPE + shift augmentation should hold 95% at 20 digits, 4x the trained length",
          pct(rs[20]))
    claim(r8[20] >= 0.95, "plain RPE trained on ≤ 8 digits should hold 95% at 20 digits", pct(r8[20]))
    claim(rs[frame] <= rs[frame - 1] - 0.3 and r8[frame] <= r8[frame - 1] - 0.15,
          f"at the full frame width ({frame} digits) RPE should drop: 30 points with shift augmentation, 15 "
          f"trained on ≤ 8 digits, below {frame - 1} digits",
          f"{pct(rs[frame - 1])} to {pct(rs[frame])} and {pct(r8[frame - 1])} to {pct(r8[frame])}",
          "Then the pads that start every training frame are not the cue the course says they are.")


def figure2b_rows(curves: Mapping[str, Curve], frame: int) -> dict[str, dict[str, object]]:
    """Our curves at 1x-4x the trained length and at the frame width, next to the paper's Figure 2b."""
    cols = {5: "k=5", 10: "k=10 (2x)", 15: "k=15 (3x)", 20: "k=20 (4x)", frame - 1: f"k={frame - 1}",
            frame: f"k={frame} (full frame)"}
    rows = {label: {name: c[k] for k, name in cols.items()} for label, c in curves.items()}
    paper = {**{cols[k]: FIGURE_2B[k] for k in (5, 10, 15, 20)}, cols[frame - 1]: FIGURE_2B["l-1"],
             cols[frame]: FIGURE_2B["l"]}
    return {**rows, "Sabbaghi Fig. 2b (≤ 5, l = 50)": paper}


def curves_text(em: Curve, em_sh: Curve, em8: Curve, frame: int) -> str:
    """What reproduces of Figure 2b and what does not, from the three RPE curves."""
    return render_md(
        "**What reproduces, what does not.** RPE carries addition past the trained length, where APE is at\n"
        "zero from 6 digits on.\n\n"
        "* **Plain RPE, as in the paper's A2** (no augmentation), trained on at most 5 digits: {em[10]:pct} at 10\n"
        "  digits (2x), {em[15]:pct} at 15 (3x), but only **{em[20]:pct} at 20 (4x)**. At our few-minute CPU budget\n"
        "  this does not meet the course's target of {target:pct0} at 4x; the paper's 6-layer, 768-wide BERT,\n"
        "  trained on 100k samples for many epochs with checkpoint selection on long numbers, stays high to about\n"
        "  45 digits. Its errors are spread over all digits (next section): the position rule transfers, but the\n"
        "  arithmetic gets noisier as more digit tokens share the frame than training ever showed (at most 10\n"
        "  non-pad digits). In our tuning runs, longer training raised the accuracy at 10-12 digits markedly: a\n"
        "  gap of budget, not of kind.\n"
        "* **RPE + Sabbaghi's shift augmentation (A3)**, same budget, numbers shifted by zeros to at most\n"
        "  $l - 1 = {lm1}$ digits: **{em_sh[20]:pct} at 20 digits (4x)**, {sh_lm1:pct} at {lm1}. This is our CPU\n"
        "  stand-in for the paper's long training (section 5 explains why it works for RPE and not for APE).\n"
        "* The same plain recipe trained on at most 8 digits: {em8[20]:pct} at 20 digits (2.5x).\n\n"
        "All three fall at the full frame width, {L} digits: plain RPE from 5 digits {f0:pct}, RPE + shift\n"
        "{f1:pct}, plain RPE from 8 digits {f2:pct}.",
        em=em, em_sh=em_sh, em8=em8, target=TARGET, lm1=frame - 1, L=frame, sh_lm1=em_sh[frame - 1],
        f0=em[frame], f1=em_sh[frame], f2=em8[frame])


def check_units(units: Mapping[int, float], frame: int, near: int = 20) -> None:
    """``units[length]``: the units digit of the model trained on ≤ 8 digits is right at ``near`` digits and breaks
    at the full frame width."""
    claim(units[near] >= 0.95, f"the units digit should be right at {near} digits (at least 95%)", pct(units[near]))
    claim(units[frame] <= units[near] - 0.1, f"at the full frame width ({frame} digits) the units digit should break "
          f"(10 points below its {pct(units[near])} at {near})", pct(units[frame]),
          "Then the spurious cue (pads at the start of every frame) is not what the model reads.")


def frame_text(per: Mapping[int, Curve], per8: Mapping[int, Curve], em8: Curve, frame: int) -> str:
    """Which digits break at the full frame width, per output digit (``per[length][significance]``)."""
    rest = min(per8[frame][s] for s in range(2, frame + 1))
    return render_md(
        "The model trained on at most 8 digits shows the effect cleanly: every output digit is right in at\n"
        "least {low:pct} of the {a}- and {b}-digit sums, and at {L} digits, the full frame, **the units digit\n"
        "breaks** ({u:pct}; the tens digit {t:pct}, every other digit at least {rest:pct}): exact match falls from\n"
        "{em_b:pct} at {b} digits to {em_L:pct}. The 5-digit model shows the same units-digit collapse ({u5L:pct} at\n"
        "{L} digits, against {u520:pct} at 20), on top of its gradual decline.",
        low=min(min(per8[k].values()) for k in (frame - 2, frame - 1)), a=frame - 2, b=frame - 1, L=frame,
        u=per8[frame][0], t=per8[frame][1], rest=rest, em_b=em8[frame - 1], em_L=em8[frame], u5L=per[frame][0],
        u520=per[20][0])


def check_vectors(top: Sequence[Sequence[int]], frame: int) -> None:
    """``top[layer]``: the offsets of the largest relative vectors, largest first. Layer 1 lines the operands up
    (the partner digit at -(l+1), and the token itself), layer 2 looks at the neighbours (+1 and -1, the carry)."""
    claim(set(top[0][:2]) == {-(frame + 1), 0}, f"layer 1's two largest vectors should be at offsets -(l+1) = "
          f"{-(frame + 1)} (the partner digit) and 0 (the token itself)", f"{list(top[0][:2])}",
          "Then the next cell's reading of the maps is wrong.")
    claim(set(top[1][:2]) == {1, -1}, "layer 2's two largest vectors should be at offsets +1 and -1 (the neighbouring "
          "digits: +1 is where the carry comes from)", f"{list(top[1][:2])}")


def check_comparison(live: Mapping[str, Curve]) -> None:
    """``live[encoding][length]`` at 5 and 10 digits: RPE generalizes furthest; NoPE and ALiBi cannot even fit the
    seen domain in an encoder."""
    others = {x: live[x][10] for x in ("APE", "NoPE", "RoPE", "ALiBi")}
    best = max(others, key=others.get)
    claim(live["RPE"][10] >= others[best] + 0.5, "at 10 digits RPE should lead every other encoding by 50 points "
          f"(the best other is {best} at {pct(others[best])})", pct(live["RPE"][10]))
    for name in ("NoPE", "ALiBi"):
        claim(live[name][5] <= 0.1, f"{name} should not fit even 5-digit sums in an encoder (at most 10%)",
              pct(live[name][5]), "Without a direction, the encoder cannot tell 12+34 from 21+43.")


def comparison_text(curves: Mapping[str, Curve]) -> str:
    """The five encodings at equal budget, in words, with APE's and RoPE's measured numbers."""
    return render_md(
        "* **APE** learns the seen domain perfectly and nothing else ({ape[5]:pct} at 5, {ape[6]:pct} at 6).\n"
        "* **NoPE** cannot even fit the seen domain: an encoder without positions is permutation-invariant,\n"
        "  it sees a *bag* of tokens and cannot tell `12+34` from `21+43`.\n"
        "* **ALiBi** fails too: its penalty $-m|i-j|$ is symmetric, so in an encoder it says how far but not\n"
        "  in which direction, and it *suppresses* the distant partner digit at offset $l+1$ that addition needs\n"
        "  most. (ALiBi was designed for causal decoders, where the mask supplies the direction.)\n"
        "* **RoPE** is relative in principle and fits the seen domain, but generalizes only a little\n"
        "  ({rope[6]:pct} at 6 digits, {rope[10]:pct} at 10): its rotations give each offset a fixed *pattern*, not a\n"
        "  learned vector, and at this budget the model does not find a rule that survives longer inputs. The\n"
        "  thesis survey (Chapter on positional encodings) reports the same steep drops for NoPE, RoPE and APE.\n"
        "* **RPE** is the only one that carries the rule well beyond the trained length.",
        ape=curves["APE"], rope=curves["RoPE"])


def shift_text(em: Curve, em_sh: Curve) -> str:
    """What shift augmentation adds to RPE at 15 and 20 digits."""
    return render_md("With augmentation, RPE goes from {em[15]:pct} to {em_sh[15]:pct} at 15 digits and from "
                     "{em[20]:pct} to {em_sh[20]:pct} at 20.", em=em, em_sh=em_sh)


def summary(em: Curve, em_sh: Curve, em8: Curve, units8: float, frame: int, test_sizes: Sequence[int]) -> str:
    """The notebook's summary and departures (``units8``: the units digit at the full frame, model trained on
    ≤ 8 digits; ``test_sizes``: the test problems per length of the models shown)."""
    return render_md(
        "* Relative vectors on the keys (RPE, Sabbaghi eq. 2.1) make the position rule translation invariant,\n"
        "  matching the symmetry of addition for bounded cascades: one window of offsets\n"
        "  $\\sigma^{{\\mathrm{{rel}}}}_{{\\mathrm{{training}}}}$ serves every digit (Sabbaghi Appendix E). Trained on at "
        "most 5\n  digits, our RPE encoder adds {em[10]:pct} of 10-digit and {em[15]:pct} of 15-digit sums, where APE "
        "is at 0.\n"
        "* Plain RPE (the paper's A2 setting) at our budget does **not** reach {target:pct0} at 4x: {em[20]:pct} at 20 "
        "digits.\n  With Sabbaghi's shift augmentation on top, the same model and budget reach **{em_sh[20]:pct} at 20 "
        "digits** (4x).\n"
        "* Trained on at most 8 digits, the same recipe is at {em8[20]:pct} on 20-digit sums, and at the full frame\n"
        "  width ({L} digits) its units digit breaks ({u8:pct}): the pads that always started the frames in\n"
        "  training were a spurious cue (Sabbaghi A2).\n"
        "* At equal budget: APE fits the seen domain only, NoPE and ALiBi cannot fit it in an encoder, RoPE\n"
        "  generalizes a little, RPE generalizes furthest.\n\n"
        "**Our departures from the paper.** A small CPU-sized encoder (see above) instead of a 6-layer,\n"
        "768-wide BERT; frame $l = {L}$ instead of $l = 50$, so the full-frame test sits at {L} digits; the\n"
        "relative vectors are shared by the heads of a layer and not clipped ($K = 2l+1$); {ns} test problems\n"
        "per length and one seed, no checkpoint selection on a validation set of long numbers (Sabbaghi et al.\n"
        "pick the best checkpoint, which smooths their fluctuating curves); a balanced sampler and fresh problems at\n"
        "every step instead of a fixed set of 100k uniform sums; no dropout, and norms before each block instead of\n"
        "BERT's after. Section 6 puts the paper's choices back one at a time and measures what each one changes.",
        em=em, em_sh=em_sh, em8=em8, target=TARGET, L=frame, u8=units8,
        ns=" or ".join(f"{x:,}" for x in sorted(set(test_sizes))))


__all__ = ["FIGURE_2B", "TARGET", "setup_text", "check_curves", "figure2b_rows", "curves_text", "check_units",
           "frame_text", "check_vectors", "check_comparison", "comparison_text", "shift_text", "summary"]

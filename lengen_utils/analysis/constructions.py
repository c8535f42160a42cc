"""Cho et al. Theorem 5.1, built by hand: a 1-layer, 2-head decoder with coupled positions that adds.

No training: every weight is written down. The model is an ordinary
:class:`~lengen_utils.core.model.Transformer` (learned absolute positions fed coupled IDs, one block,
two heads, ReLU MLP, no layer norm), so the course's plotting code shows its attention beside a
trained model's (Cho Figure 7).

**The algorithm.** In Cho's format ``$a+b=s$`` with the answer reversed, the token ``s_k`` (the answer
digit of significance k, coupled ID p) must predict ``s_{k+1} = (a_{k+1} + b_{k+1} + c_{k+1}) mod 10``.

* Head 1, the *digit-sum head*, attends to the tokens with ID p-1: the operand digits a_{k+1} and
  b_{k+1} (the answer digit with that ID is still in the future). Its output is their mean, so
  ``S = a_{k+1} + b_{k+1}``. Where no token has ID p-1 (the answer's top digit is next) it rests on
  ``$``, whose value is 0, so S = 0 and the next digit is just the carry.
* Head 2, the *carry head*, attends to the tokens with ID p, a_k, b_k and the query s_k itself, and
  to ``$``, which it scores like a match. Its mean digit is ``(a_k + b_k + s_k) / 4``; with the
  query's own digit, ``z = a_k + b_k - s_k`` follows, and the carry into position k+1 is 1 exactly
  when ``z >= 9`` (else ``z <= 0``), as Cho Section 5.1.1 describes. The share of attention on ``$``
  counts the matches: 1/4 at an answer digit, 1/3 at ``=`` (it sees ``+``, ``=``: no carry in) and
  1/2 at the answer's top digit, which has no operand digits beside it: time to emit ``$``.
* The MLP reads ``w = S + (z + 9) / 27``: without a carry ``w`` lies in ``[S, S + 1/3]``, with one in
  ``[S + 2/3, S + 1]``, so ``t = S + c`` is the integer nearest to ``w`` and the intervals of
  different t never meet. Trapezoid bumps of four ReLUs each pick t, and t mod 10 is the digit.

**Positions.** The row of coupled ID p holds the ±1 bits of p and of p-1 (n bits each), so a query
matches keys by a dot product that is n for the right ID and at most n-2 otherwise; in head 1
``$`` (ID 0) gets a constant score of n-1, so it absorbs attention only when no ID matches. With n
bits the IDs run to 2^n - 1 and the evaluation start is 1, so operands can have up to ``2^n - 3``
digits, for an embedding size of ``d = 2n + 18`` (Cho: ``2^((d-17)/2) - 2``). This design is
ours: Cho's Appendix E is not in the course's copy of the paper.
"""
from __future__ import annotations

import math

import torch

from ..core.model import ModelConfig, Transformer
from ..core.vocab import TOKEN_ID, VOCAB

# residual-stream channels
X, IS_DIGIT, IS_BOS, ONE, SUM, BOS_SHARE, CARRY_AVG = range(7)
LOGITS = 7                       # 11 channels: digits 0-9, then '$'
FIXED = LOGITS + 11              # 18 channels before the position bits
SCORE = 40.0                     # score gap (logits) between a matching key and a one-bit miss x 2
OUT = 10.0                       # output logit scale


def adder_config(n_bits: int) -> ModelConfig:
    d = FIXED + 2 * n_bits       # even, so the two heads split it evenly
    return ModelConfig(d_model=d, n_layers=1, n_heads=2, d_ff=96, causal=True, encoding="learned",
                       max_positions=2**n_bits, norm="none", activation="relu")


def max_operand_digits(n_bits: int) -> int:
    """Longest operands the construction adds: the top coupled ID (digits + 1) must be < 2^n."""
    return 2**n_bits - 3


def _bits(p: int, n: int) -> torch.Tensor:
    return torch.tensor([1.0 if (p >> i) & 1 else -1.0 for i in range(n)])


@torch.no_grad()
def build_coupled_adder(n_bits: int = 7) -> Transformer:
    """The hand-built adder for operands of up to ``2**n_bits - 2`` digits (Cho Theorem 5.1)."""
    cfg = adder_config(n_bits)
    model = Transformer(cfg).eval()
    for p in model.parameters():
        p.zero_()
    d, n, dh = cfg.d_model, n_bits, cfg.d_head
    pos_now, pos_prev = FIXED, FIXED + n          # bits of p, bits of p - 1

    emb = model.embed.weight
    for digit in range(10):
        emb[TOKEN_ID[str(digit)], [X, IS_DIGIT, ONE]] = torch.tensor([float(digit), 1.0, 1.0])
    emb[TOKEN_ID["$"], [IS_BOS, ONE]] = 1.0
    for tok in ("+", "=", "*"):
        emb[TOKEN_ID[tok], ONE] = 1.0

    table = model.position.table.weight            # row 0 ($) stays zero
    for p in range(1, 2**n):
        table[p, pos_now:pos_now + n] = _bits(p, n)
        table[p, pos_prev:pos_prev + n] = _bits(p - 1, n)

    attn = model.blocks[0].attn
    wq, wk, wv = attn.qkv.weight[:d], attn.qkv.weight[d:2 * d], attn.qkv.weight[2 * d:]
    lam = SCORE / 2 * math.sqrt(dh)                # a wrong ID costs >= 2 bits; sdpa divides by sqrt(dh)
    for head, query_bits in ((0, pos_prev), (1, pos_now)):
        rows = slice(head * dh, head * dh + n + 1)
        wq[rows, :] = 0
        for i in range(n):
            wq[head * dh + i, query_bits + i] = lam          # the ID the head looks for
            wk[head * dh + i, pos_now + i] = 1.0             # the key's own ID
        wq[head * dh + n, ONE] = lam
        # head 1: '$' scores n-1, a fallback that never rivals a match; head 2: '$' counts as a match
        wk[head * dh + n, IS_BOS] = n - 1.0 if head == 0 else float(n)
    # values: head 1 carries the digit; head 2 the digit and the '$' share
    wv[0, X], wv[dh, X], wv[dh + 1, IS_BOS] = 1.0, 1.0, 1.0
    wo = attn.out.weight
    wo[SUM, 0], wo[CARRY_AVG, dh], wo[BOS_SHARE, dh + 1] = 1.0, 1.0, 1.0

    # MLP: w = 2*SUM + (4*CARRY_AVG - 2*X + 9) / 27, then bumps around each t = 0..19
    lin1, lin2 = model.blocks[0].mlp[0], model.blocks[0].mlp[2]
    w_dir = torch.zeros(d)
    w_dir[SUM], w_dir[CARRY_AVG], w_dir[X] = 2.0, 4.0 / 27, -2.0 / 27
    unit = 0
    for t in range(20):
        for offset, sign in ((2 / 3, 1.0), (1 / 3, -1.0), (-1 / 3, -1.0), (-2 / 3, 1.0)):
            lin1.weight[unit] = 3.0 * w_dir                  # slope 3: each ramp rises by 1 over 1/3
            lin1.weight[unit, ONE] = 3.0 * (9 / 27 - t + offset)
            lin2.weight[LOGITS + t % 10, unit] = OUT * sign
            unit += 1
    # '$' when head 2's share on '$' is 1/2 (top digit) rather than 1/3 or 1/4:
    # logit 24*OUT*(share - 5/12), routed as relu(y) - relu(-y)
    for sign in (1.0, -1.0):
        lin1.weight[unit, ONE], lin1.weight[unit, BOS_SHARE] = sign * -10 * OUT, sign * 24 * OUT
        lin2.weight[LOGITS + 10, unit] = sign
        unit += 1
    # read-out: digits and '$' from their channels; every other token is pushed below
    head = model.head.weight
    for digit in range(10):
        head[TOKEN_ID[str(digit)], LOGITS + digit] = 1.0
    head[TOKEN_ID["$"], LOGITS + 10] = 1.0
    for tok in VOCAB[:head.shape[0]]:   # the model's vocabulary (the board task's 'M' lies beyond it)
        if not (tok.isdigit() or tok == "$"):
            head[TOKEN_ID[tok], ONE] = -OUT
    return model

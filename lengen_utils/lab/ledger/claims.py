"""The claims of the ledger (:mod:`lengen_utils.lab.ledger.model`), as data: one :class:`Claim` per claim and recipe.

Each record types only what the paper says (its words and number, labelled as the paper's; where the paper gives
no number, the course's reading of its words, labelled as ours), the course's own target where it differs, and
what to read from the records. The result, the departures and the verdict are computed, never typed here.

No recipe id is typed here either: the row that tests a claim says so where it is defined, in its chapter's
``recipes.py``, with the role ``"claim:<claim id>"`` (``"roles": ("claim:sabbaghi-a1",)``), and the ledger finds it
by that role (:attr:`~.model.Claim.recipe`). A gain names the row it is over by a role too: another claim's
(``versus="claim:sabbaghi-m1/rpe"``) or a control's (``versus="control:plain-ape"``, declared by that row).

A claim tested by several recipes has one record per recipe (``sabbaghi-a2/paper-recipe``, ``sabbaghi-a2/window``):
the paper's own recipe and ours get separate verdicts.
"""
from __future__ import annotations

from .model import CHO, CHO_NXM, SABBAGHI, THESIS, Claim, Measure, PaperNumber, Target

# -- Sabbaghi et al. 2024 --------------------------------------------------------------------------------------------
_A2 = ("RPE allows the Transformer to achieve length generalization from adding two numbers with up to 5-digit to "
       "two numbers with up to 50-digit")
_A2_NUMBER = PaperNumber(">=", 0.90, "maintains its high performance at longer lengths", stated=False,
                         reading="at least 90% at 40 digits, 8x the trained length, short of the 50-digit fall the "
                                 "paper attributes to its format")
_A1 = "APE ... performance drops drastically when the length increases from 5 to 6"
_A1_NUMBER = PaperNumber("<=", 0.10, "drops drastically when the length increases from 5 to 6", stated=False,
                         reading="at most 10% at 6 digits")
_M2 = ("UPE ... enable[s] the model to maintain 90% of its original accuracy at the length of 16 (3-digit "
       "multiplier, trained on multiplicands of up to 5 digits)")
_M2_NUMBER = PaperNumber(">=", 0.90, "maintain 90% of its original accuracy at the length of 16")
_M2_TARGET = Target(0.80, "the course's budget is a fraction of the paper's; the course keeps 80% of the 5-digit "
                          "accuracy as its own bar and says so")

SABBAGHI_CLAIMS = (
    Claim("sabbaghi-a1", SABBAGHI, "Section 3.1 (A1), Figure 2a", _A1, _A1_NUMBER, "02",
          Measure(length=6), setup="sabbaghi-a1"),
    Claim("sabbaghi-a1/equal-budget", SABBAGHI, "Section 3.1 (A1), Figure 2a", _A1, _A1_NUMBER, "03",
          Measure(length=6), setup="sabbaghi-a1"),
    Claim("sabbaghi-a2/paper-recipe", SABBAGHI, "Section 3.1 (A2), Figure 2b", _A2, _A2_NUMBER, "03b",
          Measure(length=40), setup="sabbaghi-a2"),
    Claim("sabbaghi-a2/gpu-ours", SABBAGHI, "Section 3.1 (A2), Figure 2b", _A2, _A2_NUMBER, "03b",
          Measure(length=40), setup="sabbaghi-a2"),
    Claim("sabbaghi-a2/window", SABBAGHI, "Section 3.1 (A2), Figure 2b", _A2, _A2_NUMBER, "03b",
          Measure(length=40), setup="sabbaghi-a2"),
    Claim("sabbaghi-a2/cpu-paper-rung", SABBAGHI, "Section 3.1 (A2), Figure 2b", _A2, _A2_NUMBER, "03b",
          Measure(length=40), setup="sabbaghi-a2"),
    Claim("sabbaghi-a2/cpu-balanced", SABBAGHI, "Section 3.1 (A2), Figure 2b",
          "RPE ... maintains its high performance at longer lengths (here: 4x the trained length in a frame of 22)",
          PaperNumber(">=", 0.90, "maintains its high performance at longer lengths", stated=False,
                      reading="at least 90% at 20 digits, 4x the trained length"),
          "03", Measure(length=20), setup="sabbaghi-a2"),
    Claim("sabbaghi-a3", SABBAGHI, "Section 3.1 (A3), Figure 2c",
          "augmentation [shifting by zeros, with APE] does not lead to generalization on the unseen positions",
          PaperNumber("<=", 0.10, "does not lead to generalization on the unseen positions", stated=False,
                      reading="at most 10% at 10 digits, 2x the trained length"),
          "02", Measure(length=10), setup="sabbaghi-a3"),
    Claim("sabbaghi-m1/ape", SABBAGHI, "Section 3.2 (M1), Figure 4a",
          "APE fails to generalize on the unseen positions (1-digit multiplier)",
          PaperNumber("<=", 0.10, "APE fails to generalize on the unseen positions", stated=False,
                      reading="at most 10% at 10 digits, 2x the trained length"),
          "04", Measure(length=10), setup="sabbaghi-m1-ape"),
    Claim("sabbaghi-m1/rpe", SABBAGHI, "Section 3.2 (M1), Figure 4b",
          "RPE shows a decline in accuracy (1-digit multiplier)",
          PaperNumber("<=", 0.90, "RPE shows a decline in accuracy", stated=False,
                      reading="below 90% at 10 digits, 2x the trained length"),
          "04", Measure(length=10), setup="sabbaghi-m1-rpe"),
    Claim("sabbaghi-m1/upe-over-rpe", SABBAGHI, "Section 3.2 (M2), Figure 4c",
          "UPE ... shows a significant improvement over RPE in the single-digit multiplier scenario",
          PaperNumber(">=", 0.10, "a significant improvement over RPE", stated=False,
                      reading="at least 10 points above RPE's median at 10 digits"),
          "04", Measure("gain", length=10, versus="claim:sabbaghi-m1/rpe"), setup="sabbaghi-m1",
          versus_setup="sabbaghi-m1-rpe"),
    Claim("sabbaghi-m1/upe-paper-protocol", SABBAGHI, "Section 3.2 (M2), Figure 4c",
          "UPE ... shows a significant improvement over RPE in the single-digit multiplier scenario (with the paper's "
          "sampler, training set, dropout, post-LN and checkpoint selection; our learning rate, no weight decay)",
          PaperNumber(">=", 0.10, "a significant improvement over RPE", stated=False,
                      reading="at least 10 points above RPE's median at 10 digits"),
          "04b", Measure("gain", length=10, versus="claim:sabbaghi-m1/rpe"), setup="sabbaghi-m1",
          versus_setup="sabbaghi-m1-rpe", labelled=("frame l = 20 against the RPE model's 16",)),
    Claim("sabbaghi-m1/rpe-3-digit", SABBAGHI, "Section 3.2 (M1), Figure 5a",
          "In the three-digit multiplier scenario ... RPE cannot generalize to longer multiplicands",
          PaperNumber("<=", 0.10, "RPE cannot generalize to longer multiplicands", stated=False,
                      reading="at most 10% at 16 digits, the paper's length for UPE"),
          "04b", Measure(length=16), setup="sabbaghi-m2-k3"),
    Claim("sabbaghi-m2/b256", SABBAGHI, "Section 3.2 (M2), Figure 5b", _M2, _M2_NUMBER, "04b",
          Measure("retention", length=16, of=5), target=_M2_TARGET,
          setup="sabbaghi-m2-k3"),
    Claim("sabbaghi-m2/annealed", SABBAGHI, "Section 3.2 (M2), Figure 5b", _M2, _M2_NUMBER, "04b",
          Measure("retention", length=16, of=5), target=_M2_TARGET,
          setup="sabbaghi-m2-k3"),
    Claim("sabbaghi-m2/masked", SABBAGHI, "Section 3.2 (M2), Figure 5b", _M2, _M2_NUMBER, "04b",
          Measure("retention", length=16, of=5), target=_M2_TARGET,
          setup="sabbaghi-m2-k3"),
    Claim("sabbaghi-m2/x-visible", SABBAGHI, "Section 3.2 (M2), Figure 5b", _M2, _M2_NUMBER, "04b",
          Measure("retention", length=16, of=5), target=_M2_TARGET, setup="sabbaghi-m2-k3"),
    Claim("sabbaghi-m2/cpu", SABBAGHI, "Section 3.2 (M2), Figure 5b", _M2, _M2_NUMBER, "04b",
          Measure("retention", length=16, of=5), target=_M2_TARGET,
          setup="sabbaghi-m2-k3"),
    Claim("sabbaghi-m3/ape", SABBAGHI, "Section 3.2 (M3), Figure 5c",
          "the model utilizing APE [trained on zero-shifted multiplicands] fails similarly to the same attempt in "
          "the addition task",
          PaperNumber("<=", 0.10, "fails similarly to the same attempt in the addition task", stated=False,
                      reading="at most 10% at 10 digits, 2x the trained length"),
          "04", Measure(length=10), setup="sabbaghi-m3-ape"),
    Claim("sabbaghi-m3/rpe", SABBAGHI, "Section 3.2 (M3), Figure 5d",
          "As for the model with RPE [and augmentation], despite extensive training data, it still falls short of "
          "the performance of our UPE",
          PaperNumber("<=", 0.0, "it still falls short of the performance of our UPE", stated=False,
                      reading="RPE with augmentation below UPE's median at 10 digits"),
          "04", Measure("gain", length=10, versus="claim:sabbaghi-m1/upe-over-rpe"), setup="sabbaghi-m3",
          versus_setup="sabbaghi-m1"),
)

# -- Cho et al. 2024 -------------------------------------------------------------------------------------------------
_S4 = "a Transformer trained on 1-30 digit addition can generalize up to 200-digit addition"
_S4_NUMBER = PaperNumber(">=", 0.95, "more than 95% exact-match accuracy for up to 200-digit additions (Figure 1)")
_FIG3 = "The generalizable length is 70 for the models trained on additions involving 1-10 digits"
_FIG3_NUMBER = PaperNumber(">=", 70, "generalizable length 70 for 1-10 digits (Figure 3)")
_MINE = "Position coupling maintains over 98% accuracy until a width of 12 and near 90% accuracy even at a width of 14"

CHO_CLAIMS = (
    Claim("cho-addition/paper-recipe", CHO, "Section 4, Figure 1", _S4, _S4_NUMBER, "05b",
          Measure(length=200), setup="cho-addition"),
    Claim("cho-addition/ours", CHO, "Section 4, Figure 1", _S4, _S4_NUMBER, "05b",
          Measure(length=200), setup="cho-addition"),
    Claim("cho-fig3/1-10-plain", CHO, "Section 4.1, Figure 3", _FIG3, _FIG3_NUMBER, "05",
          Measure("generalizable length"), setup="cho-fig3"),
    Claim("cho-fig3/1-10-ours", CHO, "Section 4.1, Figure 3", _FIG3, _FIG3_NUMBER, "05",
          Measure("generalizable length"), setup="cho-fig3"),
    Claim("cho-fig3/1-10-sink", CHO, "Section 4.1, Figure 3", _FIG3, _FIG3_NUMBER, "05",
          Measure("generalizable length"), setup="cho-fig3"),
    Claim("cho-fig3/1-20", CHO, "Section 4.1, Figure 3", "generalizable length 135 for models trained on 1-20",
          PaperNumber(">=", 135, "135 for 1-20 (Figure 3)", unit="digits"), "05",
          why_not="no model trained on 1-20 digit sums; the course trains 1-5, 1-10, 1-15 and 1-30"),
    Claim("cho-appendix-b1", CHO, "Appendix B.1", "we could scale up the generalizable length to 500 by training "
          "with lengths 1-160", PaperNumber(">=", 500, "generalizable length 500 for 1-160", unit="digits"), "05",
          why_not="no model trained on 1-160 digit sums"),
    Claim("cho-fig4/2-layers", CHO, "Section 4.1, Figure 4",
          "the performances are well extrapolated to test lengths (longer than trained lengths) [for deeper models]",
          PaperNumber(">=", 0.95, "well extrapolated to test lengths", stated=False,
                      reading="at least 95% at 2x the trained length (Cho et al.'s 95% bar)"),
          "05b", Measure(length=20), setup="cho-fig4"),
    Claim("cho-fig4/3-layers", CHO, "Section 4.1, Figure 4",
          "the performances are well extrapolated to test lengths (longer than trained lengths) [for deeper models]",
          PaperNumber(">=", 0.95, "well extrapolated to test lengths", stated=False,
                      reading="at least 95% at 2x the trained length (Cho et al.'s 95% bar)"),
          "05b", Measure(length=20), setup="cho-fig4"),
    Claim("cho-nx2/gpu-ours", CHO, "Section 6.1, Figure 8",
          "as the depth increases to 2 or more, it immediately becomes capable of length generalization",
          PaperNumber(">=", 0.95, "immediately becomes capable of length generalization", stated=False,
                      reading="at least 95% at 100 digits, 2.5x the trained length"),
          "05b", Measure(length=100), setup="cho-nx2"),
    Claim("cho-nx2/cpu-plain-2-layers", CHO, "Section 6.1, Figure 8",
          "as the depth increases to 2 or more, it immediately becomes capable of length generalization",
          PaperNumber(">=", 0.95, "immediately becomes capable of length generalization", stated=False,
                      reading="at least 95% at 20 digits, 2x the trained length"),
          "05b", Measure(length=20), setup="cho-nx2"),
    Claim("cho-nx2/cpu-ours-2-layers", CHO, "Section 6.1, Figure 8",
          "as the depth increases to 2 or more, it immediately becomes capable of length generalization",
          PaperNumber(">=", 0.95, "immediately becomes capable of length generalization", stated=False,
                      reading="at least 95% at 20 digits, 2x the trained length"),
          "05b", Measure(length=20), setup="cho-nx2"),
    Claim("cho-nx2/cpu-ours-1-layer", CHO, "Section 6.1, Figure 8",
          "a 1-layer model fails [at N x 2 multiplication] (depth 1 in Figure 8)",
          PaperNumber("<=", 0.10, "1-layer models fail", stated=False, reading="at most 10% at 10 digits, in the "
                                                                              "trained range"),
          "05b", Measure(length=10), setup="cho-nx2"),
    Claim("cho-minesweeper/gpu-12", CHO, "Section 6.2, Figure 10", _MINE,
          PaperNumber(">=", 0.98, "over 98% accuracy until a width of 12"), "05b",
          Measure(length=12), setup="cho-minesweeper"),
    Claim("cho-minesweeper/gpu-14", CHO, "Section 6.2, Figure 10", _MINE,
          PaperNumber(">=", 0.90, "near 90% accuracy even at a width of 14"), "05b",
          Measure(length=14), setup="cho-minesweeper"),
    Claim("cho-minesweeper/cpu-next", CHO, "Section 6.2, Figure 10", _MINE,
          PaperNumber(">=", 0.90, "near 90% accuracy even at a width of 14"), "05b",
          Measure(length=14), setup="cho-minesweeper"),
    Claim("cho-minesweeper/shared-table", CHO, "Section 6.2, Figure 10",
          "Position coupling [the paper's model: one embedding table shared by both coupled channels] keeps its "
          "accuracy past the trained board sizes",
          PaperNumber(">=", 0.90, "over 98% until a width of 12, near 90% at 14", stated=False,
                      reading="at least 90% one cell past the widest trained board"),
          "05b", Measure(length=6), setup="cho-minesweeper"),
    Claim("cho-minesweeper/nope", CHO, "Section 6.2, Figure 10",
          "NoPE [the paper's baseline] does not generalize to larger boards",
          PaperNumber("<=", 0.10, "NoPE fails (Figure 10)", stated=False, reading="at most 10% at width 12"),
          "05b", Measure(length=12), setup="cho-minesweeper"),
)

# -- the thesis's surveyed baselines (each claim as the thesis reports its source) ----------------------------------
_BASE = "the course's baseline at CPU scale: 3 layers, 4,000 steps of 128, 1-10 digit sums in Cho's format"
_ORIGINAL = "the original paper's setup is not compared field by field"
_AT15 = "at least 50% at 15 digits, 1.5x the trained length"

THESIS_CLAIMS = (
    Claim("survey/nope", THESIS, "Section 3.4 (Kazemnejad et al. 2023)",
          "models without positional encoding outperform others in length generalization",
          PaperNumber(">=", 0.5, "NoPE outperforms others in length generalization", stated=False, reading=_AT15),
          "05b", Measure(length=15), labelled=(_BASE, _ORIGINAL)),
    Claim("survey/randomized", THESIS, "Section 3.4 (Ruoss et al. 2023)",
          "randomized positional encodings can improve length generalization on integer addition tasks",
          PaperNumber(">=", 0.10, "can improve length generalization", stated=False,
                      reading="at least 10 points above plain APE at 15 digits"),
          "05b", Measure("gain", length=15, versus="control:plain-ape"), labelled=(_BASE, _ORIGINAL)),
    Claim("survey/fire", THESIS, "Section 3.4 (Li et al. 2024)",
          "FIRE models have better generalization to longer contexts",
          PaperNumber(">=", 0.10, "better generalization to longer contexts", stated=False,
                      reading="at least 10 points above plain APE at 15 digits"),
          "05b", Measure("gain", length=15, versus="control:plain-ape"), labelled=(_BASE, _ORIGINAL)),
    Claim("survey/fire-index-hints", THESIS, "Section 3.4 (Zhou et al. 2024), Cho et al. Figure 1",
          "FIRE with index hints achieves length generalization on addition",
          PaperNumber(">=", 0.95, "length generalization", stated=False,
                      reading="at least 95% (Cho et al.'s bar) at 15 digits"),
          "05b", Measure(length=15), labelled=(_BASE, _ORIGINAL)),
    Claim("survey/abacus", THESIS, "Section 3.1 (McLeish et al. 2024)",
          "Abacus embeddings generalize far past the trained length (McLeish et al.: 99% at 100 digits after "
          "training on 20)",
          PaperNumber(">=", 0.99, "99% at 100 digits after training on 20 (McLeish et al., via the thesis)"),
          "05b", Measure(length=40), labelled=(_BASE, _ORIGINAL, "tested at 40 digits (4x): "
                                                                                     "McLeish's 6x is not tested")),
    Claim("survey/looping", THESIS, "Chapter 4 (McLeish et al. 2024)",
          "Abacus + looping with input injection generalizes past the trained length, more than without looping",
          PaperNumber(">=", 0.10, "looping generalizes further", stated=False,
                      reading="at least 10 points above the same model without looping at 8 digits"),
          "08", Measure("gain", length=8, versus="control:no-looping"),
          setup="thesis-agenda"),
    Claim("survey/scratchpad", THESIS, "Chapter 4 (Lee et al. 2023)",
          "a scratchpad extends the reach one digit past the trained length (trained on 1-17: to 18)",
          PaperNumber(">=", 0.5, "to 18 after training on 1-17", stated=False,
                      reading="at least 50% one digit past the trained length"),
          "08", Measure(length=6), setup="thesis-agenda"),
    Claim("survey/curriculum", THESIS, "Chapter 4 (proposed)",
          "a curriculum (simple to complex) helps compositional learning",
          PaperNumber(">=", 0.10, "helps compositional learning", stated=False,
                      reading="at least 10 points of exact match above the same model without it at 6 digits"),
          "08", Measure("gain", length=6, versus="control:direct"),
          setup="thesis-agenda", labelled=("the thesis proposes it without a result",)),
    Claim("survey/random-spaces", THESIS, "Section 3.4 (Shen et al. 2023)",
          "simply adding empty spaces to the input sequence can boost out-of-distribution accuracy for task lengths "
          "near to those encountered during training",
          PaperNumber(">=", 0.10, "can boost out-of-distribution accuracy", stated=False,
                      reading="at least 10 points of exact match above the same model without spaces at 6 digits"),
          "08", Measure("gain", length=6, versus="control:direct"),
          setup="thesis-agenda"),
)

#: Cho, Cha, Bhojanapalli and Yun 2024 (arXiv 2410.15787), N x M multiplication with a scratchpad (notebook 09): the
#: abstract gives "approximately 2-3x" and no per-cell number; read with Cho et al.'s own generalizable-length
#: threshold (95%, "Position coupling", Section 4) at twice the trained length in both operands
_NXM = CHO_NXM
_NXM_NUMBER = PaperNumber(">=", 0.95, "approximately 2-3x length generalization in both operand lengths", stated=False,
                          reading="at least 95% exact match (the bar of Cho et al.'s generalizable length) at 20 x 20, "
                                  "twice the trained 10 in both operands")
_NXM_DEPARTURES = (
    "our scratchpad: fused rows (each row the row above without its last digit, plus A b_k), not the paper's partial "
    "products then running sums",
    "our IDs: (row, column, level) read by a relative bias over clipped ID differences, no position table, scalable "
    "softmax; not the paper's three channels in learned tables",
    "2 layers, 8 heads, d 64, about 115k parameters (paper: 6 layers, 8 heads, d 1024, about 63M)",
    "5,000 steps of 64 fresh products, lr 3e-3 (paper: 50,000 steps of 250 from 500k fixed samples, lr 5e-5)",
    "final checkpoint, exact match of the whole scratchpad (paper: the checkpoint of lowest loss on 11-20 x 11-20)",
)
#: The faithful rung: the paper's format, IDs and position read, at our size and budget
_NXM_PAPER_FORMAT_DEPARTURES = (
    "one learned table of 65 IDs per channel, each channel's start drawn in 1..64 minus its span (paper, for its "
    "10 x 4 config: tables of 20 IDs for the digit channels and 10 for the operand channel)",
    "2 layers, 8 heads, d 64, about 124k parameters (paper: 6 layers, 8 heads, d 1024, about 63M)",
    *_NXM_DEPARTURES[3:],
)
_LOCAL = ("a row window: a row digit sees its own row, the row above and the operands",
          "a lookup window: a row digit sees the multiplicand and its two rows within 2 columns, the multiplier within "
          "2 rows; the scalable softmax counts only the visible keys")
NXM_CLAIMS = (
    Claim("cho-nxm/paper-recipe", _NXM, "abstract", "Transformers trained on N, M <= 10 length-generalize to about "
          "2-3x in both operand lengths (multiplication with a scratchpad)", _NXM_NUMBER, "09",
          Measure(length=20), labelled=_NXM_PAPER_FORMAT_DEPARTURES),
    Claim("cho-nxm/fused", _NXM, "abstract", "Transformers trained on N, M <= 10 length-generalize to about 2-3x in "
          "both operand lengths (multiplication with a scratchpad)", _NXM_NUMBER, "09",
          Measure(length=20), labelled=_NXM_DEPARTURES),
    Claim("cho-nxm/window", _NXM, "abstract", "Transformers trained on N, M <= 10 length-generalize to about 2-3x in "
          "both operand lengths (multiplication with a scratchpad)", _NXM_NUMBER, "09",
          Measure(length=20),
          labelled=_NXM_DEPARTURES + ("a row window: a row digit sees its own row, the row above and the operands",)),
    Claim("cho-nxm/window-3x", _NXM, "abstract", "... to about 2-3x in both operand lengths: the upper end, 3x",
          PaperNumber(">=", 0.95, "approximately 2-3x length generalization", stated=False,
                      reading="at least 95% exact match at 30 x 30, three times the trained 10 in both operands"),
          "09", Measure(length=30),
          labelled=_NXM_DEPARTURES + ("a row window: a row digit sees its own row, the row above and the operands",)),
    Claim("cho-nxm/local", _NXM, "abstract", "Transformers trained on N, M <= 10 length-generalize to about 2-3x in "
          "both operand lengths (multiplication with a scratchpad)", _NXM_NUMBER, "09",
          Measure(length=20), labelled=_NXM_DEPARTURES + _LOCAL),
    Claim("cho-nxm/local-3x", _NXM, "abstract", "... to about 2-3x in both operand lengths: the upper end, 3x",
          PaperNumber(">=", 0.95, "approximately 2-3x length generalization", stated=False,
                      reading="at least 95% exact match at 30 x 30, three times the trained 10 in both operands"),
          "09", Measure(length=30), labelled=_NXM_DEPARTURES + _LOCAL),
)

CLAIMS: tuple[Claim, ...] = SABBAGHI_CLAIMS + CHO_CLAIMS + THESIS_CLAIMS + NXM_CLAIMS

__all__ = ["CHO_CLAIMS", "CLAIMS", "NXM_CLAIMS", "SABBAGHI_CLAIMS", "THESIS_CLAIMS"]

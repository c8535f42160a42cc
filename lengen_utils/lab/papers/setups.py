"""The papers' setups, written once: Sabbaghi et al.'s A2 and M2, Cho et al.'s addition, N x 2 and minesweeper, the
claims the course tests only at its own scale, and the thesis's agenda (:data:`PAPER_SETUPS`).

Beside them, what ties a claim to our recipes: the recipes that reproduce it (:data:`REPRODUCTIONS`), its
reference recipe (:data:`REFERENCE_OF`, :func:`reference_recipe`), the departures no compared row shows, labelled
by hand (:data:`EXTRA_DEPARTURES`), and the fields a reference may set without adding to the paper's setup
(:data:`IMPLEMENTATION_FIELDS`, :data:`INERT_UNLESS`). No recipe id is typed here: a row says what it is for where it
is defined (its chapter's ``recipes.py``), with roles: ``"reproduces:<claim>"``, ``"reference:<claim>"`` (the one
recipe closest to the paper) and ``"departures:<name>"`` (the labelled departures of :data:`EXTRA_DEPARTURES` that
it carries); the rungs of notebook 03's A2 ladder are reproductions by their tag (:data:`A2_LADDER_TAG`). The
vocabulary they are written in is :mod:`.vocabulary`; :mod:`.comparing` compares a recipe with them.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..zoo import RECIPES, Recipe, variant_id, with_one_role
from .vocabulary import (BEST_ON_LONGER, NONE, Checkpoint, OneOf, PaperSetup, Positions, Schedule, Span, Stated, code,
                         implied, not_stated, paper)


_APP_B = "App. B"
_BERT = "Huggingface BERT (App. B)"
#: Sabbaghi et al.'s App. B, shared by every setting; the 3-digit multiplier changes the depth and the data
_SABBAGHI_COMMON: dict[str, Stated] = dict(
    format=paper("sabbaghi", "our name for the paper's format (eq. 3.1): both operands left-padded to the frame l"),
    positions=implied(Positions("consecutive", False), "RPE reads differences of token indices in the fixed "
                      "frame (Section 2); no random start is mentioned"),
    max_position=not_stated("the frame fixes it: one ID per token of the frame"),
    sampler=paper("uniform", "'samples are generated uniformly from D_s' (Section 3): our 'uniform'"),
    test_sampler=paper("uniform", "'a uniform distribution of numbers up to l digits' (Section 3)"),
    architecture=paper("encoder", "'a BERT-based encoder-only attention model' (Section 3)"),
    n_heads=paper(8, _APP_B),
    d_model=paper(768, f"embedding dimension d_z = 768 ({_APP_B})"),
    d_ff=not_stated("Huggingface BERT's default for d 768 is 3072; the paper does not say"),
    dropout=paper(0.1, _APP_B),
    norm=implied("layernorm", f"{_BERT}: LayerNorm"),
    norm_placement=implied("post", f"{_BERT}: a norm after each residual sum; the paper names the model, not "
                           f"the placement"),
    activation=implied("gelu", f"{_BERT}: GELU"),
    lr=paper(1e-4, _APP_B),
    batch_size=paper(64, _APP_B),
    weight_decay=paper(OneOf((3e-6, 1e-5, 3e-5, 1e-4)), f"'weight-decays in {{3e-6, 1e-5, 3e-5, 1e-4}}' "
                       f"({_APP_B})"),
    betas=not_stated("AdamW, no betas named"),
    steps=not_stated("no step count is named"),
    schedule=not_stated("no warm-up or schedule is named"),
    grad_clip=not_stated(),
    precision=not_stated("one NVIDIA RTX A5000; no precision named"),
    selection=paper(BEST_ON_LONGER, "'a small validation set with longer sequences to choose the best "
                    "checkpoint' (Section 3)"),
    select_n=not_stated("'a small validation set' (Section 3): its size is not named"),
    augmentation=paper(False, "A2 and M2 train without augmentation; A3 and M3 add it"),
    channel_table=implied(NONE, "sums and products have one-dimensional positions"),
    seeds=not_stated("no number of runs or seeds is named"),
)

SABBAGHI_A2 = PaperSetup(
    claim="sabbaghi-a2", paper="Sabbaghi et al. 2024, Section 3.1 (A2), App. B",
    statement="RPE allows the Transformer to achieve length generalization from adding two numbers with up to "
              "5-digit to two numbers with up to 50-digit",
    task=paper("a+b"), encoding=paper("rpe", "relative position encoding (Shaw et al.), eq. 2.1"),
    frame_width=implied(50, "the test reaches 50-digit sums, whose operands fill the frame ('the abrupt fall in "
                        "50-digit sums is due to the input format', A2)"),
    trained_digits=paper(Span(1, 5), "l_s = 5: D_s holds both operands below 10^5"),
    multiplier_digits=paper(NONE), multiplier_exact=paper(NONE),
    train_set_size=paper(100_000, f"'100k number of samples for the addition' ({_APP_B})"),
    test_up_to=paper(50, "Section 1 (F1)"),
    n_layers=paper(6, f"'6 attention layer' throughout the addition section ({_APP_B})"),
    **_SABBAGHI_COMMON)

SABBAGHI_M2_K3 = PaperSetup(
    claim="sabbaghi-m2-k3", paper="Sabbaghi et al. 2024, Section 3.2 (M2, Figure 5b), App. B",
    statement="UPE allows the Transformer to length generalize from multiplication of 3-digit numbers with 5-digit "
              "numbers to multiplication of a 3-digit number with 20-digit numbers",
    task=paper("a*b"), encoding=paper("upe", "three uniform vectors c_1..c_3 for the multiplier, RPE among the rest "
                                              "(eq. 3.3)"),
    frame_width=implied(20, "'for multiplying a 3-digit number by a 20-digit number ... p_-21..p_21' (Section 3.2) "
                        "and 'the fall in accuracy in 20-digit sums is inevitable considering our input format' (M2)"),
    trained_digits=paper(Span(1, 5), "multiplicands 'trained only up to 5-digit' (Figure 5)"),
    multiplier_digits=paper(3, "the three-digit multiplier (M2)"),
    multiplier_exact=not_stated("whether a multiplier may have leading zeros is not said"),
    train_set_size=paper(500_000, f"'500k number of samples for the 3-digit multipliers setting' ({_APP_B})"),
    test_up_to=paper(20, "Section 1 (F1)"),
    n_layers=paper(9, f"'we increase the number of attention layers from 6 to 9' ({_APP_B})"),
    **_SABBAGHI_COMMON)

_V1 = "HanseulJo/position-coupling v1 (0c72d14)"
#: Cho et al.'s code (their Appendix C is not in the course's copy of the paper): the settings all three scripts share
_CHO_CODE: dict[str, Stated] = dict(
    architecture=paper("decoder", "'We focus on decoder-only Transformers' (Section 2)"),
    d_model=code(512, f"{_V1} default"),
    d_ff=code(2048, _V1),
    dropout=code(0.0, f"{_V1}: dropout_rate 0"),
    norm=code("rmsnorm", _V1),
    norm_placement=code("pre+post", f"{_V1}: layer_norm_position=pre_post, a norm before and after each sub-layer"),
    activation=code("gated-gelu", f"{_V1}: T5's gated GELU MLP"),
    lr=code(1e-4, _V1),
    weight_decay=code(0.0, _V1),
    betas=code((0.9, 0.999), f"{_V1}; (0.9, 0.95) from 2024-09"),
    schedule=code(Schedule(0.01, 0.1), f"{_V1}: linear warm-up for 1% of the steps, cosine to 0.1 x lr"),
    grad_clip=code(1.0, _V1),
    precision=code("bf16 autocast", f"{_V1}: bf16 autocast on CUDA"),
    augmentation=paper(False, "'We do not use packing or shifting' (Section 4)"),
    seeds=paper(8, "'We run each experiment 8 times with 2 different random seeds for data generation and 4 different "
                   "random seeds for model initialization' (Section 4)"),
    select_n=not_stated("the size of the validation set is not named in the paper"),
)

CHO_ADDITION = PaperSetup(
    claim="cho-addition", paper="Cho et al. 2024, Section 4",
    statement="a Transformer trained on 1-30 digit addition can generalize up to 200-digit addition",
    task=paper("a+b"),
    format=paper("cho", "our name for the paper's format (Sections 2 and 3.1): zero-padded operands, reversed "
                 "zero-padded answer, BOS/EOS"),
    positions=paper(Positions("coupled", True), "position coupling with a random starting ID in training "
                    "(Section 3)"),
    encoding=paper("learned", "position coupling is a learned absolute embedding read with coupled IDs"),
    max_position=code(202, f"{_V1} scripts/addition/run_coupling.sh; the paper: 'max_pos so that the maximum "
                      f"testable length of summands is 200'"),
    frame_width=implied(NONE, "a decoder's format has no frame"),
    trained_digits=paper(Span(1, 30), "Section 4"),
    multiplier_digits=paper(NONE), multiplier_exact=paper(NONE),
    sampler=paper("balanced", "'balanced sampling in terms of the number of digits' (Section 4): our 'balanced'"),
    train_set_size=code(1_000_000, f"{_V1}: a pool drawn once per data seed"),
    test_sampler=paper("exact", "'each test sample contains the operands of the same length' (Section 4.1)"),
    test_up_to=paper(200, "Section 4"),
    n_layers=paper(1, "'1-layer 4-head models' (Section 4.1)"), n_heads=paper(4, "Section 4.1"),
    batch_size=code(1000, _V1),
    steps=code(50_000, _V1),
    selection=paper(Checkpoint("best", (200,), "validation loss"),
                    "'the best model in terms of the validation loss for 200-digit additions' (Section 4.1); "
                    f"{_V1} keeps the best loss at 100 digits"),
    channel_table=implied(NONE, "sums have one-dimensional positions"),
    **_CHO_CODE)

CHO_NX2 = PaperSetup(
    claim="cho-nx2", paper="Cho et al. 2024, Section 6.1 (Figure 8)",
    statement="as the depth increases to 2 or more, it immediately becomes capable of length generalization",
    task=paper("a*b"),
    format=paper("cho", "the answer reversed and zero-padded to N + 2 digits (Section 6.1)"),
    positions=paper(Positions("coupled", True), "coupled from the least significant digits (Section 6.1)"),
    encoding=paper("learned", "position coupling is a learned absolute embedding read with coupled IDs"),
    max_position=code(203, f"{_V1} scripts/Nx2multiplication/run_coupling.sh"),
    frame_width=implied(NONE, "a decoder's format has no frame"),
    trained_digits=paper(Span(1, 40), "'trained on sequences of length 1-40' (Figure 8)"),
    multiplier_digits=paper(2, "'fixing the length of the second operand by 2' (Section 6.1)"),
    multiplier_exact=code(False, f"{_V1}: the multiplier is uniform over 00-99, leading zeros allowed"),
    sampler=code("balanced", f"{_V1}: the multiplicand drawn as the addition's operands"),
    train_set_size=code(1_000_000, _V1),
    test_sampler=code("exact", f"{_V1}: multiplicands of exactly n digits"),
    test_up_to=code(200, f"{_V1} eval scripts: 5..200 digits"),
    n_layers=paper(2, "'as the depth increases to 2 or more' (Section 6.1); the script: 2"),
    n_heads=code(8, _V1),
    batch_size=code(1000, _V1),
    steps=code(50_000, _V1),
    selection=code(Checkpoint("best", (100,), "validation loss"), f"{_V1}: the best loss on 100-digit products"),
    channel_table=implied(NONE, "products have one-dimensional positions"),
    **_CHO_CODE)

_MINE = "scripts/minesweeper_generator/run_coupling.sh (2024-06)"
CHO_MINESWEEPER = PaperSetup(
    claim="cho-minesweeper", paper="Cho et al. 2024, Section 6.2 (Figure 10)",
    statement="Position coupling maintains over 98% accuracy until a width of 12 and near 90% accuracy even at a "
              "width of 14",
    task=paper("minesweeper"), format=paper("minesweeper", "our name for the paper's board format"),
    positions=paper(Positions("coupled2d", True), "two-dimensional position coupling (row, column), a random start "
                    "in training (Sections 3 and 6.2)"),
    encoding=paper("learned", "one embedding layer shared by both coupled channels (Section 6.2)"),
    max_position=code(16, _MINE),
    frame_width=implied(NONE, "a decoder's format has no frame"),
    trained_digits=paper(Span(5, 9), "width and height between 5 and 9, drawn apart (Section 6.2)"),
    multiplier_digits=paper(NONE), multiplier_exact=paper(NONE),
    sampler=not_stated("boards: width and height drawn in 5-9 (TaskConfig.sampler does not apply to boards)"),
    train_set_size=code(1_000_000, _MINE),
    test_sampler=not_stated("square boards (Section 6.2), as every board test of ours"),
    test_up_to=paper(14, "square boards of width 5-14 (Section 6.2)"),
    n_layers=paper(4, "'a 4-layer 8-head model for position coupling' (Section 6.2)"),
    n_heads=paper(8, "Section 6.2"),
    batch_size=code(800, _MINE),
    steps=code(100_000, _MINE),
    selection=code(Checkpoint("best", (12,), "validation loss"), f"{_MINE}: val_long boards of width 12"),
    channel_table=paper("shared by the channels", "one embedding layer shared by both coupled channels (Section "
                        "6.2): the token vector plus both position vectors from one table"),
    **_CHO_CODE)

# -- the claims the course tests only at its own scale (no reproduction recipe; their departures tables and the
# claims ledger compare against them): each is a setup above with what the claim changes ---------------------------
SABBAGHI_A1 = replace(
    SABBAGHI_A2, claim="sabbaghi-a1", paper="Sabbaghi et al. 2024, Section 3.1 (A1, Figure 2a), App. B",
    statement="while APE can succeed in generalizing to in-distribution data, its performance degrades significantly "
              "on longer length sequences",
    encoding=paper("learned", "absolute position embedding (A1): a learned table, our 'learned'"),
    test_up_to=paper(20, "'lengths varying from 6 to 20' (Figure 2a)"))
SABBAGHI_A3 = replace(
    SABBAGHI_A1, claim="sabbaghi-a3", paper="Sabbaghi et al. 2024, Section 3.1 (A3, Figure 2c), App. C.1",
    statement="augmentation does not lead to generalization on the unseen positions",
    augmentation=paper(True, "'shifting a pair of integers in the training data by adding the same number of zeros "
                             "from the right' (A3)"))
SABBAGHI_M1 = replace(
    SABBAGHI_M2_K3, claim="sabbaghi-m1", paper="Sabbaghi et al. 2024, Section 3.2 (M1, M2; Figure 4), App. B",
    statement="APE fails to generalize on the unseen positions, and RPE shows a decline in accuracy; UPE shows a "
              "significant improvement over RPE in the single-digit multiplier scenario",
    encoding=paper("upe", "Figure 4c (4a: APE, 4b: RPE)"),
    frame_width=not_stated("the frame of the single-digit multiplier setting is not named"),
    multiplier_digits=paper(1, "the single-digit multiplier scenario (M1)"),
    train_set_size=paper(100_000, f"'100k number of samples for the addition and the single-digit multiplier "
                                  f"settings' ({_APP_B})"),
    test_up_to=not_stated("Figure 4's longest length is not stated in the text"),
    n_layers=paper(6, f"'A model with the same specification [6 layers] was also employed for the single-digit "
                      f"multiplier setting' ({_APP_B})"))
SABBAGHI_M1_APE = replace(SABBAGHI_M1, claim="sabbaghi-m1-ape",
                          paper="Sabbaghi et al. 2024, Section 3.2 (M1, Figure 4a)",
                          encoding=paper("learned", "APE (Figure 4a): a learned table, our 'learned'"))
SABBAGHI_M1_RPE = replace(SABBAGHI_M1, claim="sabbaghi-m1-rpe",
                          paper="Sabbaghi et al. 2024, Section 3.2 (M1, Figure 4b)",
                          encoding=paper("rpe", "RPE (Figure 4b)"))
SABBAGHI_M3 = replace(
    SABBAGHI_M2_K3, claim="sabbaghi-m3", paper="Sabbaghi et al. 2024, Section 3.2 (M3, Figures 5c and 5d)",
    statement="the model utilizing APE fails similarly to the same attempt in the addition task. As for the model "
              "with RPE, despite extensive training data, it still falls short of the performance of our UPE",
    encoding=paper("rpe", "Figure 5d (5c: APE, our 'learned')"),
    augmentation=paper(True, "'some zeros are added to the end of the multiplicand while keeping the multiplier "
                             "unchanged' (M3)"))
SABBAGHI_M3_APE = replace(SABBAGHI_M3, claim="sabbaghi-m3-ape",
                          paper="Sabbaghi et al. 2024, Section 3.2 (M3, Figure 5c)",
                          encoding=paper("learned", "APE with augmentation (Figure 5c): our 'learned'"))
CHO_FIG3 = replace(
    CHO_ADDITION, claim="cho-fig3", paper="Cho et al. 2024, Section 4.1 (Figure 3)",
    statement="The generalizable length is 70 for the models trained on additions involving 1-10 digits",
    trained_digits=paper(Span(1, 10), "the 1-10 digit model of Figure 3"))
CHO_FIG4 = replace(
    CHO_ADDITION, claim="cho-fig4", paper="Cho et al. 2024, Section 4.1 (Figure 4)",
    statement="Overall, the performances are well extrapolated to test lengths (longer than trained lengths)",
    n_layers=not_stated("Figure 4 trains several depths; Table 2, which lists them, is not in the course's copy"),
    n_heads=not_stated("Table 2 (not in the course's copy)"))
THESIS_AGENDA = PaperSetup(
    claim="thesis-agenda", paper="the thesis (003), Sections 2.1.3, 3.1-3.4 and Chapter 4",
    statement="strategies beyond position encodings (random spaces, a scratchpad, a curriculum, looping) as the "
              "thesis surveys and proposes them",
    task=paper("a+b"), format=not_stated("each strategy's source uses its own format"),
    positions=not_stated("each strategy's source uses its own"), encoding=not_stated("each strategy's own"),
    max_position=not_stated(), frame_width=implied(NONE, "a decoder's format has no frame"),
    trained_digits=paper(Span(1, 17), "the thesis's experiments train on 1-17 (or 1-19) digits"),
    multiplier_digits=paper(NONE), multiplier_exact=paper(NONE), sampler=not_stated(), train_set_size=not_stated(),
    test_sampler=not_stated(), test_up_to=not_stated(), architecture=not_stated(), n_layers=not_stated(),
    n_heads=not_stated(), d_model=not_stated(), d_ff=not_stated(), dropout=not_stated(), norm=not_stated(),
    norm_placement=not_stated(), activation=not_stated(), lr=not_stated(), batch_size=not_stated(),
    weight_decay=not_stated(), betas=not_stated(), steps=not_stated(), schedule=not_stated(),
    grad_clip=not_stated(), precision=not_stated(), selection=not_stated(), select_n=not_stated(),
    augmentation=not_stated(), channel_table=implied(NONE, "sums have one-dimensional positions"),
    seeds=not_stated())

#: ``{claim: setup}``
PAPER_SETUPS: dict[str, PaperSetup] = {s.claim: s for s in (
    SABBAGHI_A2, SABBAGHI_M2_K3, CHO_ADDITION, CHO_NX2, CHO_MINESWEEPER, SABBAGHI_A1, SABBAGHI_A3, SABBAGHI_M1,
    SABBAGHI_M1_APE, SABBAGHI_M1_RPE, SABBAGHI_M3, SABBAGHI_M3_APE, CHO_FIG3, CHO_FIG4, THESIS_AGENDA)}
#: the claims reproduced by a recipe of :data:`REPRODUCTIONS` (the others are tested only at the course's scale)
REPRODUCED_CLAIMS = ("sabbaghi-a2", "sabbaghi-m2-k3", "cho-addition", "cho-nx2", "cho-minesweeper")

#: the role prefixes a recipe row declares (``"roles": ("reproduces:cho-nx2", "reference:cho-nx2")``)
REPRODUCES, REFERENCE, LABELLED = "reproduces:", "reference:", "departures:"
#: the tag of notebook 03's A2 ladder (course/ch03_rpe/recipes.py): each rung reproduces Sabbaghi's A2
A2_LADDER_TAG = "sabbaghi-a2"


def _named(recipe: Recipe, prefix: str) -> list[str]:
    """The names that ``recipe``'s roles give after ``prefix`` (``"reproduces:cho-nx2"`` -> ``"cho-nx2"``)."""
    return [role[len(prefix):] for role in recipe.roles if role.startswith(prefix)]


#: ``{recipe id: claim}``: the recipes that reproduce a paper claim, by their roles (``"reproduces:<claim>"``) and the
#: A2 ladder's tag (tests/test_departures.py: every recipe tagged ``paper-scale`` or ``sabbaghi-a2`` is one of them)
REPRODUCTIONS: dict[str, str] = {
    recipe_id: claim for recipe_id, recipe in RECIPES.items()
    for claim in _named(recipe, REPRODUCES) + (["sabbaghi-a2"] if A2_LADDER_TAG in recipe.tags else [])}

#: config fields that a reference recipe may set away from their defaults without adding anything to the paper's
#: setup: sizes that follow from the frame, the IDs or the task
IMPLEMENTATION_FIELDS: dict[str, str] = {
    "model.vocab_size": "the tokens of the task (a board's mine token)",
    "model.max_positions": "one row of the learned table per position ID",
    "model.rpe_max_distance": "the RPE clip, wide enough for every distance in the frame",
    "model.upe_slots": "one uniform vector per multiplier digit",
    "model.position_channels": "one ID channel per axis of a board",
}
#: fields with no effect unless another is set: ``{field: (the switch, its "off" value)}``
INERT_UNLESS: dict[str, tuple[str, Any]] = {
    "model.relative_bias_max_distance": ("model.relative_bias", False),
    "model.relative_bias_scale": ("model.relative_bias", False),
}

#: ``{claim: overrides}``: what turns the row with the role ``"reference:<claim>"`` into the claim's reference recipe,
#: the closest to the paper. With no overrides it is the zoo's paper-faithful recipe; otherwise the overrides switch
#: the course's own additions off (config fields no compared row reads), so that a reproduction must label each one
#: in :data:`EXTRA_DEPARTURES`.
REFERENCE_OVERRIDES: dict[str, tuple[str, ...]] = {
    "sabbaghi-a2": (),
    "sabbaghi-m2-k3": ("model.attention_window=0", "task.curriculum=\"none\"", "task.carry_targets=false",
                       "task.product_targets=false", "model.carry_classes=0", "model.product_heads=0"),
    "cho-addition": (),
    "cho-nx2": ("model.encoding=\"learned\"", "model.relative_bias=false", "model.relative_bias_uniform=false"),
    "cho-minesweeper": ("model.encoding=\"learned\"", "model.relative_bias=false", "model.shared_channel_table=true"),
}
#: ``{claim: (recipe id, overrides)}``: the reference recipe of each reproduced claim, found by its role
REFERENCE_OF: dict[str, tuple[str, tuple[str, ...]]] = {
    claim: (with_one_role(REFERENCE + claim).id, overrides) for claim, overrides in REFERENCE_OVERRIDES.items()}

_WINDOW = "the aligned attention window (notebook 03's structural fix), on top of the paper's recipe"
_M3_RECIPE = "the course's best CPU recipe for M2 (notebook 04)"
#: ``{name: {config field path: why}}``: departures that no compared row shows, labelled by hand; a recipe carries
#: those of each name its roles give (``"departures:<name>"``), and each becomes a row of its table (its "paper"
#: value is the reference recipe's)
EXTRA_DEPARTURES: dict[str, dict[str, str]] = {
    "aligned-window": {"model.attention_window": _WINDOW + ": keys within 2 IDs of the query's centres",
                  "model.window_offsets": _WINDOW + ": centres +-(l + 1), the query's column in both operands"},
    "flagship-bias": {"model.relative_bias": "our flagship's coupled relative bias (clip 8)"},
    "m3-recipe": {
        "model.attention_window": _M3_RECIPE + ": an attention window of 3 IDs",
        "task.curriculum": _M3_RECIPE + ": the multiplier curriculum (1, 2, then 3 digits)",
        "task.carry_targets": _M3_RECIPE + ": each answer column's carry supervised",
        "model.carry_classes": _M3_RECIPE + ": the carry read-out",
        "task.product_targets": _M3_RECIPE + ": each column's digit products supervised",
        "model.product_heads": _M3_RECIPE + ": the product read-outs"},
    "nx2-bias": {"model.relative_bias": "our N x 2 recipe (notebook 05): a relative bias on coupled IDs",
                          "model.relative_bias_uniform": "our N x 2 recipe: one bias per multiplier digit, at any "
                                                         "distance"},
    "2d-bias": {"model.relative_bias": "our recipe: the 2-D relative bias (clip 2) on next-cell IDs"},
    "masked-operator": {
        "task.mask_operator": "the operator x hidden from every query (the fix for the collapse past 14 digits)"},
}


def labelled_departures(recipe: Recipe) -> dict[str, str]:
    """``{path: why}``: the departures labelled by hand for ``recipe``, those of each :data:`EXTRA_DEPARTURES` name
    that its roles give (``"departures:<name>"``), in the order of its roles."""
    return {path: why for name in _named(recipe, LABELLED) for path, why in EXTRA_DEPARTURES[name].items()}


def reference_recipe(claim: str) -> Recipe:
    """The recipe closest to the paper's setup of ``claim`` (:data:`REFERENCE_OF`)."""
    if claim not in REFERENCE_OF:
        raise KeyError(f"no reference recipe for claim {claim!r}; known: {', '.join(sorted(REFERENCE_OF))}")
    recipe_id, overrides = REFERENCE_OF[claim]
    recipe = RECIPES[recipe_id]
    return recipe.derive(variant_id(claim, "reference"), *overrides) if overrides else recipe


def setup_of(claim: str) -> PaperSetup:
    """The :class:`PaperSetup` of ``claim`` (``KeyError`` naming the known claims)."""
    if claim not in PAPER_SETUPS:
        raise KeyError(f"no paper setup {claim!r}; known: {', '.join(sorted(PAPER_SETUPS))}")
    return PAPER_SETUPS[claim]

"""Departures as data (lengen_utils.lab.papers): every recipe that reproduces a paper claim is compared with the paper's
setup field by field, and no field in which it differs from the claim's reference recipe goes unshown."""
from __future__ import annotations

from dataclasses import fields, replace

import pytest

from lengen_utils.core.boards.format import BOARD_FORMATS
from lengen_utils.core.formats import ALL_FORMATS
from lengen_utils.core.model.config import ENCODINGS, NORM_PLACEMENTS, NORMS
from lengen_utils.core.positions import SCHEMES
from lengen_utils.core.positions2d import BOARD_SCHEMES
from lengen_utils.core.task_config import SAMPLERS
from lengen_utils.lab import papers as P
from lengen_utils.lab.zoo import RECIPES, get_recipe, with_overrides
from lengen_utils.course.ch03_rpe.recipes import A2_LADDER

A2_TAG = "sabbaghi-a2"
A2_IDS = A2_LADDER.ids()

REPRODUCTIONS = sorted(P.REPRODUCTIONS.items())
#: compared fields whose row reads one config field as it is: the test reads them itself, by path
DIRECT = {"format": "task.format", "encoding": "model.encoding", "max_position": "task.max_position",
          "sampler": "task.sampler", "train_set_size": "task.train_set_size", "test_sampler": "task.eval_sampler",
          "n_layers": "model.n_layers", "n_heads": "model.n_heads", "d_model": "model.d_model",
          "d_ff": "model.d_ff", "dropout": "model.dropout", "norm": "model.norm",
          "norm_placement": "model.norm_placement", "activation": "model.activation", "lr": "train.lr",
          "steps": "train.steps", "grad_clip": "train.grad_clip"}


def _rows(recipe_id: str, claim: str | None = None) -> dict[str, dict]:
    return {row["field"]: row for row in P.departures_table(recipe_id, claim)}


# == the records and the mapping ===================================================================================
def test_the_setups_are_the_five_reproduced_claims_and_those_tested_at_our_scale():
    assert set(P.REPRODUCED_CLAIMS) == {"sabbaghi-a2", "sabbaghi-m2-k3", "cho-addition", "cho-nx2", "cho-minesweeper"}
    assert set(P.PAPER_SETUPS) == set(P.REPRODUCED_CLAIMS) | {
        "sabbaghi-a1", "sabbaghi-a3", "sabbaghi-m1", "sabbaghi-m1-ape", "sabbaghi-m1-rpe", "sabbaghi-m3",
        "sabbaghi-m3-ape", "cho-fig3", "cho-fig4", "thesis-agenda"}
    assert set(P.REFERENCE_OF) == set(P.REPRODUCED_CLAIMS)
    assert P.PAPER_SETUPS["sabbaghi-a2"] is P.SABBAGHI_A2 and P.PAPER_SETUPS["cho-addition"] is P.CHO_ADDITION


def test_a_setup_states_every_compared_field_and_only_those():
    own = {"claim", "paper", "statement"}
    assert [f.name for f in fields(P.PaperSetup) if f.name not in own] == [c.name for c in P.COMPARED]
    for setup in P.PAPER_SETUPS.values():
        for c in P.COMPARED:
            stated = setup.field(c.name)
            assert isinstance(stated, P.Stated) and stated.source in P.SOURCES
            assert (stated.value is None) == (stated.source == P.NOT_STATED), (setup.claim, c.name)


def test_a_setup_refuses_a_bare_value_and_a_made_up_not_stated():
    with pytest.raises(TypeError, match="d_model must be a Stated value"):
        replace(P.SABBAGHI_A2, d_model=768)
    with pytest.raises(ValueError, match="not stated"):
        P.Stated(None, P.PAPER)
    with pytest.raises(ValueError, match="not stated"):
        P.Stated(3072, P.NOT_STATED)


def test_the_papers_values_are_names_our_configs_know():
    """A value in our vocabulary must be one our configs take (a typo would compare as a departure forever)."""
    known = {"format": set(ALL_FORMATS) | set(BOARD_FORMATS), "encoding": set(ENCODINGS), "sampler": set(SAMPLERS),
             "test_sampler": set(SAMPLERS), "norm": set(NORMS), "norm_placement": set(NORM_PLACEMENTS) | {"pre+post"},
             "activation": {"gelu", "relu", "gated-gelu"}, "architecture": {"encoder", "decoder"}}
    for setup in P.PAPER_SETUPS.values():
        for name, names in known.items():
            value = setup.field(name).value
            assert value is None or value in names, (setup.claim, name, value)
        positions = setup.positions.value
        assert positions is None or positions.scheme in set(SCHEMES) | set(BOARD_SCHEMES), setup.claim


def test_the_values_are_the_papers():
    """Spot checks against the texts: Sabbaghi App. B, Cho Sections 4 and 6."""
    a2, m2 = P.SABBAGHI_A2, P.SABBAGHI_M2_K3
    assert (a2.n_layers.value, a2.n_heads.value, a2.d_model.value, a2.dropout.value) == (6, 8, 768, 0.1)
    assert (a2.lr.value, a2.batch_size.value, a2.train_set_size.value) == (1e-4, 64, 100_000)
    assert a2.weight_decay.value == P.OneOf((3e-6, 1e-5, 3e-5, 1e-4))
    assert (m2.n_layers.value, m2.train_set_size.value, m2.multiplier_digits.value) == (9, 500_000, 3)
    assert not a2.steps.stated and not a2.schedule.stated and not a2.d_ff.stated
    cho = P.CHO_ADDITION
    assert (cho.n_layers.value, cho.n_heads.value) == (1, 4)
    assert (cho.trained_digits.value, cho.test_up_to.value) == (P.Span(1, 30), 200)
    assert cho.sampler.value == "balanced" and cho.selection.value.kind == "best"
    assert cho.d_model.source == P.CODE and cho.n_layers.source == P.PAPER
    assert (P.CHO_NX2.trained_digits.value, P.CHO_NX2.multiplier_digits.value) == (P.Span(1, 40), 2)
    assert (P.CHO_MINESWEEPER.n_layers.value, P.CHO_MINESWEEPER.n_heads.value) == (4, 8)


def test_every_reproduction_recipe_exists_and_has_a_claim_and_a_reference():
    required = {"sabbaghi-a2-paper", "sabbaghi-rpe-add-5to50", *A2_IDS, "sabbaghi-upe-m3-9l",
                "sabbaghi-upe-m3-masked", "cho-plain-1to30", "cho-addition-1to30", "cho-mul-nx2-1to40",
                "cho-minesweeper-5to9"}
    assert required <= set(P.REPRODUCTIONS)
    for recipe_id, claim in REPRODUCTIONS:
        assert get_recipe(recipe_id).id == recipe_id
        assert claim in P.PAPER_SETUPS and claim in P.REFERENCE_OF
    assert {P.REPRODUCTIONS[r] for r in A2_IDS} == {"sabbaghi-a2"}


def test_the_rows_roles_name_known_claims_and_labels():
    """The papers' layer types no recipe id: rows declare ``reproduces:<claim>``, ``reference:<claim>`` (one per
    reproduced claim) and ``departures:<name>``; a role naming no setup or label, or a label no row carries, is refused
    (a typo in a recipes.py would drop a departures table or its labels)."""
    named = {prefix: [role[len(prefix):] for r in RECIPES.values() for role in r.roles if role.startswith(prefix)]
             for prefix in (P.REPRODUCES, P.REFERENCE, P.LABELLED)}
    assert set(named[P.REPRODUCES]) <= set(P.REPRODUCED_CLAIMS)
    assert sorted(named[P.REFERENCE]) == sorted(P.REPRODUCED_CLAIMS)              # one reference each
    assert set(named[P.LABELLED]) == set(P.EXTRA_DEPARTURES)
    for claim, (recipe_id, _) in P.REFERENCE_OF.items():
        assert P.REPRODUCTIONS[recipe_id] == claim                                # a reference reproduces its claim
    assert P.labelled_departures(get_recipe("a2-ours")) == {}
    assert list(P.labelled_departures(get_recipe("sabbaghi-upe-m3-masked")))[-1] == "task.mask_operator"


def test_every_recipe_tagged_as_a_paper_reproduction_is_compared():
    """A new paper-scale or A2-ladder recipe cannot skip its departures table."""
    tagged = {rid for rid, r in RECIPES.items() if {"paper-scale", A2_TAG} & set(r.tags)}
    assert tagged - set(P.REPRODUCTIONS) == set()


def test_every_compared_path_is_a_recipe_field():
    recipe = get_recipe("a2-ours")
    known = set(P.config_fields(recipe)) | {"eval_lengths", "seeds"}
    for c in P.COMPARED:
        assert c.paths and set(c.paths) <= known, c.name
        for path in c.paths:
            P.read_path(recipe, path)
    assert not set(P.NOT_SETUP_FIELDS) & P.COMPARED_PATHS
    assert set(P.IMPLEMENTATION_FIELDS) <= known and not set(P.IMPLEMENTATION_FIELDS) & P.COMPARED_PATHS


# == no field silently skipped =====================================================================================
@pytest.mark.parametrize("recipe_id,claim", REPRODUCTIONS)
def test_the_table_has_a_row_per_compared_field_and_per_difference(recipe_id, claim):
    recipe, setup = get_recipe(recipe_id), P.setup_of(claim)
    rows = P.departures(recipe, setup)
    assert [d.field for d in rows[:len(P.COMPARED)]] == [c.label for c in P.COMPARED]
    assert [d.field for d in rows[len(P.COMPARED):]] == list(P.labelled_departures(recipe))
    # every field in which the recipe differs from the claim's paper-faithful reference has a row
    shown = {path for d in rows for path in d.paths}
    differing = set(P.config_differences(recipe, P.reference_recipe(claim))) - set(P.NOT_SETUP_FIELDS)
    assert differing - shown == set()
    # the rows that read one field as it is, read again here: a stated value that differs is a "differs" row
    by_label = {d.field: d for d in rows}
    for c in P.COMPARED:
        stated, row = setup.field(c.name), by_label[c.label]
        assert row.paper == stated.value and row.source == stated.source
        if not stated.stated:
            assert row.differs is None and row.status == "not stated"
            continue
        if c.name in DIRECT:
            ours = P.read_path(recipe, DIRECT[c.name])
            assert row.ours == ours
            assert row.differs == (ours != stated.value), (c.name, ours, stated.value)
    for d in rows[len(P.COMPARED):]:
        assert d.differs is True and d.source.startswith("reference ")


@pytest.mark.parametrize("recipe_id,claim", REPRODUCTIONS)
def test_no_reproduction_differs_from_its_reference_unlabelled(recipe_id, claim):
    recipe, setup = get_recipe(recipe_id), P.setup_of(claim)
    assert P.unlabelled_departures(recipe, setup) == [], (
        f"{recipe_id} differs from {P.reference_recipe(claim).id} in fields its departures table does not show: "
        f"label each in papers.EXTRA_DEPARTURES under a name the row's roles give (\"departures:<name>\" in its "
        f"recipes.py), or compare it in papers.COMPARED")
    assert P.stale_labels(recipe, setup) == []


@pytest.mark.parametrize("claim", sorted(P.REFERENCE_OF))
def test_a_reference_recipe_adds_nothing_the_table_does_not_show(claim):
    assert P.reference_additions(P.reference_recipe(claim)) == []


# the key test: a change that no compared row shows is caught
@pytest.mark.parametrize("recipe_id,overrides,caught", [
    ("a2-ours", ("model.attention_window=2", "model.window_offsets=[51, -51]"),
     ["model.attention_window", "model.window_offsets"]),
    ("a2-select", ("model.relative_bias=true",), ["model.relative_bias"]),
    ("sabbaghi-upe-m3-9l", ("task.mask_operator=true",), ["task.mask_operator"]),
    ("cho-plain-1to30", ("model.relative_bias=true",), ["model.relative_bias"]),
    ("sabbaghi-a2-paper", ("model.rpe_max_distance=16",), ["model.rpe_max_distance"]),
])
def test_a_change_no_row_shows_is_caught(recipe_id, overrides, caught):
    recipe = get_recipe(recipe_id)
    setup = P.setup_of(P.REPRODUCTIONS[recipe_id])
    changed = with_overrides(recipe, overrides)          # the same id: a silent edit of the recipe
    shown = {path for d in P.departures(changed, setup) for path in d.paths}
    assert not set(caught) & shown                       # the table alone would not show it
    assert P.unlabelled_departures(changed, setup) == caught
    assert P.unlabelled_departures(changed, setup, labelled=dict.fromkeys(caught, "why")) == []


def test_an_addition_hidden_in_a_reference_is_caught():
    reference = P.reference_recipe("sabbaghi-m2-k3")
    assert P.reference_additions(with_overrides(reference, ["model.length_scale=true"])) == ["model.length_scale"]
    assert P.reference_additions(get_recipe("sabbaghi-upe-m3-9l")) == [
        "model.attention_window", "model.carry_classes", "model.product_heads", "task.carry_targets",
        "task.curriculum", "task.product_targets"]


def test_a_stale_label_is_reported():
    window, ours = get_recipe("a2-window"), get_recipe("a2-ours")
    recipe = replace(window, roles=ours.roles)                  # the window without the row's label
    assert P.stale_labels(window, P.SABBAGHI_A2) == []
    assert P.stale_labels(replace(ours, roles=window.roles), P.SABBAGHI_A2) == [
        "model.attention_window", "model.window_offsets"]
    assert P.unlabelled_departures(recipe, P.SABBAGHI_A2) == ["model.attention_window", "model.window_offsets"]


# == (b) the paper-faithful recipes ================================================================================
def test_sabbaghi_a2_paper_departs_only_where_the_paper_is_silent():
    rows = P.departures(get_recipe("sabbaghi-a2-paper"), P.SABBAGHI_A2)
    assert [d.field for d in rows if d.differs] == []
    silent = {d.field for d in rows if d.status == "not stated"}
    assert {"steps", "lr schedule"} <= silent
    assert silent == {"largest position ID", "MLP width d_ff", "AdamW betas", "steps", "lr schedule",
                      "gradient clipping", "precision", "validation set size (problems per length)", "seeds (runs)"}


def test_cho_plain_departs_where_its_docstring_says_and_in_its_training_set():
    rows = _rows("cho-plain-1to30")
    assert {f for f, r in rows.items() if r["status"] == "differs"} == {
        "training set (0: fresh every step)", "norm", "norm placement", "MLP activation", "steps",
        "checkpoint selection", "seeds (runs)"}
    assert (rows["norm placement"]["paper"], rows["norm placement"]["ours"]) == ("pre+post", "pre")
    # selected by exact match at 100 digits, where the paper takes the validation loss at 200
    assert rows["checkpoint selection"]["paper"] == "best on 200 (validation loss)"


# == (c) hand-checked rows ========================================================================================
def test_a2_ours_rows_by_hand():
    rows = _rows("a2-ours")
    expected = {"training sampler": ("uniform", "balanced"), "dropout": ("0.1", "0"), "norm placement": ("post", "pre"),
                "width d_model": ("768", "64"), "checkpoint selection": ("best on longer lengths", "final checkpoint"),
                "training set (0: fresh every step)": ("100,000", "0"), "layers": ("6", "2")}
    for field, (theirs, ours) in expected.items():
        assert (rows[field]["paper"], rows[field]["ours"], rows[field]["status"]) == (theirs, ours, "differs"), field
    assert rows["dropout"]["source"] == "paper" and rows["norm placement"]["source"] == "implied"
    assert rows["batch size (problems per step)"]["status"] == "same" and rows["steps"]["status"] == "not stated"


def test_a2_window_labels_its_window():
    rows = _rows("a2-window")
    for path in ("model.attention_window", "model.window_offsets"):
        assert rows[path]["status"] == "differs" and rows[path]["source"] == "reference sabbaghi-a2-paper"
    assert (rows["model.attention_window"]["paper"], rows["model.attention_window"]["ours"]) == ("0", "2")
    assert rows["checkpoint selection"]["status"] == "same"


def test_the_ladder_closes_one_gap_per_rung():
    differing = [{f for f, r in _rows(rid).items() if r["status"] == "differs"} for rid in A2_IDS]
    closed = [before - after for before, after in zip(differing, differing[1:])]
    assert closed[:5] == [{"training sampler"}, {"training set (0: fresh every step)"}, {"dropout"},
                          {"norm placement"}, {"checkpoint selection"}]


# == values and rendering ==========================================================================================
def test_matches_handles_the_equivalent_representations():
    assert P.matches(P.OneOf((3e-6, 1e-5)), 1e-5) and not P.matches(P.OneOf((3e-6, 1e-5)), 0.0)
    assert P.matches(P.BEST_ON_LONGER, P.Checkpoint("best", (10, 20), "exact match"))
    assert not P.matches(P.BEST_ON_LONGER, P.Checkpoint("final"))
    assert P.matches(P.Schedule(0.01, 0.1), P.Schedule(100 / 10_000, 0.1))
    assert not P.matches(P.Schedule(0.01, 0.1), P.Schedule(300 / 3000, 0.1))
    assert P.matches(0.1, 0.1) and P.matches(0.0, 0) and P.matches((0.9, 0.999), (0.9, 0.999))
    assert not P.matches(P.NONE, False) and not P.matches(1, True)
    with pytest.raises(ValueError):
        P.Checkpoint("last")


def test_departures_table_and_markdown():
    table = P.departures_table("a2-ours")
    assert len(table) == len(P.COMPARED) and list(table[0]) == list(P.COLUMNS)
    short = P.departures_table("a2-ours", only_departures=True)
    assert short and all(r["status"] != "same" for r in short)
    text = P.to_markdown(short)
    lines = text.splitlines()
    assert lines[0] == "| field | paper | source | ours | status | note |" and len(lines) == len(short) + 2
    assert P.to_markdown([{"a": "x|y"}]) == "| a |\n|---|\n| x\\|y |"
    with pytest.raises(ValueError):
        P.to_markdown([])
    assert P.departures_table("nb03-rpe-l5", "sabbaghi-a2")[0]["field"] == "task"
    with pytest.raises(KeyError, match="reproduces no claim"):
        P.departures_table("nb03-rpe-l5")
    with pytest.raises(KeyError, match="no paper setup"):
        P.departures_table("a2-ours", "sabbaghi-a9")


# == (d) the blind spots of issue 47 ==============================================================================
def test_checkpoint_selection_compares_its_lengths_and_metric_not_only_its_kind():
    cho = P.CHO_ADDITION.selection.value                        # best on 200 digits, by validation loss
    assert P.matches(cho, P.Checkpoint("best", (200,), "validation loss"))
    assert not P.matches(cho, P.Checkpoint("best", (30,), "validation loss"))      # moved onto the trained lengths
    assert not P.matches(cho, P.Checkpoint("best", (200,), "exact match"))
    assert P.matches(P.BEST_ON_LONGER, P.Checkpoint("best", (10, 20), "exact match"))   # unstated: not compared
    moved = with_overrides(get_recipe("cho-plain-1to30"), ("train.select_lengths=[30]",))
    row = {d.field: d for d in P.departures(moved, P.CHO_ADDITION)}["checkpoint selection"]
    assert row.differs and row.ours.lengths == (30,)


def test_seeds_validation_size_and_packed_batches_are_rows():
    rows = _rows("cho-addition-1to30")
    assert (rows["seeds (runs)"]["paper"], rows["seeds (runs)"]["ours"]) == ("8", "2")
    packed = get_recipe("cho-addition-1to30")
    assert rows["batch size (problems per step)"]["ours"] == str(packed.train.batch_size * packed.task.pack)
    assert _rows("cho-plain-1to30")["validation set size (problems per length)"]["status"] == "not stated"
    assert _rows("a2-ours")["validation set size (problems per length)"]["ours"] == "none"


def test_the_minesweeper_reference_uses_the_papers_shared_table():
    assert P.reference_recipe("cho-minesweeper").model.shared_channel_table
    rows = _rows("cho-minesweeper-5to9")
    row = rows["position table of the 2-D IDs"]
    assert (row["paper"], row["ours"], row["status"]) == ("shared by the channels", "one per channel", "differs")


@pytest.mark.parametrize("recipe_id,claim", [
    ("nb03-ape-l5", "sabbaghi-a1"), ("nb02-ape-shift-l5", "sabbaghi-a3"), ("nb04-upe-m1", "sabbaghi-m1"),
    ("nb04-upe-m1-f20-paper", "sabbaghi-m1"), ("nb04-rpe-shift-m1", "sabbaghi-m3"), ("nb04-ape-shift-m1", "sabbaghi-m3-ape"),
    ("nb04-ape-m1", "sabbaghi-m1-ape"), ("nb04-rpe-m1", "sabbaghi-m1-rpe"), ("nb05-len10", "cho-fig3"),
    ("nb05-plain-2l", "cho-fig4"), ("nb08-looped", "thesis-agenda")])
def test_the_claims_tested_at_our_scale_have_departures_tables(recipe_id, claim):
    rows = P.departures_table(recipe_id, claim)
    assert len(rows) == len(P.COMPARED) and any(r["status"] == "differs" for r in rows)

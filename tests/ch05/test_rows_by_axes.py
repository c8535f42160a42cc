"""Notebook 05's sections find their recipe rows by the tables' axes, titles and roles (issue 52), not by typed ids:
each name they find is the row of the kind it stands for, and the label dicts are the rows' titles."""
from lengen_utils.lab import zoo
from lengen_utils.course.ch05_coupling import (baselines, coupling, depth, gpu_scale, minesweeper as mine,
                                               multiplication as mul, reach, trained_length)
from lengen_utils.course.ch05_coupling.recipes import ABLATION, BASELINES, MINESWEEPER
from lengen_utils.course.ch05_coupling.widget import EXPLORER_ROLE, default_choices


def recipe(recipe_id):
    return zoo.get_recipe(recipe_id)


def test_the_ablation_ends_and_titles():
    assert coupling.PLAIN.task.pack == 1 and not coupling.PLAIN.model.relative_bias
    assert coupling.BOTH.task.pack > 1 and coupling.BOTH.model.relative_bias
    assert list(coupling.METHODS) == list(ABLATION.variants) and all(coupling.METHODS.values())
    assert len(set(coupling.METHODS.values())) == len(coupling.METHODS)


def test_the_baselines_are_told_apart_by_their_configs():
    blind = {r: recipe(r).task for r in baselines.NO_SIGNIFICANCE}
    assert len(blind) >= 3 and all(t.positions == "consecutive" and t.format == "cho" for t in blind.values())
    assert set(BASELINES.ids()) - set(blind) == {baselines.HINTS, baselines.FIRE_HINTS, baselines.ABACUS}
    assert baselines.FIRE in blind and recipe(baselines.FIRE).model.encoding == "fire"
    assert (recipe(baselines.FIRE_HINTS).model.encoding, recipe(baselines.FIRE_HINTS).task.format) == ("fire",
                                                                                                         "cho_hints")
    assert recipe(baselines.HINTS).task.format == "cho_hints" and recipe(baselines.ABACUS).task.positions == "abacus"


def test_depth_maps_each_depth_to_its_row():
    assert sorted(depth.METHODS) == [1, 2, 3]
    assert all(recipe(m).model.n_layers == layers for layers, m in depth.METHODS.items())
    assert depth.METHODS[1] == coupling.PLAIN.id


def test_minesweeper_names_six_distinct_rows_of_their_kind():
    names = (mine.CHO, mine.CHO_NOPE, mine.CHO_8000, mine.CHO_SHARED, mine.OURS, mine.OURS_NOPE)
    assert sorted(names) == sorted(MINESWEEPER.ids())
    assert recipe(mine.OURS).task.positions == "coupled2d_next" and recipe(mine.OURS).model.relative_bias
    for nope in (mine.CHO_NOPE, mine.OURS_NOPE):
        assert recipe(nope).model.encoding == "none" and not recipe(nope).model.relative_bias
    assert recipe(mine.CHO_8000).train.steps > recipe(mine.CHO).train.steps
    assert recipe(mine.CHO_SHARED).model.shared_channel_table and not recipe(mine.CHO).model.shared_channel_table
    # the paper's-recipe leaderboard is the rows of its tag, NoPE last; every label is a row's title
    assert set(mine.CHO_ROWS) == {r for r in MINESWEEPER.ids() if "nb05-2d-cho" in recipe(r).tags}
    assert list(mine.CHO_ROWS)[-1] == mine.CHO_NOPE
    assert mine.LABELS == {r: recipe(r).title for r in MINESWEEPER.ids()} and all(mine.LABELS.values())


def test_the_multiplication_labels_cover_its_leaderboards():
    tagged = {r for r, rec in zoo.RECIPES.items() if {"nb05-mul-cho", "nb05-mul-long", "nb05-mul"} & set(rec.tags)}
    assert set(mul.LABELS) == tagged and len(set(mul.LABELS.values())) == len(tagged)


def test_the_sink_comparison_and_the_flagship_runs():
    without, sink = trained_length.WITHOUT_SINK, trained_length.WITH_SINK
    assert without.task.max_digits == sink.task.max_digits == 10
    assert (without.task.positions, sink.task.positions) == ("coupled", "coupled_sink")
    assert zoo.entry("flagship-coupled").recipe == sink.id                 # the flagship is the sink's seed 0
    ours, minute = recipe(reach.OURS), recipe(reach.MINUTE)
    assert ours.model.length_scale and minute.model.length_scale and minute.train.steps < ours.train.steps
    assert reach.MINUTE in {r for r, rec in zoo.RECIPES.items() if minute.tags[0] in rec.tags}


def test_the_paper_scale_specs_name_gpu_rows():
    assert len({spec.recipe for spec in gpu_scale.NB05}) == 4
    assert all("gpu" in recipe(spec.recipe).tags for spec in gpu_scale.NB05)


def test_the_explorer_offers_every_row_with_its_role_once():
    rows = zoo.with_role(EXPLORER_ROLE)
    assert {r.id for r in rows} >= set(ABLATION.ids()) | set(depth.METHODS.values())
    offered = {names[0] for (k, _), names in default_choices().items() if k == 10}
    assert all(zoo.entry_for(r.id, 0).name in offered for r in rows)

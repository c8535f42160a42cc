"""Notebook 08's zoo recipes (lengen_utils/course/ch08_beyond/recipes.py): one base, each method one change, three seeds."""
from __future__ import annotations

from dataclasses import replace

import pytest

from lengen_utils.core.tasks import Task
from lengen_utils.course.ch08_beyond.agenda import LABELS, NB08_SEEDS, ROWS, TRAINED_DIGITS, widget_choices
from lengen_utils.course.ch08_beyond.recipes import METHODS as TABLE
from lengen_utils.lab.zoo import catalog, entry, entry_for

TAG = "nb08"
NB08_LENGTHS = (3, 5, 6, 7, 8, 10, 12, 15)


def test_every_method_has_three_seeds_in_its_sections():
    for recipe in ROWS:
        for seed in NB08_SEEDS:
            e = entry_for(recipe, seed)
            assert e.seed == seed and TAG in e.tags
            assert e.task.max_digits == TRAINED_DIGITS and e.eval_lengths == NB08_LENGTHS and e.curve_every > 0


@pytest.mark.parametrize("label", list(TABLE.variants))
def test_a_method_changes_only_what_its_row_says(label):
    """Against the base: only the fields its row of the table names (the table's size moves with the IDs)."""
    changed = {key.partition(".")[0] for key in TABLE.variants[label] if "." in key}
    row, base = TABLE.recipe(label), TABLE.base
    for section in ("task", "model", "train"):
        assert section in changed or getattr(row, section) == getattr(base, section), (label, section)


def test_every_method_places_its_longest_test():
    for recipe in ROWS:
        assert Task(entry_for(recipe, 0).task).longest_operand() >= max(NB08_LENGTHS), recipe


def test_each_row_names_itself_and_says_what_it_changes():
    """A method's title is its label (one per method) and its summary begins each seed's description; a row at
    another trained length carries its method's title, and changes only the trained length."""
    assert len(set(LABELS.values())) == len(ROWS) and all(r.title and r.summary for r in ROWS.values())
    methods = {r.title: r for r in ROWS.values()}
    for row in TABLE.recipes():
        method = methods[row.title]
        assert all(e.description.startswith(method.summary) for e in row.entries()), row.id
        assert row.task == replace(method.task, max_digits=row.task.max_digits), row.id
        assert (row.model, row.train) == (method.model, method.train), row.id


def test_the_widget_offers_each_trained_length_the_table_has():
    choices = widget_choices()
    for (k, label), names in choices.items():
        assert all(name in catalog() for name in names), (k, label)
        assert all(entry(name).task.max_digits == k for name in names)
    assert {label for _, label in choices} == set(LABELS.values())
    for label in LABELS.values():
        assert {k for k, title in choices if title == label} == set(TABLE.along("trained_length", title=label))
    assert TABLE.along("trained_length", title="direct answer") == {3: "nb08-direct-l3", 5: "nb08-direct"}
    assert {k for k, _ in choices} == {3, TRAINED_DIGITS} and len(choices) == len(ROWS) + 6
    assert entry_for(TABLE.one(trained_length=3, title="direct answer").id, 0).name == "nb08-direct-l3-s0"

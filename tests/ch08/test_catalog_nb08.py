"""Notebook 08's zoo recipes (lengen_utils/course/ch08_beyond/recipes.py): one base, each method one change, three seeds."""
from __future__ import annotations

from dataclasses import replace

import pytest

from lengen_utils.core.tasks import Task
from lengen_utils.course.ch08_beyond.agenda import METHODS, NB08_SEEDS, TRAINED_DIGITS, WIDGET_TRAINED, widget_choices
from lengen_utils.course.ch08_beyond.recipes import METHODS as TABLE
from lengen_utils.lab.zoo import catalog, entry, entry_for, get_recipe

TAG = "nb08"
NB08_LENGTHS = (3, 5, 6, 7, 8, 10, 12, 15)


def test_every_method_has_three_seeds_in_its_sections():
    for recipe in METHODS:
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
    for recipe in METHODS:
        assert Task(entry_for(recipe, 0).task).longest_operand() >= max(NB08_LENGTHS), recipe


def test_the_widget_offers_each_trained_length_it_registers():
    choices = widget_choices()
    for (k, label), names in choices.items():
        assert all(name in catalog() for name in names), (k, label)
        assert all(entry(name).task.max_digits == k for name in names)
    assert {k for k, _ in choices} == {TRAINED_DIGITS, *WIDGET_TRAINED}
    assert sum(1 for k, _ in choices if k != TRAINED_DIGITS) == sum(len(r) for r in WIDGET_TRAINED.values())
    assert entry_for(WIDGET_TRAINED[3]["nb08-direct"], 0).name == "nb08-direct-l3-s0"

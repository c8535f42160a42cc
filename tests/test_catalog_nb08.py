"""Notebook 08's zoo recipes (lengen_utils.lab.zoo.catalog_nb08): one base, each method one change, three seeds."""
from __future__ import annotations

from dataclasses import replace

import pytest

from lengen_utils.core.tasks import Task
from lengen_utils.lab.zoo import catalog, entry
from lengen_utils.lab.zoo.catalog_nb08 import (METHODS, NB08_LENGTHS, NB08_SEEDS, TAG, TRAINED_DIGITS, WIDGET_METHODS,
                                           WIDGET_TRAINED, base_recipe, nb08_entry, widget_choices)


def test_every_method_has_three_seeds_in_its_sections():
    for method, spec in METHODS.items():
        for seed in NB08_SEEDS:
            e = entry(f"nb08-{method}-s{seed}")
            assert e.seed == seed and TAG in e.tags and set(spec.tags) <= set(e.tags)
            assert e.task.max_digits == TRAINED_DIGITS and e.eval_lengths == NB08_LENGTHS and e.curve_every > 0


@pytest.mark.parametrize("method", list(METHODS))
def test_a_method_changes_only_what_it_says(method):
    """Against the base: the task and model fields the method names, the table's size with the IDs, the budget."""
    spec, base, e = METHODS[method], base_recipe(0), entry(f"nb08-{method}-s0")
    assert e.task == replace(base.task, **spec.task)
    model = replace(base.model, **spec.model)
    if e.task.max_position != base.task.max_position:
        model = replace(model, max_positions=e.task.max_position + 1)
    assert e.model == model
    assert e.train == replace(base.train, steps=spec.steps, batch_size=spec.batch_size)


def test_every_method_places_its_longest_test():
    for method in METHODS:
        assert Task(entry(f"nb08-{method}-s0").task).longest_operand() >= max(NB08_LENGTHS), method


def test_the_widget_offers_each_trained_length_it_registers():
    choices = widget_choices()
    for (k, label), names in choices.items():
        assert all(name in catalog() for name in names), (k, label)
        assert all(entry(name).task.max_digits == k for name in names)
    assert {k for k, _ in choices} == {TRAINED_DIGITS, *WIDGET_TRAINED}
    assert sum(1 for k, _ in choices if k != TRAINED_DIGITS) == len(WIDGET_METHODS) * len(WIDGET_TRAINED)
    assert nb08_entry("direct", 0, 3).name == "nb08-direct-l3-s0"

"""Notebook 04's zoo entries (lengen_utils/course/ch04_upe/recipes.py): the configs are what Sabbaghi's M1-M3
experiments and the eq. 3.2 format need, and the encodings are compared at equal budget. Fast: no training."""
from __future__ import annotations

from dataclasses import replace

import pytest

from lengen_utils.lab import zoo
from lengen_utils.core.formats import PAD, decode_answer, encode
from lengen_utils.core.problems import Problem
from lengen_utils.core.tasks import Task

SEEDS, M3_SEEDS, TRAINED, WIDGET_TRAINED, MAP_WEIGHT_DECAY = (0, 1, 2), (0,), 5, (3, 5), 0.5
WINDOW, WINDOW_FRAME, HEADLINE = 2, 20, {1: 15, 3: 13}
STEPS = {1: 3000, 3: 4000}         # the CPU budget of the 1- and 3-digit multiplier
#: the plain recipes of notebook 04's table (lengen_utils/course/ch04_upe/recipes.py): recipe -> (encoding,
#: multiplier digits, zero-shift augmentation)
PLAIN = {"nb04-ape-m1": ("learned", 1, False), "nb04-rpe-m1": ("rpe", 1, False), "nb04-upe-m1": ("upe", 1, False),
         "nb04-ape-shift-m1": ("learned", 1, True), "nb04-rpe-shift-m1": ("rpe", 1, True),
         "nb04-upe-shift-m1": ("upe", 1, True), "nb04-rpe-m3": ("rpe", 3, False), "nb04-upe-m3": ("upe", 3, False),
         "nb04-ape-m1-l3": ("learned", 1, False), "nb04-rpe-m1-l3": ("rpe", 1, False),
         "nb04-upe-m1-l3": ("upe", 1, False), "nb04-rpe-m1-wd": ("rpe", 1, False), "nb04-upe-m1-wd": ("upe", 1, False)}
#: recipes that differ only in the encoding (a fair comparison)
SAME_BUT_ENCODING = [("nb04-ape-m1", "nb04-rpe-m1", "nb04-upe-m1"),
                     ("nb04-ape-shift-m1", "nb04-rpe-shift-m1", "nb04-upe-shift-m1"), ("nb04-rpe-m3", "nb04-upe-m3"),
                     ("nb04-ape-m1-l3", "nb04-rpe-m1-l3", "nb04-upe-m1-l3"), ("nb04-rpe-m1-wd", "nb04-upe-m1-wd")]
ENTRIES = {n: e for n, e in zoo.catalog().items() if e.recipe in PLAIN and e.seeded}


def _k(e) -> int:
    return e.task.multiplier_digits


def test_the_entries_the_notebook_needs_exist():
    built = {e.recipe: set(zoo.recipe_entries(e.recipe)) for e in ENTRIES.values()}
    for recipe in ("nb04-ape-m1", "nb04-rpe-m1", "nb04-upe-m1", "nb04-ape-shift-m1", "nb04-rpe-shift-m1",
                   "nb04-upe-shift-m1", "nb04-rpe-m1-wd", "nb04-upe-m1-wd"):
        assert built[recipe] == set(SEEDS), recipe
    for recipe in ("nb04-rpe-m3", "nb04-upe-m3", "nb04-ape-m1-l3", "nb04-rpe-m1-l3", "nb04-upe-m1-l3"):
        assert built[recipe] >= set(M3_SEEDS), recipe
    for recipe in ("nb04-rpe-m1-wd", "nb04-upe-m1-wd"):
        assert zoo.entry_for(recipe, 0).train.weight_decay == MAP_WEIGHT_DECAY


@pytest.mark.parametrize("name", sorted(ENTRIES))
def test_entry_matches_the_paper_format(name):
    e = ENTRIES[name]
    t, m, k = e.task, e.model, _k(e)
    enc, digits, shift = PLAIN[e.recipe]
    assert (t.op, t.format, t.positions, m.causal, m.encoding) == ("*", "sabbaghi", "consecutive", False, enc)
    assert t.multiplier_exact and k == digits
    assert m.upe_slots == k                       # eq. 3.3: one uniform vector per multiplier digit
    assert t.max_position == t.frame_width + k + 2 and m.max_positions > t.max_position
    assert m.rpe_max_distance >= t.max_position   # no relative distance a test needs is clipped
    assert t.shift_augment == shift
    if t.shift_augment:                            # M3: zeros appended, the full frame width stays unseen
        assert t.shift_max_width == t.frame_width - 1
    assert max(e.eval_lengths) < t.frame_width and e.eval_lengths == tuple(range(1, t.frame_width))


@pytest.mark.parametrize("name", sorted(ENTRIES))
def test_the_longest_test_fits_and_the_headline_product_lies_inside_the_frame(name):
    e = ENTRIES[name]
    t, k = e.task, _k(e)
    task = Task(t)
    longest = max(e.eval_lengths)
    for L in (longest, HEADLINE[k]):                 # every test encodes and decodes exactly
        p = Problem(10 ** L - 1, 10 ** k - 1, "*")
        assert decode_answer(encode(p, "sabbaghi", frame_width=t.frame_width)) == p.answer
    assert task.eval_problems(longest, 3)                    # the test set of the longest length exists
    head = HEADLINE[k]
    assert head >= 2.5 * t.max_digits if t.max_digits == TRAINED else head >= 3 * t.max_digits
    # eq. 3.2: the largest headline product puts no digit on the multiplier or `*` positions (never
    # supervised with a digit in training); one more digit would (the paper's drop at the full frame)
    big = encode(Problem(10 ** head - 1, 10 ** k - 1, "*"), "sabbaghi", frame_width=t.frame_width)
    assert all(tok in (None, PAD) for tok in big.targets[:k + 1])
    over = encode(Problem(10 ** (head + 1) - 1, 10 ** k - 1, "*"), "sabbaghi", frame_width=t.frame_width)
    assert any(tok not in (None, PAD) for tok in over.targets[:k + 1])


def test_encodings_share_task_size_budget_and_seed():
    """A fair comparison: entries that differ only in the encoding differ in nothing else."""
    compared = 0
    for recipes in SAME_BUT_ENCODING:
        seeds = set.intersection(*(set(zoo.recipe_entries(r)) for r in recipes))
        assert seeds, recipes
        for key in ((recipes, seed) for seed in sorted(seeds)):
            base, *others = (zoo.entry_for(r, key[1]) for r in recipes)
            for e in others:
                compared += 1
                assert e.task == base.task and e.train == base.train and e.eval_lengths == base.eval_lengths
                assert e.eval_n == base.eval_n
                for field in ("d_model", "n_layers", "n_heads", "d_ff", "dropout", "rpe_max_distance", "upe_slots"):
                    assert getattr(e.model, field) == getattr(base.model, field), (key, field)
    assert compared >= 10


def test_seeds_differ_within_a_recipe():
    recipes: dict[str, set[int]] = {}
    for name, e in ENTRIES.items():
        recipes.setdefault(e.recipe, set()).add(e.seed)
    assert recipes["nb04-upe-m1"] == recipes["nb04-rpe-shift-m1"] == set(SEEDS) and len(SEEDS) >= 3
    assert recipes["nb04-upe-m3"] == set(M3_SEEDS)


def test_recipes_fit_the_cpu_budget_and_the_paper_trained_length():
    for e in ENTRIES.values():
        assert e.task.sampler == "balanced" and e.task.eval_sampler == "exact"
        assert e.task.max_digits in WIDGET_TRAINED
        assert e.train.steps * e.train.batch_size <= 500_000      # at most the paper's 500k samples
        assert e.train.steps <= STEPS[_k(e)]


def test_windowed_upe_entries_differ_from_the_ablation_only_by_the_window():
    for seed in SEEDS:
        windowed, plain = zoo.entry_for("nb04-upe-m1-f20-w2", seed), zoo.entry_for("nb04-upe-m1-f20", seed)
        assert windowed.model.attention_window == WINDOW and plain.model.attention_window == 0
        assert replace(windowed.model, attention_window=0) == plain.model
        assert (windowed.task, windowed.train) == (plain.task, plain.train)
        assert windowed.task.frame_width == WINDOW_FRAME and windowed.task.max_digits == TRAINED
        # the window must stay inside the trained multiplicand, or pads at unseen distances return
        assert WINDOW < TRAINED
        assert "nb04-window" in windowed.tags and "nb04-window" in plain.tags
        rpe = zoo.entry_for("nb04-rpe-m1-f20-w2", seed)
        assert replace(rpe.model, encoding="upe") == windowed.model and rpe.task == windowed.task

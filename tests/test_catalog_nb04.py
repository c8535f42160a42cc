"""Notebook 04's zoo entries (lengen_utils/course/ch04_upe/recipes.py): the configs are what Sabbaghi's M1-M3
experiments and the eq. 3.2 format need, and the encodings are compared at equal budget. Fast: no training."""
from __future__ import annotations

import re
from dataclasses import replace

import pytest

from lengen_utils.lab import zoo
from lengen_utils.core.formats import PAD, decode_answer, encode
from lengen_utils.core.problems import Problem
from lengen_utils.core.tasks import Task
from types import SimpleNamespace

from lengen_utils.course.ch04_upe import upe_m1

# the settings of notebook 04's table (lengen_utils/course/ch04_upe/recipes.py) that these checks read
C = SimpleNamespace(
    nb04_name=upe_m1.nb04_name, NB04_ENCODINGS=("learned", "rpe", "upe"), NB04_SEEDS=(0, 1, 2), NB04_M3_SEEDS=(0,),
    NB04_TRAINED=5, NB04_WIDGET_TRAINED=(3, 5), NB04_MAP_ENCODINGS=("rpe", "upe"), NB04_MAP_WEIGHT_DECAY=0.5,
    NB04_WINDOW=2, NB04_WINDOW_FRAME=20, NB04_HEADLINE={1: 15, 3: 13},
    NB04_RECIPE={1: dict(d_model=64, n_layers=3, n_heads=4, d_ff=128, steps=3000, lr=3e-3),
                 3: dict(d_model=64, n_layers=4, n_heads=4, d_ff=512, steps=4000, lr=3e-3)})

RECIPE = re.compile(r"^nb04-(ape|rpe|upe)(-shift)?-m(\d)(-l\d+)?(-wd)?$")    # a name without its -sN seed
ENTRIES = {n: e for n, e in zoo.catalog().items() if RECIPE.match(e.recipe) and e.seeded}


def _k(e) -> int:
    return e.task.multiplier_digits


def test_the_entries_the_notebook_needs_exist():
    for seed in C.NB04_SEEDS:
        for enc in C.NB04_ENCODINGS:
            assert C.nb04_name(enc, 1, seed) in ENTRIES
            assert C.nb04_name(enc, 1, seed, shift=True) in ENTRIES
    for seed in C.NB04_M3_SEEDS:
        for enc in ("rpe", "upe"):
            assert C.nb04_name(enc, 3, seed) in ENTRIES
    for enc in C.NB04_ENCODINGS:
        for t in C.NB04_WIDGET_TRAINED:
            assert C.nb04_name(enc, 1, 0, trained=t) in ENTRIES
    for enc in C.NB04_MAP_ENCODINGS:
        assert ENTRIES[C.nb04_name(enc, 1, 0, wd=True)].train.weight_decay == C.NB04_MAP_WEIGHT_DECAY


def test_name_helper_round_trips_and_refuses_unknown_encodings():
    assert C.nb04_name("upe", 1, 0) == "nb04-upe-m1-s0"
    assert C.nb04_name("learned", 3, 2) == C.nb04_name("ape", 3, 2) == "nb04-ape-m3-s2"
    assert C.nb04_name("rpe", 1, 1, shift=True) == "nb04-rpe-shift-m1-s1"
    assert C.nb04_name("upe", 1, 0, trained=3) == "nb04-upe-m1-l3-s0"
    with pytest.raises(ValueError, match="encoding must be one of"):
        C.nb04_name("rope", 1, 0)


@pytest.mark.parametrize("name", sorted(ENTRIES))
def test_entry_matches_the_paper_format(name):
    e = ENTRIES[name]
    t, m, k = e.task, e.model, _k(e)
    parts = RECIPE.match(e.recipe)
    enc = {"ape": "learned", "rpe": "rpe", "upe": "upe"}[parts[1]]
    assert (t.op, t.format, t.positions, m.causal, m.encoding) == ("*", "sabbaghi", "consecutive", False, enc)
    assert t.multiplier_exact and k == int(parts[3])
    assert m.upe_slots == k                       # eq. 3.3: one uniform vector per multiplier digit
    assert t.max_position == t.frame_width + k + 2 and m.max_positions > t.max_position
    assert m.rpe_max_distance >= t.max_position   # no relative distance a test needs is clipped
    assert t.shift_augment == bool(parts[2])
    if t.shift_augment:                            # M3: zeros appended, the full frame width stays unseen
        assert t.shift_max_width == t.frame_width - 1
    assert max(e.eval_lengths) < t.frame_width and e.eval_lengths == tuple(range(1, t.frame_width))


@pytest.mark.parametrize("name", sorted(ENTRIES))
def test_the_longest_test_fits_and_the_headline_product_lies_inside_the_frame(name):
    e = ENTRIES[name]
    t, k = e.task, _k(e)
    task = Task(t)
    longest = max(e.eval_lengths)
    for L in (longest, C.NB04_HEADLINE[k]):                 # every test encodes and decodes exactly
        p = Problem(10 ** L - 1, 10 ** k - 1, "*")
        assert decode_answer(encode(p, "sabbaghi", frame_width=t.frame_width)) == p.answer
    assert task.eval_problems(longest, 3)                    # the test set of the longest length exists
    head = C.NB04_HEADLINE[k]
    assert head >= 2.5 * t.max_digits if t.max_digits == C.NB04_TRAINED else head >= 3 * t.max_digits
    # eq. 3.2: the largest headline product puts no digit on the multiplier or `*` positions (never
    # supervised with a digit in training); one more digit would (the paper's drop at the full frame)
    big = encode(Problem(10 ** head - 1, 10 ** k - 1, "*"), "sabbaghi", frame_width=t.frame_width)
    assert all(tok in (None, PAD) for tok in big.targets[:k + 1])
    over = encode(Problem(10 ** (head + 1) - 1, 10 ** k - 1, "*"), "sabbaghi", frame_width=t.frame_width)
    assert any(tok not in (None, PAD) for tok in over.targets[:k + 1])


def test_encodings_share_task_size_budget_and_seed():
    """A fair comparison: entries that differ only in the encoding differ in nothing else."""
    groups: dict[str, list] = {}
    for name, e in ENTRIES.items():
        recipe, seed = e.recipe, e.seed
        groups.setdefault((recipe.split("-", 2)[2], seed), []).append(e)     # nb04-upe-shift-m1 -> shift-m1
    compared = 0
    for key, es in groups.items():
        base = es[0]
        for e in es[1:]:
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
    assert recipes["nb04-upe-m1"] == recipes["nb04-rpe-shift-m1"] == set(C.NB04_SEEDS) and len(C.NB04_SEEDS) >= 3
    assert recipes["nb04-upe-m3"] == set(C.NB04_M3_SEEDS)


def test_recipes_fit_the_cpu_budget_and_the_paper_trained_length():
    for e in ENTRIES.values():
        assert e.task.sampler == "balanced" and e.task.eval_sampler == "exact"
        assert e.task.max_digits in C.NB04_WIDGET_TRAINED
        assert e.train.steps * e.train.batch_size <= 500_000      # at most the paper's 500k samples
        assert e.train.steps <= C.NB04_RECIPE[_k(e)]["steps"]


def test_windowed_upe_entries_differ_from_the_ablation_only_by_the_window():
    for seed in C.NB04_SEEDS:
        windowed = zoo.entry(C.nb04_name("upe", 1, seed, frame=C.NB04_WINDOW_FRAME, window=C.NB04_WINDOW))
        plain = zoo.entry(C.nb04_name("upe", 1, seed, frame=C.NB04_WINDOW_FRAME))
        assert windowed.name == f"nb04-upe-m1-f{C.NB04_WINDOW_FRAME}-w{C.NB04_WINDOW}-s{seed}"
        assert windowed.model.attention_window == C.NB04_WINDOW and plain.model.attention_window == 0
        assert replace(windowed.model, attention_window=0) == plain.model
        assert (windowed.task, windowed.train) == (plain.task, plain.train)
        assert windowed.task.frame_width == C.NB04_WINDOW_FRAME and windowed.task.max_digits == C.NB04_TRAINED
        # the window must stay inside the trained multiplicand, or pads at unseen distances return
        assert C.NB04_WINDOW < C.NB04_TRAINED
        assert "nb04-window" in windowed.tags and "nb04-window" in plain.tags
        rpe = zoo.entry(C.nb04_name("rpe", 1, seed, frame=C.NB04_WINDOW_FRAME, window=C.NB04_WINDOW))
        assert replace(rpe.model, encoding="upe") == windowed.model and rpe.task == windowed.task

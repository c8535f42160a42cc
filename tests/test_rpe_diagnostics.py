"""The RPE decline measurements (lengen_utils.analysis.rpe_decline) on hand-checkable cases: stub adders whose
errors are known digit by digit, and a fresh tiny RPE encoder for properties any model has. What notebook 03's cached
nb03-rpe-l5 encoder actually does is tested in tests/ch03/test_rpe_decline_nb03.py."""
from __future__ import annotations

import math

import pytest
import torch

from lengen_utils.analysis.rpe_decline import (CascadeSplit, digit_accuracy_by_significance, exact_match_by_cascade,
                                               measure_rpe_decline, pad_only_attention_mass, pad_only_positions)
from lengen_utils.core.carries import cascade_length, digit_sums
from lengen_utils.core.evaluate import evaluate_lengths
from lengen_utils.core.model import ModelConfig, Transformer
from lengen_utils.core.problems import Problem
from lengen_utils.core.tasks import Task, TaskConfig
from lengen_utils.core.vocab import PAD, TOKEN_ID, ids_to_tokens

L, MAX_DIGITS = 8, 3                       # frame width and trained length of the tiny task
T = 2 * L + 1


def tiny_task(frame_width: int = L, max_digits: int = MAX_DIGITS) -> Task:
    return Task(TaskConfig(op="+", format="sabbaghi", positions="consecutive", sampler="uniform",
                           max_digits=max_digits, frame_width=frame_width, random_start=False,
                           max_position=2 * frame_width + 2, eval_sampler="uniform"))


def tiny_config() -> ModelConfig:
    return ModelConfig(d_model=32, n_layers=1, n_heads=2, d_ff=64, causal=False, encoding="rpe",
                       rpe_max_distance=T, max_positions=T + 2)


def tiny_model() -> Transformer:
    torch.manual_seed(0)
    return Transformer(tiny_config()).eval()


class StubAdder(torch.nn.Module):
    """Reads ``a`` and ``b`` from the Sabbaghi frames and writes an answer whose errors are known in advance.

    ``mode="wrong_units"``: the true sum, except that the units digit is always off by one.
    ``mode="one_level"``: each digit takes the carry of the position just below only (``s_{i-1} >= 10``), never a
    propagated one; that answer is right exactly when the longest carry cascade is <= 1."""

    def __init__(self, mode: str):
        super().__init__()
        self.cfg = tiny_config()
        self.mode = mode
        self.anchor = torch.nn.Parameter(torch.zeros(1))   # gives the stub a device

    @property
    def device(self) -> torch.device:
        return self.anchor.device

    def answer_digits(self, a: int, b: int) -> list[int]:
        """The stub's answer, ``L + 1`` digits, least significant first."""
        if self.mode == "wrong_units":
            digits = [int(c) for c in reversed(str(a + b).rjust(L + 1, "0"))]
            digits[0] = (digits[0] + 1) % 10
            return digits
        s = digit_sums(a, b, L) + [0]
        return [(s[i] + (i > 0 and s[i - 1] >= 10)) % 10 for i in range(L + 1)]

    def forward(self, tokens, position_ids, key_padding=None, uniform_slots=None, number_ids=None, **_):
        logits = torch.full((*tokens.shape, self.cfg.vocab_size), -1e4)
        for row, ids in enumerate(tokens.tolist()):
            text = ["" if t == PAD else t for t in ids_to_tokens(ids)]
            a, b = int("".join(text[:L]) or 0), int("".join(text[L + 1:]) or 0)
            digits = self.answer_digits(a, b)
            answer = "".join(str(d) for d in reversed(digits)).lstrip("0")
            out = [PAD] * (L + 1 - len(answer)) + list(answer)   # right-aligned, as the format writes it
            for k, tok in enumerate(out):
                logits[row, L + k, TOKEN_ID[tok]] = 0.0
        return logits


# --- pad-only positions --------------------------------------------------------------------------------------------


def test_the_layout_puts_a_then_the_operator_then_b_right_aligned():
    task = tiny_task()
    batch = task.batch([Problem(552, 917)])
    ex = batch.examples[0]
    assert ex.tokens == (PAD,) * 5 + ("5", "5", "2", "+") + (PAD,) * 5 + ("9", "1", "7")
    assert batch.position_ids[0].tolist() == list(range(T))
    assert ex.supervised == list(range(L, T))                       # the operator and the b frame
    assert [ex.targets[i] for i in ex.supervised] == [PAD] * 5 + ["1", "4", "6", "9"]


@pytest.mark.parametrize("frame_width,max_digits", [(L, MAX_DIGITS), (6, 2)])
def test_pad_only_positions_are_each_frames_slots_left_of_the_trained_digits(frame_width, max_digits):
    """a's frame is positions 0..l-1, b's is l+1..2l: each loses its last max_digits positions."""
    expected = set(range(frame_width - max_digits)) | set(range(frame_width + 1, 2 * frame_width + 1 - max_digits))
    assert pad_only_positions(tiny_task(frame_width, max_digits)) == expected


def test_pad_only_positions_come_from_the_data():
    """Too few training draws leave a few rarely-filled slots marked pad-only: the set is read, not computed."""
    task = tiny_task()
    few = pad_only_positions(task, n=1, seed=3)
    assert few >= pad_only_positions(task)
    assert few <= set(range(T)) - {L}                              # the operator is never pad


# --- per-digit accuracy by significance ----------------------------------------------------------------------------


def test_significance_zero_is_the_units_digit():
    per = digit_accuracy_by_significance(StubAdder("wrong_units"), tiny_task(), [3, 5], n=40)
    assert per == {3: {0: 0.0, 1: 1.0, 2: 1.0, 3: 1.0}, 5: {0: 0.0, 1: 1.0, 2: 1.0, 3: 1.0, 4: 1.0, 5: 1.0}}


def test_per_digit_has_length_plus_one_entries_and_matches_evaluate_lengths():
    model, task = tiny_model(), tiny_task()
    per = digit_accuracy_by_significance(model, task, [2, 4, 8], n=30)
    full = evaluate_lengths(model, task, [2, 4, 8], n=30)
    for length, acc in per.items():
        assert sorted(acc) == list(range(length + 1))
        assert all(0.0 <= v <= 1.0 for v in acc.values())
        assert acc == {s: full[length].per_digit[s] for s in range(length + 1)}


# --- exact match split by carry cascade ----------------------------------------------------------------------------


def test_cascade_split_counts_agree_with_cascade_length():
    task, n = tiny_task(), 300
    problems = task.eval_problems(6, n)
    cascades = [cascade_length(p.a, p.b) for p in problems]
    for max_cascade in (0, 1, 2):
        split = exact_match_by_cascade(tiny_model(), task, 6, n=n, max_cascade=max_cascade)
        assert split.n_easy == sum(c <= max_cascade for c in cascades)
        assert split.n_easy + split.n_hard == split.n == n
        assert 0.0 <= split.exact_match <= 1.0


def test_an_adder_without_propagated_carries_is_right_exactly_on_short_cascades():
    split = exact_match_by_cascade(StubAdder("one_level"), tiny_task(), 7, n=400, max_cascade=1)
    assert split.n_easy > 100 and split.n_hard > 20
    assert (split.exact_match_easy, split.exact_match_hard) == (1.0, 0.0)
    assert math.isclose(split.exact_match, split.n_easy / split.n)


def test_an_empty_group_has_no_exact_match():
    split = exact_match_by_cascade(StubAdder("one_level"), tiny_task(), 2, n=50, max_cascade=L)
    assert split.n_hard == 0 and math.isnan(split.exact_match_hard)
    assert split.exact_match_easy == split.exact_match < 1.0      # some 2-digit sums cascade: 95 + 5
    with pytest.raises(ValueError, match="max_cascade"):
        exact_match_by_cascade(StubAdder("one_level"), tiny_task(), 2, n=5, max_cascade=-1)


# --- attention mass on the pad-only positions ----------------------------------------------------------------------


def test_pad_only_mass_lies_in_0_1_and_includes_the_trained_length():
    mass = pad_only_attention_mass(tiny_model(), tiny_task(), [5, 8], n=20)
    assert sorted(mass) == [MAX_DIGITS, 5, 8]
    assert all(0.0 <= v <= 1.0 for v in mass.values())


def test_pad_only_mass_is_one_on_every_key_and_zero_on_none():
    model, task = tiny_model(), tiny_task()
    every = pad_only_attention_mass(model, task, [6], n=10, pad_only=frozenset(range(T)))
    assert all(math.isclose(v, 1.0, rel_tol=1e-5) for v in every.values())
    assert pad_only_attention_mass(model, task, [6], n=10, pad_only=frozenset()) == {MAX_DIGITS: 0.0, 6: 0.0}


def test_pad_only_mass_is_the_mean_over_queries_heads_and_layers():
    """Recomputed by hand from the attention weights of the same problems."""
    model, task = tiny_model(), tiny_task()
    keys = pad_only_positions(task)
    batch = task.batch(task.eval_problems(6, 10))
    with torch.no_grad():
        _, weights = model(**batch.model_inputs(), return_attention=True)
    on = torch.tensor([i in keys for i in range(T)])
    expected = float(torch.stack([w[:, :, L:, :][..., on].sum(-1).mean() for w in weights]).mean())
    got = pad_only_attention_mass(model, task, [6], n=10, pad_only=keys)[6]
    assert math.isclose(got, expected, rel_tol=1e-5)
    digits_only = pad_only_attention_mass(model, task, [2], n=10, pad_only=keys, digit_queries_only=True)[2]
    batch = task.batch(task.eval_problems(2, 10))
    with torch.no_grad():
        _, weights = model(**batch.model_inputs(), return_attention=True)
    expected = float(torch.stack([w[:, :, T - 3:, :][..., on].sum(-1).mean() for w in weights]).mean())
    assert math.isclose(digits_only, expected, rel_tol=1e-5)


def test_report_gathers_the_three_measurements():
    report = measure_rpe_decline(tiny_model(), tiny_task(), [4], cascade_at=4, n_digits=10, n_cascade=20,
                                 n_attention=5)
    assert sorted(report.per_digit[4]) == list(range(5))
    assert isinstance(report.cascade, CascadeSplit) and report.cascade.n == 20
    assert sorted(report.pad_only_mass) == [MAX_DIGITS, 4]
    assert report.pad_only == pad_only_positions(tiny_task())


def test_pad_only_offsets_are_read_from_training_and_hidden_by_the_aligned_window():
    """In the frame l = 8 with <= 3-digit training sums, an answer digit at b's column c (0..3) finds digits at
    offsets near 0 and near -(l + 1); the far offsets only ever held pad. A model whose window (two centres at
    +-(l + 1)) hides them puts no attention there, at any length."""
    import dataclasses as dc
    from lengen_utils.analysis.rpe_decline import pad_only_offset_mass, pad_only_offsets
    from lengen_utils.core.model import ModelConfig, Transformer
    from lengen_utils.core.tasks import Task, TaskConfig
    l = 8
    task = Task(TaskConfig(op="+", format="sabbaghi", positions="consecutive", sampler="uniform", max_digits=3,
                           frame_width=l, random_start=False, max_position=2 * l + 2, eval_sampler="uniform"))
    offsets = pad_only_offsets(task, n=400)
    assert offsets and -(l + 1) not in offsets and 0 not in offsets and -1 not in offsets
    assert -(2 * l) in offsets                                 # b's column l-1 seen from the units digit: always pad
    plain = ModelConfig(d_model=16, n_layers=1, n_heads=2, d_ff=32, causal=False, encoding="rpe",
                        rpe_max_distance=2 * l + 1, max_positions=2 * l + 3)
    windowed = dc.replace(plain, attention_window=1, window_offsets=(l + 1, -(l + 1)))
    torch.manual_seed(0)
    free = pad_only_offset_mass(Transformer(plain), task, [3, 7], n=10, offsets=offsets)
    hidden = pad_only_offset_mass(Transformer(windowed), task, [3, 7], n=10, offsets=offsets)
    assert all(0 < m < 1 for m in free.values())
    assert all(m == 0 for m in hidden.values())

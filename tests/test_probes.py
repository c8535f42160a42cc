"""Linear probes of the residual stream (lengen_utils.analysis.probes): the streams read at the right positions with
the right labels, probes that find planted structure and none in noise, determinism, and clear errors."""
from __future__ import annotations

import numpy as np
import pytest
import torch

from lengen_utils.core.addition_steps import columns
from lengen_utils.core.model import ModelConfig, Transformer
from lengen_utils.analysis.probes import (CLASSES, DEFAULT_TARGETS, ProbeReport, fit_probe, probe_by_length,
                                 residual_streams)
from lengen_utils.core.problems import Problem, sample_balanced
from lengen_utils.core.tasks import Task, TaskConfig

MAX_POSITION = 63


def tiny_model(**overrides) -> Transformer:
    torch.manual_seed(0)
    cfg = dict(d_model=32, n_layers=2, n_heads=2, d_ff=64, max_positions=MAX_POSITION + 1)
    return Transformer(ModelConfig(**{**cfg, **overrides})).eval()


def tiny_task(**overrides) -> Task:
    cfg = dict(format="cho", positions="consecutive", max_digits=3, max_position=MAX_POSITION)
    return Task(TaskConfig(**{**cfg, **overrides}))


def query_logits(model, task, problems) -> torch.Tensor:
    """The model's own logits at the position before each answer digit, in residual_streams' order."""
    batch = task.batch(problems)
    with torch.no_grad():
        logits = model(**batch.model_inputs(digits=True))
    rows = [(r, i) for r, ex in enumerate(batch.examples) for i in range(len(ex) - 1) if ex.roles[i + 1] == "answer"]
    return torch.stack([logits[r, i] for r, i in rows])


def test_streams_of_653_plus_49_have_the_column_labels():
    model, task = tiny_model(), tiny_task()
    p = Problem(653, 49)
    s = residual_streams(model, task, [p])
    cols = columns(p, 4)                       # Cho's format: W = width + 1 = 4 columns
    assert s.column.tolist() == [0, 1, 2, 3]
    assert s.carry.tolist() == [c.carry for c in cols]
    assert s.a.tolist() == [c.a for c in cols] and s.b.tolist() == [c.b for c in cols]
    assert s.digit.tolist() == [c.digit for c in cols]
    assert s.labels("modsum").tolist() == [c.modsum for c in cols]
    assert s.labels("pair").tolist() == [10 * c.a + c.b for c in cols]
    assert s.length.tolist() == [3] * 4 and s.width.tolist() == [4] * 4
    assert s.n_layers == 3 and all(f.shape == (4, 32) for f in s.features)
    # constant-by-construction targets are left out: the carry into column 0, the padded last column's pair
    assert s.mask("carry").tolist() == [False, True, True, True]
    assert s.mask("pair").tolist() == [True, True, True, False]


def test_streams_are_the_models_input_and_its_read_out():
    model, task = tiny_model(), tiny_task()
    problems = [Problem(653, 49), Problem(7, 5), Problem(120, 999)]
    s = residual_streams(model, task, problems, batch_size=2)
    batch = task.batch(problems)
    x0 = model.embed(batch.tokens) + model.position(batch.position_ids)
    rows = [(r, i) for r, ex in enumerate(batch.examples) for i in range(len(ex) - 1) if ex.roles[i + 1] == "answer"]
    assert torch.allclose(s.features[0], torch.stack([x0[r, i] for r, i in rows]).detach(), atol=1e-6)
    with torch.no_grad():
        read_out = model.head(model.norm(s.features[-1]))
    assert torch.allclose(read_out, query_logits(model, task, problems), atol=1e-5)


def test_looped_model_rows_that_stop_keep_their_state():
    model = tiny_model(n_layers=1, loops=2, loops_per_digit=0.5, input_injection=True)
    task = tiny_task(max_digits=8)
    problems = [Problem(3, 4), Problem(12345678, 87654321), Problem(999, 1)]   # 2, 4 and 2 passes
    s = residual_streams(model, task, problems)
    assert s.n_layers == 1 + 4
    with torch.no_grad():
        read_out = model.head(model.norm(s.features[-1]))
    assert torch.allclose(read_out, query_logits(model, task, problems), atol=1e-5)
    short = s.length != 8
    assert torch.equal(s.features[2][short], s.features[4][short])    # finished after 2 passes
    # short training sums loop twice (3 layers), 8-digit tests four times (5): the streams are padded with
    # their last state, so every layer is reported and the last is the read-out's state at every length
    report = probe_by_length(model, task, sample_balanced(np.random.default_rng(0), 3, 60),
                             {8: task.eval_problems(8, 20)}, targets=("carry",), steps=20)
    assert report.layers == [0, 1, 2, 3, 4]


def test_probe_finds_a_planted_feature_and_nothing_in_noise():
    g = torch.Generator().manual_seed(1)
    x = torch.randn(900, 16, generator=g)
    binary = (x[:, 3] - 0.5 * x[:, 7] > 0).long().numpy()
    probe = fit_probe(x[:600], binary[:600], 2)
    assert probe.accuracy(x[600:], binary[600:]) > 0.97
    ten = (x @ torch.randn(16, 10, generator=g)).argmax(-1).numpy()
    assert fit_probe(x[:600], ten[:600], 10).accuracy(x[600:], ten[600:]) > 0.85
    noise = np.random.default_rng(2).integers(0, 2, 900)
    assert abs(fit_probe(x[:600], noise[:600], 2).accuracy(x[600:], noise[600:]) - 0.5) < 0.1


def test_fit_is_deterministic():
    g = torch.Generator().manual_seed(3)
    x, y = torch.randn(300, 8, generator=g), np.random.default_rng(3).integers(0, 10, 300)
    torch.manual_seed(0)
    p = fit_probe(x, y, 10)
    torch.manual_seed(1)
    q = fit_probe(x, y, 10)
    assert torch.equal(p.weight, q.weight) and torch.equal(p.bias, q.bias)


def test_probe_by_length_report():
    model, task = tiny_model(), tiny_task()
    train = sample_balanced(np.random.default_rng(0), 3, 120)
    tests = {n: task.eval_problems(n, 60) for n in (2, 3, 5)}
    report = probe_by_length(model, task, train, tests, steps=50)
    assert report.targets == list(DEFAULT_TARGETS) and report.layers == [0, 1, 2] and report.lengths == [2, 3, 5]
    rows = report.rows()
    assert len(rows) == 4 * 3 * 3 and all(0 <= r["accuracy"] <= 1 and 0 < r["chance"] <= 1 for r in rows)
    s = residual_streams(model, task, tests[5])
    carry = s.carry[s.mask("carry")]
    assert report.count["carry", 5] == len(carry)
    assert report.chance["carry", 5] == pytest.approx(max(carry.mean(), 1 - carry.mean()))
    # the pair is right only when both digits are
    pair = [r for r in rows if r["target"] == "pair"]
    for r in pair:
        assert r["accuracy"] <= min(report.accuracy["a", r["layer"], r["length"]],
                                    report.accuracy["b", r["layer"], r["length"]]) + 1e-9
    lengths, acc = report.series("carry", 2)
    assert lengths == [2, 3, 5] and len(acc) == 3
    table = report.table()
    assert "chance" in table and len(table.splitlines()) == 1 + 4 * (3 + 1)
    again = probe_by_length(model, task, train, tests, steps=50)
    assert again.accuracy == report.accuracy
    one = probe_by_length(model, task, train, {3: tests[3]}, layers=[2], targets=("digit",), steps=50)
    assert list(one.accuracy) == [("digit", 2, 3)]


def test_clear_errors():
    model, task = tiny_model(), tiny_task()
    probs = [Problem(12, 34)]
    with pytest.raises(ValueError, match="format='cho', op='\\+'"):
        residual_streams(model, tiny_task(format="padded"), probs)
    with pytest.raises(ValueError, match="format='cho', op='\\+'"):
        residual_streams(model, tiny_task(op="*", multiplier_digits=1), [Problem(12, 3, "*")])
    with pytest.raises(ValueError, match="decoder"):
        residual_streams(tiny_model(causal=False), task, probs)
    with pytest.raises(ValueError, match="at least one problem"):
        residual_streams(model, task, [])
    with pytest.raises(ValueError, match="unknown probe targets"):
        probe_by_length(model, task, probs, {2: probs}, targets=("sum",))
    with pytest.raises(ValueError, match="layers \\[7\\] out of range"):
        probe_by_length(model, task, probs, {2: probs}, layers=[7])
    with pytest.raises(ValueError, match="at least one test set"):
        probe_by_length(model, task, probs, {})
    with pytest.raises(ValueError, match="labels must lie in 0..1"):
        fit_probe(torch.zeros(3, 2), [0, 1, 2], 2)
    with pytest.raises(ValueError, match="features \\[N, d\\]"):
        fit_probe(torch.zeros(3), [0, 1, 0])
    assert CLASSES["carry"] == 2 and isinstance(ProbeReport(), ProbeReport)


def test_flagship_carry_is_decodable_at_its_trained_length():
    from lengen_utils.lab import zoo
    record = zoo.read_manifest().get("flagship-coupled")
    if record is None or not (zoo.assets_dir() / record["file"]).is_file():
        pytest.skip("the flagship-coupled checkpoint is not built")
    model, task = zoo.load("flagship-coupled")
    train = sample_balanced(np.random.default_rng(0), task.config.max_digits, 300)
    report = probe_by_length(model, task, train, {5: task.eval_problems(5, 300, seed=1)},
                             targets=("carry", "digit"))
    assert max(report.accuracy["carry", j, 5] for j in report.layers) > 0.9
    assert report.accuracy["digit", report.layers[-1], 5] > 0.99      # the read-out is linear too

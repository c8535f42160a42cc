"""Many seeds as one batched model: same inits, own data streams, same training as separate fits."""
from __future__ import annotations

from dataclasses import replace

import pytest
import torch

from lengen_utils.core.model import ModelConfig, Transformer
from lengen_utils.core.multiseed import _clip_per_seed, fit_seeds, init_models
from lengen_utils.lab.multiseed_bench import benchmark, main
from lengen_utils.core.tasks import Task, TaskConfig
from lengen_utils.core.train import TrainConfig, fit

TASK = TaskConfig(format="cho", positions="coupled", max_digits=3, max_position=16)
CFG = ModelConfig(d_model=32, n_heads=2, d_ff=64, max_positions=17)
TRAIN = TrainConfig(steps=3, batch_size=16, lr=3e-3, warmup_steps=1)


def _params(model: torch.nn.Module) -> dict[str, torch.Tensor]:
    return {k: v.detach().clone() for k, v in model.named_parameters()}


def test_init_equals_seeded_transformer():
    for seed, model in zip((3, 7), init_models(CFG, (3, 7))):
        torch.manual_seed(seed)
        ref = Transformer(CFG)
        for (name, a), b in zip(model.named_parameters(), ref.parameters()):
            assert torch.equal(a, b), name


@pytest.mark.parametrize("cfg", [CFG, replace(CFG, relative_bias=True, relative_bias_scale=10.0)],
                         ids=["ape", "relative-bias"])
def test_matches_separate_fits(cfg):
    """Same init and same data stream per seed: the batched run reproduces each separate fit."""
    task = Task(TASK)
    batched = fit_seeds(cfg, task, TRAIN, [0, 1], device="cpu", log_every=1)
    for seed, (model, result) in zip((0, 1), batched):
        torch.manual_seed(seed)
        ref = Transformer(cfg)
        ref_result = fit(ref, task, replace(TRAIN, seed=seed), progress=False, log_every=1)
        assert result.losses == pytest.approx(ref_result.losses, abs=1e-4)
        for name, p in ref.named_parameters():
            assert torch.allclose(dict(model.named_parameters())[name], p, atol=1e-4), name
    assert not torch.equal(batched[0][0].embed.weight, batched[1][0].embed.weight)


def test_each_seed_learns_and_returns_plain_models():
    results = fit_seeds(CFG, Task(TASK), replace(TRAIN, steps=40), [0, 1, 2], device="cpu", log_every=10)
    assert len(results) == 3
    for model, result in results:
        assert type(model) is Transformer and not model.training
        assert result.steps == 40 and len(result.losses) == 4
        assert result.losses[-1] < result.losses[0] - 0.3


def test_encoder_with_rpe_runs():
    task = Task(TaskConfig(format="sabbaghi", positions="consecutive", max_digits=2, frame_width=4,
                           random_start=False, max_position=10))
    cfg = ModelConfig(d_model=16, n_heads=2, d_ff=32, causal=False, encoding="rpe", rpe_max_distance=9,
                      max_positions=11)
    (m0, r0), (m1, r1) = fit_seeds(cfg, task, replace(TRAIN, steps=2), [0, 1], device="cpu", log_every=1)
    assert len(r0.losses) == 2 and all(torch.isfinite(torch.tensor(r0.losses + r1.losses)))


def test_per_seed_clipping_matches_clip_grad_norm():
    torch.manual_seed(0)
    grads = [torch.randn(3, 4, 5) * 3, torch.randn(3, 7)]
    params = [torch.zeros_like(g, requires_grad=True) for g in grads]
    for p, g in zip(params, grads):
        p.grad = g.clone()
    _clip_per_seed(params, 1.0)
    for k in range(3):
        ref = [torch.zeros_like(g[k], requires_grad=True) for g in grads]
        for r, g in zip(ref, grads):
            r.grad = g[k].clone()
        torch.nn.utils.clip_grad_norm_(ref, 1.0)
        for p, r in zip(params, ref):
            assert torch.allclose(p.grad[k], r.grad, atol=1e-6)


@pytest.mark.parametrize("seeds, cfg, match", [
    ([], CFG, "at least one seed"),
    ([1, 1], CFG, "distinct"),
    ([0, 1], replace(CFG, dropout=0.1), "dropout"),
    ([0, 1], replace(CFG, encoding="upe"), "upe"),
    ([0, 1], replace(CFG, causal=False, arithmetic_heads=1), "arithmetic_heads=1"),
    ([0, 1], replace(CFG, position_channels=2), "position_channels=2"),
])
def test_bad_inputs(seeds, cfg, match):
    with pytest.raises(ValueError, match=match):
        fit_seeds(cfg, Task(TASK), TRAIN, seeds, device="cpu")


def test_benchmark_and_cli(capsys):
    r = benchmark(k=2, steps=2, batch_size=2, device="cpu")
    assert r["k"] == 2 and r["sequential_s"] > 0 and r["batched_s"] > 0 and r["speedup"] > 0
    assert r["batched_final_loss"] == pytest.approx(r["sequential_final_loss"], abs=1e-3)
    with pytest.raises(SystemExit) as refused:           # the bounded --k type refuses it in one line
        main(["--k", "0"])
    assert refused.value.code == 2
    assert "error" in capsys.readouterr().err


def test_median_at_and_best_run_read_live_results_by_recipe():
    """The seeds of one recipe in ``{entry: {length: EM}}``: their median at a length, and the best run there."""
    from lengen_utils.course.common.seeds import best_run, median_at
    from lengen_utils.lab.zoo import recipe_entries

    names = list(recipe_entries("nb05-plain").values())[:3]
    live = {name: {10: em} for name, em in zip(names, (0.2, 0.9, 0.5))} | {"nb05-both-s0": {10: 1.0}}
    assert median_at(live, "nb05-plain", 10) == 0.5
    assert best_run(live, 10) == (1.0, "nb05-both-s0")


def test_fit_seeds_checks_the_whole_plan_before_the_first_step():
    """Lengths the task cannot place are refused by name before any seed trains, as fit refuses them."""
    from lengen_utils.core.model import ConfigError
    task = Task(TaskConfig(max_digits=3, max_position=10))
    cfg = ModelConfig(d_model=16, n_layers=1, n_heads=2, d_ff=16, max_positions=11)
    with pytest.raises(ConfigError, match="select_lengths"):
        fit_seeds(cfg, task, TrainConfig(steps=5, batch_size=4, select_every=2, select_lengths=(50,)), [0, 1])

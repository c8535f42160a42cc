"""Throughput CLI: argument checks, the analytic FLOP count, and a short CPU measurement."""
from __future__ import annotations

import json

import pytest
import torch

from lengen_utils.core.model import ModelConfig, Transformer
from lengen_utils.lab.throughput import SHAPES, forward_flops, main, matmul_params, run, train_flops


def test_matmul_params_counts_the_linear_weights():
    cfg = ModelConfig(d_model=64, n_layers=2, n_heads=4, d_ff=256)
    model = Transformer(cfg)
    linear = sum(m.weight.numel() for m in model.modules() if isinstance(m, torch.nn.Linear))
    assert matmul_params(cfg) == linear


def test_flop_formula():
    cfg = ModelConfig(d_model=64, n_layers=1, n_heads=4, d_ff=256)
    n = matmul_params(cfg)
    assert forward_flops(cfg, 2, 10) == 2 * n * 20 + 4 * 2 * 100 * 64
    assert train_flops(cfg, 2, 10) == 3 * forward_flops(cfg, 2, 10)
    rpe = ModelConfig(d_model=64, n_heads=4, d_ff=256, causal=False, encoding="rpe", rpe_max_distance=3)
    assert forward_flops(rpe, 1, 10) - forward_flops(cfg, 1, 10) == 2 * 10 * 7 * 64


@pytest.mark.parametrize("name", sorted(SHAPES))
def test_named_shapes_build(name):
    shape = SHAPES[name]
    assert Transformer(shape.model).num_parameters() > 0 and shape.cpu_batch_size >= 1


@pytest.mark.parametrize("argv, match", [
    (["--steps", "0"], "--steps: must be"), (["--config", "nope"], "unknown config"),
    (["--batch-size", "-1"], "--batch-size"), (["--device", "tpu"], "device 'tpu' is not a device name; use 'cpu', 'cuda'"),
    (["--device", "cpu:abc"], "device 'cpu:abc' is not a device name"), (["--bogus"], "unrecognized"),
])
def test_bad_arguments_exit_2(argv, match, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert match in err and err.count("\n") == 1


def test_cuda_refused_without_gpu(capsys):
    if torch.cuda.is_available():
        pytest.skip("a GPU is present")
    assert main(["--device", "cuda"]) == 2
    assert "CUDA is not available" in capsys.readouterr().err


def test_short_cpu_run_table_and_json(capsys):
    rec = run("flagship", steps=2, batch_size=2, device="cpu", decode_n=4, warmup=1)
    t = rec["train"]
    assert rec["device"] == "cpu" and t["steps"] == 2 and t["tokens_per_s"] > 0 and t["flop_per_s"] > 0
    assert t["padded_tokens_per_s"] >= t["tokens_per_s"] and rec["decode"]["tokens_per_s"] > 0
    assert main(["--steps", "1", "--warmup", "0", "--batch-size", "2", "--decode-n", "2", "--device", "cpu"]) == 0
    assert "train FLOP/s" in capsys.readouterr().out
    assert main(["--config", "sabbaghi-rpe-l50", "--steps", "1", "--warmup", "0", "--batch-size", "2",
                 "--decode-n", "0", "--device", "cpu", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["config"] == "sabbaghi-rpe-l50" and data["decode"] is None


def test_the_shapes_are_zoo_recipes_at_the_stated_sizes():
    from lengen_utils.lab import zoo

    flagship = zoo.entry("flagship-coupled")
    assert (SHAPES["flagship"].model, SHAPES["flagship"].task) == (flagship.model, flagship.task)
    plain, cho = zoo.get_recipe("nb05-plain"), SHAPES["cho-1to30"]
    assert cho.task.positions == plain.task.positions == "coupled" and not cho.model.relative_bias
    assert (cho.model.d_model, cho.model.d_ff, cho.task.max_digits, cho.task.max_position) == (512, 2048, 30, 202)
    rpe, l50 = zoo.get_recipe("nb03-rpe-l5"), SHAPES["sabbaghi-rpe-l50"]
    assert l50.model.encoding == rpe.model.encoding == "rpe" and l50.task.frame_width == 50
    minute = SHAPES["flagship-minute"].recipe                  # a shape is its recipe, not a copy of two configs
    assert isinstance(minute, zoo.Recipe) and minute.id == "flagship-minute[shape]"
    assert minute.train == zoo.get_recipe("flagship-minute").train and l50.recipe.seeds == rpe.seeds

"""Sweeps: expansion of configs x seeds, the local executor, and a 2-task sweep on a local Ray."""
from __future__ import annotations

import json

import pytest

from lengen_utils.lab.sweep import (SweepError, expand, format_summary, from_entry, from_recipe, load_config, main,
                                parse_seeds, read_results, run_local, run_ray, summary)

TINY = {"name": "tiny", "task": {"format": "cho", "positions": "coupled", "max_digits": 2, "max_position": 12},
        "model": {"d_model": 16, "n_heads": 2, "d_ff": 32, "max_positions": 13},
        "train": {"steps": 5, "batch_size": 8, "lr": 0.003, "warmup_steps": 1},
        "eval_lengths": [1, 2], "eval_n": 20}


@pytest.fixture
def config_file(tmp_path):
    path = tmp_path / "tiny.json"
    path.write_text(json.dumps(TINY))
    return path


def test_parse_seeds():
    assert parse_seeds("0,1,2") == (0, 1, 2)
    assert parse_seeds("0-3,7") == (0, 1, 2, 3, 7)
    for bad in ("", "a", "1,1", "-1"):
        with pytest.raises(SweepError):
            parse_seeds(bad)


def test_expand_configs_grid_and_seeds():
    specs = expand([TINY], (0, 1, 2), sets=["train.steps=7"], grid=["train.lr=0.001,0.01"])
    assert len(specs) == 6
    assert {s.id for s in specs} == {"tiny[train.lr=0.001]", "tiny[train.lr=0.01]"}
    assert all(s.train.steps == 7 and len(s.seeds) == 1 and s.train.seed == s.seeds[0] for s in specs)
    grouped = expand([TINY], (0, 1, 2), group_seeds=True)
    assert len(grouped) == 1 and grouped[0].seeds == (0, 1, 2)


@pytest.mark.parametrize("item, match", [("train.nope=1", "no field"), ("lr=3", "bad override"),
                                         ("model.n_heads=3", "divisible")])
def test_bad_overrides(item, match):
    with pytest.raises(SweepError, match=match):
        expand([TINY], (0,), sets=[item])


def test_entry_and_config_file(config_file, tmp_path):
    assert load_config(config_file)[0]["name"] == "tiny"
    base = from_entry("smoke-coupled-3")
    assert base["name"] == "smoke-coupled-3" and base["eval_lengths"]
    with pytest.raises(SweepError, match="unknown zoo entry"):
        from_entry("no-such-entry")
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(SweepError, match="cannot read"):
        load_config(bad)


def test_a_recipe_brings_its_seeds_unless_told_otherwise():
    base = from_recipe("nb05-mulu-2l")
    assert [s.seeds for s in expand([base])] == [(0,), (1,), (2,)]
    assert [s.seeds for s in expand([base], (7,))] == [(7,)]
    assert [s.seeds for s in expand([base], grid=["train.seed=4,5"])] == [(4,), (5,)]
    assert [s.seeds for s in expand([base], (0, 1), group_seeds=True)] == [(0, 1)]
    with pytest.raises(SweepError, match="did you mean"):
        from_recipe("nb05-mulu-2x")
    with pytest.raises(SweepError, match="distinct whole numbers"):
        expand([{**TINY, "seeds": [1, 1]}])


def _check_records(records, seeds):
    assert sorted(r["seed"] for r in records) == sorted(seeds)
    for r in records:
        assert r["device"] == "cpu" and r["train_seconds"] > 0
        assert set(r["metrics"]["exact_match"]) == {"1", "2"}
        assert r["config"]["train"]["seed"] == r["seed"] and r["config"]["model"]["d_model"] == 16


def test_local_executor_single_and_grouped():
    _check_records(list(run_local(expand([TINY], (0, 1)), device="cpu")), [0, 1])
    grouped = list(run_local(expand([TINY], (0, 1), group_seeds=True), device="cpu"))
    _check_records(grouped, [0, 1])
    assert all(r["batched_seeds"] == 2 for r in grouped)
    table = summary(grouped)
    assert set(table["tiny"]) == {1, 2} and table["tiny"][1][3] == 2
    assert "tiny (2 seeds)" in format_summary(grouped)


def test_cli_local_writes_results(config_file, tmp_path, capsys):
    out = tmp_path / "results.jsonl"
    assert main(["--config", str(config_file), "--seeds", "0,1", "--executor", "local", "--device", "cpu",
                 "--out", str(out)]) == 0
    _check_records(read_results(out), [0, 1])
    assert main(["--config", str(config_file), "--seeds", "x"]) == 2
    assert main(["--seeds", "0"]) == 2
    assert main(["--config", str(config_file), "--executor", "local", "--address", "ray://h:10001"]) == 2
    assert "error" in capsys.readouterr().err


@pytest.mark.slow
def test_two_task_sweep_on_local_ray():
    """CI installs the sweep extra; a local Ray instance with 2 CPUs runs one task per seed."""
    pytest.importorskip("ray", reason="Ray is not installed: pip install -e .[sweep] (CI should install it)")
    records = list(run_ray(expand([TINY], (0, 1)), num_cpus=2, device="cpu", threads=1))
    _check_records(records, [0, 1])


def test_a_dry_run_lists_each_task_by_its_grid_point(capsys):
    """Each task of a sweep is a zoo recipe: its id names the grid point, its seeds are listed, nothing trains."""
    assert main(["--recipe", "nb05-mulu-2l", "--grid", "train.lr=0.001,0.003", "--seeds", "0,1", "--dry-run"]) == 0
    out = capsys.readouterr().out
    for lr in ("0.001", "0.003"):
        for seed in (0, 1):
            assert f"nb05-mulu-2l[train.lr={lr}] seeds {seed}: 8000 steps x 128" in out


def test_overrides_of_a_sweep_set_the_recipe_fields_too():
    specs = expand([TINY], (0,), sets=["eval_n=17", "eval_lengths=[1, 2]"], grid=["model.d_model=16,32"])
    assert [(s.eval_n, s.eval_lengths, s.model.d_model) for s in specs] == [(17, (1, 2), 16), (17, (1, 2), 32)]
    with pytest.raises(SweepError, match=r"name the operand lengths to test \(eval_lengths\)"):
        expand([TINY], (0,), sets=["eval_lengths=[]"])

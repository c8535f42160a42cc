"""Bad input on the newer surfaces gets a clear error before any work (sweep, multiseed, throughput,
formats, positions, boards): each case asserts the error type and the words of its message, and that
nothing trained first."""
from __future__ import annotations

import json
import os

import numpy as np
import pytest
import torch

from lengen_utils.core import multiseed
from lengen_utils.lab import multiseed_bench, sweep
from lengen_utils.core.boards.board import Board, BoardError
from lengen_utils.core.evaluate import evaluate_lengths, predict
from lengen_utils.core.formats import FormatError, encode
from lengen_utils.core.model import ConfigError, ModelConfig, Transformer
from lengen_utils.core.positions import PositionRangeError
from lengen_utils.core.problems import Problem
from lengen_utils.core.tasks import Task, TaskConfig
from lengen_utils.core.train import TrainConfig

TINY = {"name": "tiny", "task": {"format": "cho", "positions": "coupled", "max_digits": 2, "max_position": 12},
        "model": {"d_model": 16, "n_heads": 2, "d_ff": 32, "max_positions": 13},
        "train": {"steps": 3, "batch_size": 8, "lr": 0.003, "warmup_steps": 1},
        "eval_lengths": [1, 2], "eval_n": 10}
TINY_MODEL = ModelConfig(**TINY["model"])
TINY_TASK = TaskConfig(**TINY["task"])
TINY_TRAIN = TrainConfig(**TINY["train"])


@pytest.fixture
def no_training(monkeypatch):
    """Fail the test if anything trains."""
    def trained(*a, **k):
        pytest.fail("trained before refusing")
    monkeypatch.setattr(sweep, "run_spec", trained)
    monkeypatch.setattr(sweep, "fit", trained)
    monkeypatch.setattr(multiseed, "init_models", trained)


def _config(tmp_path, **changes) -> str:
    path = tmp_path / "cfg.json"
    path.write_text(json.dumps({**TINY, **changes}))
    return str(path)


# -- sweep: seeds ----------------------------------------------------------------------------------------
def test_a_grid_over_train_seed_trains_those_seeds(monkeypatch):
    """Without --seeds, the grid's seeds really train: distinct seeds, distinct initial weights, one name."""
    seen = []
    real_fit = sweep.fit

    def recording_fit(model, task, cfg, **kw):
        seen.append((cfg.seed, float(next(model.parameters()).detach().sum())))
        return real_fit(model, task, cfg, **kw)
    monkeypatch.setattr(sweep, "fit", recording_fit)
    specs = sweep.expand([TINY], None, grid=["train.seed=0,1,2"])
    records = list(sweep.run_local(specs, device="cpu"))
    assert [s for s, _ in seen] == [0, 1, 2] and len({w for _, w in seen}) == 3
    assert [r["seed"] for r in records] == [0, 1, 2] == [r["config"]["train"]["seed"] for r in records]
    assert {r["name"] for r in records} == {"tiny"}            # one config, three seeds: one median
    assert sweep.summary(records)["tiny"][1][3] == 3


SEED_CONFLICTS = {
    "--seeds with a seed grid": (dict(seeds=(0,), grid=["train.seed=0,1,2"]),
                                 r"--seeds and 'train.seed=0,1,2' both set the training seed; give the seeds once"),
    "--seeds with --set train.seed": (dict(seeds=(0, 1), sets=["train.seed=3"]),
                                      r"--seeds and 'train.seed=3' both set the training seed"),
    "--group-seeds with a seed grid": (dict(grid=["train.seed=0,1"], group_seeds=True),
                                       r"--group-seeds batches the seeds of --seeds.*--seeds 0,1,2 --group-seeds"),
}


@pytest.mark.parametrize("name", list(SEED_CONFLICTS))
def test_conflicting_seed_options_are_refused(name):
    kwargs, pattern = SEED_CONFLICTS[name]
    with pytest.raises(sweep.SweepError, match=pattern):
        sweep.expand([TINY], **kwargs)


def test_sweep_cli_refuses_seeds_twice_before_training(no_training, capsys):
    argv = ["--entry", "smoke-coupled-3", "--grid", "train.seed=0,1,2", "--seeds", "0", "--executor", "local"]
    assert sweep.main(argv) == 2
    assert "both set the training seed" in capsys.readouterr().err


def test_sweep_seeds_replace_the_configs_own_seed():
    specs = sweep.expand([{**TINY, "train": {**TINY["train"], "seed": 7}}], (0, 1))
    assert [s.train.seed for s in specs] == [0, 1]
    assert [s.train.seed for s in sweep.expand([{**TINY, "train": {**TINY["train"], "seed": 7}}])] == [7]


# -- sweep: every grid point checked, fields by type ----------------------------------------------------
SWEEP_CONFIGS = {
    "eval_lengths as a string": (dict(eval_lengths="12"),
                                 r"config 'tiny': eval_lengths must be a non-empty list of whole numbers >= 1.*got '12' \(str\)"),
    "eval_lengths empty": (dict(eval_lengths=[]), r"eval_lengths must be a non-empty list"),
    "a fractional eval length": (dict(eval_lengths=[1, 2.5]), r"every eval length must be a whole number >= 1, got 2\.5 \(float\)"),
    "eval_n as a string": (dict(eval_n="500"), r"eval_n must be a whole number >= 1, got '500' \(str\)"),
    "eval_n zero": (dict(eval_n=0), r"eval_n must be a whole number >= 1, got 0"),
    "a task section that is a list": (dict(task=[["op", "+"]]), r"task must be an object of TaskConfig fields, got list"),
    "a name that is a number": (dict(name=3), r"a config's name must be a non-empty string, got 3"),
    "an eval length past the position IDs": (dict(eval_lengths=[1, 30]),
                                             r"eval length 30 cannot be evaluated \(.*max_position=12.*drop it"),
    "an encoder on a decoder format": (dict(model={**TINY["model"], "causal": False}),
                                       r"encoder \(causal=False\) on the decoder format 'cho'"),
    "a learned table too small": (dict(model={**TINY["model"], "max_positions": 8}),
                                  r"max_position=12 but the model's learned table has max_positions=8"),
}


@pytest.mark.parametrize("name", list(SWEEP_CONFIGS))
def test_bad_sweep_config_is_refused_by_name(name, tmp_path, no_training, capsys):
    changes, pattern = SWEEP_CONFIGS[name]
    with pytest.raises(sweep.SweepError, match=pattern):
        sweep.expand([{**TINY, **changes}], (0,))
    assert sweep.main(["--config", _config(tmp_path, **changes), "--executor", "local", "--dry-run"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("sweep: error: ") and "Traceback" not in err


def test_an_invalid_second_grid_point_is_refused_before_the_first_trains(no_training, capsys):
    argv = ["--entry", "smoke-coupled-3", "--grid", "model.causal=true,false", "--executor", "local"]
    for extra in ([], ["--dry-run"]):
        assert sweep.main(argv + extra) == 2
        err = capsys.readouterr().err
        assert "config 'smoke-coupled-3[model.causal=false]': an encoder (causal=False)" in err, err


def test_group_seeds_limits_are_checked_in_the_expansion():
    with pytest.raises(sweep.SweepError, match=r"fit_seeds supports dropout = 0 only, got 0\.1"):
        sweep.expand([{**TINY, "model": {**TINY["model"], "dropout": 0.1}}], (0, 1), group_seeds=True)


def _unwritable(tmp_path):
    if os.geteuid() == 0:
        pytest.skip("root can write to a read-only folder")
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o555)
    return folder / "r.jsonl"


SWEEP_ARGS = {
    "--out in a missing folder": (lambda t: ["--out", str(t / "missing" / "r.jsonl")],
                                  r"the folder .*missing does not exist; create it"),
    "--out in a read-only folder": (lambda t: ["--out", str(_unwritable(t))], r"cannot write to the --out folder"),
    "--out naming a folder": (lambda t: ["--out", str(t)], r"is a folder; name a writable results file"),
    "an unknown --device": (lambda t: ["--device", "gpu"], r"--device: device 'gpu' is not a device name"),
    "--threads 0": (lambda t: ["--threads", "0"], r"--threads: must be a positive integer \(>= 1\), got 0"),
}


@pytest.mark.parametrize("name", list(SWEEP_ARGS))
def test_bad_sweep_arguments_exit_2_before_training(name, tmp_path, no_training, capsys):
    extra, pattern = SWEEP_ARGS[name]
    try:
        code = sweep.main(["--entry", "smoke-coupled-3", "--executor", "local", *extra(tmp_path)])
    finally:
        (tmp_path / "ro").exists() and (tmp_path / "ro").chmod(0o755)
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "Traceback" not in err
    assert __import__("re").search(pattern, err), err


# -- multiseed: the checks fit runs, before step 1 -------------------------------------------------------
FIT_SEEDS = {
    "an encoder on a decoder task": (lambda: (ModelConfig(**{**TINY["model"], "causal": False}), Task(TINY_TASK),
                                              TINY_TRAIN, [0, 1]),
                                     ConfigError, r"encoder \(causal=False\) on the decoder format 'cho'"),
    "a model instead of its config": (lambda: (Transformer(TINY_MODEL), Task(TINY_TASK), TINY_TRAIN, [0]),
                                      ConfigError, r"fit_seeds takes a ModelConfig, not a Transformer.*pass model\.cfg"),
    "a dict instead of a ModelConfig": (lambda: (TINY["model"], Task(TINY_TASK), TINY_TRAIN, [0]), ConfigError,
                                        r"fit_seeds takes a ModelConfig, got dict; use ModelConfig\.from_dict"),
    "a TaskConfig instead of a Task": (lambda: (TINY_MODEL, TINY_TASK, TINY_TRAIN, [0]), ConfigError,
                                       r"fit_seeds needs a Task, got TaskConfig; wrap the config: Task\(task_config\)"),
    "a dict instead of a TrainConfig": (lambda: (TINY_MODEL, Task(TINY_TASK), TINY["train"], [0]), ConfigError,
                                        r"fit_seeds needs a TrainConfig, got dict"),
    "seeds as a string": (lambda: (TINY_MODEL, Task(TINY_TASK), TINY_TRAIN, "012"), ValueError,
                          r"seeds must be a list of whole numbers >= 0, got '012'"),
    "a negative seed": (lambda: (TINY_MODEL, Task(TINY_TASK), TINY_TRAIN, [0, -1]), ValueError,
                        r"seeds must be whole numbers >= 0, got -1"),
    "a fractional seed": (lambda: (TINY_MODEL, Task(TINY_TASK), TINY_TRAIN, [0.5]), ValueError,
                          r"seeds must be whole numbers >= 0, got 0\.5"),
}


@pytest.mark.parametrize("name", list(FIT_SEEDS))
def test_fit_seeds_refuses_before_training(name, no_training):
    make, error, pattern = FIT_SEEDS[name]
    with pytest.raises(error, match=pattern):
        multiseed.fit_seeds(*make(), device="cpu")


def test_multiseed_cli_refuses_an_unknown_device(capsys):
    assert multiseed_bench.main(["--device", "gpu"]) == 2
    err = capsys.readouterr().err
    assert err == "multiseed_bench: error: device 'gpu' is not a device name; use 'cpu', 'cuda', 'cuda:N' or 'mps'\n"


# -- formats refuse what they cannot encode ---------------------------------------------------------------
SABBAGHI_MUL = TaskConfig(op="*", format="sabbaghi", positions="consecutive", random_start=False, frame_width=6,
                          max_digits=4, multiplier_digits=1, sampler="uniform", max_position=64)


def test_sabbaghi_refuses_a_multiplier_wider_than_trained():
    with pytest.raises(FormatError, match=r"multiplier 45 has 2 digits; this task allows at most 1 "
                                          r"\(multiplier_digits=1\)"):
        encode(Problem(123, 45, "*"), "sabbaghi", frame_width=6, multiplier_digits=1)
    assert encode(Problem(123, 4, "*"), "sabbaghi", frame_width=6, multiplier_digits=1).answer_width == 7


def test_an_encoder_trained_on_one_digit_multipliers_refuses_123_times_45():
    torch.manual_seed(0)
    model = Transformer(ModelConfig(d_model=16, n_heads=2, d_ff=32, causal=False))
    with pytest.raises(FormatError, match=r"multiplier 45 has 2 digits; this task allows at most 1"):
        predict(model, Task(SABBAGHI_MUL), [Problem(123, 45, "*")])
    assert len(predict(model, Task(SABBAGHI_MUL), [Problem(123, 4, "*")])) == 1     # a 1-digit multiplier runs


# -- advice that fits the model -------------------------------------------------------------------------
def test_a_nope_model_past_the_position_ids_is_not_told_about_a_table():
    model = Transformer(ModelConfig(d_model=16, n_heads=2, d_ff=32, encoding="none"))
    task = Task(TaskConfig(max_digits=3, max_position=12))
    with pytest.raises(PositionRangeError, match=r"task's IDs stop at max_position=12; use shorter operands, or "
                                                 r"a task with TaskConfig\(max_position=\d+\).*other encodings "
                                                 r"have no table") as info:
        evaluate_lengths(model, task, [20], n=2)
    assert "a model with a larger position table" not in str(info.value)


# -- boards ---------------------------------------------------------------------------------------------
def test_a_board_given_as_lists_is_read():
    assert Board([[True, False], [False, False]]) == Board(((True, False), (False, False)))


BOARDS = {
    "an array": (lambda: Board(np.zeros((2, 2), bool)), r"(?s)a board is a list \(or tuple\) of rows .*got ndarray.*\.tolist\(\)"),
    "a string": (lambda: Board("M*"), r"a board is a list \(or tuple\) of rows of True/False cells, got str 'M\*'"),
    "no rows": (lambda: Board([]), r"a board needs at least one row of cells, got \[\]"),
    "cells as numbers": (lambda: Board([[1, 0]]), r"row 0 holds \(1, 0\); cells must be True \(mine\) or False"),
}


@pytest.mark.parametrize("name", list(BOARDS))
def test_a_bad_board_is_named(name):
    make, pattern = BOARDS[name]
    with pytest.raises(BoardError, match=pattern):
        make()


def test_multiseed_cli_names_an_unknown_recipe(capsys):
    assert multiseed_bench.main(["--recipe", "no-such-recipe"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("multiseed_bench: error:") and "no-such-recipe" in err


# -- numeric options: parsed with their bounds, never a traceback -----------------------------------------------
@pytest.mark.parametrize("value", ["-5", "0", "nan", "inf", "abc"])
def test_zoo_train_max_seconds_names_its_bound(value, tmp_path, monkeypatch, capsys):
    from cli_run import run_cli

    from lengen_utils.lab.zoo import commands
    monkeypatch.setenv("LENGEN_ASSETS", str(tmp_path))          # nothing built: nothing else refuses first
    code, err = run_cli(commands.main, ["train", "--max-seconds", value, "smoke-coupled-3"], capsys)
    assert code == 2 and "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    assert "--max-seconds" in err and "> 0" in err and value in err


def test_every_numeric_option_of_every_command_line_names_its_bounds():
    """A numeric option of a bare ``type=int`` or ``type=float`` takes -5 or nan and fails later, deep inside; each
    uses one of the bounded types of ``lengen_utils.lab.cli`` (``BOUNDED_TYPES``), which refuse with the bounds."""
    import ast
    from pathlib import Path

    import lengen_utils
    from lengen_utils.lab import cli
    bounded = {t.__name__ for t in cli.BOUNDED_TYPES}
    loose = []
    for path in sorted(Path(lengen_utils.__file__).parent.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "add_argument":
                kind = next((k.value for k in node.keywords if k.arg == "type"), None)
                name = kind.id if isinstance(kind, ast.Name) else getattr(kind, "attr", None)
                if name in ("int", "float") or (name and name not in bounded and name not in ("str", "Path")):
                    loose.append(f"{path.name}:{node.lineno} type={name}")
    assert loose == [], loose

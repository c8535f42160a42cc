"""The bench command line refuses bad arguments before it trains: one line, exit status 2, no traceback,
and the message names the problem and the limit. (The zoo's command line: tests/test_zoo.py.)"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from lengen_utils.lab import bench, cli
from cli_run import run_cli

ROOT = Path(__file__).resolve().parents[1]
QUICK = ["flagship", "--quick", "--no-progress"]


def _bench(argv, capsys) -> tuple[int, str]:
    return run_cli(bench.main, argv, capsys)


@pytest.fixture()
def no_training(monkeypatch):
    monkeypatch.setattr(bench, "fit", lambda *a, **k: pytest.fail("trained before refusing"))


BAD_BENCH = [
    (["--lengths", "a,b"], {}, ["--lengths", "'a' is not an integer", "comma-separated"]),
    (["--lengths", "0"], {}, ["--lengths", ">= 1", "got 0"]),
    (["--lengths", "5,-3"], {}, ["--lengths", ">= 1", "got -3"]),
    (["--lengths", ""], {}, ["--lengths", "is not an integer"]),
    (["--lengths", "130"], {}, ["130-digit", "max_position=128"]),
    (["--set", "model.encoding=bogus"], {}, ["model.encoding=bogus", "unknown position encoding 'bogus'",
                                             "choose one of"]),
    (["--set", "model.no_such=1"], {}, ["no field 'no_such'", "fields:"]),
    (["--set", "d_model=3"], {}, ["bad override 'd_model=3'", "SECTION.FIELD=VALUE"]),
    (["--set-ape", "model.n_heads=0"], {}, ["model.n_heads=0", "n_heads"]),
    (["--steps", "-5"], {}, ["--steps", "positive integer (>= 1)", "got -5"]),
    (["--steps", "0"], {}, ["--steps", "positive integer (>= 1)", "got 0"]),
    (["--steps", "1.5"], {}, ["--steps", "positive integer", "'1.5'"]),
    (["--batch-size", "0"], {}, ["--batch-size", ">= 1", "got 0"]),
    (["--n-eval", "-1"], {}, ["--n-eval", ">= 1", "got -1"]),
    (["--threads", "0"], {}, ["--threads", ">= 1", "got 0"]),
    (["--only", "rope"], {}, ["--only", "invalid choice: 'rope'"]),
    ([], {"LENGEN_THREADS": "abc"}, ["LENGEN_THREADS must be a positive integer", "'abc'"]),
    ([], {"LENGEN_THREADS": "-2"}, ["LENGEN_THREADS", ">= 1", "got -2"]),
]


@pytest.mark.parametrize("args, env, words", BAD_BENCH,
                         ids=[" ".join(a) + " ".join(f"{k}={v}" for k, v in e.items()) for a, e, _ in BAD_BENCH])
def test_bench_refuses_bad_arguments_before_training(args, env, words, capsys, monkeypatch, no_training):
    for k, v in env.items():
        monkeypatch.setenv(k, v)
    code, err = _bench(QUICK + args, capsys)
    assert code == 2, err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    for word in words:
        assert word in err, err


def test_an_unwritable_out_folder_is_refused_before_training(tmp_path, capsys, no_training):
    blocker = tmp_path / "file"
    blocker.write_text("a file, not a folder")
    code, err = _bench(QUICK + ["--out", str(blocker / "run")], capsys)
    assert code == 2 and "cannot write to the --out folder" in err and str(blocker) in err, err


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root may write into a read-only folder")
def test_a_read_only_out_folder_is_refused_before_training(tmp_path, capsys, no_training):
    tmp_path.chmod(0o555)
    try:
        code, err = _bench(QUICK + ["--out", str(tmp_path)], capsys)
    finally:
        tmp_path.chmod(0o755)
    assert code == 2 and "cannot write to the --out folder" in err, err


def test_lengen_threads_abc_gives_one_line_from_a_real_process():
    env = {"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", "LENGEN_THREADS": "abc"}
    proc = subprocess.run([sys.executable, "-m", "lengen_utils.lab.bench", *QUICK], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
    assert proc.stderr.strip().splitlines() == [
        "python -m lengen_utils.lab.bench: error: LENGEN_THREADS must be a positive integer (CPU threads), got 'abc'"]


@pytest.mark.parametrize("text, expected", [("5", (5,)), ("5,10, 20", (5, 10, 20))])
def test_int_list_accepts_integers(text, expected):
    assert cli.int_list(text) == expected


def test_bench_throughput_forwards_its_arguments(capsys):
    code, err = _bench(["throughput", "--no-such-flag"], capsys)
    assert code == 2 and "--no-such-flag" in err, err

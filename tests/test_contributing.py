"""CONTRIBUTING.md stays true: every Python block of the guide runs as written (each in a fresh interpreter), and
every command of its shell blocks runs too: the tests and notebooks it names are collected (CI runs them in full),
the zoo command for real."""
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GUIDE = ROOT / "CONTRIBUTING.md"
BLOCK = re.compile(r"^```(?P<lang>python|bash)\n(?P<body>.*?)^```", re.DOTALL | re.MULTILINE)


def blocks(lang: str) -> list[str]:
    return [m["body"] for m in BLOCK.finditer(GUIDE.read_text()) if m["lang"] == lang]


def commands() -> list[str]:
    lines = [line.split("  #")[0].strip() for body in blocks("bash") for line in body.splitlines()]
    return [line for line in lines if line]


def test_the_guide_has_its_steps():
    assert len(blocks("python")) >= 3 and commands(), "CONTRIBUTING.md lost its code blocks"


@pytest.mark.parametrize("index", range(len(blocks("python"))), ids=lambda i: f"python-block-{i}")
def test_every_python_block_runs(index, tmp_path):
    env = {**os.environ, "LENGEN_ASSETS": str(tmp_path / "assets"), "LENGEN_THREADS": "1"}
    run = subprocess.run([sys.executable, "-c", blocks("python")[index]], cwd=ROOT, env=env, capture_output=True,
                         text=True, timeout=300)
    assert run.returncode == 0, f"CONTRIBUTING.md python block {index} failed:\n{run.stderr[-3000:]}"


def as_run_here(command: str) -> list[str] | None:
    """The argv that checks ``command``: pytest and nbval runs are collected (CI runs them in full); the install
    script is the one ``make`` runs (so CI runs it); anything else runs as written, with this interpreter."""
    if command == "bash scripts/install.sh":
        assert "scripts/install.sh" in (ROOT / "Makefile").read_text()
        return None
    argv = shlex.split(command)
    assert argv[0] == "python", f"the guide's commands start with python: {command!r}"
    argv[0] = sys.executable
    if argv[1:3] == ["-m", "pytest"]:
        argv += ["--collect-only", "-q", "-p", "no:cacheprovider"]
    return argv


@pytest.mark.parametrize("command", commands())
def test_every_command_runs(command):
    argv = as_run_here(command)
    if argv is None:
        return
    run = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, f"`{command}` failed:\n{run.stdout[-2000:]}\n{run.stderr[-2000:]}"
    if "pytest" in command:
        counts = [int(n) for n in re.findall(r"^\S+: (\d+)$", run.stdout, re.MULTILINE)]
        assert sum(counts) > 0, f"`{command}` collected nothing:\n{run.stdout[-500:]}"

"""A plain ``pytest --nbval`` passes on a machine with another thread count: the root conftest.py applies the
project's sanitizers (tests/nbval_sanitize.cfg) and this Python's kernel without any other flag."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
NOTEBOOK = "notebooks/01_data_formats.ipynb"        # a fast one (seconds) whose setup cell prints cpu_threads


def run_nbval(*flags: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, LENGEN_THREADS="3")       # the committed outputs say cpu_threads: 1
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--nbval", *flags,
                           NOTEBOOK], cwd=REPO, env=env, capture_output=True, text=True, timeout=600)


@pytest.mark.slow
def test_plain_nbval_passes_with_another_thread_count():
    result = run_nbval()
    assert result.returncode == 0, result.stdout[-3000:]


@pytest.mark.slow
def test_without_the_defaults_the_thread_count_fails_the_setup_cell():
    """The check above can fail: with the conftest left out, the setup cell's cpu_threads differs."""
    result = run_nbval("--noconftest", "--nbval-current-env")
    assert result.returncode != 0 and "_threads: 3" in result.stdout, result.stdout[-3000:]

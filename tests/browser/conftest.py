"""Fixtures for the end-to-end widget tests: a JupyterLab server on localhost and headless Chromium.

The browser is the system's Chromium (Debian's ``chromium`` package), driven by Playwright for
Python through ``executable_path``; Playwright never downloads a browser here
(``scripts/ci-browser-deps.sh`` installs both). When Chromium, Playwright or JupyterLab is missing
the tests are skipped, except under CI (``CI=true``), where a missing tool is a failure.

Environment: ``LENGEN_CHROMIUM`` (path of the browser, default ``chromium`` on PATH),
``LENGEN_BROWSER_SHOTS`` (a folder for screenshots of each widget after the interaction),
``LENGEN_BROWSER_NOTEBOOKS`` (another folder of notebooks to test, default ``notebooks/``).
"""
from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from chromium_support import headless_chromium, stop, wait_until_serving

REPO = Path(__file__).resolve().parents[2]
NOTEBOOKS = Path(os.environ.get("LENGEN_BROWSER_NOTEBOOKS") or REPO / "notebooks")
IN_CI = os.environ.get("CI", "").strip().lower() in ("1", "true", "yes")

SERVER_START_TIMEOUT = 90


def missing(reason: str):
    """Skip the test, or fail it under CI, where the browser tests must run."""
    if IN_CI:
        pytest.fail(f"{reason} (CI=true: the browser tests must run; see scripts/ci-browser-deps.sh)",
                    pytrace=False)
    pytest.skip(reason)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _write_lab_settings(settings_dir: Path) -> None:
    """User settings: all cells kept in the DOM, no news or update pop-ups."""
    files = {
        "@jupyterlab/notebook-extension/tracker.jupyterlab-settings": {"windowingMode": "none"},
        "@jupyterlab/apputils-extension/notification.jupyterlab-settings": {"fetchNews": "false",
                                                                             "checkForUpdates": False},
    }
    for rel, value in files.items():
        path = settings_dir / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(value))


@pytest.fixture(scope="session")
def lab_server(tmp_path_factory):
    """JupyterLab on 127.0.0.1 serving a temporary copy of notebooks/, kernel = this Python.

    The kernel inherits ``LENGEN_FAST=1`` (and one thread) from the server's environment.
    Yields ``(base_url, token, root_dir)``.
    """
    try:
        import jupyterlab  # noqa: F401
        import ipywidgets  # noqa: F401
    except ImportError as err:
        missing(f"JupyterLab/ipywidgets not installed: {err}")
    base = tmp_path_factory.mktemp("lab")
    root = base / "notebooks"
    shutil.copytree(NOTEBOOKS, root, ignore=shutil.ignore_patterns(".ipynb_checkpoints", "__pycache__"))
    for sub in ("config", "data", "runtime", "ipython", "settings", "workspaces"):
        (base / sub).mkdir()
    _write_lab_settings(base / "settings")
    port, token = _free_port(), uuid.uuid4().hex
    env = dict(os.environ, LENGEN_FAST="1", OMP_NUM_THREADS="1", LENGEN_THREADS="1",
               JUPYTER_CONFIG_DIR=str(base / "config"), JUPYTER_DATA_DIR=str(base / "data"),
               JUPYTER_RUNTIME_DIR=str(base / "runtime"), IPYTHONDIR=str(base / "ipython"),
               JUPYTERLAB_SETTINGS_DIR=str(base / "settings"),
               JUPYTERLAB_WORKSPACES_DIR=str(base / "workspaces"))
    env.pop("MPLBACKEND", None)  # the kernel's inline backend, not a test runner's Agg
    cmd = [sys.executable, "-m", "jupyterlab", "--no-browser", "--ip=127.0.0.1", f"--port={port}",
           "--ServerApp.port_retries=0", f"--IdentityProvider.token={token}",
           f"--ServerApp.root_dir={root}", "--ServerApp.open_browser=False",
           "--ServerApp.allow_root=True", "--LabApp.extension_manager=readonly",
           "--LabApp.expose_app_in_browser=True", "--LabApp.news_url=None",
           "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
           "--MappingKernelManager.cull_idle_timeout=0"]
    log_path = base / "jupyterlab.log"
    log = open(log_path, "w")
    proc = subprocess.Popen(cmd, cwd=root, env=env, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_until_serving(proc, url, token, log_path, "JupyterLab", SERVER_START_TIMEOUT)
        yield url, token, root
    finally:
        stop(proc)
        log.close()


@pytest.fixture(scope="session")
def browser():
    """Headless system Chromium under Playwright (one browser for all notebooks)."""
    return headless_chromium(missing)


@pytest.fixture(scope="session")
def shots_dir(tmp_path_factory) -> Path:
    folder = os.environ.get("LENGEN_BROWSER_SHOTS")
    if folder:
        path = Path(folder)
        path.mkdir(parents=True, exist_ok=True)
        return path
    return tmp_path_factory.mktemp("shots")

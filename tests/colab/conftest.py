"""Fixtures for the test of Colab's side: Colab's widget stack in its own environment, the course installed
there by the notebooks' setup cell, the classic Notebook server and headless Chromium.

The environment is ``build/colab-venv`` (``LENGEN_COLAB_PYTHON`` names another python), built by
``scripts/ci-colab-env.sh``: ipywidgets 7.7.1, Notebook 6.5, widgetsnbextension 3.6.1, ipykernel 6.17,
torch and the course's dependencies, but not the course. When it, Chromium or Playwright is missing the
tests are skipped, except under CI (``CI=true``), where that is a failure.

``installed_course`` runs the setup cell of ``notebooks/00_setup_and_tour.ipynb`` as Colab would run it,
with only its repository URL and ref pointed at this repository (``file://``, at ``HEAD``, or at the commit
``LENGEN_COLAB_REF`` names) and a stand-in
``google.colab`` module on the path: it fetches the repository into ``content/lengen`` and installs it
with pip into that environment. The course is uninstalled from the environment afterwards.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import time
import uuid
from pathlib import Path

import pytest
from chromium_support import headless_chromium, stop, wait_until_serving

from lengen_utils.course import colab

REPO = Path(__file__).resolve().parents[2]
IN_CI = os.environ.get("CI", "").strip().lower() in ("1", "true", "yes")
COLAB_STACK = {"ipywidgets": r"7\.7\.1", "notebook": r"6\.5\.\d+", "widgetsnbextension": r"3\.6\.1"}   # versions
SERVER_START_TIMEOUT = 60


def pytest_configure(config):
    config.addinivalue_line("markers", "colab: Colab's widget stack (ipywidgets 7.7.1, classic Notebook 6.5) "
                                       "in headless Chromium, and the notebooks' setup cell (tests/colab)")


def missing(reason: str):
    """Skip the test, or fail it under CI, where the Colab test must run."""
    if IN_CI:
        pytest.fail(f"{reason} (CI=true: the Colab test must run; .ci/run builds its environment with "
                    f"scripts/ci-colab-env.sh)", pytrace=False)
    pytest.skip(reason)


def _run(cmd, **kw) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


@pytest.fixture(scope="session")
def colab_python() -> str:
    """The python of the Colab environment, after checking that it holds Colab's widget stack."""
    py = os.environ.get("LENGEN_COLAB_PYTHON") or str(REPO / "build" / "colab-venv" / "bin" / "python")
    if not os.access(py, os.X_OK):
        missing(f"Colab's environment is missing ({py}); build it with `bash scripts/ci-colab-env.sh`")
    got = _run([py, "-c", "import importlib.metadata as m, json; "
                          f"print(json.dumps({{p: m.version(p) for p in {sorted(COLAB_STACK)!r}}}))"])
    if got.returncode != 0:
        missing(f"{py} lacks Colab's widget stack ({got.stderr.strip().splitlines()[-1:]}); "
                f"rebuild it with `bash scripts/ci-colab-env.sh`")
    versions = json.loads(got.stdout)
    wrong = {p: v for p, v in versions.items() if not re.fullmatch(COLAB_STACK[p], v)}
    assert not wrong, f"{py}: {wrong} instead of Colab's {COLAB_STACK}; rebuild it with scripts/ci-colab-env.sh"
    return py


def uninstall_course(py: str) -> None:
    if _run([py, "-c", "import importlib.metadata as m; m.version('lengen_utils')"]).returncode == 0:
        done = _run([py, "-m", "pip", "uninstall", "-q", "-y", "lengen_utils"])
        assert done.returncode == 0, done.stderr


def pointed_at(cell: str, url: str, ref: str) -> str:
    """The setup cell with its repository URL and ref replaced, nothing else."""
    for name, value in (("REPO_URL", url), ("REPO_REF", ref)):
        line = f'{name} = "{getattr(colab, name)}"'
        assert cell.count(line) == 1, f"the setup cell should hold the line {line!r} once"
        cell = cell.replace(line, f'{name} = "{value}"')
    return cell


def setup_cell_of(notebook: Path) -> str:
    cells = json.loads(notebook.read_text())["cells"]
    at = colab.setup_cell_index(cells)
    assert at is not None, f"{notebook.name} has no setup cell (tag {colab.SETUP_TAG!r})"
    return "".join(cells[at]["source"])


@pytest.fixture(scope="session")
def fake_colab(tmp_path_factory) -> Path:
    """A folder holding a stand-in ``google.colab`` (Colab's own module is not on PyPI)."""
    root = tmp_path_factory.mktemp("fake-colab")
    (root / "google" / "colab").mkdir(parents=True)
    (root / "google" / "__init__.py").write_text("")
    (root / "google" / "colab" / "__init__.py").write_text('"""A stand-in: the setup cell only imports it."""\n')
    return root


def kernel_env(fake_colab: Path) -> dict:
    env = dict(os.environ, PYTHONPATH=str(fake_colab), LENGEN_FAST="1", OMP_NUM_THREADS="1", LENGEN_THREADS="1")
    for var in ("LENGEN_ASSETS", "MPLBACKEND", "VIRTUAL_ENV", "PYTHONHOME"):
        env.pop(var, None)
    return env


@pytest.fixture(scope="session")
def installed_course(colab_python, fake_colab, tmp_path_factory):
    """Run the setup cell once, as on Colab; yields what it did (see the module's docstring)."""
    if shutil.which("git") is None:
        missing("git is not installed")
    uninstall_course(colab_python)                     # left over from an interrupted run
    head = _run(["git", "-C", str(REPO), "rev-parse", os.environ.get("LENGEN_COLAB_REF") or "HEAD"]).stdout.strip()
    url = REPO.as_uri()
    real = setup_cell_of(REPO / "notebooks" / "00_setup_and_tour.ipynb")
    elsewhere = tmp_path_factory.mktemp("elsewhere")   # off Colab, the course missing: the real cell
    off_env = {k: v for k, v in kernel_env(fake_colab).items() if k != "PYTHONPATH"}
    off = _run([colab_python, "-c", real], cwd=elsewhere, env=off_env, timeout=60)
    off_created = sorted(p.name for p in elsewhere.iterdir())
    cell = pointed_at(real, url, head)
    content = tmp_path_factory.mktemp("content")       # Colab's /content
    env = kernel_env(fake_colab)
    t0 = time.time()
    first = _run([colab_python, "-c", cell], cwd=content, env=env, timeout=300)
    seconds = time.time() - t0
    again = _run([colab_python, "-c", cell], cwd=content, env=env, timeout=60)
    try:
        yield {"first": first, "again": again, "seconds": seconds, "content": content, "clone": content / "lengen",
               "url": url, "ref": head, "env": env, "off_colab": off, "off_colab_created": off_created}
    finally:
        uninstall_course(colab_python)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="session")
def classic_server(colab_python, installed_course, tmp_path_factory):
    """The classic Notebook 6.5 of the Colab environment, serving Colab's /content: the widget notebooks
    of the fetched clone, whose setup cells find the course installed. Yields ``(url, token, root)``."""
    assert installed_course["first"].returncode == 0, installed_course["first"].stderr
    root = installed_course["content"]
    for nb in sorted((installed_course["clone"] / "notebooks").glob("*.ipynb")):
        data = json.loads(nb.read_text())
        cell = data["cells"][colab.setup_cell_index(data["cells"])]
        cell["source"] = pointed_at("".join(cell["source"]), installed_course["url"], installed_course["ref"])
        (root / nb.name).write_text(json.dumps(data))
    base = tmp_path_factory.mktemp("jupyter")
    port, token = _free_port(), uuid.uuid4().hex
    env = dict(installed_course["env"], JUPYTER_CONFIG_DIR=str(base / "config"),
               JUPYTER_RUNTIME_DIR=str(base / "runtime"), IPYTHONDIR=str(base / "ipython"))
    cmd = [colab_python, "-m", "notebook", "--no-browser", "--ip=127.0.0.1", f"--port={port}",
           "--NotebookApp.port_retries=0", f"--NotebookApp.token={token}", f"--NotebookApp.notebook_dir={root}",
           "--NotebookApp.open_browser=False", "--allow-root", "--MappingKernelManager.cull_idle_timeout=0"]
    log_path = base / "notebook.log"
    with open(log_path, "w") as log:
        proc = subprocess.Popen(cmd, cwd=root, env=env, stdout=log, stderr=subprocess.STDOUT)
        url = f"http://127.0.0.1:{port}"
        try:
            wait_until_serving(proc, url, token, log_path, "Notebook", SERVER_START_TIMEOUT)
            yield url, token, root
        finally:
            stop(proc)


@pytest.fixture(scope="session")
def colab_browser():
    """Headless system Chromium under Playwright."""
    return headless_chromium(missing)

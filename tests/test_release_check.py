"""scripts/release_check.py: the tag must exist, the setup cell at the tag must pin it, and (slow, in Colab's
environment from scripts/ci-colab-env.sh) a clone at a local tag installs and every notebook's imports run."""
from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("release_check", REPO / "scripts" / "release_check.py")
release_check = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(release_check)
COLAB_PYTHON = Path(os.environ.get("LENGEN_COLAB_PYTHON") or REPO / "build" / "colab-venv" / "bin" / "python")


def git(*args: str, cwd: Path) -> str:
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=True).stdout


@pytest.fixture(scope="module")
def tagged_clone(tmp_path_factory) -> Path:
    """A clone of this repository's HEAD with the release tag made there (never in the repository itself)."""
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    clone = tmp_path_factory.mktemp("release") / "repo"
    git("clone", "-q", str(REPO), str(clone), cwd=REPO)
    # -f: the clone may carry the release tag already (a clone of a repository where it was made); here it is
    # made again at HEAD, in the clone only
    git("-c", "user.name=t", "-c", "user.email=t@t", "tag", "-f", "-a", release_check.colab.REPO_REF, "-m", "test",
        cwd=clone)
    git("-c", "user.name=t", "-c", "user.email=t@t", "tag", "-a", "v0.0.1", "-m", "a tag the cells do not pin",
        cwd=clone)
    return clone


def test_a_missing_tag_is_named(tagged_clone):
    with pytest.raises(release_check.ReleaseError, match="the tag v9.9.9 does not exist"):
        release_check.check_tag(tagged_clone.as_uri(), "v9.9.9")
    assert release_check.check_tag(tagged_clone.as_uri(), release_check.colab.REPO_REF) == \
        git("rev-parse", "HEAD", cwd=tagged_clone).strip()


def test_a_tag_whose_setup_cell_pins_another_release_fails(tagged_clone, tmp_path):
    pinned = release_check.colab.REPO_REF
    with pytest.raises(release_check.ReleaseError, match=f"setup cell at v0.0.1 fetches {pinned}, not v0.0.1"):
        release_check.check_release(tagged_clone.as_uri(), "v0.0.1", Path(sys.executable), tmp_path,
                                    pin_url=tagged_clone.as_uri())


def test_import_lines_are_the_top_level_imports_of_code_cells():
    nb = {"cells": [
        {"cell_type": "code", "metadata": {"tags": ["colab-setup"]}, "source": "import google.colab"},
        {"cell_type": "code", "metadata": {}, "source": "%matplotlib inline\nimport math\nfrom os import (\n  path)\n"
                                                       "def f():\n    import json\n"},
        {"cell_type": "markdown", "metadata": {}, "source": "import nothing"},
    ]}
    assert release_check.import_lines(nb) == ["import math", "from os import (\n  path)"]


@pytest.mark.slow
def test_a_clone_at_a_local_tag_installs_and_imports(tagged_clone, tmp_path):
    """The whole check against a file:// clone, in Colab's environment (the course not installed there)."""
    if not os.access(COLAB_PYTHON, os.X_OK):
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail(f"Colab's environment is missing ({COLAB_PYTHON}): bash scripts/ci-colab-env.sh")
        pytest.skip(f"Colab's environment is missing ({COLAB_PYTHON}): bash scripts/ci-colab-env.sh")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    # tests/colab's setup-cell test installs the course into this environment (it runs first in `make test`): the
    # release check starts where Colab does, without it
    subprocess.run([str(COLAB_PYTHON), "-m", "pip", "uninstall", "-q", "-y", "lengen_utils"], capture_output=True,
                   env=env, timeout=300)
    done = subprocess.run([sys.executable, str(REPO / "scripts" / "release_check.py"), "--url", tagged_clone.as_uri(),
                           "--python", str(COLAB_PYTHON)], capture_output=True, text=True, env=env, timeout=1800)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    notebooks = sorted(p.name for p in (REPO / "notebooks").glob("[0-9][0-9]*.ipynb"))
    for name in notebooks:
        assert f"ok: {name}:" in done.stdout, done.stdout
    assert json.loads((REPO / "notebooks" / notebooks[0]).read_text())["cells"]

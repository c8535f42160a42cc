"""One version, everywhere a learner meets it: the package, its install metadata, the Colab setup cells and badges,
and the changelog."""
from __future__ import annotations

import importlib.metadata
import json
import re
from pathlib import Path

import pytest

from lengen_utils import __version__
from lengen_utils.course import colab

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))


def test_the_version_is_declared_once():
    pyproject = (ROOT / "pyproject.toml").read_text()
    assert not re.search(r'^version\s*=\s*"', pyproject, re.M), "pyproject.toml should read the version, not type it"
    assert 'version = {attr = "lengen_utils.core.constants.__version__"}' in pyproject
    assert re.fullmatch(r"\d+\.\d+\.\d+", __version__)


def test_the_installed_package_reports_the_version():
    try:
        installed = importlib.metadata.version("lengen_utils")
    except importlib.metadata.PackageNotFoundError:
        pytest.skip("lengen_utils is imported from the source tree, not installed")
    assert installed == __version__, "reinstall the package (pip install -e .): its metadata is from another version"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_each_setup_cell_and_badge_pins_this_release(path: Path):
    cells = json.loads(path.read_text())["cells"]
    code = "".join(cells[colab.setup_cell_index(cells)]["source"])
    refs = re.findall(r'^REPO_REF = "([^"]+)"', code, re.M)
    assert refs == [f"v{__version__}"], f"{path.name}: the setup cell fetches {refs}, the package is {__version__}"
    badges = re.findall(r"/blob/([^/]+)/notebooks/", "".join(cells[0]["source"]))
    assert badges == [f"v{__version__}"], f"{path.name}: the badge opens {badges}"


def test_the_changelog_has_an_entry_for_this_release():
    text = (ROOT / "CHANGELOG.md").read_text()
    entries = re.findall(r"^## (\d+\.\d+\.\d+)\s*$", text, re.M)
    assert entries and entries[0] == __version__, f"CHANGELOG.md's newest entry is {entries[:1]}, not {__version__}"
    body = text.split(f"## {__version__}", 1)[1].split("\n## ", 1)[0]
    assert len(body.split()) >= 20, "the entry should say what changed for a learner"


NOT_PUBLISHED = re.compile(r"not published yet|once the repository is published", re.I)


def test_the_readme_says_beside_the_badges_whether_they_open():
    """Until REPO_URL is public with its tag (colab.PUBLISHED), the README says so above the course table's badges
    and in its Colab paragraph; once published, neither note remains."""
    text = (ROOT / "README.md").read_text()
    course = text.split("\n## The course\n", 1)[1].split("\n## ", 1)[0]
    before_table = course.split("\n| notebook |", 1)[0]
    colab_paragraph = text.split("**Colab.**", 1)[1].split("\n\n", 1)[0]
    if colab.PUBLISHED:
        assert not NOT_PUBLISHED.search(text), "colab.PUBLISHED is True: remove the README's 'not published' notes"
    else:
        assert NOT_PUBLISHED.search(before_table), "the course table's badges do not open yet: say so above it"
        assert NOT_PUBLISHED.search(colab_paragraph), "the Colab paragraph should say the badges do not open yet"


def test_the_release_steps_say_when_to_run_the_release_check():
    text = (ROOT / "README.md").read_text()
    steps = text.split("**Releasing a version.**", 1)[1].split("\n- **", 1)[0]
    assert "scripts/release_check.py" in steps and "after pushing the tag" in steps
    assert (ROOT / "scripts" / "release_check.py").exists()

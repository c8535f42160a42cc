"""Check a release as a Colab learner meets it: the tag exists, and a clone at the tag installs and imports.

    python scripts/release_check.py                    # REPO_URL at REPO_REF (lengen_utils/course/colab.py)
    python scripts/release_check.py --url file:///tmp/lengen --ref v0.3.0 --python build/colab-venv/bin/python

Run it after pushing the release tag and before announcing the release (the README's "Releasing a version").
It checks, in order, and stops at the first failure with one line saying what is wrong:

1. the tag ``--ref`` exists at ``--url`` (``git ls-remote``), as a tag, not a branch;
2. notebook 00's setup cell *as committed at the tag* pins that URL and that tag, and, run as on Colab (a
   stand-in ``google.colab`` module, the course not installed, in a fresh folder standing for ``/content``),
   fetches the repository at the tag, installs it with pip and says so;
3. every notebook of the clone at the tag: its import statements (every ``import`` and ``from ... import`` at
   the top level of its code cells) run in a fresh process, and ``lengen_utils`` comes from that clone.

``--python`` is a Python that has the course's dependencies (torch, ...) but not the course, as a Colab runtime:
by default ``build/colab-venv/bin/python`` (``bash scripts/ci-colab-env.sh`` builds it). The course installed by
step 2 is uninstalled again at the end. ``--url`` points the setup cell at another copy of the repository (a
``file://`` clone, to try the script before publishing); the cell is otherwise run as committed.
"""
from __future__ import annotations

import argparse
import ast
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from lengen_utils.course import colab  # noqa: E402  (the repository's own address and release)

DEFAULT_PYTHON = ROOT / "build" / "colab-venv" / "bin" / "python"
SETUP_TIMEOUT_S = 900
IMPORT_TIMEOUT_S = 300


class ReleaseError(RuntimeError):
    """What is wrong with the release, in one line."""


def run(cmd: list[str], **kw) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def last_line(done: subprocess.CompletedProcess) -> str:
    lines = (done.stderr or done.stdout).strip().splitlines()
    return lines[-1] if lines else f"exit status {done.returncode}"


def check_tag(url: str, ref: str) -> str:
    """The commit the tag ``ref`` names at ``url``; ReleaseError when it is not a tag there."""
    done = run(["git", "ls-remote", "--tags", url, f"refs/tags/{ref}", f"refs/tags/{ref}^{{}}"], timeout=120)
    if done.returncode != 0:
        raise ReleaseError(f"cannot read the tags of {url}: {last_line(done)}")
    shas = dict(reversed(line.split("\t")) for line in done.stdout.strip().splitlines() if "\t" in line)
    sha = shas.get(f"refs/tags/{ref}^{{}}") or shas.get(f"refs/tags/{ref}")
    if not sha:
        raise ReleaseError(f"the tag {ref} does not exist at {url}: create and push it "
                           f"(git tag -a {ref} -m ... && git push origin {ref})")
    return sha


def setup_cell(notebook: dict, name: str) -> str:
    at = colab.setup_cell_index(notebook["cells"])
    if at is None:
        raise ReleaseError(f"{name} has no setup cell (tag {colab.SETUP_TAG!r}) at the tag")
    return "".join(notebook["cells"][at]["source"])


def pinned(cell: str, name: str) -> tuple[str, str]:
    """The (REPO_URL, REPO_REF) that a setup cell holds."""
    found = {k: re.findall(rf'^{k} = "([^"]*)"', cell, re.M) for k in ("REPO_URL", "REPO_REF")}
    if any(len(v) != 1 for v in found.values()):
        raise ReleaseError(f"{name}'s setup cell should set REPO_URL and REPO_REF once each, found {found}")
    return found["REPO_URL"][0], found["REPO_REF"][0]


def import_lines(notebook: dict) -> list[str]:
    """The import statements at the top level of the notebook's code cells (the setup cell aside), in order."""
    found: list[str] = []
    for cell in notebook["cells"]:
        if cell["cell_type"] != "code" or colab.SETUP_TAG in cell.get("metadata", {}).get("tags", []):
            continue
        source = "".join(cell["source"])
        code = "\n".join("" if line.lstrip().startswith(("%", "!")) else line for line in source.split("\n"))
        try:
            tree = ast.parse(code)
        except SyntaxError:
            continue                                  # not Python (a cell magic): nothing to import
        for node in tree.body:
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                found.append(ast.get_source_segment(code, node))
    return list(dict.fromkeys(found))


def clean_env(**extra: str) -> dict:
    """This process's environment without what would make the course importable from elsewhere."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME", "LENGEN_ASSETS")}
    return {**env, **extra}


def course_python(python: Path) -> str:
    if not os.access(python, os.X_OK):
        raise ReleaseError(f"no Python at {python}: build Colab's environment with `bash scripts/ci-colab-env.sh` "
                           f"or pass --python")
    if run([str(python), "-c", "import torch"], env=clean_env()).returncode != 0:
        raise ReleaseError(f"{python} has no torch: it should hold the course's dependencies, as Colab does")
    if run([str(python), "-c", "import lengen_utils"], cwd=tempfile.gettempdir(), env=clean_env()).returncode == 0:
        raise ReleaseError(f"{python} already has the course installed: the setup cell would do nothing "
                           f"(pip uninstall lengen_utils there, or use scripts/ci-colab-env.sh's environment)")
    return str(python)


def check_release(url: str, ref: str, python: Path, work: Path, pin_url: str | None = None) -> list[str]:
    """Run the three checks (see the module's docstring); returns what passed, one line each."""
    report = []
    sha = check_tag(url, ref)
    report.append(f"tag {ref} exists at {url} ({sha[:12]})")

    tagged = work / "tagged"
    done = run(["git", "clone", "-q", "--depth", "1", "--branch", ref, url, str(tagged)], timeout=600)
    if done.returncode != 0:
        raise ReleaseError(f"cannot clone {url} at {ref}: {last_line(done)}")
    notebooks = sorted((tagged / "notebooks").glob("[0-9][0-9]*.ipynb"))
    if not notebooks:
        raise ReleaseError(f"the clone at {ref} has no notebooks in notebooks/")
    first = notebooks[0]
    cell = setup_cell(json.loads(first.read_text()), first.name)
    cell_url, cell_ref = pinned(cell, first.name)
    if cell_ref != ref:
        raise ReleaseError(f"{first.name}'s setup cell at {ref} fetches {cell_ref}, not {ref}: set the version "
                           f"(lengen_utils/core/constants.py), run python -m lengen_utils.course.colab, and tag again")
    expected_url = pin_url or url
    if pin_url is None and cell_url != url:
        raise ReleaseError(f"{first.name}'s setup cell fetches {cell_url}, not {url}")
    cell = cell.replace(f'REPO_URL = "{cell_url}"', f'REPO_URL = "{expected_url}"', 1)

    py = course_python(python)
    fake = work / "fake-colab" / "google" / "colab"
    fake.mkdir(parents=True)
    (fake.parent / "__init__.py").write_text("")
    (fake / "__init__.py").write_text('"""A stand-in: the setup cell only imports it."""\n')
    content = work / "content"
    content.mkdir()
    env = clean_env(PYTHONPATH=str(fake.parent.parent), OMP_NUM_THREADS="1", LENGEN_THREADS="1", MPLBACKEND="Agg")
    try:
        done = run([py, "-c", cell], cwd=content, env=env, timeout=SETUP_TIMEOUT_S)
        if done.returncode != 0 or "Installed the course" not in done.stdout:
            raise ReleaseError(f"{first.name}'s setup cell failed as on Colab: {last_line(done)}")
        clone = (content / colab.CLONE_DIR).resolve()
        report.append(f"{first.name}'s setup cell fetched {ref} into {clone.name}/ and installed it")

        for path in sorted((clone / "notebooks").glob("[0-9][0-9]*.ipynb")):
            lines = import_lines(json.loads(path.read_text()))
            probe = "\n".join([*lines, "import lengen_utils", "print(lengen_utils.__file__)"])
            done = run([py, "-c", probe], cwd=clone / "notebooks", env=env, timeout=IMPORT_TIMEOUT_S)
            if done.returncode != 0:
                raise ReleaseError(f"{path.name}'s imports fail at {ref}: {last_line(done)}")
            origin = Path(done.stdout.strip().splitlines()[-1]).resolve()
            if clone not in origin.parents:
                raise ReleaseError(f"{path.name} imported lengen_utils from {origin}, not from the clone at {ref}")
            report.append(f"{path.name}: {len(lines)} import statements run")
    finally:
        run([py, "-m", "pip", "uninstall", "-q", "-y", "lengen_utils"], env=env)
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", default=colab.REPO_URL, help=f"the repository (default {colab.REPO_URL})")
    parser.add_argument("--ref", default=colab.REPO_REF, help=f"the release tag (default {colab.REPO_REF})")
    parser.add_argument("--python", type=Path, default=DEFAULT_PYTHON,
                        help="a Python with the course's dependencies and without the course "
                             "(default build/colab-venv/bin/python)")
    parser.add_argument("--keep", type=Path, help="work in this folder and keep it (default: a temporary one)")
    args = parser.parse_args(argv)
    if shutil.which("git") is None:
        print("release_check: git is not installed", file=sys.stderr)
        return 2
    work = Path(tempfile.mkdtemp(prefix="lengen-release-")) if args.keep is None else args.keep
    work.mkdir(parents=True, exist_ok=True)
    # a --url other than the pinned one: the setup cell is pointed at it (trying a copy before publishing)
    pin = args.url if args.url != colab.REPO_URL else None
    try:
        for line in check_release(args.url, args.ref, args.python, work, pin_url=pin):
            print(f"ok: {line}")
    except ReleaseError as err:
        print(f"release_check: {err}", file=sys.stderr)
        return 1
    except subprocess.TimeoutExpired as err:
        print(f"release_check: timed out after {err.timeout} s: {' '.join(map(str, err.cmd))[:200]}", file=sys.stderr)
        return 1
    finally:
        if args.keep is None:
            shutil.rmtree(work, ignore_errors=True)
    print(f"release_check: {args.ref} at {args.url} installs on Colab and every notebook's imports run")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The store survives kill -9 at every step of a commit: the next start finds the old or the new entry fully
registered (its record's sha256 is the file's), never a record that points at a missing or different file."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from lengen_utils.core.checkpoint import file_sha256
from lengen_utils.lab.zoo.manifest import read_manifest
from lengen_utils.lab.zoo.store import COMMIT_STEPS, PAUSE_ENV, commit, recover

NAME = "crash-entry"
RECORD = {"command": "test", "task": {}, "model": {}, "metrics": {"em": {"5": 1.0}}}
CHILD = """
import sys
from pathlib import Path
from lengen_utils.lab.zoo.store import commit
root, payload = Path(sys.argv[1]), sys.argv[2].encode()
commit({name!r}, {record!r}, lambda path: path.write_bytes(payload), root)
"""


def _commit_in_a_child(root: Path, payload: str, step: str) -> None:
    """Run one commit in a child process paused at ``step``, and kill it there with SIGKILL."""
    env = {**os.environ, PAUSE_ENV: step}
    child = subprocess.Popen([sys.executable, "-c", CHILD.format(name=NAME, record=RECORD), str(root), payload],
                             env=env)
    marker = root / f".paused-{step}"
    deadline = time.monotonic() + 60
    while not marker.exists():
        assert child.poll() is None, f"the child ended before step {step}"
        assert time.monotonic() < deadline, f"the child never reached step {step}"
        time.sleep(0.05)
    os.kill(child.pid, signal.SIGKILL)
    child.wait()
    marker.unlink()


def _registered(root: Path) -> bytes:
    """The content of the entry the manifest registers, after checking that the record and the file agree."""
    record = read_manifest(root)[NAME]
    path = root / record["file"]
    assert path.is_file(), f"the manifest points at a missing file {path}"
    assert file_sha256(path) == record["sha256"], "the manifest's sha256 is not the file's"
    return path.read_bytes()


@pytest.mark.parametrize("replacing", [False, True], ids=["new entry", "replacing an entry"])
@pytest.mark.parametrize("step", COMMIT_STEPS)
def test_a_kill_at_any_step_leaves_the_old_or_the_new_entry(tmp_path, step, replacing, capsys):
    if replacing:
        commit(NAME, RECORD, lambda path: path.write_bytes(b"old build"), tmp_path)
    if step == "old-aside" and not replacing:
        pytest.skip("a new entry has no old file to set aside")
    _commit_in_a_child(tmp_path, "new build", step)
    messages = recover(tmp_path)
    left = sorted(p.name for p in tmp_path.rglob(".*") if p.name not in (".manifest.json.lock",))
    assert left == [], f"leftovers after recovery: {left}"
    if step in ("new-in", "manifest-in"):                       # the new file was in place: the write completes
        assert _registered(tmp_path) == b"new build"
    elif replacing:                                              # before it: the old entry is kept
        assert _registered(tmp_path) == b"old build"
    else:
        assert NAME not in read_manifest(tmp_path) and not (tmp_path / "zoo" / f"{NAME}.safetensors").exists()
    assert messages or step == "manifest-in" and not replacing, "a repair should be named"
    err = capsys.readouterr().err
    assert all(m in err for m in messages), (messages, err)
    commit(NAME, RECORD, lambda path: path.write_bytes(b"next build"), tmp_path)   # the store works on
    assert _registered(tmp_path) == b"next build"


def test_the_zoo_cli_recovers_before_it_reads(tmp_path, monkeypatch, capsys):
    from lengen_utils.lab import zoo
    commit(NAME, RECORD, lambda path: path.write_bytes(b"old build"), tmp_path)
    _commit_in_a_child(tmp_path, "new build", "old-aside")      # the worst moment: the old file set aside
    assert not (tmp_path / "zoo" / f"{NAME}.safetensors").exists()
    monkeypatch.setenv("LENGEN_ASSETS", str(tmp_path))
    assert zoo.main(["list"]) == 0
    assert "undid an interrupted write of crash-entry" in capsys.readouterr().err
    assert _registered(tmp_path) == b"old build"
    assert json.loads((tmp_path / "manifest.json").read_text())[NAME]["sha256"] == file_sha256(
        tmp_path / "zoo" / f"{NAME}.safetensors")

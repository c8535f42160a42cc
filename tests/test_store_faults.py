"""The store under concurrency and OS faults: two imports at once, a kill during an import or a retire, a read-only
folder, a full disk, a corrupted records file. After each, nothing is lost: every record in the manifest names the
file that is there (its sha256), every stored entry loads, and the command said in one line what happened.

A fault is planted, not waited for: the concurrent import holds one writer inside the lock until the other is at
the lock's door; a kill uses the commit's pause points (``$LENGEN_COMMIT_PAUSE``); a read-only folder is made by
``chmod`` (and, for root, whom permissions do not stop, by refusing writes there); a full disk by an ``os.write``
and ``os.fsync`` that raise ENOSPC for the files of the assets folder.
"""
from __future__ import annotations

import builtins
import errno
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from cli_run import run_cli
from test_zoo_import import _another_build

from lengen_utils.core.checkpoint import file_sha256
from lengen_utils.lab import zoo
from lengen_utils.lab.bench import main as bench_main
from lengen_utils.lab.zoo import commands
from lengen_utils.lab.experiment.entry import ZooError
from lengen_utils.lab.zoo.importing import import_entry
from lengen_utils.lab.zoo.manifest import read_manifest
from lengen_utils.lab.zoo.records import read_retired
from lengen_utils.lab.zoo.store import COMMIT_STEPS, PAUSE_ENV, commit

NAME = "nb07-coupled-1l2h"          # a small built entry (about 100 kB)
DEADLINE = 120                      # seconds a child may take to reach a planted point (it imports torch first)


def nothing_lost(root: Path) -> dict:
    """Every record of ``root``'s manifest names the file that is there, and every entry loads; returns the
    manifest. No file of an unfinished write is left."""
    manifest = read_manifest(root)
    for name, record in manifest.items():
        path = root / record["file"]
        assert path.is_file(), f"{name}: the manifest points at a missing file"
        assert file_sha256(path) == record["sha256"], f"{name}: the manifest's sha256 is not the file's"
        zoo.load(name, assets=root)
    left = sorted(p.name for p in root.rglob(".*") if p.name != ".manifest.json.lock")
    assert left == [], f"files of an unfinished write are left: {left}"
    return manifest


def one_line(err: str) -> str:
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    return err


@pytest.fixture
def built(tmp_path):
    """A flat folder with NAME's checkpoint and record, as a GPU run leaves them."""
    src = tmp_path / "built"
    src.mkdir()
    record = zoo.manifest_record(NAME)
    shutil.copyfile(zoo.ASSETS / record["file"], src / f"{NAME}.safetensors")
    (src / f"manifest-{NAME}.json").write_text(json.dumps({NAME: record}))
    return src


@pytest.fixture
def assets(tmp_path, built):
    """A scratch assets folder holding NAME (imported from ``built``)."""
    root = tmp_path / "assets"
    import_entry(NAME, built, root)
    return root


# -- concurrency --------------------------------------------------------------------------------------------
CHILD_IMPORT = """
import os, sys, time
from pathlib import Path
from lengen_utils.lab.zoo import store
from lengen_utils.lab.experiment.entry import ZooError
from lengen_utils.lab.zoo.importing import import_entry
root, source, name, hold = Path(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]

def wait_at(marker):
    marker.write_text(str(os.getpid()))
    while marker.exists():
        time.sleep(0.02)

if hold == "inside":      # inside the lock, its files written and nothing renamed yet
    store._pause = store.pause_point = lambda r, step: step == "written" and wait_at(r / ".held-inside")
else:                     # at the door of the lock, every check it makes outside the lock done
    import fcntl
    real, waited = fcntl.flock, []
    def flock(fd, op):
        if op == fcntl.LOCK_EX and not waited:
            waited.append(True)
            wait_at(root / ".held-at-lock")
        return real(fd, op)
    fcntl.flock = flock
try:
    print(import_entry(name, source, root)["sha256"])
except ZooError as err:
    print(err, file=sys.stderr)
    sys.exit(1)
"""


def _start_import(root: Path, source: Path, hold: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", CHILD_IMPORT, str(root), str(source), NAME, hold],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _reached(marker: Path, child: subprocess.Popen) -> None:
    deadline = time.monotonic() + DEADLINE
    while not marker.exists():
        assert child.poll() is None, f"the child ended before {marker.name}: {child.communicate()}"
        assert time.monotonic() < deadline, f"the child never reached {marker.name}"
        time.sleep(0.02)


def test_two_imports_of_different_builds_at_once_one_is_refused(built, tmp_path):
    """The second import passed every check outside the lock while the first was committing: it must still refuse
    to replace the build that the first committed meanwhile, and say so; the first build stays, whole."""
    root = tmp_path / "assets"
    root.mkdir()
    other, other_record, _ = _another_build(built, tmp_path)
    first = _start_import(root, built, "inside")
    _reached(root / ".held-inside", first)
    second = _start_import(root, other, "at-lock")
    _reached(root / ".held-at-lock", second)
    (root / ".held-inside").unlink()                     # the first commits ...
    out_first, err_first = first.communicate(timeout=DEADLINE)
    (root / ".held-at-lock").unlink()                    # ... then the second takes the lock
    out_second, err_second = second.communicate(timeout=DEADLINE)
    assert first.returncode == 0, err_first
    assert second.returncode == 1, f"the second import replaced the first without a word: {out_second}"
    assert "already in" in err_second and "another build" in err_second and "--replace" in err_second
    kept = nothing_lost(root)[NAME]
    assert kept["sha256"] == out_first.strip() != other_record["sha256"]


def test_an_import_of_a_record_whose_file_is_missing_copies_the_file(assets, built, monkeypatch, capsys):
    (assets / read_manifest(assets)[NAME]["file"]).unlink()           # the record is there, its file is not
    monkeypatch.setenv("LENGEN_ASSETS", str(assets))
    assert zoo.main(["import", str(built), NAME]) == 0
    assert "the file was copied" in capsys.readouterr().out
    nothing_lost(assets)
    assert zoo.main(["import", str(built), NAME]) == 0                     # now the same build: nothing to do
    assert "nothing to import" in capsys.readouterr().out


def test_the_same_build_again_is_reported_as_nothing_done(assets, built, monkeypatch, capsys):
    monkeypatch.setenv("LENGEN_ASSETS", str(assets))
    assert zoo.main(["import", str(built), NAME]) == 0
    out = capsys.readouterr().out
    assert "nothing to import" in out and "imported" not in out, out


def _stored(root: Path, name: str) -> bytes:
    record = read_manifest(root)[name]
    assert file_sha256(root / record["file"]) == record["sha256"]
    assert sorted(p.name for p in root.rglob(".*") if p.name != ".manifest.json.lock") == []
    return (root / record["file"]).read_bytes()


def test_a_commit_that_may_not_replace_refuses_a_build_stored_meanwhile(tmp_path):
    """``zoo train`` without ``--replace`` checked before training that the entry was not built; a build committed
    while it trained is refused at its own commit, under the lock. A damaged entry is rebuilt without asking."""
    record = {"command": "test", "task": {}, "model": {}, "metrics": {"em": {"5": 1.0}}}
    commit("x", record, lambda path: path.write_bytes(b"first"), tmp_path)
    with pytest.raises(ZooError, match=r"x is already in .* as another build \(sha256 .*\); nothing was written"):
        commit("x", record, lambda path: path.write_bytes(b"second"), tmp_path, replace=False)
    assert _stored(tmp_path, "x") == b"first"
    commit("x", record, lambda path: path.write_bytes(b"first"), tmp_path, replace=False)     # the same build
    (tmp_path / "zoo" / "x.safetensors").write_bytes(b"damaged")
    commit("x", record, lambda path: path.write_bytes(b"second"), tmp_path, replace=False)
    assert _stored(tmp_path, "x") == b"second"


def test_a_copy_that_is_not_the_recorded_file_is_not_renamed_in(tmp_path):
    """An import hashes what it wrote before renaming it in: a source that changed while it was copied is
    refused, and the stored entry is kept."""
    record = {"command": "test", "task": {}, "model": {}, "metrics": {"em": {"5": 1.0}}}
    commit("x", record, lambda path: path.write_bytes(b"first"), tmp_path)
    expected = commit("y", record, lambda path: path.write_bytes(b"what the record names"), tmp_path / "other")
    with pytest.raises(ZooError, match=r"x: the file written for it .* is not the one its record names .*"
                                       r"nothing was changed"):
        commit("x", record, lambda path: path.write_bytes(b"changed meanwhile"), tmp_path,
               expected_sha256=expected["sha256"])
    assert _stored(tmp_path, "x") == b"first"


# -- kill -9 ------------------------------------------------------------------------------------------------
CHILD_STEP = """
import sys
from pathlib import Path
from lengen_utils.lab.zoo.importing import import_entry
from lengen_utils.lab.zoo.records import retire
root, source, name, what = Path(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
retire(name, root) if what == "retire" else import_entry(name, source, root, replace=True)
"""


def _kill_at(step: str, root: Path, source: Path, what: str) -> None:
    """Run an import (``--replace``) or a retire in a child, paused at ``step``, and kill it there with SIGKILL."""
    child = subprocess.Popen([sys.executable, "-c", CHILD_STEP, str(root), str(source), NAME, what],
                             env={**os.environ, PAUSE_ENV: step})
    marker = root / f".paused-{step}"
    _reached(marker, child)
    os.kill(child.pid, signal.SIGKILL)
    child.wait()
    marker.unlink()


@pytest.mark.parametrize("step", COMMIT_STEPS)
def test_a_kill_during_an_import_leaves_an_entry_that_loads_at_once(assets, built, tmp_path, step, capsys):
    """After kill -9 inside the commit, ``zoo.load`` itself finishes or undoes the write (one line on stderr): the
    old or the new build loads, before any zoo command ran."""
    old = read_manifest(assets)[NAME]["sha256"]
    other, record, _ = _another_build(built, tmp_path)
    _kill_at(step, assets, other, "import")
    zoo.load(NAME, assets=assets)                               # no `zoo` command in between
    kept = nothing_lost(assets)[NAME]["sha256"]
    assert kept == (record["sha256"] if step in ("new-in", "manifest-in") else old)


def test_a_read_only_folder_with_an_interrupted_write_says_what_to_run(assets, built, tmp_path, monkeypatch):
    other, _, _ = _another_build(built, tmp_path)
    _kill_at("old-aside", assets, other, "import")              # the old file set aside, the new one not in
    monkeypatch.setattr(os, "access", lambda path, mode, **kw: mode != os.W_OK and os.path.exists(path))
    with pytest.raises(ZooError, match=r"was interrupted .* read-only.*run `python -m lengen_utils.lab.zoo list`"):
        zoo.load(NAME, assets=assets)
    monkeypatch.undo()
    zoo.load(NAME, assets=assets)
    nothing_lost(assets)


@pytest.mark.parametrize("step", ["retired-recorded", "retired-unlisted"])
def test_a_kill_during_a_retire_loses_nothing(assets, step, monkeypatch, capsys):
    record = read_manifest(assets)[NAME]
    _kill_at(step, assets, assets, "retire")
    monkeypatch.setenv("LENGEN_ASSETS", str(assets))
    assert zoo.main(["list"]) == 0                              # the next zoo command tidies what was left
    repaired = capsys.readouterr().err
    assert ("interrupted retire had left its weights" in repaired) == (step == "retired-unlisted"), repaired
    manifest = nothing_lost(assets)
    assert read_retired(assets)[NAME]["metrics"] == record["metrics"]    # the measurements are kept either way
    if step == "retired-recorded":                              # the manifest not yet rewritten: still built
        assert manifest[NAME] == record
        code, err = run_cli(commands.main, ["retire", NAME], capsys)
        assert code == 0, err                                   # and it can be retired again
    else:
        assert NAME not in manifest
    code, err = run_cli(commands.main, ["retire", NAME], capsys)
    assert code == 2 and "was retired" in one_line(err) and f"train {NAME}" in err


# -- OS faults ----------------------------------------------------------------------------------------------
def _inside(path, root: Path) -> bool:
    try:
        return Path(os.fsdecode(path)).resolve().is_relative_to(root.resolve())
    except (TypeError, ValueError, OSError):
        return False


@pytest.fixture
def read_only(monkeypatch):
    """Make a folder read-only: ``chmod`` it and, as root (whom permissions do not stop), refuse writes there as
    the kernel refuses them to another user (EACCES)."""
    made = []

    def make(root: Path) -> None:
        for folder in (root, root / "zoo"):
            folder.chmod(0o555)
            made.append(folder)
        if os.geteuid() != 0:
            return
        real_open, real_os_open = builtins.open, os.open

        def refuse(path):
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), os.fsdecode(path))

        def guarded_open(file, mode="r", *args, **kwargs):
            if isinstance(file, (str, bytes, os.PathLike)) and any(c in mode for c in "wax+") and _inside(file, root):
                refuse(file)
            return real_open(file, mode, *args, **kwargs)

        def guarded_os_open(path, flags, *args, **kwargs):
            if flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT) and _inside(path, root):
                refuse(path)
            return real_os_open(path, flags, *args, **kwargs)

        monkeypatch.setattr(builtins, "open", guarded_open)
        monkeypatch.setattr(os, "open", guarded_os_open)
    yield make
    for folder in made:
        folder.chmod(0o755)


@pytest.mark.parametrize("command", ["retire", "import", "train"])
def test_a_read_only_assets_folder_is_one_line_and_loses_nothing(assets, built, tmp_path, read_only, command,
                                                                 monkeypatch, capsys):
    argv = {"retire": ["retire", NAME], "train": ["train", "--replace", NAME],
            "import": ["import", "--replace", str(_another_build(built, tmp_path)[0]), NAME]}[command]
    monkeypatch.setenv("LENGEN_ASSETS", str(assets))
    before = read_manifest(assets)
    read_only(assets)
    zoo.load(NAME, assets=assets)                               # reading needs no write access
    code, err = run_cli(commands.main, argv, capsys)
    assert code in (1, 2) and str(assets) in one_line(err) and "writable" in err and "[Errno" not in err, err
    if command == "retire":                                     # the store's own words: what, where, what to do
        assert "read-only" in err and "make the folder writable" in err
    monkeypatch.undo()
    assert nothing_lost(assets) == before


@pytest.fixture
def full_disk(monkeypatch):
    """Make writes to the files of a folder fail with ENOSPC, as on a full disk: ``os.write`` and ``os.fsync`` of
    a file there raise (the data never reach the disk)."""
    def make(root: Path) -> None:
        real_write, real_fsync = os.write, os.fsync

        def there(fd: int) -> bool:
            try:
                return _inside(os.readlink(f"/proc/self/fd/{fd}"), root)
            except OSError:
                return False

        def fail_if_there(real):
            def call(fd, *args):
                if there(fd) and not os.path.isdir(f"/proc/self/fd/{fd}"):
                    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
                return real(fd, *args)
            return call

        monkeypatch.setattr(os, "write", fail_if_there(real_write))
        monkeypatch.setattr(os, "fsync", fail_if_there(real_fsync))
    if not Path("/proc/self/fd").is_dir():
        pytest.skip("needs /proc/self/fd to tell which file a write goes to")
    return make


def test_a_full_disk_during_a_retire_is_one_line_and_loses_nothing(assets, full_disk, monkeypatch, capsys):
    monkeypatch.setenv("LENGEN_ASSETS", str(assets))
    before = read_manifest(assets)
    full_disk(assets)
    code, err = run_cli(commands.main, ["retire", NAME], capsys)
    assert code == 1 and "disk is full" in one_line(err) and str(assets) in err and "free some space" in err, err
    monkeypatch.undo()
    assert nothing_lost(assets) == before and read_retired(assets) == {}


def test_a_full_disk_during_an_import_keeps_the_old_build(assets, built, tmp_path, full_disk, monkeypatch, capsys):
    other, _, _ = _another_build(built, tmp_path)
    before = read_manifest(assets)
    monkeypatch.setenv("LENGEN_ASSETS", str(assets))
    full_disk(assets)
    code, err = run_cli(commands.main, ["import", "--replace", str(other), NAME], capsys)
    assert code == 1 and "disk is full" in one_line(err) and "as they were" in err, err
    monkeypatch.undo()
    assert nothing_lost(assets) == before


# -- a corrupted records file -------------------------------------------------------------------------------
RECORD_ONLY = "sabbaghi-a2-paper-s0"      # recorded without weights in assets/records.json (tag record-only)


@pytest.mark.parametrize("corrupt, words", [
    (lambda r: {**r, "metrics": [0.5, 0.9]}, "no metrics['em'] table"),
    (lambda r: {**r, "metrics": {"em": {"5": "high"}}}, "not {length: number}"),
    (lambda r: {k: v for k, v in r.items() if k != "task"}, "lacks 'task'"),
    (lambda r: ["not", "a", "record"], "not an object"),
], ids=["metrics a list", "em a string", "no task", "a list"])
def test_a_corrupted_records_file_is_named_in_one_line(assets, corrupt, words, monkeypatch, capsys):
    records = json.loads((zoo.ASSETS / "records.json").read_text())
    records[RECORD_ONLY] = corrupt(records[RECORD_ONLY])
    (assets / "records.json").write_text(json.dumps(records))
    monkeypatch.setenv("LENGEN_ASSETS", str(assets))
    code, err = run_cli(bench_main, ["leaderboard", "--tag", "record-only"], capsys)
    assert code == 2 and RECORD_ONLY in one_line(err) and "records.json" in err and words in err, err
    assert nothing_lost(assets)                                 # the stored entries are untouched and load

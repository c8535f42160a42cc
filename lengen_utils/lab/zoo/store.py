"""Writing the store: the manifest and the record files replaced atomically under a lock, and :func:`commit`.

:func:`commit` is the only writer of a built entry: it writes the asset and the new manifest to
temporary files, then renames both into place. If anything fails, or Ctrl-C arrives, before both
renames are done, the old asset and the old manifest are left (or put back) as they were. A crash (kill -9,
power loss) leaves files from which :func:`recover`, run by the next commit, zoo command or read, completes or
undoes the write.

Why a module apart from :mod:`.manifest` (where the files are, their shape, their checks), which it imports and
which never imports it: what changes files lives here (the lock, fsync, Ctrl-C held back, the crash tests' pause
points, recovery), and so do the reads of one entry (:func:`manifest_record`, :func:`metrics`,
:func:`per_digit`), which first :func:`settle` an interrupted write.
"""
from __future__ import annotations

import contextlib
import json
import os
import signal
import sys
import threading
import time
from pathlib import Path
from typing import Callable, Iterator

try:                      # POSIX: serialise concurrent writers of one manifest (two `zoo train` at once)
    import fcntl
except ImportError:       # pragma: no cover - Windows: no lock, single writer assumed
    fcntl = None

from ...core.checkpoint import file_sha256
from .aliases import resolve
from ..experiment.entry import ZooError
from .manifest import (LOCK, MANIFEST, RECORDS, RETIRED, _compact, assets_dir, change_summary, checkpoint_path,
                       file_matches, leftovers, manifest_path, read_manifest, read_recorded, read_unstored,
                       store_fault, why_not_built)


def _write_json(path: Path, manifest: dict) -> None:
    write_file(path, (_compact(dict(sorted(manifest.items()))) + "\n").encode())


def write_file(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` and sync it, with ``os.write`` (the store's one way of writing its JSON files, so
    that a full disk shows up here, as an ``OSError``, and nowhere later)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
        os.fsync(fd)
    finally:
        os.close(fd)


#: Assets folders whose lock this thread holds (re-entrant within a thread: another thread of the process waits for
#: it, as another process does; a set shared by the threads let a second thread write without the lock)
_LOCAL = threading.local()


def _held() -> set[Path]:
    if not hasattr(_LOCAL, "held"):
        _LOCAL.held = set()
    return _LOCAL.held


@contextlib.contextmanager
def manifest_lock(assets: Path | None = None) -> Iterator[None]:
    """Hold an exclusive lock on the assets folder's manifest while reading, changing and replacing it,
    so that two processes recording at once cannot drop each other's record. Re-entrant within a process (a
    nested call holds it already). An ``OSError`` inside (a read-only folder, a full disk) leaves as a
    :class:`ZooError` of one line (:func:`store_fault`)."""
    root = assets_dir(assets)
    key, held = root.resolve(), _held()
    if key in held:
        yield
        return
    try:
        if fcntl is None or not root.is_dir():
            yield
            return
        with open(root / LOCK, "a") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX)
            held.add(key)
            try:
                yield
            finally:
                held.discard(key)
                fcntl.flock(handle, fcntl.LOCK_UN)
    except OSError as err:
        raise store_fault(err, root) from None


def record_in_manifest(name: str, record: dict, assets: Path | None = None) -> None:
    """Add or replace one record (no asset); other records are kept and the file is replaced atomically."""
    with manifest_lock(assets):
        _record_in_manifest(name, record, assets)


def rewrite_manifest(assets: Path | None = None) -> None:
    """Rewrite the manifest in the current layout (same records), under the lock and atomically."""
    with manifest_lock(assets):
        _replace_manifest(read_manifest(assets), assets)


def _record_in_manifest(name: str, record: dict, assets: Path | None = None) -> None:
    manifest = read_manifest(assets)
    manifest[name] = record
    _replace_manifest(manifest, assets)


def _replace_manifest(manifest: dict, assets: Path | None = None) -> None:
    replace_json(manifest_path(assets), manifest)


def replace_json(path: Path, records: dict) -> None:
    """Write ``records`` to ``path`` atomically: a temporary file beside it, synced, then renamed over it (the
    manifest, and ``records.json`` of the entries recorded without weights)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.new")
    try:
        _write_json(tmp, records)
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


@contextlib.contextmanager
def sigint_deferred() -> Iterator[None]:
    """Hold Ctrl-C (SIGINT) back until the block is done, then raise it (main thread only)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    received: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda signum, frame: received.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if received:
        raise KeyboardInterrupt


#: ``$LENGEN_COMMIT_PAUSE=STEP`` makes :func:`commit` stop at that step (a file ``.paused-STEP`` appears in the
#: assets folder, then the process sleeps): the crash tests kill it there and check what the next start recovers
COMMIT_STEPS = ("written", "old-aside", "new-in", "manifest-in")
PAUSE_ENV = "LENGEN_COMMIT_PAUSE"


#: The same for :func:`~.records.retire`: its record written to retired.json; then the manifest without it
RETIRE_STEPS = ("retired-recorded", "retired-unlisted")


def pause_point(root: Path, step: str) -> None:
    """Stop at ``step`` when ``$LENGEN_COMMIT_PAUSE`` names it, until the marker file is deleted (a test resumes
    the process that way, or kills it)."""
    if os.environ.get(PAUSE_ENV) == step:
        marker = root / f".paused-{step}"
        marker.write_text(str(os.getpid()))
        while marker.exists():                       # pragma: no cover - a test resumes or kills it
            time.sleep(0.05)


def _fsync_dir(folder: Path) -> None:
    """Make the renames inside ``folder`` durable (POSIX; a no-op where a folder cannot be opened)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:                                  # pragma: no cover - Windows
        return
    try:
        os.fsync(fd)
    except OSError:                                  # pragma: no cover - some file systems refuse
        pass
    finally:
        os.close(fd)


def settle(assets: Path | None = None) -> None:
    """Before an entry is read: finish or undo a write that a crash interrupted (:func:`recover`, one line each on
    stderr), so that a reader never meets the half-done state; where the folder is read-only, raise
    :class:`ZooError` saying what to run where it is writable. Nothing to do (the usual case) costs two globs."""
    root = assets_dir(assets)
    if not root.is_dir() or root.resolve() in _held() or not leftovers(root):
        return
    if any(folder.is_dir() and not os.access(folder, os.W_OK) for folder in (root, root / "zoo")):
        names = ", ".join(p.name for p in leftovers(root)[:3])
        raise ZooError(f"a write to {root} was interrupted (it left {names}) and this user cannot repair it there "
                       f"(the folder is read-only); run `python -m lengen_utils.lab.zoo list` as a user who can "
                       f"write to it, which finishes or undoes the write")
    recover(root)


def recover(assets: Path | None = None, quiet: bool = False) -> list[str]:
    """Finish or undo a :func:`commit` that a crash (kill -9, power loss) interrupted, from the files it leaves:
    a pending manifest ``.manifest.json.PID.new`` whose new asset is already in place is renamed in (the commit is
    completed); otherwise the old asset comes back from its ``.old`` copy and the pending files are deleted (the
    commit is undone). Either way the manifest and the files agree again. Takes the manifest lock; returns one
    message per repair (printed to stderr unless ``quiet``)."""
    root = assets_dir(assets)
    if not root.is_dir() or not os.access(root, os.W_OK):
        return []
    with manifest_lock(root):
        return _recover(root, quiet)


def _recover(root: Path, quiet: bool = False) -> list[str]:
    """:func:`recover` with the lock already held (inside :func:`commit`)."""
    messages: list[str] = []
    mpath = manifest_path(root)
    for pending in sorted(root.glob(f".{MANIFEST}.*.new")):
        tag = pending.name[len(f".{MANIFEST}."):-len(".new")]
        try:
            new = json.loads(pending.read_text())
        except (OSError, json.JSONDecodeError):
            new = None
        current = read_manifest(root)
        changed = [n for n, r in (new or {}).items() if current.get(n) != r]
        done = bool(new) and all(file_matches(root, new[n]) for n in changed)
        if done:
            os.replace(pending, mpath)
            messages.append(f"completed an interrupted write of {', '.join(changed)} (its new file was in place)")
        else:
            for name in changed:
                final = root / "zoo" / f"{name}.safetensors"
                backup = final.with_name(f".{final.name}.{tag}.old")
                if backup.is_file():
                    os.replace(backup, final)
            pending.unlink(missing_ok=True)
            messages.append(f"undid an interrupted write of {', '.join(changed) or 'the manifest'} (the old entry "
                            f"is kept)")
    for stray in sorted(root.glob(f".{RECORDS}.*.new")) + sorted(root.glob(f".{RETIRED}.*.new")):
        stray.unlink(missing_ok=True)                # the file it was to replace is whole (os.replace is atomic)
        messages.append(f"deleted the unfinished file {stray.name} of an interrupted write")
    zoo = root / "zoo"                               # (glob of a missing folder finds nothing)
    manifest, retired = read_manifest(root), read_unstored(RETIRED, root)
    for name in sorted(set(retired) - set(manifest)):
        orphan = zoo / f"{name}.safetensors"
        if orphan.is_file():                         # a retire killed between its manifest and its delete
            orphan.unlink()
            messages.append(f"deleted {orphan.name}: {name} is retired (its record is in {RETIRED}) and an "
                            f"interrupted retire had left its weights")
    for leftover in sorted(zoo.glob(".*.new")) + sorted(zoo.glob(".*.new.tmp")):
        leftover.unlink(missing_ok=True)
        messages.append(f"deleted the unfinished file {leftover.name} of an interrupted write")
    for backup in sorted(zoo.glob(".*.old")):
        final = zoo / backup.name[1:].rsplit(".", 2)[0]
        if final.is_file():
            backup.unlink()
            messages.append(f"deleted {backup.name}, the old copy of {final.name} that a finished write left")
        else:
            os.replace(backup, final)
            messages.append(f"restored {final.name} from {backup.name}, which an interrupted write left")
    if messages:
        _fsync_dir(root)
        _fsync_dir(zoo)
        if not quiet:
            for message in messages:
                print(f"lengen zoo: {root}: {message}", file=sys.stderr)
    return messages


def manifest_record(name: str, assets: Path | None = None) -> dict:
    """The checked record of ``name`` (an alias reads its entry's, :mod:`.aliases`); a name that is not built
    raises :class:`ZooError`."""
    name = resolve(name)
    settle(assets)
    manifest = read_manifest(assets)
    if name not in manifest:
        raise ZooError(why_not_built(name, assets))
    return manifest[name]


def entry_record(name: str, assets: Path | None = None) -> dict:
    """The record of ``name``'s measurements: its manifest record, or, once its weights were retired (``zoo
    retire``), its record in ``retired.json`` (``"stored": false``). What is measured stays readable whether or not
    the file is in ``assets/``; :func:`manifest_record` is for the stored file itself. Neither: :class:`ZooError`."""
    name = resolve(name)
    settle(assets)
    record = read_recorded(assets).get(name)
    if record is None:
        raise ZooError(why_not_built(name, assets))
    return record


def exact_match(record: dict) -> dict[int, float]:
    """A record's exact match by operand length, ``{length: EM}``."""
    return {int(k): float(v) for k, v in record["metrics"]["em"].items()}


def metrics(name: str, assets: Path | None = None) -> dict[int, float]:
    """Exact match by operand length, ``{length: EM}``, as measured when the entry was trained
    (read from its record, :func:`entry_record`: no model is loaded, and a retired entry's stays readable)."""
    return exact_match(entry_record(name, assets))


def per_digit(name: str, assets: Path | None = None) -> dict[int, dict[int, float]]:
    """Accuracy per output digit, ``{length: {significance: accuracy}}``, as measured at training time."""
    record = entry_record(name, assets)
    per = record["metrics"].get("per_digit")
    if not isinstance(per, dict):
        raise ZooError(f"the record of {name!r} has no per-digit accuracies; rebuild it with "
                       f"`python -m lengen_utils.lab.zoo train {name}`")
    return {int(k): {int(s): a for s, a in v.items()} for k, v in per.items()}


@contextlib.contextmanager
def store_session(assets: Path | None = None) -> Iterator[Path]:
    """The store's one way in for a writer: Ctrl-C held back, the folder's lock held, and any interrupted write
    finished or undone first; yields the assets folder. What the writer decides inside (is this entry built? by
    which build?) holds until it leaves: no other process can commit meanwhile."""
    root = assets_dir(assets)
    with sigint_deferred(), manifest_lock(root):
        _recover(root)
        yield root


def commit(name: str, record: dict, write_asset: Callable[[Path], object], assets: Path | None = None, *,
           replace: bool = True, expected_sha256: str | None = None) -> dict:
    """Write entry ``name``'s asset (with ``write_asset(path)``) and its manifest record together.

    Both go to temporary files first, synced to disk; then the old asset is set aside (``.old``), the new asset and
    the new manifest are renamed into place, and the old asset is deleted. On an exception or Ctrl-C before both
    renames are done, the old asset and the old manifest are put back. A crash (kill -9, power loss) at any step
    leaves files from which :func:`recover`, run at the start of the next commit, zoo command or load, completes the
    write (the new manifest is synced before anything is renamed) or undoes it. Returns the record with ``file``
    and ``sha256`` filled in.

    Under the lock, before anything is renamed: ``replace=False`` refuses to replace an intact entry of another
    build (one that a concurrent writer committed meanwhile included), and ``expected_sha256`` refuses an asset
    whose bytes, as written, are not the ones its record describes (a source changed while it was copied). After
    the renames the file in place is hashed again: a commit that did not store what it recorded raises.
    """
    with store_session(assets) as root:
        return commit_locked(name, record, write_asset, root, replace, expected_sha256)


def commit_locked(name: str, record: dict, write_asset: Callable[[Path], object], root: Path, replace: bool,
            expected_sha256: str | None) -> dict:
    """:func:`commit` inside a :func:`store_session`."""
    final, mpath = checkpoint_path(name, root), manifest_path(root)
    tag = f"{os.getpid()}"
    tmp_asset = final.with_name(f".{final.name}.{tag}.new")
    tmp_manifest = mpath.with_name(f".{MANIFEST}.{tag}.new")
    backup = final.with_name(f".{final.name}.{tag}.old")
    final.parent.mkdir(parents=True, exist_ok=True)
    try:
        write_asset(tmp_asset)
        _fsync_file(tmp_asset)
        sha = file_sha256(tmp_asset)
        if expected_sha256 is not None and sha != expected_sha256:
            raise ZooError(f"{name}: the file written for it (sha256 {sha[:12]}) is not the one its record names "
                           f"({str(expected_sha256)[:12]}); its source changed while it was copied; nothing was "
                           f"changed; run the command again")
        record = {**record, "file": final.relative_to(root).as_posix(), "sha256": sha}
        manifest = read_manifest(root)
        current = manifest.get(name)
        if not replace and current is not None and current.get("sha256") != sha and file_matches(root, current):
            raise ZooError(f"{name} is already in {root} as another build ({change_summary(current, record)}); "
                           f"nothing was written; import with --replace (or train with --replace) to replace it")
        manifest[name] = record
        _write_json(tmp_manifest, manifest)
        _fsync_dir(root)
        pause_point(root, "written")
        had_old = final.exists()
        if had_old:
            os.replace(final, backup)
            pause_point(root, "old-aside")
        try:
            os.replace(tmp_asset, final)
            _fsync_dir(final.parent)
            pause_point(root, "new-in")
            os.replace(tmp_manifest, mpath)
            _fsync_dir(root)
            pause_point(root, "manifest-in")
        except BaseException:
            if had_old:
                os.replace(backup, final)
            else:
                final.unlink(missing_ok=True)
            raise
        if had_old:
            backup.unlink(missing_ok=True)
    finally:
        for leftover in (tmp_asset, tmp_manifest, tmp_asset.with_name(tmp_asset.name + ".tmp")):
            leftover.unlink(missing_ok=True)
    if file_sha256(final) != sha:                    # pragma: no cover - a file system that lost the rename
        raise ZooError(f"{name}: after the commit, {final} is not the file its record names; run "
                       f"`python -m lengen_utils.lab.zoo verify --no-retrain {name}`")
    return record


def _fsync_file(path: Path) -> None:
    with open(path, "rb+") as f:
        os.fsync(f.fileno())

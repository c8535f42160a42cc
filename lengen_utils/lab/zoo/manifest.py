"""``assets/manifest.json``: one record per built entry, read with its shape checked, written atomically.

A record holds the command that produced the asset, the configs, the seed actually used, the measured
metrics (``{"em": {length: EM}, "per_digit": ..., "eval_n", "eval_seed"}``), the training time, the
library and torch versions, the asset's path (relative to the assets folder), its sha256 and, for a
half-precision file, ``"storage": "float16"``. The file is indented JSON with every table of numbers on
one line (:func:`_compact`).

:func:`commit` is the only writer of a built entry: it writes the asset and the new manifest to
temporary files, then renames both into place. If anything fails, or Ctrl-C arrives, before both
renames are done, the old asset and the old manifest are left (or put back) as they were.
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
from .entry import ZooError

REPO_ROOT = Path(__file__).resolve().parents[3]
MANIFEST = "manifest.json"
#: The (empty) file whose lock serialises writers of the manifest; it stays in the assets folder.
LOCK = f".{MANIFEST}.lock"
#: The default assets folder (``$LENGEN_ASSETS`` when set, else the repository's ``assets/``).
ASSETS = Path(os.environ.get("LENGEN_ASSETS") or REPO_ROOT / "assets")
#: Keys every record must hold; ``load`` and ``verify`` need all of them.
REQUIRED = ("command", "file", "sha256", "task", "model", "metrics")


def assets_dir(assets: str | os.PathLike | None = None) -> Path:
    """``assets`` if given, else ``$LENGEN_ASSETS`` (read now, not at import), else the repository's.

    A ``$LENGEN_ASSETS`` that names nothing (a typo) raises :class:`ZooError` naming the path, rather
    than showing every entry as not built; create the folder first to start an empty zoo there."""
    if assets is not None:
        return Path(assets)
    env = os.environ.get("LENGEN_ASSETS")
    if env and not Path(env).exists():
        raise ZooError(f"LENGEN_ASSETS={env!r} names no file or folder (looked at {Path(env).resolve()}); "
                       f"fix the variable, create the folder to start an empty zoo there, or unset it to use "
                       f"{REPO_ROOT / 'assets'}")
    return Path(env) if env else REPO_ROOT / "assets"


def checkpoint_path(name: str, assets: Path | None = None) -> Path:
    """Where entry ``name``'s weights live: ``ASSETS/zoo/NAME.safetensors``."""
    return assets_dir(assets) / "zoo" / f"{name}.safetensors"


def manifest_path(assets: Path | None = None) -> Path:
    return assets_dir(assets) / MANIFEST


def read_manifest(assets: Path | None = None) -> dict:
    """The manifest as ``{name: record}`` (empty when there is none); a file of another shape raises
    :class:`ZooError` saying what is wrong."""
    path = manifest_path(assets)
    if not path.is_file():
        return {}
    try:
        data = json.loads(path.read_text())
    except json.JSONDecodeError as err:
        raise ZooError(f"{path} is not valid JSON ({err}); restore it with `git checkout {path}`") from None
    except OSError as err:
        raise ZooError(f"cannot read {path} ({err.strerror or err})") from None
    if not isinstance(data, dict):
        raise ZooError(f"{path} holds a JSON {type(data).__name__}; the manifest must be a JSON object "
                       f"{{entry name: record}}; restore it with `git checkout {path}`")
    bad = [name for name, rec in data.items() if not isinstance(rec, dict)]
    if bad:
        raise ZooError(f"{path}: the records of {bad} are not JSON objects; restore the file with "
                       f"`git checkout {path}`")
    return data


def check_record(name: str, record: dict, where: Path | str = MANIFEST) -> dict:
    """Refuse a record that lacks a required key or whose metrics have no ``em`` table."""
    missing = [k for k in REQUIRED if k not in record]
    rebuild = f"python -m lengen_utils.lab.zoo train {name}"
    if missing:
        raise ZooError(f"the record of {name!r} in {where} lacks {', '.join(map(repr, missing))} "
                       f"(required: {', '.join(REQUIRED)}); rebuild it with `{rebuild}`")
    if not isinstance(record["metrics"], dict) or not isinstance(record["metrics"].get("em"), dict):
        raise ZooError(f"the record of {name!r} in {where} has no metrics['em'] table {{length: EM}}; "
                       f"rebuild it with `{rebuild}`")
    return record


def manifest_record(name: str, assets: Path | None = None) -> dict:
    """The checked record of ``name`` (an alias reads its entry's, :mod:`.aliases`); a name that is not built
    raises :class:`ZooError`."""
    name = resolve(name)
    manifest = read_manifest(assets)
    if name not in manifest:
        raise ZooError(f"{name!r} is not built (not in {manifest_path(assets)}); build it with "
                       f"`python -m lengen_utils.lab.zoo train {name}`")
    return check_record(name, manifest[name], manifest_path(assets))


def metrics(name: str, assets: Path | None = None) -> dict[int, float]:
    """Exact match by operand length, ``{length: EM}``, as measured when the entry was trained
    (read from the manifest: no model is loaded)."""
    return {int(k): float(v) for k, v in manifest_record(name, assets)["metrics"]["em"].items()}


def per_digit(name: str, assets: Path | None = None) -> dict[int, dict[int, float]]:
    """Accuracy per output digit, ``{length: {significance: accuracy}}``, as measured at training time."""
    record = manifest_record(name, assets)
    per = record["metrics"].get("per_digit")
    if not isinstance(per, dict):
        raise ZooError(f"the record of {name!r} has no per-digit accuracies; rebuild it with "
                       f"`python -m lengen_utils.lab.zoo train {name}`")
    return {int(k): {int(s): a for s, a in v.items()} for k, v in per.items()}


def _is_number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _compact(value: object, depth: int = 0) -> str:
    """JSON as ``json.dumps(indent=1)`` writes it, except that a dict or list holding only numbers (a length's
    per-digit accuracies, an EM table) is one line without spaces: the same data in two thirds of the bytes,
    and a changed record still shows as a few changed lines in a diff."""
    pad, inner = " " * depth, " " * (depth + 1)
    if isinstance(value, dict) and value and not all(_is_number(v) for v in value.values()):
        items = [f"{inner}{json.dumps(str(k))}: {_compact(v, depth + 1)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + pad + "}"
    if isinstance(value, list) and value and not all(_is_number(v) for v in value):
        return "[\n" + ",\n".join(inner + _compact(v, depth + 1) for v in value) + "\n" + pad + "]"
    return json.dumps(value, separators=(",", ":"))


def _write_json(path: Path, manifest: dict) -> None:
    with open(path, "w") as f:
        f.write(_compact(dict(sorted(manifest.items()))) + "\n")
        f.flush()
        os.fsync(f.fileno())


@contextlib.contextmanager
def manifest_lock(assets: Path | None = None) -> Iterator[None]:
    """Hold an exclusive lock on the assets folder's manifest while reading, changing and replacing it,
    so that two processes recording at once cannot drop each other's record."""
    root = assets_dir(assets)
    if fcntl is None or not root.is_dir():
        yield
        return
    with open(root / LOCK, "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


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
    tmp = path.with_name(f".{path.name}.{os.getpid()}.new")
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


def _pause(root: Path, step: str) -> None:
    if os.environ.get(PAUSE_ENV) == step:
        (root / f".paused-{step}").write_text(str(os.getpid()))
        while True:                                  # pragma: no cover - killed by the test
            time.sleep(1)


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


def file_matches(root: Path, record: dict | None) -> bool:
    """Whether ``record``'s file is in ``root`` and is the one the record names (its sha256)."""
    path = root / str((record or {}).get("file", ""))
    return bool(record) and path.is_file() and file_sha256(path) == record.get("sha256")


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
    zoo = root / "zoo"                               # (glob of a missing folder finds nothing)
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


def commit(name: str, record: dict, write_asset: Callable[[Path], object], assets: Path | None = None) -> dict:
    """Write entry ``name``'s asset (with ``write_asset(path)``) and its manifest record together.

    Both go to temporary files first, synced to disk; then the old asset is set aside (``.old``), the new asset and
    the new manifest are renamed into place, and the old asset is deleted. On an exception or Ctrl-C before both
    renames are done, the old asset and the old manifest are put back. A crash (kill -9, power loss) at any step
    leaves files from which :func:`recover`, run at the start of the next commit or zoo command, completes the
    write (the new manifest is synced before anything is renamed) or undoes it. Returns the record with ``file``
    and ``sha256`` filled in.
    """
    root = assets_dir(assets)
    final, mpath = checkpoint_path(name, root), manifest_path(root)
    tag = f"{os.getpid()}"
    tmp_asset = final.with_name(f".{final.name}.{tag}.new")
    tmp_manifest = mpath.with_name(f".{MANIFEST}.{tag}.new")
    backup = final.with_name(f".{final.name}.{tag}.old")
    final.parent.mkdir(parents=True, exist_ok=True)
    with sigint_deferred(), manifest_lock(root):
        _recover(root)
        try:
            write_asset(tmp_asset)
            _fsync_file(tmp_asset)
            record = {**record, "file": final.relative_to(root).as_posix(), "sha256": file_sha256(tmp_asset)}
            manifest = read_manifest(root)
            manifest[name] = record
            _write_json(tmp_manifest, manifest)
            _fsync_dir(root)
            _pause(root, "written")
            had_old = final.exists()
            if had_old:
                os.replace(final, backup)
                _pause(root, "old-aside")
            try:
                os.replace(tmp_asset, final)
                _fsync_dir(final.parent)
                _pause(root, "new-in")
                os.replace(tmp_manifest, mpath)
                _fsync_dir(root)
                _pause(root, "manifest-in")
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
    return record


def _fsync_file(path: Path) -> None:
    with open(path, "rb+") as f:
        os.fsync(f.fileno())

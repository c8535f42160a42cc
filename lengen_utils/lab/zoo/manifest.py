"""``assets/manifest.json`` and its sibling record files: where they are, their shape, and reading them checked.

A record holds the command that produced the asset, the configs, the seed actually used, the measured
metrics (``{"em": {length: EM}, "per_digit": ..., "eval_n", "eval_seed"}``), the training time, the
library and torch versions, the asset's path (relative to the assets folder), its sha256 and, for a
half-precision file, ``"storage": "float16"``. The file is indented JSON with every table of numbers on
one line (:func:`_compact`).

Everything here only reads: the paths, :func:`read_manifest` and :func:`read_unstored` (``records.json``,
``retired.json``), which check every record as they read it (:func:`check_record`), and questions about what is on
disk (:func:`file_matches`, :func:`leftovers`, :func:`change_summary`) or what an OS fault means
(:func:`store_fault`). Writing, the lock and the repair of an interrupted write live in :mod:`.store`, which builds
on this module (never the reverse); so do the reads of one entry (``manifest_record``, ``metrics``,
``per_digit``), which first finish or undo such a write.
"""
from __future__ import annotations

import errno
import json
import os
from pathlib import Path

from ...core.checkpoint import file_sha256
from ..experiment.entry import ZooError

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
    for name, record in data.items():          # every record is checked when it is read, not where it is used
        check_record(name, record, path)
    return data


#: The records of entries recorded without weights (tag ``record-only``) and of retired entries (``zoo retire``).
RECORDS, RETIRED = "records.json", "retired.json"


def read_unstored(file_name: str, assets: Path | None = None) -> dict:
    """``{name: record}`` of ``records.json`` or ``retired.json`` (empty when there is no file), every record
    checked as the manifest's are (without a file or sha256: these entries have no weights in assets/)."""
    path = assets_dir(assets) / file_name
    if not path.is_file():
        return {}
    try:
        records = json.loads(path.read_text())
    except (OSError, json.JSONDecodeError) as err:
        raise ZooError(f"cannot read {path} ({err}); restore it with `git checkout {file_name}`") from None
    if not isinstance(records, dict):
        raise ZooError(f"{path} should hold an object of records, got {type(records).__name__}; restore it "
                       f"with `git checkout {file_name}`")
    for name, record in records.items():
        check_record(name, record, path, stored=False)
    return records


def read_recorded(assets: Path | None = None) -> dict:
    """``{name: record}`` of the entries whose measurements are recorded with or without their weights: the manifest's
    and ``retired.json``'s (the manifest's wins). What a recipe's seeds were measured at, weights stored or not."""
    return {**read_unstored(RETIRED, assets), **read_manifest(assets)}


def check_record(name: str, record: object, where: Path | str = MANIFEST, stored: bool = True) -> dict:
    """Refuse a record that lacks a required key or whose fields have the wrong type (metrics without an ``em``
    table of ``{length: number}``, a file or sha256 that is not a string), in one line naming the entry and the
    file. ``stored=False``: a record without weights (``records.json``, ``retired.json``), so no file or sha256."""
    rebuild = f"python -m lengen_utils.lab.zoo train {name}"
    if not isinstance(record, dict):
        raise ZooError(f"the record of {name!r} in {where} is a JSON {type(record).__name__}, not an object; "
                       f"restore the file with `git checkout {where}`")
    required = REQUIRED if stored else tuple(k for k in REQUIRED if k not in ("file", "sha256"))
    missing = [k for k in required if k not in record]
    if missing:
        raise ZooError(f"the record of {name!r} in {where} lacks {', '.join(map(repr, missing))} "
                       f"(required: {', '.join(required)}); rebuild it with `{rebuild}`")
    wrong = [k for k in ("file", "sha256", "command") if k in record and not isinstance(record[k], str)]
    wrong += [k for k in ("task", "model") if not isinstance(record[k], dict)]
    if wrong:
        raise ZooError(f"the record of {name!r} in {where} has {', '.join(f'{k}={record[k]!r}' for k in wrong)} "
                       f"of the wrong type; restore the file with `git checkout {where}` or rebuild it with "
                       f"`{rebuild}`")
    em = record["metrics"].get("em") if isinstance(record["metrics"], dict) else None
    if not isinstance(em, dict) or not em:
        raise ZooError(f"the record of {name!r} in {where} has no metrics['em'] table {{length: EM}} (got "
                       f"metrics={_short(record['metrics'])}); rebuild it with `{rebuild}`")
    bad = [f"{k!r}: {_short(v)}" for k, v in em.items() if not (str(k).isdigit() and _is_number(v))]
    if bad:
        raise ZooError(f"the record of {name!r} in {where} has metrics['em'] entries that are not "
                       f"{{length: number}}: {', '.join(bad[:3])}; restore the file with `git checkout {where}` "
                       f"or rebuild it with `{rebuild}`")
    return record


def _short(value: object, limit: int = 60) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[:limit - 3] + "..."


def why_not_built(name: str, assets: Path | None = None) -> str:
    """The sentence for an entry that the manifest does not hold: retired (with how to build it again), recorded
    without weights, or never built."""
    root = assets_dir(assets)
    train = f"`python -m lengen_utils.lab.zoo train {name}`"
    if name in read_unstored(RETIRED, root):
        return (f"{name!r} was retired from {root} (`zoo retire`): its weights were deleted and its record, with "
                f"its measurements, is kept in {RETIRED}; {train} builds it again")
    if name in read_unstored(RECORDS, root):
        return (f"{name!r} is recorded without weights in {root / RECORDS} (measured on a GPU, too large for "
                f"assets/): its metrics can be read there, but there is no file to load or retire")
    return f"{name!r} is not built (not in {manifest_path(root)}); build it with {train}"


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


#: What to do about an OS fault, by errno: a read-only folder, a full disk
_READ_ONLY = (errno.EACCES, errno.EPERM, errno.EROFS)
_FULL = (errno.ENOSPC, errno.EDQUOT, errno.EFBIG)


def store_fault(err: OSError, root: Path) -> ZooError:
    """An OS error met while the store read or wrote ``root``, as one line: what failed, where, and what to do.
    Every writer undoes its change first (or leaves what :func:`~.store.recover` completes), so nothing saved is
    lost."""
    where = err.filename or root
    what = err.strerror or str(err)
    if err.filename and not _within(err.filename, root):       # another file (an import's source): not the store's
        return ZooError(f"{what}: {err.filename}; nothing in the assets folder {root} was changed")
    if err.errno in _READ_ONLY:
        return ZooError(f"cannot write in the assets folder {root}: {where} is read-only for this user ({what}); "
                        f"nothing was changed; make the folder writable, or set LENGEN_ASSETS to a writable copy")
    if err.errno in _FULL:
        return ZooError(f"cannot write in the assets folder {root}: the disk is full ({what}, writing {where}); "
                        f"the entries and their records are as they were; free some space and run the command "
                        f"again")
    return ZooError(f"the assets folder {root}: {what} ({where}); the entries and their records are as they were "
                    f"or are repaired by the next zoo command")


def _within(path: str | os.PathLike, root: Path) -> bool:
    try:
        return Path(os.fsdecode(path)).resolve().is_relative_to(root.resolve())
    except (OSError, ValueError):
        return False


def file_matches(root: Path, record: dict | None) -> bool:
    """Whether ``record``'s file is in ``root`` and is the one the record names (its sha256)."""
    path = root / str((record or {}).get("file", ""))
    return bool(record) and path.is_file() and file_sha256(path) == record.get("sha256")


def leftovers(root: Path) -> list[Path]:
    """The files an interrupted write leaves in ``root`` (a pending manifest, a new or set-aside asset)."""
    zoo = root / "zoo"
    return (sorted(root.glob(f".{MANIFEST}.*.new")) + sorted(zoo.glob(".*.new")) + sorted(zoo.glob(".*.new.tmp"))
            + sorted(zoo.glob(".*.old")))


def change_summary(old: dict, new: dict) -> str:
    """What replacing record ``old`` by ``new`` changes: the sha256 and the exact match per length, old -> new."""
    parts = []
    if old.get("sha256") != new.get("sha256"):
        parts.append(f"sha256 {str(old.get('sha256'))[:12]} -> {str(new.get('sha256'))[:12]}")
    em_old, em_new = old.get("metrics", {}).get("em", {}), new.get("metrics", {}).get("em", {})
    moved = [f"{k}: {em_old[k]:.3f} -> {em_new[k]:.3f}" for k in em_new if k in em_old and em_old[k] != em_new[k]]
    if moved:
        parts.append("EM " + ", ".join(moved[:6]) + (", ..." if len(moved) > 6 else ""))
    return "; ".join(parts) or "the record's other fields (command, seconds, device)"

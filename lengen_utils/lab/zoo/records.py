"""Measured results whose weights are not stored: ``assets/records.json``.

A model too large for ``assets/`` (Sabbaghi et al.'s 768-wide BERT: 85 MB even in float16) is trained on a GPU,
measured there, and only its record comes back: the command, the configs, the seed, the device, the metrics and,
with checkpoint selection, the validation curve. Its entry carries the tag ``record-only``; ``zoo import`` of such an
entry checks the record against the catalog (same configs and test lengths) and adds it here, marked
``"stored": false``. A notebook shows it as a measured result with its device; it cannot be loaded.
"""
from __future__ import annotations

import json
from pathlib import Path

from .builder import catalog_entry_of
from .entry import RECORD_ONLY_TAG, ZooError
from .manifest import assets_dir, manifest_lock, manifest_path, read_manifest, replace_json

RECORDS = "records.json"


def records_path(assets: Path | None = None) -> Path:
    return assets_dir(assets) / RECORDS


def read_records(assets: Path | None = None) -> dict:
    """``{name: record}`` of the entries recorded without weights (empty when there is no file)."""
    path = records_path(assets)
    if not path.is_file():
        return {}
    try:
        records = json.loads(path.read_text())
    except (OSError, json.JSONDecodeError) as err:
        raise ZooError(f"cannot read {path} ({err}); restore it with `git checkout {RECORDS}`") from None
    if not isinstance(records, dict):
        raise ZooError(f"{path} should hold an object of records, got {type(records).__name__}")
    return records


def recorded(name: str, assets: Path | None = None) -> dict:
    """One record-only entry's record; an unknown name raises :class:`ZooError` with the names it has."""
    records = read_records(assets)
    if name not in records:
        raise ZooError(f"no record of {name!r} in {RECORDS}; it has {', '.join(sorted(records)) or 'none'}")
    return records[name]


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


def import_record(name: str, record: dict, source: Path, assets: Path | None = None, replace: bool = False) -> dict:
    """Check ``record`` against the catalog's entry ``name`` and add it to ``records.json`` (``stored: false``).
    A different record already there is refused unless ``replace``: a recorded result is never replaced without a
    word."""
    try:
        catalog_entry_of(name, record)
    except (AssertionError, KeyError, TypeError, ValueError) as err:
        raise ZooError(f"{name}: the record in {source} is not this catalog's entry ({err})") from None
    kept = {**{k: v for k, v in record.items() if k not in ("file", "sha256")}, "stored": False}
    with manifest_lock(assets):              # the assets folder's one lock: no concurrent writer drops a record
        records = read_records(assets)
        if name in records and records[name] != kept and not replace:
            change = change_summary(records[name], kept)
            raise ZooError(f"{RECORDS} already holds another record of {name!r} ({change}); nothing was written; "
                           f"import with --replace to replace it")
        records[name] = kept
        replace_json(records_path(assets), records)
    return kept


__all__ = ["RECORDS", "RECORD_ONLY_TAG", "import_record", "read_records", "recorded", "records_path"]


RETIRED = "retired.json"


def read_retired(assets: Path | None = None) -> dict:
    """``{name: record}`` of the entries whose weights were retired from ``assets/`` (empty when none were)."""
    path = assets_dir(assets) / RETIRED
    if not path.is_file():
        return {}
    try:
        return json.loads(path.read_text())
    except (OSError, json.JSONDecodeError) as err:
        raise ZooError(f"cannot read {path} ({err}); restore it with `git checkout {RETIRED}`") from None


def retire(name: str, assets: Path | None = None) -> dict:
    """Take a built entry's weights out of ``assets/`` to keep the clone small: its manifest record moves to
    ``retired.json`` (``"stored": false``, measurements kept), then its checkpoint file is deleted. The recipe stays
    in the catalog, so ``zoo train NAME`` builds it again. In that order, a crash leaves the record in both files or
    an unlisted file, never a result lost. Returns the retired record."""
    root = assets_dir(assets)
    with manifest_lock(root):
        manifest = read_manifest(root)
        if name not in manifest:
            raise ZooError(f"{name!r} is not built in {root}; nothing to retire")
        record = manifest.pop(name)
        retired = read_retired(root)
        retired[name] = {**{k: v for k, v in record.items() if k not in ("file", "sha256")}, "stored": False}
        replace_json(root / RETIRED, retired)
        replace_json(manifest_path(root), manifest)
        (root / record["file"]).unlink(missing_ok=True)
    return retired[name]

"""Measured results whose weights are not stored: ``assets/records.json``.

A model too large for ``assets/`` (Sabbaghi et al.'s 768-wide BERT: 85 MB even in float16) is trained on a GPU,
measured there, and only its record comes back: the command, the configs, the seed, the device, the metrics and,
with checkpoint selection, the validation curve. Its entry carries the tag ``record-only``; ``zoo import`` of such an
entry checks the record against the catalog (same configs and test lengths) and adds it here, marked
``"stored": false``. A notebook shows it as a measured result with its device; it cannot be loaded.
"""
from __future__ import annotations

from pathlib import Path

from .aliases import resolve
from .builder import catalog_entry_of
from ..experiment.entry import RECORD_ONLY_TAG, ZooError
from .manifest import (RECORDS, RETIRED, assets_dir, change_summary, check_record, manifest_path, read_manifest,
                       read_unstored, why_not_built)
from .store import pause_point, replace_json, store_session


def records_path(assets: Path | None = None) -> Path:
    return assets_dir(assets) / RECORDS


def read_records(assets: Path | None = None) -> dict:
    """``{name: record}`` of the entries recorded without weights (empty when there is no file); every record is
    checked as it is read, and a bad one is named in one line (:class:`ZooError`)."""
    return read_unstored(RECORDS, assets)


def recorded(name: str, assets: Path | None = None) -> dict:
    """One record-only entry's record; an unknown name raises :class:`ZooError` with the names it has."""
    records = read_records(assets)
    if name not in records:
        raise ZooError(f"no record of {name!r} in {RECORDS}; it has {', '.join(sorted(records)) or 'none'}")
    return records[name]


def import_record(name: str, record: dict, source: Path, assets: Path | None = None, replace: bool = False) -> dict:
    """Check ``record`` against the catalog's entry ``name`` and add it to ``records.json`` (``stored: false``).
    A different record already there is refused unless ``replace``: a recorded result is never replaced without a
    word."""
    return import_record_status(name, record, source, assets, replace)[1]


def import_record_status(name: str, record: dict, source: Path, assets: Path | None = None,
                         replace: bool = False) -> tuple[bool, dict]:
    """:func:`import_record`, with whether it wrote anything (``False``: this very record was there already)."""
    try:
        catalog_entry_of(name, record)
    except (AssertionError, KeyError, TypeError, ValueError) as err:
        raise ZooError(f"{name}: the record in {source} is not this catalog's entry ({err})") from None
    kept = {**{k: v for k, v in record.items() if k not in ("file", "sha256")}, "stored": False}
    check_record(name, kept, source, stored=False)
    with store_session(assets) as root:      # the assets folder's one lock: no concurrent writer drops a record
        records = read_records(root)
        if records.get(name) == kept:
            return False, kept
        if name in records and not replace:
            change = change_summary(records[name], kept)
            raise ZooError(f"{RECORDS} already holds another record of {name!r} ({change}); nothing was written; "
                           f"import with --replace to replace it")
        records[name] = kept
        replace_json(records_path(root), records)
    return True, kept


__all__ = ["RECORDS", "RECORD_ONLY_TAG", "RETIRED", "change_summary", "import_record", "import_record_status",
           "read_measured", "read_records", "read_retired",
           "recorded", "records_path", "retire"]


def read_measured(assets: Path | None = None) -> dict:
    """``{name: record}`` of every entry whose measurements are recorded: built (the manifest), retired from
    ``assets/`` (``retired.json``) or measured on a GPU without weights (``records.json``). For tables and claims,
    which read what was measured; loading needs the manifest."""
    return {**read_retired(assets), **read_records(assets), **read_manifest(assets)}


def read_retired(assets: Path | None = None) -> dict:
    """``{name: record}`` of the entries whose weights were retired from ``assets/`` (empty when none were)."""
    return read_unstored(RETIRED, assets)


def retire(name: str, assets: Path | None = None) -> dict:
    """Take a built entry's weights out of ``assets/`` to keep the clone small: its manifest record moves to
    ``retired.json`` (``"stored": false``, measurements kept), then its checkpoint file is deleted. The recipe stays
    in the catalog, so ``zoo train NAME`` builds it again. In that order, a crash leaves the record in both files or
    an unlisted file (which the next zoo command deletes), never a result lost. ``name`` may be an alias. Returns the
    retired record."""
    name = resolve(name)
    with store_session(assets) as root:
        manifest = read_manifest(root)
        if name not in manifest:
            raise ZooError(f"{why_not_built(name, root)}; nothing to retire")
        record = manifest.pop(name)
        retired = read_retired(root)
        retired[name] = {**{k: v for k, v in record.items() if k not in ("file", "sha256")}, "stored": False}
        replace_json(root / RETIRED, retired)
        pause_point(root, "retired-recorded")
        replace_json(manifest_path(root), manifest)
        pause_point(root, "retired-unlisted")
        (root / record["file"]).unlink(missing_ok=True)
    return retired[name]

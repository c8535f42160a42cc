"""Bring an entry built elsewhere into assets/: ``python -m lengen_utils.lab.zoo import SOURCE NAME ...``.

A build on another machine (a GPU run of ``scripts/gpu_checks.sh``, or ``LENGEN_ASSETS=/tmp/x python -m
lengen_utils.lab.zoo train NAME``) leaves a checkpoint and its manifest record. Importing checks, before anything is
written, that the record is this catalog's entry (same configs and test lengths), that the file is the one the
record names (sha256) and that it loads; then the file and the record go into assets/ together, as ``zoo train``
writes them. The record is kept as built: its command, device, seconds and metrics. An entry tagged ``record-only``
(too large for assets/) brings its record alone, into ``records.json`` (:mod:`.records`).

An entry that assets/ already holds as a different build is refused, with what would change (its sha256 and its
exact match, old -> new); ``replace=True`` (``zoo import --replace``) replaces it. The same build again is a no-op,
and is reported as one (:func:`import_entry_status`); a record whose file is missing or damaged is repaired. These
decisions are taken under the store's lock, against what is there at that moment (another import or train may have
committed meanwhile), and the copy is hashed before it is renamed in: it must be the file its record names.

``SOURCE`` is an assets folder (``manifest.json`` and ``zoo/NAME.safetensors``) or a flat folder of
``NAME.safetensors`` files with ``manifest.json`` or ``manifest-NAME.json`` beside them.
"""
from __future__ import annotations

import json
import shutil
from pathlib import Path

from ...core.checkpoint import CheckpointError, file_sha256, load_model
from ..cli import UsageError, check_writable
from .aliases import resolve
from .builder import catalog_entry_of
from .catalog import entry
from ..experiment.entry import RECORD_ONLY_TAG, ZooError
from .manifest import assets_dir, check_record, file_matches, read_manifest
from .records import import_record_status
from .store import commit_locked, store_session


def _source_files(source: Path, name: str) -> tuple[Path, dict]:
    """The checkpoint and the record of ``name`` in ``source`` (either layout); a missing one raises ZooError."""
    files = [source / "zoo" / f"{name}.safetensors", source / f"{name}.safetensors"]
    checkpoint = next((f for f in files if f.is_file()), None)
    if checkpoint is None:
        raise ZooError(f"{source} has no checkpoint of {name!r} (looked for {', '.join(map(str, files))})")
    return checkpoint, _source_record(source, name)


def _source_record(source: Path, name: str) -> dict:
    """The manifest record of ``name`` in ``source``; a missing one raises ZooError."""
    for manifest in (source / "manifest.json", source / f"manifest-{name}.json"):
        if manifest.is_file():
            try:
                records = json.loads(manifest.read_text())
            except (OSError, json.JSONDecodeError) as err:
                raise ZooError(f"cannot read {manifest} ({err})") from None
            if isinstance(records, dict) and isinstance(records.get(name), dict):
                return records[name]
    raise ZooError(f"{source} has no manifest record of {name!r} (manifest.json or manifest-{name}.json)")


def _check_destination(root: Path) -> None:
    try:
        check_writable(root, "assets folder")
        check_writable(root / "zoo", "assets folder")
    except UsageError as err:
        raise ZooError(str(err)) from None


#: What an import did: the file and record written, the same build found intact (nothing written), or the file of a
#: record that was there without it (or damaged) written again
IMPORTED, UNCHANGED, REPAIRED, RECORDED = "imported", "unchanged", "repaired", "recorded"


def import_entry(name: str, source: str | Path, assets: Path | None = None, replace: bool = False) -> dict:
    """Check ``name``'s checkpoint and record in ``source`` and add both to ``assets`` (default assets/). ``name``
    may be an alias. A different build already there is refused unless ``replace``; the same build is left as is.
    Returns the record in ``assets``."""
    return import_entry_status(name, source, assets, replace)[1]


def import_entry_status(name: str, source: str | Path, assets: Path | None = None,
                        replace: bool = False) -> tuple[str, dict]:
    """:func:`import_entry`, with what it did: ``(IMPORTED | UNCHANGED | REPAIRED | RECORDED, record)``."""
    source, name = Path(source), resolve(name)
    if not source.is_dir():
        raise ZooError(f"{source} is not a folder")
    root = assets_dir(assets)
    _check_destination(root)
    if RECORD_ONLY_TAG in entry(name).tags:      # too large for assets/: the record alone (records.json)
        wrote, kept = import_record_status(name, _source_record(source, name), source, root, replace=replace)
        return (RECORDED if wrote else UNCHANGED), kept
    checkpoint, record = _source_files(source, name)
    try:
        check_record(name, record, source)
        catalog_entry_of(name, record)
    except (AssertionError, KeyError, TypeError, ValueError) as err:
        raise ZooError(f"{name}: the record in {source} is not this catalog's entry ({err})") from None
    if record.get("sha256") != file_sha256(checkpoint):
        raise ZooError(f"{checkpoint} is not the file its record names (sha256 differs); copy it again")
    try:
        load_model(checkpoint, expected_sha256=record["sha256"])
    except CheckpointError as err:
        raise ZooError(f"{checkpoint} does not load: {err}") from None
    kept = {k: v for k, v in record.items() if k not in ("file", "sha256")}
    with store_session(root):                # decided and written under the lock, against what is there now
        old = read_manifest(root).get(name)
        intact = file_matches(root, old)
        if intact and old["sha256"] == record["sha256"]:
            return UNCHANGED, old                            # this very build is already there, file and record
        written = commit_locked(name, kept, lambda path: shutil.copyfile(checkpoint, path), root, replace=replace,
                          expected_sha256=record["sha256"])
    return (REPAIRED if old is not None and not intact else IMPORTED), written


__all__ = ["IMPORTED", "RECORDED", "REPAIRED", "UNCHANGED", "import_entry", "import_entry_status"]

"""``python -m lengen_utils.lab.zoo migrate``: rewrite the zoo's format-1 checkpoints in the current format.

A format-1 file has no checksum over its header, so ``load_model`` accepts it only with the whole
file's sha256. Migration keeps every tensor and header string, adds the record checksum, and records
the new sha256. Each file is checked against its manifest sha256 first (the header the new checksum
seals is the committed one), the asset and its record are replaced together
(:func:`~lengen_utils.lab.zoo.store.commit`), and the new file is re-measured: its exact match must equal
the manifest's metrics exactly (``zoo verify --no-retrain``).

``migrate --ids`` renames the entries whose recipe ids 0.3 shortened (:data:`~.aliases.RENAMED`) in an assets
folder: each checkpoint file gets its new name (its bytes and sha256 unchanged, so its header still carries the old
name), and its manifest or ``records.json`` / ``retired.json`` record moves to the new key, with the command and file
rewritten and ``"renamed_from"`` added. The new file is linked before the manifest is replaced and the old one
unlinked after, so a crash leaves at worst a second name of the same file, never a record without its file.

``migrate --half NAME ...`` converts a float32 entry to half precision (so that assets/ stays small): the file is checked
against its manifest sha256, its weights are rounded to float16 and saved so, and every metric is
re-measured on the rounded model with the builder's ``measure``. The record keeps its command, configs
and training time; its metrics become the re-measured ones, the float32 exact match is kept as
``float32_em`` and ``"storage": "float16"`` is added. Asset and record are committed together.
"""
from __future__ import annotations

import os
from pathlib import Path

from ...core.checkpoint import (FORMAT_VERSION, HALF, file_sha256, load_model, migrate_checkpoint, round_to_half,
                          save_model, stored_format)
from .aliases import RENAMED_ENTRIES
from .builder import catalog_entry_of, measure, verify
from ..experiment.entry import ZooError
from .manifest import assets_dir, checkpoint_path, manifest_path, read_manifest
from .records import RECORDS, RETIRED, read_records, read_retired
from .store import commit, manifest_lock, manifest_record, replace_json


def outdated(assets: Path | None = None) -> list[str]:
    """The built entries whose checkpoint is not in the current format, by name."""
    root = assets_dir(assets)
    return sorted(name for name, rec in read_manifest(root).items()
                  if "file" in rec and (root / rec["file"]).is_file()
                  and stored_format(root / rec["file"]) != FORMAT_VERSION)


def _vouched_path(name: str, record: dict, root: Path) -> tuple[Path, str | None]:
    """The entry's file and its sha256, refused (:class:`ZooError`) unless it matches the manifest."""
    path = root / record["file"]
    old = file_sha256(path) if path.is_file() else None
    if old != record["sha256"]:
        raise ZooError(f"{path} does not match the sha256 recorded for {name!r} in the manifest, so its header "
                       f"cannot be vouched for; restore it with `git checkout {path}` or rebuild it with "
                       f"`python -m lengen_utils.lab.zoo train {name}`")
    return path, old


def migrate_entry(name: str, assets: Path | None = None, check: bool = True) -> dict:
    """Migrate entry ``name``'s checkpoint; returns ``{"name", "migrated", "old_sha256", "sha256", "em"}``.

    Refuses (:class:`ZooError`) a file that differs from its manifest sha256. With ``check``, the
    migrated file is re-measured and must reproduce the recorded exact match exactly."""
    root = assets_dir(assets)
    record = manifest_record(name, root)
    path, old = _vouched_path(name, record, root)
    report = {"name": name, "migrated": stored_format(path) != FORMAT_VERSION, "old_sha256": old, "sha256": old}
    if report["migrated"]:
        record = commit(name, record, lambda tmp: migrate_checkpoint(path, tmp), root)
        report["sha256"] = record["sha256"]
    if check:
        report["em"] = verify(name, retrain=False, assets=root)["cached"]
    return report


def half_entry(name: str, assets: Path | None = None) -> dict:
    """Convert entry ``name`` to float16 storage and re-measure it; returns ``{"name", "converted",
    "old_sha256", "sha256", "old_em", "em"}`` (``old_em``: the record's float32 exact match).

    Refuses (:class:`ZooError`) a file that differs from its manifest sha256 (before and again under the
    manifest's lock, when the asset is written) and (``AssertionError``) a catalog entry that no longer
    matches the record. An entry already stored in float16 is left as it is."""
    root = assets_dir(assets)
    record = manifest_record(name, root)
    path, old = _vouched_path(name, record, root)
    old_em = {int(k): float(v) for k, v in record["metrics"]["em"].items()}
    report = {"name": name, "converted": record.get("storage") != HALF, "old_sha256": old, "sha256": old,
              "old_em": old_em, "em": old_em}
    if not report["converted"]:
        return report
    e = catalog_entry_of(name, record)
    model, meta = load_model(path, expected_sha256=old)
    metrics = measure(round_to_half(model), e)
    new = {**record, "metrics": metrics, "float32_em": record["metrics"]["em"], "storage": HALF}

    def write(tmp: Path) -> None:            # runs under the manifest's lock: nobody rebuilt it meanwhile
        if _vouched_path(name, manifest_record(name, root), root)[1] != old:
            raise ZooError(f"{name!r} was rebuilt while it was being converted; run the conversion again")
        save_model(tmp, model, meta, half=True)

    report["sha256"] = commit(name, new, write, root)["sha256"]
    report["em"] = {int(k): float(v) for k, v in metrics["em"].items()}
    return report


def _renamed_record(old: str, new: str, record: dict, root: Path) -> dict:
    out = {**record, "renamed_from": old}
    if "command" in out:
        out["command"] = out["command"].replace(f" {old}", f" {new}")
    if "file" in out:
        out["file"] = checkpoint_path(new, root).relative_to(root).as_posix()
    return out


def rename_ids(assets: Path | None = None) -> dict[str, str]:
    """Give every renamed entry of ``assets`` (default the zoo's) its new name, in the manifest, ``records.json``,
    ``retired.json`` and on disk; returns ``{old: new}`` of what it renamed (``{}`` when nothing was left to do).
    A file that differs from its manifest sha256 is refused (:class:`ZooError`), as is a new name already taken."""
    root = assets_dir(assets)
    done: dict[str, str] = {}
    with manifest_lock(root):
        manifest = read_manifest(root)
        moves = []
        for old, new in sorted(RENAMED_ENTRIES.items()):
            if old not in manifest:
                continue
            if new in manifest:
                raise ZooError(f"{root}: both {old!r} and its new name {new!r} are in the manifest; retire one first")
            path, _ = _vouched_path(old, manifest[old], root)
            target = checkpoint_path(new, root)
            if not target.exists():
                os.link(path, target)
            elif not target.samefile(path):       # a crash's leftover is the same file; anything else is refused
                raise ZooError(f"{target} exists and is not {path}; move it away, then migrate again")
            manifest[new] = _renamed_record(old, new, manifest.pop(old), root)
            moves.append(path)
            done[old] = new
        for file_name, read in ((RECORDS, read_records), (RETIRED, read_retired)):
            records = read(root)
            renamed = {old: new for old, new in RENAMED_ENTRIES.items() if old in records and new not in records}
            if renamed:
                for old, new in renamed.items():
                    records[new] = _renamed_record(old, new, records.pop(old), root)
                replace_json(root / file_name, dict(sorted(records.items())))
                done.update(renamed)
        if moves:
            replace_json(manifest_path(root), manifest)
            for path in moves:
                path.unlink()
    return done

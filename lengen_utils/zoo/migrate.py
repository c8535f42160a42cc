"""``python -m lengen_utils.zoo migrate``: rewrite the zoo's format-1 checkpoints in the current format.

A format-1 file has no checksum over its header, so ``load_model`` accepts it only with the whole
file's sha256. Migration keeps every tensor and header string, adds the record checksum, and records
the new sha256. Each file is checked against its manifest sha256 first (the header the new checksum
seals is the committed one), the asset and its record are replaced together
(:func:`~lengen_utils.zoo.manifest.commit`), and the new file is re-measured: its exact match must equal
the manifest's metrics exactly (``zoo verify --no-retrain``).
"""
from __future__ import annotations

from pathlib import Path

from ..checkpoint import FORMAT_VERSION, file_sha256, migrate_checkpoint, stored_format
from .builder import verify
from .entry import ZooError
from .manifest import assets_dir, commit, manifest_record, read_manifest


def outdated(assets: Path | None = None) -> list[str]:
    """The built entries whose checkpoint is not in the current format, by name."""
    root = assets_dir(assets)
    return sorted(name for name, rec in read_manifest(root).items()
                  if "file" in rec and (root / rec["file"]).is_file()
                  and stored_format(root / rec["file"]) != FORMAT_VERSION)


def migrate_entry(name: str, assets: Path | None = None, check: bool = True) -> dict:
    """Migrate entry ``name``'s checkpoint; returns ``{"name", "migrated", "old_sha256", "sha256", "em"}``.

    Refuses (:class:`ZooError`) a file that differs from its manifest sha256. With ``check``, the
    migrated file is re-measured and must reproduce the recorded exact match exactly."""
    root = assets_dir(assets)
    record = manifest_record(name, root)
    path = root / record["file"]
    old = file_sha256(path) if path.is_file() else None
    if old != record["sha256"]:
        raise ZooError(f"{path} does not match the sha256 recorded for {name!r} in the manifest, so its header "
                       f"cannot be vouched for; restore it with `git checkout {path}` or rebuild it with "
                       f"`python -m lengen_utils.zoo train {name}`")
    report = {"name": name, "migrated": stored_format(path) != FORMAT_VERSION, "old_sha256": old, "sha256": old}
    if report["migrated"]:
        record = commit(name, record, lambda tmp: migrate_checkpoint(path, tmp), root)
        report["sha256"] = record["sha256"]
    if check:
        report["em"] = verify(name, retrain=False, assets=root)["cached"]
    return report

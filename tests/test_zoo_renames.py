"""Short ids (issue 35): every recipe id is at most 24 characters, the ids 0.3 shortened still resolve with a
deprecation, and ``zoo migrate --ids`` renames an older assets folder without touching a checkpoint's bytes."""
from __future__ import annotations

import json
import re
import shutil
import subprocess
from dataclasses import replace
from pathlib import Path

import pytest

from lengen_utils.core.checkpoint import file_sha256
from lengen_utils.lab import zoo
from lengen_utils.lab.zoo import commands, migrate, registry
from lengen_utils.lab.zoo.aliases import RENAMED, RENAMED_ENTRIES
from lengen_utils.lab.experiment.entry import MAX_ID_LENGTH, ZooError
from cli_run import run_cli

ROOT = Path(__file__).resolve().parents[1]
OLD, NEW = "nb08-coupled-scratch-long-s0", "nb08-coupled-scratch-6k-s0"   # one seed of a small renamed recipe


def test_every_recipe_id_is_short_and_a_longer_one_is_refused(monkeypatch):
    ids = {e.recipe for e in zoo.catalog().values()}
    assert max(map(len, ids)) <= MAX_ID_LENGTH, sorted(i for i in ids if len(i) > MAX_ID_LENGTH)
    long = replace(zoo.get_recipe("nb05-plain"), id="nb05-plain-with-a-very-long-name")    # a sweep's point may be
    monkeypatch.setattr(registry, "ENTRIES", {})                                          # long; the catalog's not
    with pytest.raises(ValueError, match=r"zoo recipe id 'nb05-plain-with-a-very-long-name' has 32 characters, more "
                                         r"than 24: a variant's settings belong in its fields"):
        registry.register_recipe(long)


def test_every_renamed_id_points_at_a_recipe_and_no_old_id_is_registered():
    recipes = {e.recipe for e in zoo.catalog().values()}
    assert set(RENAMED.values()) <= recipes and not set(RENAMED) & recipes
    built = zoo.read_manifest()
    assert len(RENAMED_ENTRIES) == sum(len(zoo.recipe_entries(new)) for new in RENAMED.values())
    for old, new in RENAMED_ENTRIES.items():                  # every seed of every renamed recipe
        assert zoo.catalog()[new].recipe in RENAMED.values() and old not in zoo.catalog() and old not in built


@pytest.mark.parametrize("old, new", sorted(RENAMED.items()))
def test_an_old_id_resolves_to_the_new_one_with_a_deprecation(old, new):
    with pytest.warns(FutureWarning, match=rf"zoo id '{re.escape(old)}' is deprecated: it is now '{re.escape(new)}'"):
        assert zoo.recipe_entries(old) == zoo.recipe_entries(new) != {}
    first_seed, first_name = next(iter(zoo.recipe_entries(new).items()))
    old_name = next(o for o, n in RENAMED_ENTRIES.items() if n == first_name)
    with pytest.warns(FutureWarning, match=re.escape(first_name)) as warned:
        assert zoo.entry(old_name).name == first_name
    assert warned[0].filename == __file__           # the warning names the learner's line, not the zoo's
    with pytest.warns(FutureWarning):
        assert zoo.entry_for(old, first_seed).name == first_name


def test_a_renamed_entry_loads_and_measures_by_its_old_name():
    with pytest.warns(FutureWarning, match=NEW):
        assert zoo.manifest_record(OLD) == zoo.manifest_record(NEW)
    assert zoo.manifest_record(NEW)["renamed_from"] == OLD
    assert zoo.manifest_record(NEW)["file"] == f"zoo/{NEW}.safetensors"


def _old_assets(tmp_path: Path) -> Path:
    """An assets folder as 0.2 left it: one renamed entry under its old name, one record-only entry too."""
    folder = tmp_path / "assets"
    (folder / "zoo").mkdir(parents=True)
    record = {k: v for k, v in zoo.manifest_record(NEW).items() if k != "renamed_from"}
    record = {**record, "file": f"zoo/{OLD}.safetensors", "command": f"python -m lengen_utils.lab.zoo train {OLD}"}
    shutil.copy(ROOT / "assets" / "zoo" / f"{NEW}.safetensors", folder / "zoo" / f"{OLD}.safetensors")
    (folder / "manifest.json").write_text(json.dumps({OLD: record}))
    records = json.loads((ROOT / "assets" / "records.json").read_text())
    gpu_new = next(n for n in records if n in RENAMED_ENTRIES.values())
    gpu_old = next(o for o, n in RENAMED_ENTRIES.items() if n == gpu_new)
    (folder / "records.json").write_text(json.dumps({gpu_old: records[gpu_new]}))
    return folder


def test_migrate_ids_renames_files_and_records_and_keeps_the_bytes(tmp_path):
    folder = _old_assets(tmp_path)
    sha = file_sha256(folder / "zoo" / f"{OLD}.safetensors")
    renamed = migrate.rename_ids(folder)
    assert renamed[OLD] == NEW and len(renamed) == 2
    assert not (folder / "zoo" / f"{OLD}.safetensors").exists()
    assert file_sha256(folder / "zoo" / f"{NEW}.safetensors") == sha
    record = json.loads((folder / "manifest.json").read_text())[NEW]
    assert (record["renamed_from"], record["file"], record["sha256"]) == (OLD, f"zoo/{NEW}.safetensors", sha)
    assert record["command"].endswith(f" train {NEW}")
    assert set(json.loads((folder / "records.json").read_text())) <= set(RENAMED_ENTRIES.values())
    assert zoo.verify(NEW, retrain=False, assets=folder)["cached"] == zoo.metrics(NEW)
    assert migrate.rename_ids(folder) == {}                        # nothing left to do the second time


def test_migrate_ids_refuses_a_file_that_is_not_the_recorded_one(tmp_path):
    folder = _old_assets(tmp_path)
    with open(folder / "zoo" / f"{OLD}.safetensors", "ab") as f:
        f.write(b"x")
    before = (folder / "manifest.json").read_text()
    with pytest.raises(zoo.ZooError, match="does not match the sha256 recorded"):
        migrate.rename_ids(folder)
    assert (folder / "manifest.json").read_text() == before and not (folder / "zoo" / f"{NEW}.safetensors").exists()


def test_zoo_cli_migrate_ids(tmp_path, monkeypatch, capsys):
    folder = _old_assets(tmp_path)
    monkeypatch.setenv("LENGEN_ASSETS", str(folder))
    assert commands.main(["migrate", "--ids"]) == 0
    assert "2 entries renamed" in capsys.readouterr().out
    code, err = run_cli(commands.main, ["migrate", "--ids", NEW], capsys)
    assert code == 2 and "migrate --ids renames every renamed entry" in err


def test_no_old_id_is_left_in_the_course_the_package_or_the_tests():
    files = subprocess.run(["git", "-C", str(ROOT), "ls-files", "lengen_utils", "notebooks", "tests", "README.md",
                            "CONTRIBUTING.md", "docs"], capture_output=True, text=True, check=True).stdout.split()
    allowed = ("lengen_utils/lab/zoo/aliases.py", "tests/test_zoo_renames.py", "docs/logs/")
    pattern = re.compile("|".join(rf"(?<![\w-]){re.escape(old)}(?=-s\d|(?![\w-]))" for old in RENAMED))
    found = [f"{rel}: {m.group(0)}" for rel in files if not rel.startswith(allowed)
             and rel.endswith((".py", ".ipynb", ".md", ".json", ".cfg"))
             for m in [pattern.search((ROOT / rel).read_text())] if m]
    assert found == []


def test_no_id_is_composed_outside_the_store(monkeypatch):
    """Ids are composed in the store only (lab/zoo and lab/experiment: ``RecipeTable.id``, ``entry_name``,
    ``variant_id``); the catalog refuses a derived run's id."""
    composing = re.compile(r"""\bid=f["']|\.derive\(f["']|id_with_seed\(""")
    found = [f"{path.relative_to(ROOT)}:{i}" for path in sorted((ROOT / "lengen_utils").rglob("*.py"))
             if "lab/zoo" not in path.as_posix() and "lab/experiment" not in path.as_posix()
             for i, line in enumerate(path.read_text().splitlines(), 1) if composing.search(line)]
    assert found == []
    derived = replace(zoo.get_recipe("nb05-plain"), id=zoo.variant_id("nb05-plain", "lr=0.01"))
    assert derived.id == "nb05-plain[lr=0.01]"
    monkeypatch.setattr(registry, "ENTRIES", {})
    with pytest.raises(ValueError, match=r"names a derived run \(\{base\}\[\{label\}\]\)"):
        registry.register_recipe(derived)


def test_migrate_ids_refuses_a_different_file_under_the_new_name(tmp_path):
    folder = _old_assets(tmp_path)
    (folder / "zoo" / f"{NEW}.safetensors").write_bytes(b"another file")
    before = (folder / "manifest.json").read_text()
    with pytest.raises(zoo.ZooError, match=rf"{NEW}.safetensors exists and is not "):
        migrate.rename_ids(folder)
    assert (folder / "manifest.json").read_text() == before and (folder / "zoo" / f"{OLD}.safetensors").exists()


def test_a_typo_in_an_old_id_points_at_its_new_id():
    """A deprecated id with a typo is closest to the old id itself: the suggestion must be what it became, not a
    recipe of another name that happens to look alike."""
    for old, new in RENAMED.items():
        typo = old[:-2] + old[-1]                                       # one character dropped
        with pytest.raises(ZooError) as entry_error:
            zoo.entry(f"{typo}-s0")
        assert str(entry_error.value).split("closest: ")[1].startswith(f"{new}-s0 (renamed from {old}-s0)"), (
            old, str(entry_error.value))
        with pytest.raises(ZooError, match=rf"(did you mean|closest recipes:) {re.escape(new)} \(renamed from"):
            zoo.get_recipe(typo)

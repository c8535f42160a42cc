"""``zoo import``: an entry built elsewhere (another assets folder, a GPU run's flat files) enters assets/ only after
its record, file and configs check out, with the file and the record written together."""
from __future__ import annotations

import json
import shutil

import pytest

from lengen_utils import zoo
from lengen_utils.lab.zoo.entry import ZooError
from lengen_utils.lab.zoo.importing import import_entry

NAME = "nb07-coupled-1l2h"          # a small built entry (about 100 kB)


@pytest.fixture
def built(tmp_path):
    """A flat folder as scripts/gpu_checks.sh leaves it: NAME.safetensors and manifest-NAME.json."""
    src = tmp_path / "built"
    src.mkdir()
    record = zoo.manifest_record(NAME)
    shutil.copyfile(zoo.ASSETS / record["file"], src / f"{NAME}.safetensors")
    (src / f"manifest-{NAME}.json").write_text(json.dumps({NAME: record}))
    return src


def test_an_entry_is_imported_with_its_record(built, tmp_path):
    target = tmp_path / "assets"
    rec = import_entry(NAME, built, target)
    original = zoo.manifest_record(NAME)
    assert rec["sha256"] == original["sha256"] and rec["metrics"] == original["metrics"]
    assert zoo.read_manifest(target)[NAME] == rec
    assert (target / rec["file"]).is_file()


def test_the_cli_imports_into_the_assets_folder(built, tmp_path, monkeypatch, capsys):
    (tmp_path / "assets").mkdir()
    monkeypatch.setenv("LENGEN_ASSETS", str(tmp_path / "assets"))
    assert zoo.main(["import", str(built), NAME]) == 0
    assert "imported" in capsys.readouterr().out
    assert NAME in zoo.read_manifest(tmp_path / "assets")


def test_a_changed_file_is_refused_and_nothing_is_written(built, tmp_path):
    data = bytearray((built / f"{NAME}.safetensors").read_bytes())
    data[-1] ^= 1
    (built / f"{NAME}.safetensors").write_bytes(bytes(data))
    with pytest.raises(ZooError, match="sha256"):
        import_entry(NAME, built, tmp_path / "assets")
    assert not (tmp_path / "assets" / "manifest.json").exists()


def test_a_record_of_another_recipe_is_refused(built, tmp_path):
    records = json.loads((built / f"manifest-{NAME}.json").read_text())
    records[NAME]["model"]["d_model"] = 32
    (built / f"manifest-{NAME}.json").write_text(json.dumps(records))
    with pytest.raises(ZooError, match="not this catalog's entry"):
        import_entry(NAME, built, tmp_path / "assets")


def test_a_missing_checkpoint_or_record_is_named(tmp_path):
    (tmp_path / "empty").mkdir()
    with pytest.raises(ZooError, match="no checkpoint"):
        import_entry(NAME, tmp_path / "empty", tmp_path / "assets")
    with pytest.raises(ZooError, match="not a folder"):
        import_entry(NAME, tmp_path / "nowhere", tmp_path / "assets")

"""``zoo import``: an entry built elsewhere (another assets folder, a GPU run's flat files) enters assets/ only after
its record, file and configs check out, with the file and the record written together."""
from __future__ import annotations

import json
import shutil

import pytest

from lengen_utils.lab import zoo
from lengen_utils.lab.experiment.entry import ZooError
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


def _another_build(built, tmp_path):
    """A second valid build of NAME: the same recipe, weights nudged, its own sha256 and a changed metric."""
    import torch

    from lengen_utils.core.checkpoint import file_sha256, load_model, save_model
    src = tmp_path / "other"
    src.mkdir()
    model, meta = load_model(built / f"{NAME}.safetensors")
    with torch.no_grad():
        next(model.parameters()).add_(0.5)
    save_model(src / f"{NAME}.safetensors", model, meta, half=True)
    record = json.loads((built / f"manifest-{NAME}.json").read_text())[NAME]
    record["sha256"] = file_sha256(src / f"{NAME}.safetensors")
    length = next(iter(record["metrics"]["em"]))
    record["metrics"]["em"][length] = 0.5
    (src / f"manifest-{NAME}.json").write_text(json.dumps({NAME: record}))
    return src, record, length


def test_a_different_build_is_refused_with_what_would_change_then_replaced_on_request(built, tmp_path):
    target = tmp_path / "assets"
    first = import_entry(NAME, built, target)
    other, record, length = _another_build(built, tmp_path)
    with pytest.raises(ZooError, match=rf"already in .* as another build \(sha256 {first['sha256'][:12]} -> "
                                       rf"{record['sha256'][:12]}; EM {length}: .* -> 0.500\); nothing was written; "
                                       rf"import with --replace"):
        import_entry(NAME, other, target)
    assert zoo.read_manifest(target)[NAME] == first                       # the recorded result is kept
    assert import_entry(NAME, built, target) == first                      # the same build again: a no-op
    replaced = import_entry(NAME, other, target, replace=True)
    assert zoo.read_manifest(target)[NAME]["sha256"] == record["sha256"] == replaced["sha256"]


def test_the_cli_refuses_a_different_build_in_one_line_and_replaces_with_the_flag(built, tmp_path, monkeypatch,
                                                                                     capsys):
    (tmp_path / "assets").mkdir()
    monkeypatch.setenv("LENGEN_ASSETS", str(tmp_path / "assets"))
    assert zoo.main(["import", str(built), NAME]) == 0
    other, record, _ = _another_build(built, tmp_path)
    capsys.readouterr()
    assert zoo.main(["import", str(other), NAME]) == 1
    err = capsys.readouterr().err
    assert "--replace" in err and "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert zoo.main(["import", "--replace", str(other), NAME]) == 0
    assert zoo.read_manifest(tmp_path / "assets")[NAME]["sha256"] == record["sha256"]


def test_an_alias_is_imported_under_its_entry(tmp_path):
    from lengen_utils.lab.zoo.aliases import ALIASES
    alias, name = next(iter(ALIASES.items()))
    src = tmp_path / "built"
    src.mkdir()
    record = zoo.manifest_record(name)
    shutil.copyfile(zoo.ASSETS / record["file"], src / f"{name}.safetensors")
    (src / f"manifest-{name}.json").write_text(json.dumps({name: record}))
    rec = import_entry(alias, src, tmp_path / "assets")
    assert rec["sha256"] == record["sha256"] and name in zoo.read_manifest(tmp_path / "assets")


def test_an_unwritable_assets_folder_is_refused_before_anything_is_read(built, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("a file, not a folder")
    with pytest.raises(ZooError, match="cannot write to the assets folder"):
        import_entry(NAME, built, blocker / "assets")

"""`zoo retire`: a built entry's weights leave assets/, its measurements stay (assets/retired.json)."""
import json
import shutil

from cli_run import run_cli

from lengen_utils.lab.zoo import commands
from lengen_utils.lab.zoo.manifest import ASSETS, read_manifest
from lengen_utils.lab.zoo.records import read_retired

NAME = "nb05-base-ape-s0"          # a small built entry, copied into a scratch assets folder


def scratch_assets(tmp_path):
    record = read_manifest(ASSETS)[NAME]
    (tmp_path / "zoo").mkdir()
    shutil.copy(ASSETS / record["file"], tmp_path / record["file"])
    (tmp_path / "manifest.json").write_text(json.dumps({NAME: record}))
    return tmp_path, record


def test_retire_moves_the_record_and_deletes_the_file(tmp_path, capsys, monkeypatch):
    root, record = scratch_assets(tmp_path)
    monkeypatch.setenv("LENGEN_ASSETS", str(root))
    code, err = run_cli(commands.main, ["retire", NAME], capsys)
    assert code == 0, err
    assert NAME not in read_manifest(root) and not (root / record["file"]).exists()
    kept = read_retired(root)[NAME]
    assert kept["stored"] is False and kept["metrics"] == record["metrics"] and kept["command"] == record["command"]
    assert "file" not in kept and "sha256" not in kept


def test_retire_refuses_an_entry_that_is_not_built(tmp_path, capsys, monkeypatch):
    root, _ = scratch_assets(tmp_path)
    monkeypatch.setenv("LENGEN_ASSETS", str(root))
    code, err = run_cli(commands.main, ["retire", "nb05-base-ape-s1"], capsys)
    assert code == 2 and "nb05-base-ape-s1" in err and "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert NAME in read_manifest(root) and read_retired(root) == {}


def test_zoo_train_refuses_to_replace_a_built_entry_without_replace(tmp_path, capsys, monkeypatch):
    root, record = scratch_assets(tmp_path)
    monkeypatch.setenv("LENGEN_ASSETS", str(root))
    code, err = run_cli(commands.main, ["train", NAME], capsys)
    assert code == 2 and "already built" in err and record["sha256"][:12] in err and "--replace" in err, err
    assert read_manifest(root)[NAME] == record                               # nothing trained, nothing replaced
    kept = commands._not_replacing([NAME, "nb05-base-ape-s1"], named=set())  # brought in by --tag: skipped
    assert kept == ["nb05-base-ape-s1"] and "already built, skipped" in capsys.readouterr().out


def test_zoo_train_rebuilds_a_damaged_entry_without_asking(tmp_path, monkeypatch):
    root, record = scratch_assets(tmp_path)
    monkeypatch.setenv("LENGEN_ASSETS", str(root))
    (root / record["file"]).write_bytes(b"damaged")
    assert commands._not_replacing([NAME], named={NAME}) == [NAME]


def test_retiring_a_retired_entry_says_it_was_retired_and_how_to_build_it_again(tmp_path, capsys, monkeypatch):
    root, record = scratch_assets(tmp_path)
    monkeypatch.setenv("LENGEN_ASSETS", str(root))
    assert run_cli(commands.main, ["retire", NAME], capsys)[0] == 0
    code, err = run_cli(commands.main, ["retire", NAME], capsys)
    assert code == 2 and "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert "was retired" in err and "retired.json" in err and f"train {NAME}" in err and "not built" not in err, err
    assert read_retired(root)[NAME]["metrics"] == record["metrics"]          # the record is kept, once


def test_retiring_an_alias_retires_its_entry(tmp_path, capsys, monkeypatch):
    from lengen_utils.lab.zoo.aliases import ALIASES
    alias = next(a for a, name in ALIASES.items() if name == NAME)
    root, record = scratch_assets(tmp_path)
    monkeypatch.setenv("LENGEN_ASSETS", str(root))
    code, err = run_cli(commands.main, ["retire", alias], capsys)
    assert code == 0, err
    assert NAME not in read_manifest(root) and not (root / record["file"]).exists()
    assert read_retired(root)[NAME]["metrics"] == record["metrics"] and alias not in read_retired(root)

"""Zoo entries stored in half precision. ``build`` rounds to float16 before measuring, ``verify``
rounds a retrained model the same way, ``migrate --half`` converts a float32 entry and re-measures it,
and the manifest's compact layout reads back as the same data."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
import torch

from lengen_utils.lab import zoo
from lengen_utils.core.checkpoint import file_sha256, load_model, save_model, stored_storage
from lengen_utils.lab.zoo import builder as zoo_build
from lengen_utils.lab.zoo import manifest as zoo_manifest
from lengen_utils.lab.zoo import store as zoo_store
from lengen_utils.lab.zoo import migrate as zoo_migrate
from cli_run import run_cli
from test_zoo import TINY, _snapshot, tiny_zoo  # noqa: F401 (tiny_zoo is a fixture)


def _run_out(argv: list[str], capsys) -> tuple[int, str]:
    """``zoo.main(argv)``'s exit code and stdout (stderr added when it fails)."""
    code = zoo.main(argv)
    captured = capsys.readouterr()
    return code, captured.out + ("" if code == 0 else captured.err)


def _representable_in_half(model) -> bool:
    return all(torch.equal(v, v.half().to(v.dtype)) for v in model.state_dict().values() if v.is_floating_point())


@pytest.fixture()
def spied(monkeypatch):
    """Wraps the builder's ``measure``: each call records whether the model's weights were float16 values."""
    seen: list[bool] = []
    real = zoo_build.measure

    def spy(model, e, progress=False):
        seen.append(_representable_in_half(model))
        return real(model, e, progress)
    monkeypatch.setattr(zoo_build, "measure", spy)
    monkeypatch.setattr(zoo_migrate, "measure", spy)
    return seen


# -- build and verify ---------------------------------------------------------------------------------
def test_build_stores_float16_and_measures_the_stored_weights(tmp_path, monkeypatch, spied):
    monkeypatch.setitem(zoo.catalog(), TINY.name, TINY)
    rec = zoo.build(TINY.name, progress=False, assets=tmp_path)
    assert spied == [True], "build measured weights that are not the stored float16 ones"
    assert rec["storage"] == "float16" and zoo.manifest_record(TINY.name, tmp_path)["storage"] == "float16"
    path = tmp_path / rec["file"]
    assert stored_storage(path) == "float16"
    model, _ = zoo.load(TINY.name, assets=tmp_path)
    assert zoo_build.measure(model, TINY) == rec["metrics"]            # per-digit tables included, exactly


def test_verify_rounds_the_retrained_model_of_a_float16_entry(tiny_zoo, spied):
    report = zoo.verify(TINY.name, tolerance=0.0, assets=tiny_zoo)      # exact: same seed, same rounding
    assert spied == [True, True] and report["storage"] == "float16"
    assert report["cached"] == report["recorded"] == report["retrained"]


def _as_float32(assets: Path, planted_em: float = 0.123) -> Path:
    """Turn the tiny entry into a float32 one as older builds left it: weights off the float16 grid, no
    ``storage``, and EM numbers planted in the record (a conversion must replace them by measuring)."""
    path = assets / "zoo" / f"{TINY.name}.safetensors"
    model, meta = load_model(path)
    torch.manual_seed(5)
    with torch.no_grad():
        for p in model.parameters():
            p.add_(torch.randn_like(p) * 1e-3)
    save_model(path, model, meta)
    record = zoo.manifest_record(TINY.name, assets)
    record.pop("storage")
    record["metrics"] = {**record["metrics"], "em": {k: planted_em for k in record["metrics"]["em"]}}
    zoo_store.record_in_manifest(TINY.name, {**record, "sha256": file_sha256(path)}, assets)
    return path


def test_verify_measures_a_float32_entrys_retrained_model_as_trained(tiny_zoo, spied):
    path = _as_float32(tiny_zoo)
    model, _ = load_model(path)
    record = zoo.manifest_record(TINY.name, tiny_zoo)
    zoo_store.record_in_manifest(TINY.name, {**record, "metrics": zoo_build.measure(model, TINY)}, tiny_zoo)
    spied.clear()
    report = zoo.verify(TINY.name, tolerance=1.0, assets=tiny_zoo)
    assert report["storage"] == "float32" and spied == [False, False]


# -- migrate --half -----------------------------------------------------------------------------------
def test_migrate_half_converts_and_remeasures(tiny_zoo, monkeypatch, capsys, spied):
    path = _as_float32(tiny_zoo)
    before = zoo.manifest_record(TINY.name, tiny_zoo)
    size = path.stat().st_size
    monkeypatch.setenv("LENGEN_ASSETS", str(tiny_zoo))
    monkeypatch.setattr(zoo_build, "train_entry", lambda *a, **k: pytest.fail("migrate must not train"))
    spied.clear()
    code, out = _run_out(["migrate", "--half", TINY.name], capsys)
    assert code == 0 and spied == [True], out
    after = zoo.manifest_record(TINY.name, tiny_zoo)
    assert after["storage"] == "float16" and stored_storage(path) == "float16"
    assert after["float32_em"] == before["metrics"]["em"] == {"1": 0.123, "2": 0.123}
    model, _ = zoo.load(TINY.name, assets=tiny_zoo)
    assert after["metrics"] == zoo_build.measure(model, TINY)           # re-measured, not copied
    assert after["metrics"]["em"] != before["metrics"]["em"]
    for key in ("command", "train_seconds", "final_loss", "task", "model", "train", "created", "seed"):
        assert after[key] == before[key], key
    assert after["sha256"] == file_sha256(path) != before["sha256"] and path.stat().st_size < 0.6 * size
    assert f"{TINY.name}: " in out and "EM float32 -> float16: 1: 0.1230 -> " in out and "largest change" in out
    assert "1 of 1 checkpoint(s) converted to float16 and re-measured" in out
    code, out = _run_out(["verify", TINY.name, "--no-retrain"], capsys)
    assert code == 0 and f"{TINY.name}: verified" in out, out
    code, out = _run_out(["migrate", "--half", TINY.name], capsys)
    assert code == 0 and "already float16" in out and "0 of 1 checkpoint(s) converted" in out


def test_migrate_half_refuses_a_tampered_file(tiny_zoo, monkeypatch, capsys):
    path = _as_float32(tiny_zoo)
    raw = bytearray(path.read_bytes())
    raw[-3] ^= 1                                                         # one bit of one weight
    path.write_bytes(bytes(raw))
    before = _snapshot(tiny_zoo)
    monkeypatch.setenv("LENGEN_ASSETS", str(tiny_zoo))
    code, err = run_cli(zoo.main, ["migrate", "--half", TINY.name], capsys)
    assert code == 1 and "does not match the sha256 recorded for 'test-tiny'" in err, err
    assert _snapshot(tiny_zoo) == before


def test_migrate_half_refuses_an_entry_rebuilt_meanwhile(tiny_zoo, monkeypatch):
    _as_float32(tiny_zoo)
    real_measure = zoo_migrate.measure

    def rebuild_while_measuring(model, e, progress=False):              # another process rebuilds the entry
        zoo.build(TINY.name, progress=False, assets=tiny_zoo)
        return real_measure(model, e, progress)
    monkeypatch.setattr(zoo_migrate, "measure", rebuild_while_measuring)
    rebuilt = None
    with pytest.raises(zoo.ZooError, match="rebuilt while it was being converted"):
        rebuilt = zoo_migrate.half_entry(TINY.name, tiny_zoo)
    assert rebuilt is None and "float32_em" not in zoo.manifest_record(TINY.name, tiny_zoo)
    zoo.load(TINY.name, assets=tiny_zoo)                                 # the rebuilt asset matches its record


def test_migrate_half_needs_names(monkeypatch, capsys):
    code, err = run_cli(zoo.main, ["migrate", "--half"], capsys)
    assert code == 2 and "name them" in err, err


# -- the manifest's compact layout ----------------------------------------------------------------------
PLANTED = {
    "b-entry": {"command": "c", "file": "zoo/b.safetensors", "sha256": "0" * 64, "task": {}, "model": {}, "metrics": {"em": {"5": 1.0, "10": 0.5, "1000": 0.0},
                                            "per_digit": {"5": {"0": 1.0, "1": 0.999}, "10": {}},
                                            "eval_n": 1000, "eval_seed": 999},
                "train": {"betas": [0.9, 0.98], "steps": 10, "amp": True, "lr": 3e-05}, "final_loss": None,
                "tags": ["a", "é\"q"], "flags": [True, False], "mixed": [1, "x"], "empty": [], "tiny": 1e-300},
    "a-entry": {"command": "c", "file": "zoo/a.safetensors", "sha256": "0" * 64, "task": {}, "model": {},
                "metrics": {"em": {"1": 0.1 + 0.2}}, "nested": [[1, 2], [3.5]]},
}


def test_the_compact_manifest_reads_back_identically(tmp_path):
    for name, record in PLANTED.items():
        zoo_store.record_in_manifest(name, record, tmp_path)
    text = (tmp_path / "manifest.json").read_text()
    assert zoo.read_manifest(tmp_path) == json.loads(json.dumps(PLANTED))
    assert list(json.loads(text)) == ["a-entry", "b-entry"] and text.endswith("}\n")
    lines = text.splitlines()
    assert '   "em": {"5":1.0,"10":0.5,"1000":0.0},' in lines                  # a table of numbers: one line
    assert '    "5": {"0":1.0,"1":0.999},' in lines and '   "betas": [0.9,0.98],' in lines
    assert '   "steps": 10,' in lines and '  "tags": [' in lines and '  "flags": [' in lines   # others as before
    assert '  "nested": [' in lines and '   [1,2],' in lines


def test_rewriting_an_old_manifest_keeps_every_record(tmp_path):
    old = json.dumps(dict(sorted(PLANTED.items())), indent=1) + "\n"           # the layout written before
    (tmp_path / "manifest.json").write_text(old)
    zoo_store.rewrite_manifest(tmp_path)
    text = (tmp_path / "manifest.json").read_text()
    assert json.loads(text) == json.loads(old) and len(text) < len(old)
    assert [p.name for p in tmp_path.iterdir() if p.name != zoo_manifest.LOCK] == ["manifest.json"]


def test_the_repositorys_manifest_survives_the_compact_layout():
    path = zoo.REPO_ROOT / "assets" / "manifest.json"
    data = json.loads(path.read_text())
    assert json.loads(zoo_manifest._compact(dict(sorted(data.items())))) == data

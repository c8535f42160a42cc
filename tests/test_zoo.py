"""The zoo: build -> manifest -> load -> verify, and clear errors for missing or altered assets."""
import json

import pytest

from lengen_utils import zoo
from lengen_utils.checkpoint import CheckpointError
from lengen_utils.model import ModelConfig
from lengen_utils.tasks import TaskConfig
from lengen_utils.train import TrainConfig

TINY = zoo.ZooEntry(
    name="test-tiny", description="a few steps, for tests",
    task=TaskConfig(format="cho", positions="coupled", max_digits=2, max_position=8),
    model=ModelConfig(d_model=16, n_heads=2, d_ff=32, max_positions=9),
    train=TrainConfig(steps=30, batch_size=16, lr=3e-3, warmup_steps=3, seed=1),
    eval_lengths=(1, 2), eval_n=50,
)


@pytest.fixture()
def tiny_zoo(tmp_path, monkeypatch):
    monkeypatch.setitem(zoo.catalog(), TINY.name, TINY)
    zoo.build(TINY.name, progress=False, assets=tmp_path)
    return tmp_path


def test_build_records_everything(tiny_zoo):
    rec = zoo.manifest_record(TINY.name, tiny_zoo)
    assert rec["command"] == "python -m lengen_utils.zoo train test-tiny"
    assert rec["seed"] == 1 and rec["task"]["max_digits"] == 2 and rec["model"]["d_model"] == 16
    assert set(rec["metrics"]["em"]) == {"1", "2"} and len(rec["sha256"]) == 64
    model, task = zoo.load(TINY.name, assets=tiny_zoo)
    assert model.cfg == TINY.model and task.config == TINY.task


def test_verify_reproduces_from_scratch(tiny_zoo):
    report = zoo.verify(TINY.name, tolerance=0.0, assets=tiny_zoo)
    assert report["retrained"] == report["recorded"] == report["cached"]


def test_tampered_asset_names_the_rebuild_command(tiny_zoo):
    path = tiny_zoo / zoo.manifest_record(TINY.name, tiny_zoo)["file"]
    data = bytearray(path.read_bytes())
    data[-1] ^= 1
    path.write_bytes(bytes(data))
    with pytest.raises(CheckpointError, match="python -m lengen_utils.zoo train test-tiny"):
        zoo.load(TINY.name, assets=tiny_zoo)


def test_missing_asset(tiny_zoo):
    (tiny_zoo / zoo.manifest_record(TINY.name, tiny_zoo)["file"]).unlink()
    with pytest.raises(CheckpointError, match="no checkpoint at .*Rebuild it with"):
        zoo.load(TINY.name, assets=tiny_zoo)


def test_rebuilding_one_entry_keeps_the_others(tiny_zoo):
    zoo.record_in_manifest("other", {"metrics": {"em": {"1": 0.5}}}, tiny_zoo)
    zoo.build(TINY.name, progress=False, assets=tiny_zoo)
    manifest = json.loads((tiny_zoo / "manifest.json").read_text())
    assert set(manifest) == {"other", TINY.name}


def test_unknown_names_are_clear(tmp_path):
    with pytest.raises(zoo.ZooError, match="no zoo entry named 'nope'"):
        zoo.entry("nope")
    with pytest.raises(zoo.ZooError, match="python -m lengen_utils.zoo train x"):
        zoo.manifest_record("x", tmp_path)


def test_catalog_entries_are_consistent():
    for name, e in zoo.catalog().items():
        assert e.name == name
        assert e.model.causal == (e.task.format != "sabbaghi"), name
        assert e.eval_n >= 100

"""Checkpoints: identical outputs after a round trip; missing, corrupted and tampered files refused."""
import pytest
import torch

from lengen_utils.checkpoint import CheckpointError, file_sha256, load_model, save_model
from lengen_utils.model import ModelConfig, Transformer


@pytest.fixture()
def saved(tmp_path):
    torch.manual_seed(0)
    model = Transformer(ModelConfig(d_model=32, n_heads=2, d_ff=64, encoding="rpe")).eval()
    path = save_model(tmp_path / "m.safetensors", model, {"note": "test"})
    return model, path


def test_round_trip_gives_identical_outputs(saved):
    model, path = saved
    loaded, meta = load_model(path)
    tokens = torch.randint(1, 15, (2, 9))
    pos = torch.arange(9).expand(2, 9)
    torch.testing.assert_close(model(tokens, pos), loaded(tokens, pos), atol=0, rtol=0)
    assert meta == {"note": "test"} and loaded.cfg == model.cfg


def test_missing_file_names_the_fix(tmp_path):
    with pytest.raises(CheckpointError, match="no checkpoint at .* rebuild me"):
        load_model(tmp_path / "nope.safetensors", rebuild_hint="rebuild me")


def test_tampered_weights_are_refused(saved):
    _, path = saved
    data = bytearray(path.read_bytes())
    data[-3] ^= 0xFF  # flip bits inside the last tensor
    path.write_bytes(bytes(data))
    with pytest.raises(CheckpointError, match="integrity check"):
        load_model(path)


def test_truncated_file_is_refused(saved):
    _, path = saved
    path.write_bytes(path.read_bytes()[:100])
    with pytest.raises(CheckpointError, match="not a readable checkpoint"):
        load_model(path)


def test_manifest_hash_mismatch(saved):
    _, path = saved
    with pytest.raises(CheckpointError, match="sha256"):
        load_model(path, expected_sha256="0" * 64)
    load_model(path, expected_sha256=file_sha256(path))


def test_pickle_file_is_not_executed(tmp_path):
    path = tmp_path / "evil.safetensors"
    torch.save({"x": 1}, path)   # a pickle, not safetensors
    with pytest.raises(CheckpointError):
        load_model(path)

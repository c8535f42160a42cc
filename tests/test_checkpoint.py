"""Checkpoints: identical outputs after a round trip; missing, corrupted and tampered files refused."""
import pytest
import torch

from lengen_utils.core.checkpoint import CheckpointError, file_sha256, load_model, save_model
from lengen_utils.core.model import ModelConfig, Transformer
from safetensors_edit import edit_metadata


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


def test_config_edited_in_the_header_is_refused(saved):
    import json
    _, path = saved

    def flip(meta):
        cfg = json.loads(meta["model_config"])
        cfg["causal"] = False           # same tensors, another model
        meta["model_config"] = json.dumps(cfg)
    edit_metadata(path, flip)
    with pytest.raises(CheckpointError, match="model config or metadata in its header"):
        load_model(path)


def _make_legacy(path):
    def legacy(meta):
        meta["lengen_format"] = "1"
        del meta["record_sha256"]
    edit_metadata(path, legacy)


def test_format_1_files_load_only_when_told_or_vouched_for(saved):
    model, path = saved
    _make_legacy(path)
    with pytest.raises(CheckpointError, match=r"is a format-1 checkpoint: its header .* has no checksum.*"
                                              r"migrate_checkpoint.*allow_unchecked_header=True"):
        load_model(path)
    loaded, meta = load_model(path, allow_unchecked_header=True)
    assert loaded.cfg == model.cfg and meta == {"note": "test"}
    loaded, _ = load_model(path, expected_sha256=file_sha256(path))      # the file's sha256 covers the header
    assert loaded.cfg == model.cfg


def test_migrate_keeps_the_tensors_and_seals_the_header(saved, tmp_path):
    import json
    from safetensors.torch import load_file

    from lengen_utils.core.checkpoint import migrate_checkpoint, stored_format
    model, path = saved
    _make_legacy(path)
    before = load_file(str(path))
    out = tmp_path / "migrated.safetensors"
    assert migrate_checkpoint(path, out) and stored_format(out) == "2"
    after = load_file(str(out))
    assert before.keys() == after.keys() and all(torch.equal(before[k], after[k]) for k in before)
    loaded, meta = load_model(out)
    assert loaded.cfg == model.cfg and meta == {"note": "test"}
    assert not migrate_checkpoint(out)                                  # already current: untouched

    def edit(meta):                                                     # a header edited after migration
        cfg = json.loads(meta["model_config"])
        cfg["causal"] = not cfg["causal"]
        meta["model_config"] = json.dumps(cfg)
    edit_metadata(out, edit)
    with pytest.raises(CheckpointError, match="model config or metadata in its header differ"):
        load_model(out)


def test_committed_zoo_files_still_load():
    from pathlib import Path
    files = sorted(Path(__file__).resolve().parents[1].glob("assets/**/*.safetensors"))
    if not files:
        pytest.skip("no committed checkpoints in assets/")
    for path in files:
        load_model(path)                    # every committed file is in format 2: its header is checked


class Crash(Exception):
    pass


def _crashing_task(config):
    """A task whose 6th training batch fails (module level: a worker process sends the error back pickled)."""
    from lengen_utils.core.tasks import ArithmeticTask

    class CrashingTask(ArithmeticTask):
        calls = 0

        def train_batch(self, rng, batch_size, progress=None):
            CrashingTask.calls += 1
            if CrashingTask.calls == 6:      # dies drawing step 6's batch: last save after step 4, mid-window
                raise Crash
            return super().train_batch(rng, batch_size, progress)
    return CrashingTask(config)


@pytest.mark.parametrize("data_worker", ["thread", "process"])
def test_resumed_loss_log_equals_an_uninterrupted_run(tmp_path, data_worker):
    """save_every=2 is not a multiple of log_every=3: the unfinished loss window travels in the state. A worker
    process draws from its own copy of the generator: the state saved is the generator after the batches used."""
    from lengen_utils.core.tasks import Task, TaskConfig
    from lengen_utils.core.train import TrainConfig, fit

    model_cfg = ModelConfig(d_model=16, n_heads=2, d_ff=32, max_positions=17)
    task_cfg = TaskConfig(max_digits=3, max_position=16)
    cfg = TrainConfig(steps=8, batch_size=8, warmup_steps=1, seed=2)
    torch.manual_seed(0)
    init = Transformer(model_cfg).state_dict()

    def model():
        m = Transformer(model_cfg)
        m.load_state_dict(init)
        return m

    whole = fit(model(), Task(task_cfg), cfg, progress=False, log_every=3, data_worker="thread").losses
    state = tmp_path / "state.pt"
    with pytest.raises(Crash):
        fit(model(), _crashing_task(task_cfg), cfg, progress=False, log_every=3, save_every=2, state_path=state,
            data_worker=data_worker)
    resumed = fit(Transformer(model_cfg), Task(task_cfg), cfg, progress=False, state_path=state, resume=True,
                  data_worker=data_worker)
    assert len(whole) == 3 and resumed.losses == pytest.approx(whole, rel=1e-6, abs=0)


# -- half precision: float16 files load into the float32 model exactly -----------------------
def test_half_round_trip_gives_the_rounded_models_outputs(saved, tmp_path):
    from safetensors import safe_open
    from safetensors.torch import load_file

    from lengen_utils.core.checkpoint import round_to_half, stored_storage
    model, path32 = saved
    path = save_model(tmp_path / "h.safetensors", model, {"note": "half"}, half=True)
    with safe_open(str(path), framework="pt") as f:
        assert {f.get_tensor(k).dtype for k in f.keys()} == {torch.float16}
    assert stored_storage(path) == "float16" and stored_storage(path32) is None
    assert path.stat().st_size < 0.6 * path32.stat().st_size
    loaded, meta = load_model(path)
    assert meta == {"note": "half"} and all(p.dtype == torch.float32 for p in loaded.parameters())
    changed = any(not torch.equal(a, b) for a, b in zip(model.state_dict().values(), loaded.state_dict().values()))
    rounded = round_to_half(model)                                      # in place, returns the model
    assert changed and all(torch.equal(a, b) for a, b in zip(rounded.state_dict().values(),
                                                               loaded.state_dict().values()))
    tokens, pos = torch.randint(1, 15, (2, 9)), torch.arange(9).expand(2, 9)
    torch.testing.assert_close(rounded(tokens, pos), loaded(tokens, pos), atol=0, rtol=0)
    again = save_model(tmp_path / "h2.safetensors", rounded, {"note": "half"}, half=True)
    first, second = load_file(str(path)), load_file(str(again))          # rounding twice changes nothing
    assert all(torch.equal(first[k], second[k]) for k in first)


def test_half_storage_entry_is_sealed_in_the_header(saved, tmp_path):
    model, _ = saved
    path = save_model(tmp_path / "h.safetensors", model, half=True)
    edit_metadata(path, lambda meta: meta.pop("storage"))
    with pytest.raises(CheckpointError, match="model config or metadata in its header differ"):
        load_model(path)


def test_weights_beyond_float16s_range_are_refused(tmp_path):
    from lengen_utils.core.checkpoint import round_to_half
    model = Transformer(ModelConfig(d_model=16, n_heads=2, d_ff=32))
    with torch.no_grad():
        next(model.parameters())[0].fill_(1e5)
    with pytest.raises(CheckpointError, match="exceed its range"):
        round_to_half(model)
    with pytest.raises(CheckpointError, match="exceed its range"):
        save_model(tmp_path / "big.safetensors", model, half=True)
    assert not (tmp_path / "big.safetensors").exists()
    save_model(tmp_path / "big.safetensors", model)                      # float32 keeps it

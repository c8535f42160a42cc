"""The paper-scale entries trained on a GPU (tag ``gpu``): on a machine without CUDA, CI checks what it can.

Their files are checked against their sha256 by tests/test_assets.py. Here: each record says where it was trained,
a short live evaluation on the CPU agrees with the record, and ``zoo train`` / ``zoo verify`` refuse them without
CUDA, with a sentence that names the GPU, instead of training a paper-scale model for hours on a CPU.
"""
import pytest
import torch

from lengen_utils.lab import zoo
from lengen_utils.core.evaluate import evaluate_lengths
from lengen_utils.lab.zoo.builder import build_device, check_buildable
from lengen_utils.lab.zoo.builder import catalog_entry_of
from lengen_utils.lab.experiment.entry import RECORD_ONLY_TAG, ZooError
from lengen_utils.lab.zoo.records import read_records, recorded

GPU_ENTRIES = sorted(name for name, e in zoo.catalog().items() if e.needs_gpu)
RECORD_ONLY = sorted(name for name in GPU_ENTRIES if RECORD_ONLY_TAG in zoo.entry(name).tags)
STORED = [name for name in GPU_ENTRIES if name not in RECORD_ONLY]
MANIFEST = zoo.read_manifest()
RECORDS = read_records()
BUILT = [name for name in STORED if name in MANIFEST]
no_cuda = pytest.mark.skipif(torch.cuda.is_available(), reason="checks the refusal on a machine without CUDA")


def test_every_gpu_entry_is_built():
    assert BUILT == STORED, sorted(set(STORED) - set(BUILT))


def test_every_record_only_entry_is_recorded_and_not_stored():
    assert RECORD_ONLY and sorted(RECORDS) == RECORD_ONLY
    for name in RECORD_ONLY:
        rec = recorded(name)
        assert rec["stored"] is False and "file" not in rec and name not in MANIFEST
        assert rec["device"].startswith("cuda") and rec["gpu"] in rec["compute"]
        catalog_entry_of(name, rec)                      # the record is this catalog's recipe and seed
        if rec["train"]["select_lengths"]:               # the papers' protocol: the curve and both checkpoints
            sel = rec["selection"]
            assert sel["selected_step"] in sel["steps"]
            assert set(sel["final_metrics"]["em"]) == set(rec["metrics"]["em"])
        else:
            assert "selection" not in rec and set(rec["metrics"]["em"]) == {str(k) for k in zoo.entry(name).eval_lengths}


def test_an_unknown_record_names_the_ones_there():
    with pytest.raises(ZooError, match="no record of 'nope'.*sabbaghi-a2-paper-s0"):
        recorded("nope")


def test_a_record_is_never_replaced_without_a_word(tmp_path):
    from lengen_utils.lab.zoo.records import import_record
    name = RECORD_ONLY[0]
    rec = {k: v for k, v in recorded(name).items() if k != "stored"}
    import_record(name, rec, tmp_path, assets=tmp_path)
    import_record(name, rec, tmp_path, assets=tmp_path)                 # the same record again: nothing changes
    changed = {**rec, "train_seconds": rec["train_seconds"] + 1}
    with pytest.raises(ZooError, match="already holds another record.*nothing was written.*--replace"):
        import_record(name, changed, tmp_path, assets=tmp_path)
    assert read_records(tmp_path)[name]["train_seconds"] == rec["train_seconds"]
    import_record(name, changed, tmp_path, assets=tmp_path, replace=True)
    assert read_records(tmp_path)[name]["train_seconds"] == rec["train_seconds"] + 1


@pytest.mark.parametrize("name", BUILT)
def test_a_gpu_record_says_where_it_was_trained(name):
    rec = MANIFEST[name]
    assert rec["device"].startswith("cuda"), rec["device"]
    assert rec["gpu"] and rec["gpu"] in rec["compute"], rec
    assert "--device cuda" in rec["command"], rec["command"]


@pytest.mark.parametrize("name, lengths, n", [
    ("cho-addition-1to30-s0", (30, 100, 200), 20),          # decoding with the KV cache, 200 digits in seconds
    ("sabbaghi-rpe-add-5to50-s0", (5, 10, 20), 100),
    ("cho-mul-nx2-1to40-s0", (40, 100), 20),
    ("cho-minesweeper-5to9-s0", (9, 12), 30),
    ("sabbaghi-upe-m3-9l-s0", (5, 10), 100),
    ("cho-plain-1to30-s0", (30, 50), 20),
    ("sabbaghi-upe-m3-masked-s0", (5, 16), 100),
])
def test_a_short_cpu_evaluation_agrees_with_the_gpu_record(name, lengths, n):
    model, task = zoo.load(name)
    recorded = MANIFEST[name]["metrics"]["em"]
    live = evaluate_lengths(model, task, lengths, n=n, seed=123)
    for k in lengths:
        # n problems drawn apart from the recorded set: within 3 binomial standard errors, at least 0.1
        spread = max(0.1, 3 * (recorded[str(k)] * (1 - recorded[str(k)]) / n) ** 0.5)
        assert abs(live[k].exact_match - recorded[str(k)]) <= spread, (k, live[k].exact_match, recorded[str(k)])


@no_cuda
@pytest.mark.parametrize("name", GPU_ENTRIES)
def test_zoo_train_refuses_a_gpu_entry_without_cuda(name, tmp_path):
    with pytest.raises(ZooError, match="NVIDIA GPU"):
        check_buildable(name, tmp_path)


def test_a_gpu_entry_is_not_trained_on_the_cpu():
    e = zoo.entry(GPU_ENTRIES[0])
    with pytest.raises(ZooError, match="paper-scale"):
        build_device(e, "cpu")
    with pytest.raises(ZooError, match="cpu or cuda"):
        build_device(e, "tpu")


def test_a_course_entry_still_trains_on_the_cpu():
    assert build_device(zoo.entry("nb02-ape-l5")).type == "cpu"


@no_cuda
def test_zoo_verify_refuses_a_gpu_entry_without_cuda(capsys):
    assert zoo.main(["verify", "--no-retrain", BUILT[0]]) == 1
    assert "NVIDIA GPU" in capsys.readouterr().err


@no_cuda
def test_the_train_command_names_the_device_flag(capsys):
    assert zoo.main(["train", "--device", "cpu", GPU_ENTRIES[0]]) == 2
    assert "--device cuda" in capsys.readouterr().err

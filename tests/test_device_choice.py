"""Where the course trains: CUDA when a GPU is there (a Colab GPU runtime), and the retrain button says so.

No GPU is needed: ``torch.cuda.is_available`` and the device's name are replaced, and the training
itself is replaced by a function that records the device it was given.
"""
import matplotlib

matplotlib.use("Agg")

import pytest  # noqa: E402
import torch  # noqa: E402

from lengen_utils.core import device as D  # noqa: E402
from lengen_utils.course import widgets as W  # noqa: E402
from lengen_utils.course.widgets import length_explorer as LE  # noqa: E402

FAKE = {"ape-2": {1: 1.0, 2: 1.0, 3: 0.0}, "ape-3": {1: 1.0, 2: 1.0, 3: 1.0}}


@pytest.fixture
def gpu_runtime(monkeypatch):
    """A machine like Colab's GPU runtime: CUDA available, a T4; no LENGEN_DEVICE."""
    monkeypatch.delenv("LENGEN_DEVICE", raising=False)
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    monkeypatch.setattr(torch.cuda, "get_device_name", lambda *_a: "Tesla T4")


@pytest.fixture
def cpu_runtime(monkeypatch):
    monkeypatch.delenv("LENGEN_DEVICE", raising=False)
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)


def test_a_gpu_runtime_picks_cuda(gpu_runtime):
    assert D.pick_device() == torch.device("cuda")
    assert D.device_label("cuda") == "CUDA GPU (Tesla T4)"


def test_a_cpu_runtime_picks_the_cpu(cpu_runtime):
    assert D.pick_device() == torch.device("cpu")
    assert D.device_label("cpu").startswith("CPU (")


def test_retrain_button_names_the_gpu_and_trains_there(gpu_runtime):
    got = []

    def retrain(name, device=None):
        got.append(device)
        return FAKE[name]

    ex = W.TrainedLengthExplorer({2: "ape-2", 3: "ape-3"}, metrics=FAKE.__getitem__, retrain=retrain, draw=False)
    assert ex.button.description == "retrain live on CUDA"
    assert "CUDA GPU (Tesla T4)" in ex.button.tooltip
    ex.retrain(2)
    assert got == [torch.device("cuda")]
    assert ex.fresh[2] == FAKE["ape-2"]


def test_retrain_button_on_a_cpu_runtime(cpu_runtime):
    seen = []

    def retrain(name, device=None):
        seen.append(ex.status.value)
        return FAKE[name]

    ex = W.TrainedLengthExplorer({2: "ape-2", 3: "ape-3"}, metrics=FAKE.__getitem__, retrain=retrain, draw=False)
    assert ex.button.description == "retrain live on CPU"
    ex.retrain(3)
    assert "on this machine's CPU (" in seen[0]


def test_an_explicit_device_wins_and_a_missing_one_is_refused(gpu_runtime, monkeypatch):
    ex = W.TrainedLengthExplorer({2: "ape-2"}, metrics=FAKE.__getitem__, retrain=lambda name: FAKE[name],
                                 draw=False, device="cpu")
    assert ex.button.description == "retrain live on CPU"
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    with pytest.raises(RuntimeError, match="CUDA is not available"):
        W.TrainedLengthExplorer({2: "ape-2"}, metrics=FAKE.__getitem__, draw=False, device="cuda")


def test_retrain_status_names_the_gpu(gpu_runtime):
    seen = []

    def retrain(name, device=None, on_step=None):
        seen.append(ex.status.value)
        return FAKE[name]

    ex = W.TrainedLengthExplorer({2: "ape-2"}, metrics=FAKE.__getitem__, retrain=retrain, draw=False)
    ex.retrain(2)
    assert "on this machine's CUDA GPU (Tesla T4)" in seen[0]


def test_retrain_entry_trains_on_the_picked_device(gpu_runtime, monkeypatch):
    """The default retrain trains the zoo entry on CUDA in a GPU runtime (training itself replaced)."""
    got = {}

    class Stop(Exception):
        pass

    def train_entry(e, progress=True, steps=None, callback=None, device=None):
        got["device"] = device
        raise Stop

    monkeypatch.setattr(LE.zoo, "train_entry", train_entry)
    with pytest.raises(Stop):
        LE.retrain_entry("flagship-coupled")
    assert got["device"] == torch.device("cuda")


def test_expected_time_on_a_gpu_is_not_guessed_from_cpu_threads(gpu_runtime, monkeypatch):
    monkeypatch.setattr(LE.zoo, "entry_record", lambda name: {"train_seconds": 60.0, "threads": 2, "device": "cpu"})
    note = LE.expected_note("x")
    assert note.startswith("no estimate for cuda") and "60 s on cpu with 2 thread(s)" in note
    assert LE.expected_note("x", device="cpu").startswith("expected about")


def test_zoo_train_entry_moves_the_model_to_the_device(monkeypatch):
    """The entry's model is initialised as always, then handed to training on the device asked for
    (PyTorch's ``meta`` device stands in for a GPU; training itself is replaced)."""
    from lengen_utils.lab import zoo
    from lengen_utils.lab.zoo import builder

    seen = {}
    monkeypatch.setattr(builder, "fit", lambda model, task, cfg, **kw: seen.setdefault("device", model.device))
    model, _ = zoo.train_entry(zoo.entry("flagship-coupled"), progress=False, device="meta")
    assert seen["device"] == torch.device("meta") == model.device
    model, _ = zoo.train_entry(zoo.entry("flagship-coupled"), progress=False)
    assert model.device == torch.device("cpu")

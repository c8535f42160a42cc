"""Train, evaluate, save and record a zoo entry; load it back; verify it end to end.

``build`` checks everything it can before training (the name, the manifest's shape, that the assets
folder is writable), then trains, rounds the weights to float16 (so that assets/ stays small),
measures the rounded model, and hands the half-precision asset and its record (``"storage": "float16"``)
to :func:`~lengen_utils.lab.zoo.store.commit`, which writes both or neither. The recorded metrics are
therefore exactly those of the stored file; ``verify`` rounds a retrained model the same way.
"""
from __future__ import annotations

import platform
import time
from pathlib import Path
from typing import Callable, Iterable

import torch

from ...core.checkpoint import HALF, load_model, round_to_half, save_model
from ..cli import UsageError, check_writable
from ...core.constants import EVAL_SEED, __version__
from ...core.device import set_cpu_threads
from ...core.evaluate import evaluate_lengths
from ...core.model import ModelConfig, Transformer
from ...core.task_config import TaskConfig
from ...core.tasks import Task
from ...core.config_checks import ConfigError
from ...core.train import TrainConfig, TrainResult, check_lengths_fit, check_training_plan, fit
from .catalog import catalog, entry
from ..experiment.entry import ZooEntry, ZooError
from .registry import entry_for
from .manifest import assets_dir, read_manifest
from .store import commit, manifest_record


CURVE_N = 200                      # test problems per point of a learning curve
CURVE_SEED = EVAL_SEED + 1         # a fixed set apart from the recorded metrics' test sets


def train_entry(e: ZooEntry, progress: bool = True, steps: int | None = None,
                callback: Callable[[int, float], None] | None = None,
                device: torch.device | str | None = None, curve: dict | None = None,
                max_seconds: float | None = None) -> tuple[Transformer, TrainResult]:
    """Train ``e`` from its seed (``steps`` overrides the budget, e.g. for a quick live demo);
    ``callback(step, loss)`` is called at every logged step (the widgets' progress). The model is
    initialised on the CPU, as in every build, then trained on ``device`` (default: the CPU). For an entry
    with ``curve_every``, a ``curve`` dict receives its learning curve (:func:`learning_curve_callback`)."""
    set_cpu_threads()
    model = e.build() if device is None else e.build().to(device)
    cfg = e.train if steps is None else TrainConfig.from_dict({**e.train.to_dict(), "steps": steps})
    task = Task(e.task)
    if curve is not None and e.curve_every:
        callback = learning_curve_callback(e, model, task, curve, callback)
    result = fit(model, task, cfg, progress=progress, desc=e.name, callback=callback, max_seconds=max_seconds)
    return model, result


def learning_curve_callback(e: ZooEntry, model: Transformer, task: Task, curve: dict,
                            then: Callable[[int, float], None] | None = None) -> Callable[[int, float], None]:
    """A training callback that, every ``e.curve_every`` steps, measures the exact match at the longest
    trained length on ``CURVE_N`` fixed problems and appends it to ``curve`` (``{"length", "n", "steps",
    "em"}``): how fast the entry learns its trained range (notebook 08's sample efficiency)."""
    length = e.task.max_digits
    curve.update({"length": length, "n": CURVE_N, "seed": CURVE_SEED, "steps": [], "em": []})

    def record(step: int, loss: float) -> None:
        if step % e.curve_every == 0:
            was_training = model.training
            model.eval()
            em = evaluate_lengths(model, task, [length], n=CURVE_N, seed=CURVE_SEED)[length].exact_match
            model.train(was_training)
            curve["steps"].append(step)
            curve["em"].append(round(em, 4))
        if then is not None:
            then(step, loss)
    return record


def measure(model: Transformer, e: ZooEntry, progress: bool = False) -> dict:
    """EM and per-digit accuracy at ``e.eval_lengths`` on the fixed test sets (seed ``EVAL_SEED``)."""
    results = evaluate_lengths(model, Task(e.task), e.eval_lengths, n=e.eval_n, seed=EVAL_SEED,
                               progress=progress)
    return {"em": {str(k): r.exact_match for k, r in results.items()},
            "per_digit": {str(k): {str(s): a for s, a in r.per_digit.items()} for k, r in results.items()},
            "eval_n": e.eval_n, "eval_seed": EVAL_SEED}


def selected_checkpoint(model: Transformer, e: ZooEntry, result: TrainResult, progress: bool = False) -> dict | None:
    """With checkpoint selection (``TrainConfig.select_every``, the papers' protocol): measure the final checkpoint
    (rounded to float16, as stored), then load the selected weights into ``model``; returns the selection's record
    with the final checkpoint's metrics, so a manifest shows both. ``None`` (and ``model`` unchanged) without it."""
    if result.selection is None:
        return None
    round_to_half(model)
    record = {**result.selection.record(), "final_step": result.steps, "final_metrics": measure(model, e, progress),
              "protocol": "best mean exact match on the validation lengths (peeks at untrained lengths, as the "
                          "papers do)"}
    model.load_state_dict(result.selection.state)
    return record


def build_device(e: ZooEntry, device: str | None = None) -> torch.device:
    """The device ``e`` trains on: ``device`` if given, else CUDA for a GPU entry (tag ``gpu``) and the CPU for
    the others. A GPU entry on a machine without CUDA raises :class:`ZooError` that says what CI does instead."""
    name = device or ("cuda" if e.needs_gpu else "cpu")
    if name not in ("cpu", "cuda") and not name.startswith("cuda:"):
        raise ZooError(f"device must be cpu or cuda, got {name!r}")
    if name.startswith("cuda") and not torch.cuda.is_available():
        raise ZooError(f"{e.name} trains and is verified on an NVIDIA GPU (CUDA), and this machine has none; "
                       "on the CPU, tests/test_gpu_entries.py checks its cached file")
    if e.needs_gpu and not name.startswith("cuda"):
        raise ZooError(f"{e.name} is a paper-scale entry (tag gpu): train it with `{e.command}` on a GPU, "
                       "not on the CPU")
    return torch.device(name)


def check_buildable(name: str, assets: Path | None = None, device: str | None = None) -> ZooEntry:
    """Everything ``build`` can check before it trains: a known name, a device it may train on, a readable
    manifest of the right shape, and a writable assets folder. Raises :class:`ZooError`."""
    e = entry(name)
    build_device(e, device)
    try:                                      # the configs against the task and the model: now, not after training
        task = Task(e.task)
        check_training_plan(e.model, task, e.train)
        check_lengths_fit(e.eval_lengths, task, "its eval_lengths")
    except ConfigError as err:
        raise ZooError(f"{e.name} cannot be built as declared: {err}") from None
    root = assets_dir(assets)
    read_manifest(root)
    try:
        check_writable(root, "assets folder")
        check_writable(root / "zoo", "assets folder")
    except UsageError as err:
        raise ZooError(str(err)) from None
    return e


def build(name: str, progress: bool = True, assets: Path | None = None, device: str | None = None,
          max_seconds: float | None = None, replace: bool = True) -> dict:
    """Train, evaluate, save and record one entry; returns its manifest record. ``device`` (cpu or cuda)
    defaults to :func:`build_device`'s choice; a GPU build records the GPU's name beside its seconds.
    ``max_seconds`` bounds the training (a lent GPU's call): a run cut short records the step it reached.

    The asset and the manifest are replaced together or not at all (an interrupted or failed build
    leaves both as they were). ``replace=False`` (``zoo train`` without ``--replace``) refuses, when it commits, an
    intact entry of another build, such as one that a concurrent ``zoo train`` or ``zoo import`` stored meanwhile."""
    e = check_buildable(name, assets, device)
    name = e.name                             # an alias builds its entry
    on = build_device(e, device)
    curve: dict = {}
    model, result = train_entry(e, progress, curve=curve, device=on, max_seconds=max_seconds)
    selection = selected_checkpoint(model, e, result, progress)
    round_to_half(model)                      # measure what is stored
    record = {
        "command": e.command, "description": e.description, "seed": e.seed, **e.configs(),
        "metrics": measure(model, e, progress), "train_seconds": round(result.seconds, 1),
        "final_loss": result.losses[-1] if result.losses else None,
        "n_parameters": model.num_parameters(),
        "lengen_version": __version__, "torch_version": torch.__version__,
        "threads": torch.get_num_threads(), "machine": platform.machine(), "device": str(model.device),
        "created": time.strftime("%Y-%m-%d %H:%M:%S"), "storage": HALF,
    }
    if on.type == "cuda":
        record["gpu"] = torch.cuda.get_device_name(on)
        record["compute"] = f"{record['train_seconds']} s of training on one {record['gpu']}"
        model = model.cpu()
    if curve:
        record["learning_curve"] = curve
    if selection is not None:
        record["selection"] = selection
    if result.mastery is not None:
        record["stopping_rule"] = result.mastery.record()
    if result.mastery is not None and result.mastery.stopped_step is not None:
        record["stopped"] = {"step": result.steps, "planned_steps": e.train.steps,
                             "why": "the stopping rule: every validation sum at the trained lengths "
                                    f"{list(e.train.stop_lengths)} right (the schedule is the planned one, cut short)"}
    elif result.steps < e.train.steps:
        record["stopped"] = {"step": result.steps, "planned_steps": e.train.steps, "max_seconds": max_seconds,
                             "why": "the time bound of the run (the schedule is the planned one, cut short)"}
    meta = {"zoo_name": name, "task": e.task.to_dict(), "seed": e.seed}
    return commit(name, record, lambda path: save_model(path, model, meta, half=True), assets, replace=replace)


def _rebuild_hint(name: str, record: dict) -> str:
    command = catalog()[name].command if name in catalog() else record["command"]
    return f"Rebuild it with `{command}`."


def load(name: str, device: torch.device | str = "cpu", assets: Path | None = None, *,
         seed: int | None = None) -> tuple[Transformer, Task]:
    """The cached model and its task; a missing or altered file is refused with the rebuild command.

    ``name`` is an entry (``"nb05-plain-s1"``), or a recipe with ``seed`` (``load("nb05-plain", seed=1)``)."""
    if seed is not None:
        name = entry_for(name, seed).name
    record = manifest_record(name, assets)
    path = assets_dir(assets) / record["file"]
    model, _ = load_model(path, device, rebuild_hint=_rebuild_hint(name, record),
                          expected_sha256=record["sha256"])
    return model, Task(TaskConfig.from_dict(record["task"]))


def live_curves(names: Iterable[str], lengths: Iterable[int], n: int, seed: int = EVAL_SEED,
                progress: bool = False) -> dict[str, dict[int, float]]:
    """``{entry: {length: exact match}}`` of cached checkpoints, measured now on ``n`` problems per length drawn with
    ``seed`` (pick one apart from the recorded sets' for fresh problems): the one live measurement of seeds."""
    lengths = list(lengths)
    return {name: {k: r.exact_match for k, r in evaluate_lengths(*load(name), lengths, n=n, seed=seed,
                                                                 progress=progress).items()} for name in names}


def _em(table: dict) -> dict[int, float]:
    return {int(k): float(v) for k, v in table.items()}


def catalog_entry_of(name: str, record: dict) -> ZooEntry:
    """The catalog's entry ``name``, checked against its manifest record (configs and lengths); a catalog
    edited since the build raises ``AssertionError`` (re-measuring would test another recipe)."""
    e = entry(name)
    same = (TaskConfig.from_dict(record["task"]) == e.task and ModelConfig.from_dict(record["model"]) == e.model
            and ("train" not in record or TrainConfig.from_dict(record["train"]) == e.train))
    if not same or sorted(_em(record["metrics"]["em"])) != sorted(e.eval_lengths):
        raise AssertionError(f"{name}: the catalog's config differs from the manifest; rebuild with `{e.command}`")
    return e


def verify(name: str, tolerance: float = 0.05, retrain: bool = True, progress: bool = False,
           assets: Path | None = None) -> dict:
    """Check an entry end to end: the cached file reproduces the recorded metrics exactly and, with
    ``retrain``, a model trained from scratch with the recorded config and seed lands within
    ``tolerance`` of them at every length. A GPU entry (tag ``gpu``) is verified only on CUDA. A float16
    entry's retrained model is rounded to float16 first, as ``build`` rounds it (a float32 entry's is measured
    as trained, as it was recorded).
    Returns a report; raises ``AssertionError`` on a mismatch."""
    record = manifest_record(name, assets)
    e = catalog_entry_of(name, record)
    on = build_device(e)                      # a GPU entry is measured and retrained where it was recorded
    recorded = _em(record["metrics"]["em"])
    half = record.get("storage") == HALF
    model, _ = load(name, device=on, assets=assets)
    cached = _em(measure(model, e)["em"])
    report = {"name": name, "storage": HALF if half else "float32", "recorded": recorded, "cached": cached}
    bad = {k: (recorded[k], cached[k]) for k in recorded if abs(recorded[k] - cached[k]) > 1e-9}
    if bad:
        raise AssertionError(f"{name}: the cached checkpoint gives {bad} (recorded, measured)")
    if retrain:
        fresh, result = train_entry(e, progress, device=on)
        if half:
            round_to_half(fresh)
        report["retrained"] = _em(measure(fresh, e)["em"])
        report["train_seconds"] = round(result.seconds, 1)
        off = {k: (recorded[k], report["retrained"][k]) for k in recorded
               if abs(recorded[k] - report["retrained"][k]) > tolerance}
        if off:
            raise AssertionError(f"{name}: retraining from scratch missed the recorded metrics by more than "
                                 f"{tolerance}: {off} (recorded, retrained)")
    return report

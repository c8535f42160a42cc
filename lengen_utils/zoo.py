"""The model zoo: named, reproducible training runs cached in ``assets/``.

A zoo entry is a name, a :class:`TaskConfig`, a :class:`ModelConfig`, a :class:`TrainConfig` (whose
seed also seeds the initialisation) and the lengths to evaluate. ``python -m lengen_utils.zoo train
NAME`` trains it, evaluates it, writes ``assets/zoo/NAME.safetensors`` and records in
``assets/manifest.json``: the command, the configs, the seed, the library and torch versions, the
measured metrics, the training time and the file's sha256. ``verify NAME`` retrains from scratch and
checks the metrics against the manifest; ``load(NAME)`` refuses a missing or altered file and says
which command rebuilds it.

The entries themselves live in :mod:`lengen_utils.zoo_catalog`.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import torch

from . import __version__
from .checkpoint import CheckpointError, file_sha256, load_model, save_model
from .device import set_cpu_threads
from .evaluate import evaluate_lengths
from .model import ModelConfig, Transformer
from .tasks import Task, TaskConfig
from .train import TrainConfig, TrainResult, fit

REPO_ROOT = Path(__file__).resolve().parent.parent
ASSETS = Path(os.environ.get("LENGEN_ASSETS", REPO_ROOT / "assets"))
MANIFEST = "manifest.json"


class ZooError(KeyError):
    """An unknown zoo name, or a manifest without the entry asked for."""

    def __str__(self) -> str:  # KeyError quotes its message; show it plainly
        return str(self.args[0])


@dataclass(frozen=True)
class ZooEntry:
    name: str
    task: TaskConfig
    model: ModelConfig
    train: TrainConfig
    eval_lengths: tuple[int, ...]
    eval_n: int = 1000
    description: str = ""
    tags: tuple[str, ...] = field(default_factory=tuple)

    @property
    def seed(self) -> int:
        return self.train.seed

    @property
    def command(self) -> str:
        return f"python -m lengen_utils.zoo train {self.name}"

    def build(self) -> Transformer:
        """A freshly initialised model (seeded, so ``verify`` starts from the same weights)."""
        torch.manual_seed(self.seed)
        return Transformer(self.model)


def catalog() -> dict[str, ZooEntry]:
    from .zoo_catalog import ENTRIES

    return ENTRIES


def entry(name: str) -> ZooEntry:
    entries = catalog()
    if name not in entries:
        raise ZooError(f"no zoo entry named {name!r}; known entries: {', '.join(sorted(entries)) or 'none'}")
    return entries[name]


def checkpoint_path(name: str, assets: Path | None = None) -> Path:
    return (assets or ASSETS) / "zoo" / f"{name}.safetensors"


# -- manifest ------------------------------------------------------------------------------------
def read_manifest(assets: Path | None = None) -> dict:
    path = (assets or ASSETS) / MANIFEST
    if not path.is_file():
        return {}
    try:
        return json.loads(path.read_text())
    except json.JSONDecodeError as err:
        raise ZooError(f"{path} is not valid JSON ({err}); restore it with `git checkout {MANIFEST}`") from None


def record_in_manifest(name: str, record: dict, assets: Path | None = None) -> None:
    """Add or replace one entry; other entries are kept and the file is replaced atomically."""
    assets = assets or ASSETS
    manifest = read_manifest(assets)
    manifest[name] = record
    path = assets / MANIFEST
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(MANIFEST + ".tmp")
    tmp.write_text(json.dumps(dict(sorted(manifest.items())), indent=1) + "\n")
    os.replace(tmp, path)


def manifest_record(name: str, assets: Path | None = None) -> dict:
    manifest = read_manifest(assets)
    if name not in manifest:
        raise ZooError(f"{name!r} is not in {(assets or ASSETS) / MANIFEST}; build it with "
                       f"`python -m lengen_utils.zoo train {name}`")
    return manifest[name]


def metrics(name: str, assets: Path | None = None) -> dict[int, float]:
    """Exact match by length, as measured when the entry was trained (no model loading)."""
    return {int(k): v for k, v in manifest_record(name, assets)["metrics"]["em"].items()}


def per_digit(name: str, assets: Path | None = None) -> dict[int, dict[int, float]]:
    """Accuracy per output digit, ``{length: {significance: accuracy}}``, as measured at training time."""
    per = manifest_record(name, assets)["metrics"]["per_digit"]
    return {int(k): {int(s): a for s, a in v.items()} for k, v in per.items()}


# -- train / load / verify --------------------------------------------------------------------------
def train_entry(e: ZooEntry, progress: bool = True, steps: int | None = None) -> tuple[Transformer, TrainResult]:
    """Train ``e`` from its seed (``steps`` overrides the budget, e.g. for a quick live demo)."""
    set_cpu_threads()
    model = e.build()
    cfg = e.train if steps is None else TrainConfig.from_dict({**e.train.to_dict(), "steps": steps})
    result = fit(model, Task(e.task), cfg, progress=progress, desc=e.name)
    return model, result


def measure(model: Transformer, e: ZooEntry, progress: bool = False) -> dict:
    results = evaluate_lengths(model, Task(e.task), e.eval_lengths, n=e.eval_n, progress=progress)
    return {"em": {str(k): r.exact_match for k, r in results.items()},
            "per_digit": {str(k): {str(s): a for s, a in r.per_digit.items()} for k, r in results.items()},
            "eval_n": e.eval_n, "eval_seed": 999}


def build(name: str, progress: bool = True, assets: Path | None = None) -> dict:
    """Train, evaluate, save and record one entry; returns its manifest record."""
    e = entry(name)
    model, result = train_entry(e, progress)
    record = {
        "command": e.command, "description": e.description, "seed": e.seed,
        "task": e.task.to_dict(), "model": e.model.to_dict(), "train": e.train.to_dict(),
        "metrics": measure(model, e, progress), "train_seconds": round(result.seconds, 1),
        "final_loss": result.losses[-1] if result.losses else None,
        "lengen_version": __version__, "torch_version": torch.__version__,
        "threads": torch.get_num_threads(), "machine": platform.machine(),
        "created": time.strftime("%Y-%m-%d %H:%M:%S"),
    }
    path = save_model(checkpoint_path(name, assets), model, {"zoo_name": name, "task": e.task.to_dict()})
    record["file"] = str(path.relative_to((assets or ASSETS)))
    record["sha256"] = file_sha256(path)
    record_in_manifest(name, record, assets)
    return record


def load(name: str, device: torch.device | str = "cpu", assets: Path | None = None) -> tuple[Transformer, Task]:
    """The cached model and its task; a missing or altered file is refused with the rebuild command."""
    record = manifest_record(name, assets)
    path = (assets or ASSETS) / record["file"]
    model, _ = load_model(path, device, rebuild_hint=f"Rebuild it with `{record['command']}`.",
                          expected_sha256=record["sha256"])
    return model, Task(TaskConfig.from_dict(record["task"]))


def verify(name: str, tolerance: float = 0.05, retrain: bool = True, progress: bool = False,
           assets: Path | None = None) -> dict:
    """Check an entry end to end: the cached file reproduces the recorded metrics exactly and, with
    ``retrain``, a model trained from scratch with the recorded config and seed lands within
    ``tolerance`` of them at every length. Returns a report; raises ``AssertionError`` on a mismatch."""
    record = manifest_record(name, assets)
    e = entry(name)
    recorded = {int(k): v for k, v in record["metrics"]["em"].items()}
    if TaskConfig.from_dict(record["task"]) != e.task or ModelConfig.from_dict(record["model"]) != e.model:
        raise AssertionError(f"{name}: the catalog's config differs from the manifest; rebuild with `{e.command}`")
    model, _ = load(name, assets=assets)
    cached = {int(k): v for k, v in measure(model, e)["em"].items()}
    report = {"name": name, "recorded": recorded, "cached": cached}
    bad = {k: (recorded[k], cached[k]) for k in recorded if abs(recorded[k] - cached[k]) > 1e-9}
    if bad:
        raise AssertionError(f"{name}: the cached checkpoint gives {bad} (recorded, measured)")
    if retrain:
        fresh, result = train_entry(e, progress)
        report["retrained"] = {int(k): v for k, v in measure(fresh, e)["em"].items()}
        report["train_seconds"] = round(result.seconds, 1)
        off = {k: (recorded[k], report["retrained"][k]) for k in recorded
               if abs(recorded[k] - report["retrained"][k]) > tolerance}
        if off:
            raise AssertionError(f"{name}: retraining from scratch missed the recorded metrics by more than "
                                 f"{tolerance}: {off} (recorded, retrained)")
    return report


# -- command line --------------------------------------------------------------------------------
def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lengen_utils.zoo", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="cmd", required=True)
    sub.add_parser("list", help="entries and whether they are built")
    p_train = sub.add_parser("train", help="train, evaluate, save and record entries")
    p_train.add_argument("names", nargs="*")
    p_train.add_argument("--all", action="store_true")
    p_train.add_argument("--tag", help="train every entry with this tag")
    p_verify = sub.add_parser("verify", help="retrain an entry and compare with the manifest")
    p_verify.add_argument("names", nargs="+")
    p_verify.add_argument("--tolerance", type=float, default=0.05)
    p_verify.add_argument("--no-retrain", action="store_true")
    args = parser.parse_args(argv)

    try:
        if args.cmd == "list":
            manifest = read_manifest()
            for name, e in sorted(catalog().items()):
                rec = manifest.get(name)
                state = f"built, {rec['train_seconds']} s" if rec else "not built"
                print(f"{name:32s} {state:18s} {e.description}")
        elif args.cmd == "train":
            names = sorted(catalog()) if args.all else list(args.names)
            if args.tag:
                names += [n for n, e in sorted(catalog().items()) if args.tag in e.tags]
            if not names:
                parser.error("name an entry, or use --all / --tag")
            for name in names:
                rec = build(name)
                print(f"{name}: trained in {rec['train_seconds']} s; EM " +
                      ", ".join(f"{k}: {v:.3f}" for k, v in rec["metrics"]["em"].items()))
        else:
            for name in args.names:
                rep = verify(name, args.tolerance, retrain=not args.no_retrain, progress=True)
                print(json.dumps(rep))
                print(f"{name}: verified")
    except (ZooError, CheckpointError, AssertionError) as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

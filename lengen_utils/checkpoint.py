"""Saving and loading models without pickle.

A model checkpoint is a ``.safetensors`` file: the weights plus JSON metadata (the ModelConfig, the
TaskConfig and anything else the caller records), a sha256 of the weights and (format 2) a sha256 of
the model config, the metadata and the weights together, so that a config edited inside the header is
refused too. Format-1 files (saved before the record checksum existed) still load: their weights are
checked, and the config must build a model whose every tensor has the saved shape. Loading never
executes code from the file, and a missing, corrupted, tampered or mismatched file raises
:class:`CheckpointError` with a sentence saying what is wrong. Writes go to a temporary file first
and are renamed into place, so an interrupted save never destroys the previous checkpoint.

Training state for ``resume`` (optimizer, step, RNG) is saved with ``torch.save`` and read back
with ``weights_only=True``.
"""
from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import torch

from .model import ModelConfig, Transformer

FORMAT_VERSION = "2"
READABLE_VERSIONS = ("1", "2")   # "1": weights checksum only (older zoo files)
TRAINING_STATE_KEYS = ("model", "optimizer", "step", "losses", "rng", "torch_rng")


class CheckpointError(RuntimeError):
    """A checkpoint that cannot be used; the message says why and, where known, how to rebuild it."""


def file_sha256(path: str | os.PathLike) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def _weights_digest(state: dict[str, torch.Tensor]) -> str:
    h = hashlib.sha256()
    for name in sorted(state):
        t = state[name].detach().cpu().contiguous()
        h.update(name.encode())
        h.update(str(tuple(t.shape)).encode() + str(t.dtype).encode())
        h.update(t.view(torch.uint8).numpy().tobytes() if t.numel() else b"")
    return h.hexdigest()


def _record_digest(model_config: str, metadata: str, weights_sha256: str) -> str:
    """sha256 over the exact header strings and the weights checksum (covers the config, not just tensors)."""
    h = hashlib.sha256()
    for part in (model_config, metadata, weights_sha256):
        data = part.encode()
        h.update(str(len(data)).encode() + b":" + data)
    return h.hexdigest()


def _atomic_write(path: Path, write) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    write(tmp)
    os.replace(tmp, path)


def save_model(path: str | os.PathLike, model: Transformer, metadata: dict | None = None) -> Path:
    """Write ``model`` and JSON-serialisable ``metadata`` to ``path`` (a .safetensors file)."""
    from safetensors.torch import save_file

    path = Path(path)
    if not isinstance(model, Transformer):
        raise CheckpointError(f"save_model saves a Transformer, got {type(model).__name__}")
    try:
        extra = json.dumps(metadata or {})
    except (TypeError, ValueError) as err:
        raise CheckpointError(f"metadata for {path} must be JSON-serialisable ({error_summary(err)})") from None
    state = {k: v.detach().cpu().contiguous() for k, v in model.state_dict().items()}
    meta = {"lengen_format": FORMAT_VERSION, "model_config": json.dumps(model.cfg.to_dict()),
            "weights_sha256": _weights_digest(state), "metadata": extra}
    meta["record_sha256"] = _record_digest(meta["model_config"], meta["metadata"], meta["weights_sha256"])
    _atomic_write(path, lambda tmp: save_file(state, str(tmp), metadata=meta))
    return path


def load_model(path: str | os.PathLike, device: torch.device | str = "cpu", rebuild_hint: str = "",
               expected_sha256: str | None = None) -> tuple[Transformer, dict]:
    """Rebuild the model saved at ``path``; returns ``(model, metadata)``.

    ``expected_sha256`` (for example from the zoo manifest) is checked against the whole file.
    ``rebuild_hint`` is appended to every error, e.g. the command that recreates the file.
    """
    from safetensors import safe_open
    from safetensors.torch import load_file

    path = Path(path)
    hint = f" {rebuild_hint}" if rebuild_hint else ""
    if not path.is_file():
        raise CheckpointError(f"no checkpoint at {path}.{hint}")
    if expected_sha256 is not None and file_sha256(path) != expected_sha256:
        raise CheckpointError(f"{path} does not match the sha256 recorded for it: the file was changed or "
                              f"corrupted.{hint}")
    try:
        with safe_open(str(path), framework="pt") as f:
            meta = f.metadata() or {}
        state = load_file(str(path))
    except Exception as err:  # safetensors raises several types for a damaged header or body
        raise CheckpointError(f"{path} is not a readable checkpoint ({type(err).__name__}: {err}).{hint}") from None
    version = meta.get("lengen_format")
    if version not in READABLE_VERSIONS or "model_config" not in meta:
        raise CheckpointError(f"{path} is not a lengen checkpoint (format {version!r}; this library reads "
                              f"formats {READABLE_VERSIONS}).{hint}")
    if _weights_digest(state) != meta.get("weights_sha256"):
        raise CheckpointError(f"{path} failed its integrity check: the weights differ from the checksum "
                              f"stored when it was saved (tampered or corrupted).{hint}")
    if version != "1" and meta.get("record_sha256") != _record_digest(
            meta["model_config"], meta.get("metadata", ""), meta["weights_sha256"]):
        raise CheckpointError(f"{path} failed its integrity check: the model config or metadata in its header "
                              f"differ from the checksum stored when it was saved (edited or corrupted).{hint}")
    try:
        cfg = ModelConfig.from_dict(json.loads(meta["model_config"]))
        model = Transformer(cfg)
        model.load_state_dict(state, strict=True)
        extra = json.loads(meta.get("metadata", "{}"))
    except Exception as err:
        raise CheckpointError(f"{path} does not fit the model it describes ({error_summary(err)}).{hint}") from None
    return model.to(device), extra


def save_training_state(path: str | os.PathLike, state: dict) -> None:
    """Optimizer, scheduler, step and RNG states for ``fit(..., resume=True)``."""
    path = Path(path)
    _atomic_write(path, lambda tmp: torch.save(state, tmp))


def load_training_state(path: str | os.PathLike) -> dict:
    path = Path(path)
    if not path.is_file():
        raise CheckpointError(f"no training state at {path} (resume=True): check the path, or pass "
                              f"resume=False to start fresh")
    try:
        state = torch.load(path, map_location="cpu", weights_only=True)
    except Exception as err:
        raise CheckpointError(f"{path} is not a readable training state ({error_summary(err)})") from None
    missing = [k for k in TRAINING_STATE_KEYS if not isinstance(state, dict) or k not in state]
    if missing:
        raise CheckpointError(f"{path} is not a training state saved by fit (missing {missing})")
    return state


def error_summary(err: Exception, limit: int = 400) -> str:
    """An exception as one line of at most ``limit`` characters (torch's size-mismatch lists run long)."""
    text = " ".join(str(err).split()) or "no details"
    return f"{type(err).__name__}: {text[:limit]}{'...' if len(text) > limit else ''}"

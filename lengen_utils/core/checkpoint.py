"""Saving and loading models without pickle.

A model checkpoint is a ``.safetensors`` file: the weights plus JSON metadata (the ModelConfig, the
TaskConfig and anything else the caller records), a sha256 of the weights and (format 2) a sha256 of
the model config, the metadata and the weights together, so that a config edited inside the header is
refused too. ``save_model(..., half=True)`` stores the floating-point tensors in float16 (half the
size; the header's ``storage`` says so, sealed by the record checksum) and loading copies them into the
float32 model exactly; :func:`round_to_half` rounds a model's weights the same way in place, so that
what is measured before saving is what a reader gets back. A format-1 file (saved before the record checksum existed) has a header nothing checks, so
``load_model`` refuses it unless its whole-file sha256 is given (``expected_sha256``, as the zoo does)
or ``allow_unchecked_header=True`` says that the file is trusted; :func:`migrate_checkpoint` rewrites it
in the current format with the same tensors (``python -m lengen_utils.lab.zoo migrate`` does so for the
zoo's assets). Loading never
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
HALF = "float16"                 # the header's ``storage`` of a half-precision file (absent: as trained)
FLOAT16_MAX = float(torch.finfo(torch.float16).max)
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
        h.update(t.reshape(-1).view(torch.uint8).numpy().tobytes() if t.numel() else b"")   # 0-dim too
    return h.hexdigest()


def _record_digest(model_config: str, metadata: str, weights_sha256: str, storage: str | None = None) -> str:
    """sha256 over the exact header strings and the weights checksum (covers the config, not just tensors);
    a ``storage`` entry, when the header has one, is sealed too (files without it keep their old digest)."""
    h = hashlib.sha256()
    for part in (model_config, metadata, weights_sha256) + (() if storage is None else (storage,)):
        data = part.encode()
        h.update(str(len(data)).encode() + b":" + data)
    return h.hexdigest()


def stored_format(path: str | os.PathLike) -> str | None:
    """The ``lengen_format`` recorded in a checkpoint's header (None when absent); reads the header only."""
    from safetensors import safe_open

    with safe_open(str(path), framework="pt") as f:
        return (f.metadata() or {}).get("lengen_format")


def _atomic_write(path: Path, write) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    write(tmp)
    os.replace(tmp, path)


def stored_storage(path: str | os.PathLike) -> str | None:
    """The header's ``storage`` (``"float16"`` for a half-precision file, None for one stored as trained)."""
    from safetensors import safe_open

    with safe_open(str(path), framework="pt") as f:
        return (f.metadata() or {}).get("storage")


def _check_half_range(state: dict[str, torch.Tensor], what: str) -> None:
    big = [k for k, v in state.items() if v.is_floating_point() and v.numel()
           and float(v.detach().abs().max()) > FLOAT16_MAX]
    if big:
        raise CheckpointError(f"cannot store {what} in float16: weights {big} exceed its range "
                              f"({FLOAT16_MAX:g}); keep it in float32 (half=False)")


def round_to_half(model: Transformer) -> Transformer:
    """Round ``model``'s saved floating-point weights to float16 and back, in place (integer buffers and the
    non-persistent buffers rebuilt from the config are untouched); returns the model. After this, saving
    with ``half=True`` loses nothing, so metrics measured now are those of the stored file. A weight beyond
    float16's range (|w| > 65504) raises :class:`CheckpointError` rather than becoming infinite."""
    state = {k: v for k, v in model.state_dict().items() if v.is_floating_point()}
    _check_half_range(state, "this model")
    with torch.no_grad():
        for v in state.values():
            v.copy_(v.to(torch.float16).to(v.dtype))
    return model


def save_model(path: str | os.PathLike, model: Transformer, metadata: dict | None = None,
               half: bool = False) -> Path:
    """Write ``model`` and JSON-serialisable ``metadata`` to ``path`` (a .safetensors file); ``half=True``
    stores the floating-point tensors as float16 (round the model first with :func:`round_to_half` to
    measure exactly what is stored)."""
    from safetensors.torch import save_file

    path = Path(path)
    if not isinstance(model, Transformer):
        raise CheckpointError(f"save_model saves a Transformer, got {type(model).__name__}")
    try:
        extra = json.dumps(metadata or {})
    except (TypeError, ValueError) as err:
        raise CheckpointError(f"metadata for {path} must be JSON-serialisable ({error_summary(err)})") from None
    state = {k: v.detach().cpu().contiguous() for k, v in model.state_dict().items()}
    if half:
        _check_half_range(state, str(path))
        state = {k: v.to(torch.float16) if v.is_floating_point() else v for k, v in state.items()}
    meta = {"lengen_format": FORMAT_VERSION, "model_config": json.dumps(model.cfg.to_dict()),
            "weights_sha256": _weights_digest(state), "metadata": extra}
    if half:
        meta["storage"] = HALF
    meta["record_sha256"] = _record_digest(meta["model_config"], meta["metadata"], meta["weights_sha256"],
                                           meta.get("storage"))
    _atomic_write(path, lambda tmp: save_file(state, str(tmp), metadata=meta))
    return path


def _read_checked(path: Path, hint: str) -> tuple[dict, dict[str, torch.Tensor]]:
    """The header metadata and the tensors of ``path``, with the format version and weights checksum checked."""
    from safetensors import safe_open
    from safetensors.torch import load_file

    if not path.is_file():
        raise CheckpointError(f"no checkpoint at {path}.{hint}")
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
    return meta, state


def load_model(path: str | os.PathLike, device: torch.device | str = "cpu", rebuild_hint: str = "",
               expected_sha256: str | None = None, allow_unchecked_header: bool = False) -> tuple[Transformer, dict]:
    """Rebuild the model saved at ``path``; returns ``(model, metadata)``.

    ``expected_sha256`` (for example from the zoo manifest) is checked against the whole file.
    ``rebuild_hint`` is appended to every error, e.g. the command that recreates the file. Float16
    tensors (a ``half=True`` file) are copied into the float32 model, exactly. A format-1
    file, whose header has no checksum of its own, loads only when ``expected_sha256`` vouches for the
    whole file or ``allow_unchecked_header=True`` (an edited config would otherwise load as another model).
    """
    path = Path(path)
    hint = f" {rebuild_hint}" if rebuild_hint else ""
    if expected_sha256 is not None and path.is_file() and file_sha256(path) != expected_sha256:
        raise CheckpointError(f"{path} does not match the sha256 recorded for it: the file was changed or "
                              f"corrupted.{hint}")
    meta, state = _read_checked(path, hint)
    if meta["lengen_format"] == "1":
        if expected_sha256 is None and not allow_unchecked_header:
            raise CheckpointError(f"{path} is a format-1 checkpoint: its header (model config and metadata) has "
                                  f"no checksum, so an edited config would load as another model. Rewrite it in "
                                  f"format {FORMAT_VERSION} with lengen_utils.core.checkpoint.migrate_checkpoint (zoo "
                                  f"assets: `python -m lengen_utils.lab.zoo migrate`), pass expected_sha256= the "
                                  f"file's known sha256, or pass allow_unchecked_header=True if you trust the "
                                  f"file.{hint}")
    elif meta.get("record_sha256") != _record_digest(meta["model_config"], meta.get("metadata", ""),
                                                     meta["weights_sha256"], meta.get("storage")):
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


def migrate_checkpoint(path: str | os.PathLike, out: str | os.PathLike | None = None) -> bool:
    """Rewrite a format-1 checkpoint in the current format (to ``out``, default in place); returns False
    for a file already current. The tensors and the header strings are copied unchanged and the record
    checksum is added; the weights are checked first, and the model must build from the config.

    Only the caller can vouch for the header of a format-1 file: check it (e.g. its sha256 against a
    manifest) before migrating, since the new checksum seals whatever config the header holds."""
    from safetensors.torch import save_file

    path = Path(path)
    meta, state = _read_checked(path, "")
    if meta["lengen_format"] == FORMAT_VERSION:
        return False
    load_model(path, allow_unchecked_header=True)          # the config must build a model of these shapes
    new = {"lengen_format": FORMAT_VERSION, "model_config": meta["model_config"],
           "weights_sha256": meta["weights_sha256"], "metadata": meta.get("metadata", "{}")}
    new["record_sha256"] = _record_digest(new["model_config"], new["metadata"], new["weights_sha256"])
    _atomic_write(Path(out) if out is not None else path, lambda tmp: save_file(state, str(tmp), metadata=new))
    return True


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

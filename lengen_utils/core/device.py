"""Device choice, CPU threads, seeding and mixed precision: the few places hardware shows through."""
from __future__ import annotations

import contextlib
import os
import random

import numpy as np
import torch

from .config_checks import require_int


def pick_device(prefer: str | None = None) -> torch.device:
    """CUDA if available, else CPU. ``prefer`` (or the ``LENGEN_DEVICE`` variable) overrides it;
    Apple's ``mps`` is used only when asked for explicitly."""
    wanted = prefer or os.environ.get("LENGEN_DEVICE")
    if wanted:
        try:
            torch.device(wanted)
        except (RuntimeError, TypeError):
            raise ValueError(f"device {wanted!r} (argument or LENGEN_DEVICE) is not a device name; use 'cpu', "
                             f"'cuda', 'cuda:N' or 'mps'") from None
        if wanted.startswith("cuda") and not torch.cuda.is_available():
            raise RuntimeError(f"device {wanted!r} was requested but CUDA is not available on this machine")
        if wanted == "mps" and not (getattr(torch.backends, "mps", None) and torch.backends.mps.is_available()):
            raise RuntimeError("device 'mps' was requested but is not available on this machine")
        return torch.device(wanted)
    return torch.device("cuda" if torch.cuda.is_available() else "cpu")


def device_label(device: torch.device | str) -> str:
    """The device in a few words for a learner: ``'CUDA GPU (Tesla T4)'``, ``'CPU (2 threads)'``, ``'MPS'``."""
    device = torch.device(device)
    if device.type == "cuda":
        return f"CUDA GPU ({torch.cuda.get_device_name(device)})"
    if device.type == "cpu":
        n = torch.get_num_threads()
        return f"CPU ({n} thread{'s' if n != 1 else ''})"
    return device.type.upper()


def device_problem(name: str | None) -> str | None:
    """Why ``name`` cannot be used here (one sentence for a command line), or None when it can (or is None)."""
    if name is None:
        return None
    try:
        pick_device(name)
    except (ValueError, RuntimeError) as err:
        return str(err).replace(" (argument or LENGEN_DEVICE)", "")
    return None


def set_cpu_threads(n: int | None = None) -> int:
    """Use every core this process may run on (``LENGEN_THREADS`` overrides); small models gain nothing
    from more threads than cores, and oversubscription slows them down."""
    if n is None:
        env = os.environ.get("LENGEN_THREADS")
        if env:
            if not env.strip().isdigit() or int(env) < 1:
                raise ValueError(f"LENGEN_THREADS={env!r} is not a whole number of CPU threads >= 1")
            n = int(env)
        else:
            try:
                n = len(os.sched_getaffinity(0))
            except AttributeError:  # macOS / Windows
                n = os.cpu_count() or 1
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise ValueError(f"the number of CPU threads must be a whole number >= 1, got {n!r}")
    torch.set_num_threads(n)
    return n


def seed_everything(seed: int) -> np.random.Generator:
    """Seed Python, NumPy and torch; returns a fresh NumPy generator for data sampling. A ``seed`` that is not
    an int raises ``ValueError`` naming its type (``random.seed('1')`` would take it, NumPy would not)."""
    seed = require_int(seed, "seed", error=ValueError)
    random.seed(seed)
    np.random.seed(seed % 2**32)
    torch.manual_seed(seed)
    return np.random.default_rng(seed)


def autocast(device: torch.device, enabled: bool = True):
    """bf16 autocast on CUDA (fp16 where bf16 is unsupported); a no-op context on CPU."""
    if enabled and device.type == "cuda":
        dtype = torch.bfloat16 if torch.cuda.is_bf16_supported() else torch.float16
        return torch.autocast("cuda", dtype=dtype)
    return contextlib.nullcontext()


def describe_environment() -> dict:
    """What a learner should know about their machine before training anything."""
    device = pick_device()
    info = {"torch": torch.__version__, "device": str(device), "cpu_threads": torch.get_num_threads(),
            "cuda": torch.cuda.is_available()}
    if device.type == "cuda":
        info["gpu"] = torch.cuda.get_device_name(device)
    return info

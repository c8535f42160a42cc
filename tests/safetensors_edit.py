"""Test helper: rewrite a ``.safetensors`` header's ``__metadata__`` in place (the tensors stay as they
are), to simulate a checkpoint whose config was edited by hand."""
from __future__ import annotations

import json
import struct
from pathlib import Path
from typing import Callable


def edit_metadata(path: Path, change: Callable[[dict], None]) -> None:
    raw = path.read_bytes()
    (n,) = struct.unpack("<Q", raw[:8])
    header = json.loads(raw[8:8 + n])
    change(header["__metadata__"])
    text = json.dumps(header).encode()
    text += b" " * (-len(text) % 8)
    path.write_bytes(struct.pack("<Q", len(text)) + text + raw[8 + n:])

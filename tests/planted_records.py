"""A complete manifest record for tests that plant entries (the store checks every record when it reads one)."""
from __future__ import annotations


def full_record(**fields) -> dict:
    """Every required key (:data:`lengen_utils.lab.zoo.manifest.REQUIRED`) with placeholder values, then ``fields``."""
    return {"command": "python -m lengen_utils.lab.zoo train x", "file": "zoo/x.safetensors", "sha256": "0" * 64,
            "task": {}, "model": {}, "metrics": {"em": {"1": 0.5}}, **fields}

"""Checks shared by the package's configs: one error type and one refusal per kind of field.

:class:`~lengen_utils.task_config.TaskConfig`, :class:`~lengen_utils.model.ModelConfig` and
:class:`~lengen_utils.train.TrainConfig` refuse a bad field when they are built, with a message that names
the field and its limit, and read a dict with :func:`config_from_dict`, which refuses unknown keys. The
checks depend on nothing of the package, so every layer that declares a config can use them.
"""
from __future__ import annotations

from dataclasses import fields

import numpy as np


class ConfigError(ValueError):
    """A config that cannot be built, or two configs that contradict each other; the message names the
    field and its limit. Shared by TaskConfig, ModelConfig and TrainConfig."""


def config_from_dict(cls, data: dict):
    """``cls(**data)`` for a config dataclass, refusing unknown keys (one contract for every config)."""
    if not isinstance(data, dict):
        raise ConfigError(f"{cls.__name__}.from_dict needs a dict, got {type(data).__name__}")
    known = [f.name for f in fields(cls)]
    unknown = sorted(set(data) - set(known), key=str)
    if unknown:
        raise ConfigError(f"unknown {cls.__name__} field(s) {unknown}; valid fields are {known}")
    return cls(**data)


def check_int(owner: str, name: str, value, minimum: int = 1, optional: bool = False) -> None:
    """Refuse a config field that is not a whole number ``>= minimum`` (``None`` too, when ``optional``)."""
    if value is None and optional:
        return
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise ConfigError(f"{owner}.{name} must be a whole number >= {minimum}, got {value!r} "
                          f"({type(value).__name__})")
    if value < minimum:
        raise ConfigError(f"{owner}.{name} must be >= {minimum}, got {value}")


def check_bool(owner: str, name: str, value) -> None:
    if not isinstance(value, (bool, np.bool_)):
        raise ConfigError(f"{owner}.{name} must be True or False, got {value!r} ({type(value).__name__})")


def check_choice(owner: str, name: str, value, choices, label: str | None = None) -> None:
    if not isinstance(value, str) or value not in choices:
        raise ConfigError(f"unknown {label or name} {value!r} ({owner}.{name}); choose one of {tuple(choices)}")

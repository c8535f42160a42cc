"""Checks shared by the package's configs: one error type and one refusal per kind of field.

:class:`~lengen_utils.core.task_config.TaskConfig`, :class:`~lengen_utils.core.model.ModelConfig` and
:class:`~lengen_utils.core.train.TrainConfig` refuse a bad field when they are built, with a message that names
the field and its limit, and read a dict with :func:`config_from_dict`, which refuses unknown keys. The
checks depend on nothing of the package, so every layer that declares a config can use them.
"""
from __future__ import annotations

import json

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


def parse_override(item: str, fields: dict[str, dict]) -> tuple[str, str, object]:
    """``"section.field=value"`` -> ``(section, field, value)``, the value read as JSON (else kept as a string).
    ``fields``: the known fields per section (``{"train": TrainConfig().to_dict(), ...}``). The one parser of
    ``--set`` overrides (``bench``, ``sweep``); a malformed item or an unknown field raises :class:`ConfigError`."""
    key, sep, text = item.partition("=")
    section, dot, field = key.partition(".")
    if not sep or not dot or section not in fields:
        raise ConfigError(f"bad override {item!r}; write SECTION.FIELD=VALUE with SECTION one of "
                          f"{', '.join(fields)}, e.g. model.d_model=128 or train.lr=0.003")
    if field not in fields[section]:
        raise ConfigError(f"override {item!r}: {section} has no field {field!r}; fields: "
                          f"{', '.join(sorted(fields[section]))}")
    return section, field, override_value(text)


def override_value(text: str):
    """An override's value: JSON (``128``, ``0.003``, ``[5, 10]``, ``true``), else the text itself (``coupled``)."""
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text

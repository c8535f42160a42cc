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


# -- a value of the wrong type, refused by name -------------------------------------------------------
# A seed, a length or a digit count given as a string ('1', as input() returns it) must not be looked up and
# reported as a wrong value ("no seed '1'; its seeds: 0, 1, 2"), nor a bare int given for a seed set fail
# deep inside ("'int' object is not iterable"): every public entry point that takes one refuses the type by
# name, with these helpers, raising the error type of its own surface.

_TYPE_WORDS = {str: "string", bytes: "bytes", bool: "bool", int: "int", float: "float", list: "list",
               tuple: "tuple", dict: "dict", set: "set"}


def type_phrase(value: object) -> str:
    """``value`` named by its type, for a refusal: ``the string '1'``, ``the float 2.5``, ``the bool True``."""
    if value is None:
        return "None"
    text = repr(value.item() if isinstance(value, np.generic) else value)    # 2.5, not np.float64(2.5)
    if len(text) > 60:
        text = text[:57] + "..."
    return f"the {_TYPE_WORDS.get(type(value), type(value).__name__)} {text}"


def is_int(value: object) -> bool:
    """Whether ``value`` is a whole number of an integer type: a Python or NumPy int, not a bool, not a float
    (``3.0`` neither: ``2.7`` must not run as 2)."""
    return isinstance(value, (int, np.integer)) and not isinstance(value, bool)


def _prefix(owner: str) -> str:
    return f"{owner}: " if owner else ""


def int_refusal(value: object, name: str, *, expected: str = "an int", owner: str = "") -> str | None:
    """The sentence that refuses ``value`` for ``name`` when it is not an int (:func:`is_int`), e.g. ``seed must
    be an int, got the string '1'``; ``None`` for an int. For a widget, which shows the sentence instead of
    raising it."""
    if is_int(value):
        return None
    return f"{_prefix(owner)}{name} must be {expected}, got {type_phrase(value)}"


def require_int(value: object, name: str, *, error: type[Exception] = ConfigError, expected: str = "an int",
                owner: str = "") -> int:
    """``value`` as a Python int, else ``error`` with :func:`int_refusal`'s sentence (``owner`` prefixes it).
    Only the type is checked: a range is the caller's."""
    why = int_refusal(value, name, expected=expected, owner=owner)
    if why is not None:
        raise error(why)
    return int(value)


def require_ints(values: object, name: str, *, error: type[Exception] = ConfigError, kind: str = "a tuple",
                 owner: str = "") -> tuple[int, ...]:
    """``values`` (a seed set, a list of lengths) as a tuple of Python ints, else ``error`` naming the type:
    ``seeds must be a tuple of ints, got the int 3 (write seeds=(3,) for one seed)``, ``lengths must be ints,
    got the string '1' (item 0 of ('1',))``. ``kind`` is the container the message asks for (``"a tuple"`` or
    ``"a list"``). Empty is the caller's to refuse."""
    head = f"{_prefix(owner)}{name} must be {kind} of ints, got {type_phrase(values)}"
    if is_int(values):
        one = (name[:-1] if name.endswith("s") else name).rsplit("_", 1)[-1]     # eval_lengths -> length
        written = f"[{int(values)}]" if kind == "a list" else f"({int(values)},)"
        raise error(f"{head} (write {name}={written} for one {one})")
    if isinstance(values, (str, bytes, dict)) or not hasattr(values, "__iter__"):
        raise error(head)
    values = tuple(values)
    for i, v in enumerate(values):
        if not is_int(v):
            raise error(f"{_prefix(owner)}{name} must be ints, got {type_phrase(v)} (item {i} of {values!r})")
    return tuple(int(v) for v in values)


def check_bool(owner: str, name: str, value, error: type[Exception] = ConfigError) -> None:
    """Refuse anything but True or False (a NumPy bool too): the string ``'no'`` is truthy, and would switch the
    option on."""
    if not isinstance(value, (bool, np.bool_)):
        raise error(f"{owner}.{name} must be True or False, got {type_phrase(value)}")


def check_choice(owner: str, name: str, value, choices, label: str | None = None) -> None:
    if not isinstance(value, str):
        raise ConfigError(f"{owner}.{name} must be a string, one of {tuple(choices)}; got {type_phrase(value)}")
    if value not in choices:
        raise ConfigError(f"unknown {label or name} {value!r} ({owner}.{name}); choose one of {tuple(choices)}")


def check_field_types(config, error: type[Exception] = ConfigError) -> None:
    """Refuse, by name, a field of a config dataclass whose value is not of its declared kind: a field declared
    ``bool`` takes True or False only, a field declared ``str`` (a name or a choice) a string only. The first check
    of every config's ``__post_init__``, so that no field is forgotten and a wrong type never reaches a check that
    would read it as a value (``'no'`` as true, ``1`` as an unknown choice)."""
    owner = type(config).__name__
    for f in fields(config):
        declared = f.type if isinstance(f.type, str) else getattr(f.type, "__name__", "")
        value = getattr(config, f.name)
        if declared == "bool":
            check_bool(owner, f.name, value, error)
        elif declared == "str" and not isinstance(value, str):
            raise error(f"{owner}.{f.name} must be a string, got {type_phrase(value)}")


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

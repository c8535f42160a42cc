"""The zoo's registry: every entry by name. Entries are declared in :mod:`.catalog` and its sections."""
from __future__ import annotations

from .entry import ZooEntry, ZooError

ENTRIES: dict[str, ZooEntry] = {}


def register(entry: ZooEntry) -> ZooEntry:
    """Add ``entry`` to the catalog (a name may be registered once)."""
    if entry.name in ENTRIES:
        raise ValueError(f"zoo entry {entry.name!r} registered twice")
    ENTRIES[entry.name] = entry
    return entry


def catalog() -> dict[str, ZooEntry]:
    """Every entry, by name."""
    return ENTRIES


def entry(name: str) -> ZooEntry:
    """The entry called ``name``; an unknown name raises :class:`ZooError` listing the known ones."""
    if name not in ENTRIES:
        raise ZooError(f"unknown zoo entry {name!r}; known entries: {', '.join(sorted(ENTRIES)) or 'none'}")
    return ENTRIES[name]

"""Solutions of the notebooks' coding exercises, one module per notebook (``solutions.nb01`` ...).

Try the exercise first; ``exercises.reveal(solutions.nb01.some_function)`` shows one collapsed. The modules are
imported when first named, so ``solutions.nb05`` works after ``from lengen_utils.course.exercises import solutions``."""
from __future__ import annotations

import importlib
import re
from types import ModuleType


def __getattr__(name: str) -> ModuleType:
    if re.fullmatch(r"nb\d\d", name):
        return importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

"""The package's import graph: no cycles, and nothing lower imports anything higher.

Every import of our own modules is collected from the source with ``ast``, at module level and inside
functions alike (an import hidden in a function is still a dependency). The layer order is the one the
README's package map states:

    base -> problems -> formats/positions -> tasks -> model -> train/evaluate -> analysis -> course
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = "lengen_utils"
ROOT = Path(__file__).resolve().parent.parent / PACKAGE

# top-level module (or sub-package) of lengen_utils -> layer; a new module must be placed here
LAYERS: dict[str, int] = {
    "constants": 0, "device": 0, "claims": 0, "config_checks": 0,
    "problems": 1, "carries": 1, "complexity_sampling": 1, "addition_steps": 1, "curriculum": 1,
    "boards": 1, "board_format": 2, "positions2d": 2,  # minesweeper (Cho et al. Section 6.2)
    "formats": 2, "vocab": 2, "example": 2, "positions": 2,
    "text_filler": 2, "spaces": 2,
    "tasks": 3, "task_config": 3, "batches": 3,
    "model": 4, "checkpoint": 4,
    "train": 5, "train_runtime": 5, "evaluate": 5, "compatibility": 5, "multiseed": 5,
    "complexity": 6, "theory": 6, "constructions": 6, "interpret": 6, "generalization": 6, "probes": 6,
    "zoo": 7, "bench": 7, "bench_recipes": 7, "cli": 7, "plots": 7, "widgets": 7, "notebook": 7, "throughput": 7, "multiseed_bench": 7, "sweep": 7, "sweep_grid": 7,
    "leaderboard": 7, "sections": 7, "long_eval": 7, "colab": 7, "exercises": 7,
}
LAYER_NAMES = ["base", "problems", "formats/positions", "tasks", "model", "train/evaluate", "analysis", "course"]


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def all_modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(ROOT.rglob("*.py"))}


def _resolve(current: str, is_package: bool, node: ast.ImportFrom) -> str:
    if node.level == 0:
        return node.module or ""
    base = current.split(".") if is_package else current.split(".")[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def imports_of(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """Our modules that ``name`` imports, anywhere in its source."""
    tree = ast.parse(path.read_text(), filename=str(path))
    is_package = path.name == "__init__.py"
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = _resolve(name, is_package, node)
            # `from pkg import sub` depends on pkg.sub when sub is a module, else on pkg itself
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base for a in node.names]
        else:
            continue
        found.update(t for t in targets if t == PACKAGE or t.startswith(PACKAGE + "."))
    found.discard(name)
    return found


def graph() -> dict[str, set[str]]:
    modules = all_modules()
    return {name: imports_of(name, path, modules) for name, path in modules.items()}


def top(name: str) -> str:
    parts = name.split(".")
    return parts[1] if len(parts) > 1 else ""


def test_every_module_has_a_layer():
    missing = sorted({top(m) for m in all_modules() if top(m) and top(m) not in LAYERS})
    assert not missing, f"place these modules in tests/test_layers.py LAYERS: {missing}"


def test_only_the_package_facade_imports_the_package_root():
    offenders = sorted(m for m, deps in graph().items() if m != PACKAGE and PACKAGE in deps)
    assert not offenders, (f"{offenders} import `{PACKAGE}` itself, which imports every layer (a hidden cycle); "
                           "import the defining module instead")


def test_no_import_cycles():
    g = {m: {d for d in deps if d != PACKAGE} for m, deps in graph().items() if m != PACKAGE}
    # a package's __init__ importing its own submodules is not a cycle with them unless they import back
    state: dict[str, int] = {}
    stack: list[str] = []
    cycles: list[list[str]] = []

    def visit(m: str) -> None:
        state[m] = 1
        stack.append(m)
        for d in sorted(g.get(m, ())):
            # importing pkg.sub executes pkg/__init__ first: count the edge to the submodule only
            if state.get(d) == 1:
                cycles.append(stack[stack.index(d):] + [d])
            elif d not in state:
                visit(d)
        stack.pop()
        state[m] = 2

    for m in sorted(g):
        if m not in state:
            visit(m)
    assert not cycles, "import cycles: " + "; ".join(" -> ".join(c) for c in cycles)


def test_layer_order():
    bad = []
    for m, deps in graph().items():
        if m == PACKAGE or top(m) not in LAYERS:
            continue
        for d in deps:
            if d == PACKAGE or top(d) not in LAYERS:
                continue
            if LAYERS[top(d)] > LAYERS[top(m)]:
                bad.append(f"{m} ({LAYER_NAMES[LAYERS[top(m)]]}) imports {d} ({LAYER_NAMES[LAYERS[top(d)]]})")
    assert not bad, "imports against the layer order:\n" + "\n".join(sorted(bad))


def test_the_checker_sees_function_level_imports(tmp_path):
    """The checker must not be blind to an import hidden inside a function."""
    source = "def f():\n    from .zoo import load\n    return load\n"
    path = tmp_path / "x.py"
    path.write_text(source)
    modules = {"lengen_utils.zoo": path, "lengen_utils.x": path}
    assert imports_of("lengen_utils.x", path, modules) == {"lengen_utils.zoo"}


@pytest.mark.parametrize("module", ["lengen_utils.problems", "lengen_utils.tasks", "lengen_utils.model"])
def test_low_layers_import_alone(module):
    """Importing a low layer must not drag in the course layer (plots, widgets, zoo)."""
    import subprocess
    import sys

    code = (f"import sys, {module}; heavy = sorted(m for m in sys.modules if m.split('.')[:2] in "
            "(['lengen_utils','zoo'], ['lengen_utils','plots'], ['lengen_utils','widgets'])); print(heavy)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]", out

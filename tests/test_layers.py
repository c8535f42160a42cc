"""The package's import graph: no cycles, and nothing lower imports anything higher.

Every import of our own modules is collected from the source with ``ast``, at module level and inside
functions alike (an import hidden in a function is still a dependency). The layer order is the tree's, as the
README's package map states:

    core/ (base -> problems -> formats/positions -> tasks -> model -> train/evaluate) -> analysis/ -> lab/ -> course/

Inside course/, one folder per notebook (``course/chNN_<topic>/``) imports core, analysis, lab and the course's shared
modules (common, plots, widgets, notebook, colab), never another chapter's folder.
"""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

PACKAGE = "lengen_utils"
ROOT = Path(__file__).resolve().parent.parent / PACKAGE

# the tree: a group (core/, analysis/, lab/, course/) and its modules -> layer; a new module must be placed here
LAYERS: dict[str, int] = {
    "core": 0, "core.constants": 0, "core.device": 0, "core.config_checks": 0,
    "core.problems": 1, "core.carries": 1, "core.complexity": 1, "core.addition_steps": 1,
    "core.curriculum": 1, "core.boards": 1, "core.boards.board": 1,
    "core.boards.format": 2, "core.positions2d": 2,  # minesweeper (Cho et al. Section 6.2)
    "core.nxm": 2, "core.nxm.cho": 2, "core.nxm.format": 2, "core.nxm.positions": 2, "core.nxm.task": 3,  # N x M (notebook 09)
    "core.formats": 2, "core.vocab": 2, "core.example": 2, "core.positions": 2, "core.text_filler": 2,
    "core.spaces": 2,
    "core.tasks": 3, "core.task_base": 3, "core.boards.task": 3, "core.task_config": 3, "core.batches": 3,
    "core.model": 4, "core.checkpoint": 4,
    "core.train": 5, "core.train_config": 4, "core.train_state": 5, "core.train_runtime": 5, "core.evaluate": 5, "core.compatibility": 5, "core.multiseed": 5,
    "analysis": 6, "analysis.complexity": 6, "analysis.theory": 6, "analysis.constructions": 6,
    "analysis.interpret": 6, "analysis.generalization": 6, "analysis.probes": 6, "analysis.rpe_decline": 6,
    "analysis.nxm_measures": 6,
    "lab": 7, "lab.zoo": 7, "lab.bench": 7, "lab.bench_recipes": 7, "lab.cli": 7, "lab.throughput": 7,
    "lab.multiseed_bench": 7, "lab.sweep": 7, "lab.sweep_grid": 7, "lab.leaderboard": 7, "lab.long_eval": 7, "lab.flagship_time": 7, "lab.nxm_grid": 7,
    # a package whose modules share one layer is placed once: lab.zoo (manifest, store...), lab.papers (vocabulary,
    # setups, comparing); SPLIT lists the packages whose modules are placed one by one
    "lab.papers": 7, "lab.ledger": 7, "lab.experiment": 7,
    "course": 8, "course.plots": 8, "course.widgets": 8, "course.notebook": 8, "course.colab": 8, "course.common": 8,
    "course.ch00_tour": 8, "course.ch01_formats": 8, "course.ch02_ape": 8, "course.ch03_rpe": 8, "course.ch04_upe": 8,
    "course.ch05_coupling": 8, "course.ch06_complexity": 8, "course.ch07_theory": 8, "course.ch08_beyond": 8,
    "course.ch09_nxm": 8,
}
LAYER_NAMES = ["base", "problems", "formats/positions", "tasks", "model", "train/evaluate", "analysis", "lab",
               "course"]
#: each group of the tree holds exactly these layers
GROUP_LAYERS = {"core": range(0, 6), "analysis": range(6, 7), "lab": range(7, 8), "course": range(8, 9)}
#: a chapter's recipes (``course/chNN_<topic>/recipes.py``): plain data that imports only the core and
#: lab.experiment, so that importing it first loads no zoo; the zoo finds these modules through the package's entry
#: points (group ``lengen_utils.recipes``), so no module of the lab imports the course
RECIPES = re.compile(r"course\.ch\d\d_\w+\.recipes")
RECIPES_MAY_IMPORT = ("core", "lab.experiment")


def is_recipes(name: str) -> bool:
    """Whether module ``name`` is a chapter's recipes module."""
    return bool(RECIPES.fullmatch(".".join(name.split(".")[1:4])))


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


#: packages whose modules sit in different layers, so each module is its own place (``core.boards.task``)
SPLIT = ("core.boards", "core.nxm")


def top(name: str) -> str:
    """Where ``name`` sits in the tree: ``"core.model"`` for ``lengen_utils.core.model.attention``, ``"core"`` for the
    group's own ``__init__``, ``""`` for the facade; ``"course.ch05_coupling"`` for every module of that chapter."""
    place = ".".join(name.split(".")[1:4])
    split = ".".join(name.split(".")[1:3]) in SPLIT and place.count(".") == 2
    return place if split else ".".join(name.split(".")[1:3])


def test_every_module_has_a_layer():
    missing = sorted({top(m) for m in all_modules() if top(m) and top(m) not in LAYERS})
    assert not missing, f"place these modules in tests/test_layers.py LAYERS: {missing}"


def test_the_tree_shows_the_layers():
    """Every module sits in the group of its layer: the folders say what may import what."""
    misplaced = sorted(f"{place} (layer {LAYER_NAMES[layer]})" for place, layer in LAYERS.items()
                       if layer not in GROUP_LAYERS[place.split(".")[0]])
    assert not misplaced, f"modules in the wrong group of the tree: {misplaced}"
    loose = sorted(p.name for p in ROOT.iterdir() if p.suffix == ".py" and p.name != "__init__.py")
    assert not loose, f"modules outside the tree's groups: {loose}"


def test_the_facade_names_every_module_where_it_lives():
    import lengen_utils
    places = {place.split(".")[1]: place.split(".")[0] for place in LAYERS if "." in place}
    assert lengen_utils._SUBMODULES == places


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


#: a chapter's folder: one notebook's sections, exercises and solutions (course/chNN_<topic>/)
CHAPTER = re.compile(r"course\.ch\d\d_\w+")
#: what a chapter may import of the course: the modules every chapter shares
SHARED_COURSE = {"course", "course.common", "course.plots", "course.widgets", "course.notebook", "course.colab"}


def chapter_offences(g: dict[str, set[str]]) -> list[str]:
    """Imports of a chapter module that reach past core, analysis, lab and the shared course modules (another
    chapter's folder above all), and imports of a chapter by a shared course module."""
    bad = []
    for m, deps in g.items():
        if is_recipes(m):
            bad += [f"{m} (recipes) imports {d}" for d in deps
                    if not (top(d).split(".")[0] == "core" or top(d) in RECIPES_MAY_IMPORT)]
        elif CHAPTER.fullmatch(top(m)):
            bad += [f"{m} imports {d}" for d in deps if not (top(d).split(".")[0] in ("core", "analysis", "lab")
                                                             or top(d) in SHARED_COURSE or top(d) == top(m))]
        elif top(m) in SHARED_COURSE:
            bad += [f"{m} (shared) imports {d}" for d in deps if CHAPTER.fullmatch(top(d))]
    return sorted(bad)


def test_every_notebook_has_one_chapter_folder():
    chapters = sorted(p.name for p in (ROOT / "course").iterdir()
                      if p.is_dir() and CHAPTER.fullmatch(f"course.{p.name}"))
    notebooks = sorted(p.name[:2] for p in (ROOT.parent / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    assert [c[2:4] for c in chapters] == notebooks, (chapters, notebooks)
    assert all(f"course.{c}" in LAYERS for c in chapters)


def test_a_chapter_imports_no_other_chapter():
    """A chapter's folder imports core, analysis, lab and the shared course modules only: what two chapters need
    goes to course/common/."""
    offenders = chapter_offences(graph())
    assert not offenders, ("a chapter imports past the shared course modules (move what two chapters share to "
                           "course/common/):\n" + "\n".join(offenders))


def test_the_chapter_check_sees_a_cross_chapter_import(tmp_path):
    """The chapter check must fail on an import of another chapter, also one hidden inside a function."""
    path = tmp_path / "x.py"
    path.write_text("from ..common.seeds import Curves\n\n"
                    "def f():\n    from ..ch04_upe import upe_m1\n    return upe_m1\n")
    modules = {"lengen_utils.course.ch05_coupling.x": path, "lengen_utils.course.ch04_upe.upe_m1": path,
               "lengen_utils.course.common.seeds": path}
    g = {"lengen_utils.course.ch05_coupling.x": imports_of("lengen_utils.course.ch05_coupling.x", path, modules)}
    assert chapter_offences(g) == ["lengen_utils.course.ch05_coupling.x imports lengen_utils.course.ch04_upe.upe_m1"]


def test_the_chapter_check_sees_recipes_that_import_course_code(tmp_path):
    """A chapter's recipes import the core and lab.experiment only; a section importing another chapter's recipes is
    refused."""
    path = tmp_path / "x.py"
    path.write_text("from ..ch05_coupling.recipes import ABLATION\nfrom ..common.seeds import Curves\n"
                    "from ..ch05_coupling import ablation\n")
    modules = {"lengen_utils.course.ch05_coupling.recipes": path, "lengen_utils.course.common.seeds": path,
               "lengen_utils.course.ch05_coupling.ablation": path}
    g = {name: imports_of(name, path, modules)
         for name in ("lengen_utils.course.ch08_beyond.recipes", "lengen_utils.course.ch08_beyond.x")}
    assert chapter_offences(g) == [
        "lengen_utils.course.ch08_beyond.recipes (recipes) imports lengen_utils.course.ch05_coupling.ablation",
        "lengen_utils.course.ch08_beyond.recipes (recipes) imports lengen_utils.course.ch05_coupling.recipes",
        "lengen_utils.course.ch08_beyond.recipes (recipes) imports lengen_utils.course.common.seeds",
        "lengen_utils.course.ch08_beyond.x imports lengen_utils.course.ch05_coupling.ablation",
        "lengen_utils.course.ch08_beyond.x imports lengen_utils.course.ch05_coupling.recipes"]


def test_no_arrow_runs_up():
    """Counted and printed: imports of a higher layer by a lower one (the lab importing a chapter's recipes was the
    last); test_layer_order holds them at 0."""
    up = [(m, d) for m, deps in graph().items() if m != PACKAGE and top(m) in LAYERS for d in deps
          if d != PACKAGE and top(d) in LAYERS and LAYERS[top(d)] > LAYERS[top(m)]]
    print(f"\narrows up: {len(up)}")
    assert not up, up


@pytest.mark.parametrize("module", ["lengen_utils.course.ch05_coupling.recipes", "lengen_utils.course.ch03_rpe.recipes"])
def test_a_chapters_recipes_import_first_and_alone(module):
    """A chapter's recipes, imported before anything else, load as data: no zoo, no cycle through the catalog."""
    import subprocess
    import sys

    code = (f"import sys, {module} as m; assert m.TABLES; print(sorted(x for x in sys.modules "
            "if x.startswith('lengen_utils.lab.zoo') or x.startswith('lengen_utils.course.common')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip() == "[]", out.stdout


def test_the_checker_sees_function_level_imports(tmp_path):
    """The checker must not be blind to an import hidden inside a function."""
    source = "def f():\n    from .lab.zoo import load\n    return load\n"
    path = tmp_path / "x.py"
    path.write_text(source)
    modules = {"lengen_utils.lab.zoo": path, "lengen_utils.x": path}
    assert imports_of("lengen_utils.x", path, modules) == {"lengen_utils.lab.zoo"}


@pytest.mark.parametrize("module", ["lengen_utils.core.problems", "lengen_utils.core.tasks", "lengen_utils.core.model"])
def test_low_layers_import_alone(module):
    """Importing a low layer must not drag in the lab or the course (zoo, plots, widgets)."""
    import subprocess
    import sys

    code = (f"import sys, {module}; heavy = sorted(m for m in sys.modules if m.split('.')[:2] in "
            "(['lengen_utils','lab'], ['lengen_utils','course'])); print(heavy)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]", out


MAX_MODULE_LINES = 400


def test_no_module_is_over_the_line_limit():
    """A module a reader can hold in mind: at most 400 lines (split by concern beyond that, as lab/papers/ is)."""
    lengths = {name: len(path.read_text().splitlines()) for name, path in all_modules().items()}
    longest = sorted(lengths, key=lengths.get, reverse=True)[:3]
    print("longest modules:", ", ".join(f"{name} ({lengths[name]})" for name in longest))
    over = {name: n for name, n in lengths.items() if n > MAX_MODULE_LINES}
    assert not over, f"split these modules (over {MAX_MODULE_LINES} lines): {over}"

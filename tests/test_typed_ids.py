"""Experiments, not ids (issue 52): how often code types a zoo id instead of asking a recipe table for it.

A *typed id* is a string literal that is a catalog recipe id, an entry name, an alias or a renamed id, written
outside the modules that define them (the chapters' ``recipes.py``, ``lab/experiment/lab_recipes.py``,
``lab/zoo/aliases.py``). The count is printed for the package and the notebooks' code, with the files that type the
most, and may not grow: a new experiment is found by its table's axes (``TABLE.along(axis)``, ``TABLE.one(...)``).
"""
from __future__ import annotations

import ast
import json
from pathlib import Path

from lengen_utils.lab import zoo
from lengen_utils.lab.zoo.aliases import RENAMED

ROOT = Path(__file__).resolve().parent.parent
DEFINING = ("/recipes.py", "/lab_recipes.py", "/zoo/aliases.py")
#: the counts at the start of the work on axes (commit a70546c, counted as here; the review of 2026-11-28 counted
#: 287 and 76 another way); issue 52's target is a cut of at least 80%
BASELINE = {"package": 339, "notebooks": 92}
#: the ceilings: today's counts (2026-11-29, after rows got titles, summaries and roles), which may only fall. The
#: notebooks' three are notebook 00's tour, which shows a learner the zoo's public names of the flagship models
CEILING = {"package": 0, "notebooks": 3}


def known_ids() -> set[str]:
    catalog = zoo.catalog()
    return {e.recipe for e in catalog.values()} | set(catalog) | set(zoo.ALIASES) | set(RENAMED)


def typed_ids(source: str, ids: set[str]) -> int:
    """String literals of ``source`` that are zoo ids."""
    return sum(isinstance(node, ast.Constant) and node.value in ids for node in ast.walk(ast.parse(source)))


def code_of(notebook: Path) -> str:
    cells = json.loads(notebook.read_text())["cells"]
    lines = [line for cell in cells if cell["cell_type"] == "code" for line in "".join(cell["source"]).splitlines()]
    return "\n".join(line for line in lines if not line.lstrip().startswith(("%", "!")))


def counts() -> dict[str, dict[str, int]]:
    ids = known_ids()
    package = {p.relative_to(ROOT).as_posix(): typed_ids(p.read_text(), ids)
               for p in sorted((ROOT / "lengen_utils").rglob("*.py")) if not p.as_posix().endswith(DEFINING)}
    notebooks = {p.name: typed_ids(code_of(p), ids) for p in sorted((ROOT / "notebooks").glob("*.ipynb"))}
    return {"package": package, "notebooks": notebooks}


def test_typed_ids_do_not_grow():
    found = counts()
    for where, by_file in found.items():
        total = sum(by_file.values())
        most = sorted(by_file.items(), key=lambda item: -item[1])[:4]
        target = int(BASELINE[where] * 0.2)
        print(f"\ntyped ids in the {where}: {total} (issue 52's baseline {BASELINE[where]}, target <= {target}, "
              f"ceiling {CEILING[where]}); most: " + ", ".join(f"{name} {n}" for name, n in most))
        assert total <= CEILING[where], (f"{total} typed zoo ids in the {where}, more than {CEILING[where]}: find the "
                                         f"run by its table's axes (TABLE.along / TABLE.one), its title or its role "
                                         f"(TABLE.with_role, zoo.with_role) instead of typing its id")


def test_the_count_sees_a_typed_id():
    ids = {"nb05-plain", "nb05-plain-s0"}
    assert typed_ids('x = zoo.load("nb05-plain-s0")\nLABEL = "nb05-plain: plain"\n', ids) == 1

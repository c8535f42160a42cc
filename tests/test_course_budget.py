"""The course layer's budget (issue 36): the chapter folders hold measures and checks that return numbers, not prose.

Counted: every module of ``lengen_utils/course/chNN_*/`` and ``course/common/`` except the recipe tables
(``recipes.py``, plain data), the learner's exercises and their solutions, a chapter's own figures and widget
(``plots.py``, ``widget.py``: moved in from course/plots and course/widgets, where they were not counted either), and
``__init__.py``. A *code line* is a line
that is not blank, not a docstring, not an import and not a comment: PEP 8's blank lines, one-line docstrings and
imports grow with the number of small functions, which is what a readable package has, so they are reported but not
budgeted. ``python tests/test_course_budget.py`` prints the table per folder.
"""
from __future__ import annotations

import ast
import collections
from pathlib import Path

COURSE = Path(__file__).resolve().parents[1] / "lengen_utils" / "course"
#: a chapter's own figures (``plots.py``) and widget (``widget.py``) live in its folder (issue 48) but are not budgeted,
#: as they were not when they lived in course/plots and course/widgets
NOT_COUNTED = {"recipes.py", "exercises.py", "solutions.py", "__init__.py", "plots.py", "widget.py"}
#: issue 36 set 2,000 for chapters 00-08 and common/; notebook 09 (issue 49) adds its three claim checks (36 lines;
#: its measures live in analysis.nxm_measures and lab.nxm_grid, its widget and figures in course/widgets and plots)
CODE_LINE_BUDGET = 2040
TEXT_FUNCTION_BUDGET = 20
KINDS = ("code", "blank", "docstring", "import", "comment")
#: calls that put prose on the page; a function that makes one, or whose name says it returns text, renders text
PROSE_CALLS = {"render_md", "show_md", "show_text", "Markdown"}
TEXT_SUFFIXES = ("_text", "_prose", "_md")


def counted_modules() -> list[Path]:
    """The modules the budget counts, by folder."""
    folders = [d for d in sorted(COURSE.iterdir()) if d.is_dir() and (d.name.startswith("ch") or d.name == "common")]
    return [p for d in folders for p in sorted(d.glob("*.py")) if p.name not in NOT_COUNTED]


def line_kinds(source: str) -> collections.Counter:
    """How many lines of ``source`` are code, blank, docstring, import and comment lines."""
    tree = ast.parse(source)
    docstrings, imports = set(), set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and body \
                and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
                and isinstance(body[0].value.value, str):
            docstrings.update(range(body[0].lineno, body[0].end_lineno + 1))
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            imports.update(range(node.lineno, node.end_lineno + 1))
    kinds = collections.Counter({kind: 0 for kind in KINDS})
    for number, line in enumerate(source.splitlines(), 1):
        text = line.strip()
        kind = ("blank" if not text else "docstring" if number in docstrings else "import" if number in imports
                else "comment" if text.startswith("#") else "code")
        kinds[kind] += 1
    return kinds


def text_functions(path: Path, root: Path = COURSE) -> list[str]:
    """The functions of one module that render prose (``module:function``, relative to ``root``): named
    ``*_text``/``*_prose``/``*_md``, or calling a renderer."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        calls = {getattr(c.func, "id", getattr(c.func, "attr", None))
                 for c in ast.walk(node) if isinstance(c, ast.Call)}
        if node.name.endswith(TEXT_SUFFIXES) or calls & PROSE_CALLS:
            found.append(f"{path.relative_to(root)}:{node.name}")
    return found


def budget_table() -> dict[str, collections.Counter]:
    """``{folder: line kinds}`` over the counted modules, and ``"total"``."""
    table: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    for path in counted_modules():
        table[path.parent.name].update(line_kinds(path.read_text()))
    return {**table, "total": sum(table.values(), collections.Counter())}


def test_line_kinds_are_told_apart():
    source = ('"""Module."""\nimport os\nfrom x import (a,\n    b)\n\n\ndef f(x):\n    """Doc\n    on two lines."""\n'
              '    # a comment\n    return x + 1  # trailing\n')
    assert line_kinds(source) == {"code": 2, "blank": 2, "docstring": 3, "import": 3, "comment": 1}


def test_a_text_function_is_found(tmp_path):
    module = tmp_path / "m.py"
    module.write_text("def setup_text(x):\n    return 'x'\n\n\ndef shows(x):\n    show_md('{x}', x=x)\n\n\n"
                      "def measure(x):\n    return x\n")
    assert text_functions(module, tmp_path) == ["m.py:setup_text", "m.py:shows"]


def test_course_code_stays_within_budget():
    table = budget_table()
    code = table["total"]["code"]
    assert code <= CODE_LINE_BUDGET, (
        f"the course's chapter code has {code} code lines, over the budget of {CODE_LINE_BUDGET} (issue 36): move "
        "reusable measures to lengen_utils/analysis, prose to the notebook's markdown. Per folder: "
        + ", ".join(f"{folder} {kinds['code']}" for folder, kinds in table.items()))


def test_text_rendering_functions_are_few():
    found = [name for path in COURSE.rglob("*.py") for name in text_functions(path)]
    assert len(found) <= TEXT_FUNCTION_BUDGET, f"{len(found)} text-rendering functions in the course layer: {found}"


if __name__ == "__main__":
    print(f"{'folder':18}" + "".join(f"{kind:>10}" for kind in ("lines",) + KINDS))
    for folder, kinds in budget_table().items():
        print(f"{folder:18}{sum(kinds.values()):>10}" + "".join(f"{kinds[kind]:>10}" for kind in KINDS))
    functions = [name for path in COURSE.rglob("*.py") for name in text_functions(path)]
    print(f"\ntext-rendering functions in lengen_utils/course: {len(functions)} (budget {TEXT_FUNCTION_BUDGET})")
    for name in functions:
        print("  " + name)

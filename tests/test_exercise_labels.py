"""Every exercise says its difficulty and time (as ARENA does), and no visible check() call gives the answer away.

An exercise is a ``### Exercise N`` heading, or a bold ``**N. Title.**`` / ``**A. Title.**`` item inside a notebook's
Exercises section; its label is ``Difficulty: ★★☆ · about 15 minutes`` (one to three stars) right after it. A
by-hand exercise's ``check(answer, expected, ...)`` takes ``expected`` from the chapter's solutions module or the
library: never a typed number, nor arithmetic or a comprehension that shows how to get it."""
from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

NOTEBOOKS = sorted((Path(__file__).resolve().parents[1] / "notebooks").glob("*.ipynb"))
HEAD = re.compile(r"^###? Exercise \d+[a-z]?\b[^\n]*$", re.M)
BOLD = re.compile(r"^\*\*(?:[0-9]+|[A-Z])\. [^*\n]+\*\*", re.M)
LABEL = re.compile(r"^\s*\*?\(?[Dd]ifficulty:? ★[★☆]{2} · about \d+ minutes\)?\*?")


def exercises(cells: list[dict]) -> list[tuple[int, str, str]]:
    """(cell index, the exercise's title, the text right after it) for every exercise of the notebook."""
    found, in_section = [], False
    for i, cell in enumerate(cells):
        if cell["cell_type"] != "markdown":
            continue
        text = "".join(cell["source"])
        if re.search(r"^##+ .*Exercises", text, re.M):
            in_section = True
        elif re.search(r"^## ", text, re.M) and not re.search(r"^## .*Exercise", text, re.M):
            in_section = False
        items = list(HEAD.finditer(text)) + (list(BOLD.finditer(text)) if in_section else [])
        found += [(i, m.group(0), text[m.end():].lstrip("\n")) for m in items]
    return found


def test_the_course_has_exercises():
    assert sum(len(exercises(json.loads(p.read_text())["cells"])) for p in NOTEBOOKS) >= 30


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_every_exercise_states_its_difficulty_and_minutes(path):
    missing = [f"cell {i}: {title}" for i, title, after in exercises(json.loads(path.read_text())["cells"])
               if not LABEL.match(after)]
    assert not missing, f"{path.name}: exercises without 'Difficulty: ★★☆ · about N minutes':\n" + "\n".join(missing)


def visible_answers(source: str) -> list[str]:
    """The ``expected`` arguments of check() calls that a learner could read the answer from."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return []
    shown = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "check" and len(node.args) >= 2:
            expected = node.args[1]
            typed = isinstance(expected, ast.Constant) and expected.value is not None
            worked = any(isinstance(n, (ast.BinOp, ast.GeneratorExp, ast.ListComp, ast.SetComp, ast.Lambda))
                         or (isinstance(n, ast.UnaryOp) and not isinstance(n.operand, ast.Constant))
                         for n in ast.walk(expected))
            if typed or worked:
                shown.append(ast.unparse(expected))
    return shown


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_no_check_call_shows_its_answer(path):
    shown = [f"cell {i}: check(..., {arg}, ...)" for i, c in enumerate(json.loads(path.read_text())["cells"])
             if c["cell_type"] == "code" for arg in visible_answers("".join(c["source"]))]
    assert not shown, (f"{path.name}: the expected value is visible; take it from the chapter's solutions "
                       f"module:\n" + "\n".join(shown))


def test_the_visible_answer_rule_can_fail():
    assert visible_answers("check(x, 30)") == ["30"]
    assert visible_answers("check(x, -(L + 1), hint='...')") == ["-(L + 1)"]
    assert visible_answers("check(x, solution.drop_length(30))") == []

"""The notebook output policy: notebooks are committed stripped (no outputs, no execution counts).

CI executes them with ``pytest --nbval``; with stripped notebooks nbval checks that every cell runs,
and the ``assert`` lines inside the notebooks check the results. A notebook saved with outputs would
make nbval compare widget and timing output, which is not reproducible, so it is refused here.
The second policy: no measured number is typed into a markdown cell (see ``typed_numbers``).
"""
import ast
import json
import re
from pathlib import Path

import pytest

from lengen_utils.course.notebook import pct, render_md

NOTEBOOKS = sorted((Path(__file__).resolve().parent.parent / "notebooks").glob("*.ipynb"))


def test_there_are_notebooks():
    assert NOTEBOOKS, "no notebooks found"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_is_stripped(path):
    nb = json.loads(path.read_text())
    for i, cell in enumerate(nb["cells"]):
        if cell["cell_type"] != "code":
            continue
        assert cell.get("outputs") == [], f"{path.name} cell {i} has saved outputs; strip it (see README)"
        assert cell.get("execution_count") is None, f"{path.name} cell {i} has an execution count; strip it"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_names_are_numbered(path):
    assert path.name[:2].isdigit() and path.name[2] == "_", f"{path.name}: notebooks are named NN_topic.ipynb"


# -- no measured number typed into prose ------------------------------------------------------------
# Measured numbers (accuracies, probabilities, timings, test-set sizes) reach the prose through
# ``lengen_utils.course.notebook.show_md`` in a code cell, never typed into a markdown cell, so they cannot
# drift from the data. A number quoted from a paper may stay typed if it is *labelled as the paper's*:
# the innermost parenthesis around it contains "paper" or opens with an author's name ("(paper: 0.998)",
# "(Sabbaghi Table 1: 81 ± 1 %)"); or it sits in a quotation whose sentence names the source ('Sabbaghi
# et al. write: "... 0.998 ..."'); or "paper" / "<author> et al" stands at most 40 characters before it
# in its sentence ("the paper's 8.3e-4").
# Inline code and LaTeX are not prose, and "**Time:** N minutes" (the reader's time) is not a measurement.
MEASURED = re.compile(
    r"\d+(?:\.\d+)?\s*%"                                            # percentages
    r"|(?<![\w.])0\.\d+"                                             # fractions such as 0.998
    r"|\d(?:\.\d+)?\s*e-?\d+\b"                                     # 8.3e-4
    r"|\d[\d,.]*\s*(?:CPU\s+)?(?:s|sec|seconds?|minutes?|min|hours?)\b"  # timings
    r"|\d[\d,]*\s+(?:\w+\s+){0,2}(?:problems|sums|samples)\s+(?:per\s+(?:length|level)|each)\b",  # test sizes
    re.IGNORECASE)
AUTHORS = r"(?:Sabbaghi|Cho|McLeish|Zhou)"
LABEL_PAREN = re.compile(rf"paper|^\(\s*{AUTHORS}\b", re.IGNORECASE)
LABEL_SENTENCE = re.compile(rf"paper|{AUTHORS} et al", re.IGNORECASE)
SENTENCE_END = re.compile(r"(?<!\bal)\.\s|\n\n|\n\* ")   # "Sabbaghi et al. write" does not end a sentence
NOT_PROSE = re.compile(r"`[^`]*`|\$\$.*?\$\$|\$[^$]*\$|^\*\*Time:\*\*[^.\n]*", re.DOTALL | re.MULTILINE)


def _labelled(text: str, start: int) -> bool:
    """Whether the number at ``text[start]`` is labelled as a paper's (the convention above)."""
    depth, i = 0, start
    while i > 0:                                   # the innermost parenthesis around it, if any
        i -= 1
        if text[i] == ")":
            depth += 1
        elif text[i] == "(":
            if depth == 0:
                return bool(LABEL_PAREN.search(text[i:text.find(")", start) % (len(text) + 1)]))
            depth -= 1
    begin = max([m.end() for m in SENTENCE_END.finditer(text, 0, start)], default=0)
    before = re.sub(r"\([^()]*\)", "", text[begin:start])
    if before.count('"') % 2:                      # inside a quotation: the sentence must name its source
        return bool(LABEL_SENTENCE.search(before[:before.rfind('"')]))
    return bool(LABEL_SENTENCE.search(before[-40:]))   # else the label must stand just before the number


def typed_numbers(markdown: str) -> list[str]:
    """The measured-looking numbers of one markdown cell that are not labelled as a paper's."""
    text = NOT_PROSE.sub(lambda m: " " * len(m.group()), markdown)
    return [m.group() for m in MEASURED.finditer(text) if not _labelled(text, m.start())]


def test_typed_numbers_are_found():
    old = ("digit ~100%): exact match falls from 98.4% to 73.8%. It trained for about 3 CPU minutes, "
           "1000 problems per length, 8.55e-4 and 0.998.")
    assert typed_numbers(old) == ["100%", "98.4%", "73.8%", "3 CPU minutes", "1000 problems per length", "8.55e-4", "0.998"]
    assert typed_numbers("Ours differs (paper: 81 ± 1 %). The paper's 8.3e-4 is a draw.") == []
    assert typed_numbers('Sabbaghi et al. write: "covers 0.998 of the total" (50 digits).') == []
    assert typed_numbers("Plain RPE as in the paper's A2 (no augmentation), trained on at most 5 digits: 96.2%") == ["96.2%"]
    assert typed_numbers("ours is 99.2% (Sabbaghi Figure 2a: near-perfect)") == ["99.2%"]
    assert typed_numbers("In Sabbaghi's format, 3 CPU minutes of training (ours, not Cho's).") == ["3 CPU minutes"]
    assert typed_numbers("**Time:** about 25 minutes. `1e-06` and $p = 0.4$ are not prose.") == []


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_no_typed_measured_numbers(path):
    nb = json.loads(path.read_text())
    hits = [(i, n) for i, cell in enumerate(nb["cells"]) if cell["cell_type"] == "markdown"
            for n in typed_numbers("".join(cell["source"]))]
    assert not hits, (f"{path.name}: measured numbers typed into markdown (cell, number): {hits}. Render them "
                      "with lengen_utils.course.notebook.show_md from the data, or label a paper's number as the paper's.")


def test_prose_numbers_are_formatted_one_way():
    assert pct(0.9575) == "95.8%" and pct(0.00945, 3) == "0.945%"
    assert render_md("{em[20]:pct} at 20, {x:pct0}, {t:dur}, {u:dur}, {n:,}", em={20: 0.261}, x=0.95, t=296, u=58.3,
                     n=1000) == "26.1% at 20, 95%, 4.9 minutes, 58 s, 1,000"
    with pytest.raises(KeyError):
        render_md("{missing:pct}")


# -- thin notebooks ---------------------------------------------------------------------------------
# A learner reads the visible code: the concept, the calls, the plots. Prose with measured numbers is built in
# the notebook's chapter folder (lengen_utils.course.chNN_<topic>/) and shown by one call in a cell whose source is
# hidden (metadata jupyter.source_hidden, which JupyterLab and Colab honour, and the hide-input tag); a section's
# claims are one check call. Counted over visible code cells (blank lines excluded): lines in cells that render
# prose, plus lines of assert statements, are at most MAX_PROSE_SHARE of the visible lines, and a notebook has at
# most MAX_VISIBLE_LINES.
MAX_PROSE_SHARE = 0.25
MAX_VISIBLE_LINES = 350
PROSE_CALLS = ("show_md", "show_text", "render_md")


def _hidden(cell: dict) -> bool:
    return bool(cell.get("metadata", {}).get("jupyter", {}).get("source_hidden"))


def _called(node: ast.AST) -> set[str]:
    return {n.func.id if isinstance(n.func, ast.Name) else n.func.attr for n in ast.walk(node)
            if isinstance(n, ast.Call) and isinstance(n.func, (ast.Name, ast.Attribute))}


def thinness(nb: dict) -> tuple[int, int]:
    """``(visible code lines, of which render prose or assert)`` for one notebook's JSON."""
    visible = prose = 0
    for cell in nb["cells"]:
        if cell["cell_type"] != "code" or _hidden(cell):
            continue
        source = "".join(cell["source"])
        lines = [n for n, line in enumerate(source.splitlines(), 1) if line.strip()]
        visible += len(lines)
        try:
            tree = ast.parse(source)
        except SyntaxError:                       # IPython magics: count the plain statements only
            prose += sum(line.lstrip().startswith("assert") for line in source.splitlines())
            continue
        if _called(tree) & set(PROSE_CALLS):
            prose += len(lines)
            continue
        spans = {n for node in ast.walk(tree) if isinstance(node, ast.Assert)
                 for n in range(node.lineno, node.end_lineno + 1)}
        prose += len(spans & set(lines))
    return visible, prose


def test_thinness_is_counted_over_visible_cells():
    cell = lambda src, hidden=False: {"cell_type": "code", "source": src,
                                      "metadata": {"jupyter": {"source_hidden": True}} if hidden else {}}
    nb = {"cells": [cell("x = 1\n\nplot(x)\n"), cell("show_text(sections.prose(x))\n"),
                    cell("show_md('long\\n'\n        'template')\n", hidden=True),
                    cell("assert x == 1, (\n    'message')\ny = x\n"), {"cell_type": "markdown", "source": "# t"}]}
    assert thinness(nb) == (6, 3)                 # 2 + 1 + 3 visible; 1 prose line, 2 assert lines


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_is_thin(path):
    visible, prose = thinness(json.loads(path.read_text()))
    assert visible <= MAX_VISIBLE_LINES, (f"{path.name}: {visible} visible code lines (limit {MAX_VISIBLE_LINES}); "
                                          "move plumbing into lengen_utils and call it")
    assert prose <= MAX_PROSE_SHARE * visible, (
        f"{path.name}: {prose} of {visible} visible code lines ({prose / visible:.0%}) render prose or assert "
        f"(limit {MAX_PROSE_SHARE:.0%}); build prose in the notebook's lengen_utils.course.chNN_<topic>/, show it in a "
        "hidden cell, and check a section's claims with one call")


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_prose_cells_are_hidden(path):
    """A cell that only shows prose (every statement a show_text/show_md call) hides its source."""
    shown = []
    for i, cell in enumerate(json.loads(path.read_text())["cells"]):
        if cell["cell_type"] != "code" or _hidden(cell):
            continue
        try:
            body = ast.parse("".join(cell["source"])).body
        except SyntaxError:
            continue
        calls = [s for s in body if not isinstance(s, (ast.Import, ast.ImportFrom))]
        if calls and all(isinstance(s, ast.Expr) and isinstance(s.value, ast.Call)
                         and _called(s.value) & set(PROSE_CALLS) for s in calls):
            shown.append(i)
    assert not shown, (f"{path.name}: cells {shown} only render prose; hide their source "
                       '(metadata {"jupyter": {"source_hidden": true}, "tags": ["hide-input"]})')

"""The notebook output policy: notebooks are committed executed, and CI checks that their outputs are current.

``make outputs`` (``scripts/outputs.py``; ``make outputs NB=05`` for one notebook) runs every notebook top to
bottom in full mode, on one CPU thread, and saves its outputs, so that a learner who opens a notebook sees every
figure, table and measured sentence without running it. CI's ``pytest --nbval`` runs the notebooks again and
compares each cell's fresh outputs with the committed ones (text, HTML, markdown and streams; nbval does not
compare images), after the regexes of ``tests/nbval_sanitize.cfg`` mask what legitimately varies (a live
timing, the machine's torch version and thread count): a committed output that the current code no longer
produces fails CI. The ``assert`` lines and check calls inside the notebooks check the claims.

Checked here: every code cell ran, in order (execution counts 1, 2, 3, ...), and a cell that prints or displays
something has its outputs; no widget state or timing metadata is saved; the notebooks stay small; and a cell
whose output nbval must not compare carries an nbval marker only if it is listed in :data:`NBVAL_EXEMPT` with
its reason. The second policy: no measured number is typed into a markdown cell (see ``typed_numbers``).
"""
import ast
import json
import re
from pathlib import Path

import pytest
from nbval.plugin import comment_markers, metadata_tags

from lengen_utils.course.notebook import pct, render_md

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
SANITIZE = ROOT / "tests" / "nbval_sanitize.cfg"
MAX_TOTAL_BYTES = 12_000_000          # every notebook together, outputs included
WIDGET_MIMES = ("application/vnd.jupyter.widget-view+json", "application/vnd.jupyter.widget-state+json")

#: The cells whose output ``pytest --nbval`` does not compare (an nbval tag in the cell's metadata, or a
#: marker comment), each with its reason: ``{(notebook file name, cell id): reason}``. Prefer a sanitizer in
#: tests/nbval_sanitize.cfg that masks only the varying part; list a cell here only when nothing of its output
#: can be compared. Any other marked cell is refused.
NBVAL_EXEMPT: dict[tuple[str, str], str] = {
}


def test_there_are_notebooks():
    assert NOTEBOOKS, "no notebooks found"


def _code_cells(path: Path) -> list[dict]:
    return [c for c in json.loads(path.read_text())["cells"] if c["cell_type"] == "code"]


DISPLAY_CALLS = {"print", "display", "show_text", "show_md", "table", "reveal"}


def shows_something(source: str) -> bool:
    """Whether a cell's code certainly writes an output: a statement that always runs (at the top level, or in
    the body of a top-level ``for`` or ``with``; not under ``if`` or ``try``) calls print/display/show_text/
    show_md/table/reveal, or the cell ends in an expression whose value is displayed (not a call,
    no ``;``)."""
    try:
        tree = ast.parse(source)
    except SyntaxError:                       # IPython magics: nothing to conclude
        return False

    def always_run(body):
        for stmt in body:
            if isinstance(stmt, (ast.For, ast.With)):
                yield from always_run(stmt.body)
            elif not isinstance(stmt, (ast.If, ast.Try, ast.While, ast.FunctionDef, ast.ClassDef)):
                yield stmt
    if any(_called(stmt) & DISPLAY_CALLS for stmt in always_run(tree.body)):
        return True
    last = tree.body[-1] if tree.body else None
    return (isinstance(last, ast.Expr) and not isinstance(last.value, (ast.Call, ast.Constant))
            and not source.rstrip().endswith(";"))


def test_shows_something():
    assert shows_something("print(1)") and shows_something("for i in x:\n    print(i)") and shows_something("x")
    assert not shows_something("if on_colab:\n    print('installing')") and not shows_something("f(x);")
    assert not shows_something("def f():\n    print(1)") and not shows_something("x = 1")


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_is_executed(path):
    cells = _code_cells(path)
    counts = [c.get("execution_count") for c in cells]
    assert counts == list(range(1, len(cells) + 1)), (
        f"{path.name}: execution counts {counts[:12]}... are not 1, 2, 3, ... in cell order: the notebook is not "
        f"committed as one top-to-bottom run; run `make outputs NB={path.name[:2]}` and commit it (see README)")
    silent = [c.get("id") for c in cells if not c.get("outputs") and shows_something("".join(c["source"]))]
    assert not silent, (f"{path.name}: cells {silent} print or display something but have no outputs; "
                        f"run `make outputs NB={path.name[:2]}`")
    errors = [c.get("id") for c in cells for o in c.get("outputs", []) if o.get("output_type") == "error"]
    assert not errors, f"{path.name}: cells {errors} are committed with an error output"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_no_widget_state_or_timing_is_saved(path):
    nb = json.loads(path.read_text())
    assert "widgets" not in nb.get("metadata", {}), f"{path.name}: widget state saved in the notebook's metadata"
    for cell in nb["cells"]:
        assert "execution" not in cell.get("metadata", {}), f"{path.name} cell {cell.get('id')}: timing metadata saved"
        for out in cell.get("outputs", []):
            saved = set(out.get("data", {})) & set(WIDGET_MIMES)
            assert not saved, (f"{path.name} cell {cell.get('id')}: a widget's view saved ({saved}); the widget "
                               "exists only while its kernel runs: `make outputs` keeps its text fallback")


def test_notebooks_are_small():
    total = sum(p.stat().st_size for p in NOTEBOOKS)
    assert total <= MAX_TOTAL_BYTES, (f"the notebooks take {total / 1e6:.1f} MB with their outputs (limit "
                                      f"{MAX_TOTAL_BYTES / 1e6:.0f} MB): make figures smaller or fewer")


def nbval_markers(cell: dict) -> list[str]:
    """The nbval markers of one code cell: its metadata tags and marker comments that nbval acts on."""
    tags = [t for t in cell.get("metadata", {}).get("tags", []) if t in metadata_tags]
    comments = [line.strip().lstrip("#").strip() for line in "".join(cell.get("source", "")).splitlines()
                if line.strip().startswith("#") and line.strip().lstrip("#").strip() in comment_markers]
    return tags + comments


def test_marked_cells_are_listed_with_a_reason():
    marked = {(p.name, c.get("id")): nbval_markers(c) for p in NOTEBOOKS for c in _code_cells(p) if nbval_markers(c)}
    unlisted = {k: v for k, v in marked.items() if k not in NBVAL_EXEMPT}
    assert not unlisted, (f"cells with nbval markers that NBVAL_EXEMPT does not list: {unlisted}. Prefer a "
                          "sanitizer in tests/nbval_sanitize.cfg; else list the cell with its reason")
    stale = [k for k in NBVAL_EXEMPT if k not in marked]
    assert not stale, f"NBVAL_EXEMPT lists cells that carry no nbval marker (or no longer exist): {stale}"
    assert all(reason.strip() for reason in NBVAL_EXEMPT.values())


def test_nbval_markers_are_recognised():
    cell = {"cell_type": "code", "metadata": {"tags": ["hide-input", "nbval-ignore-output"]},
            "source": ["# NBVAL_SKIP\n", "x = 1  # NBVAL_IGNORE_OUTPUT is only a marker on a line of its own\n"]}
    assert nbval_markers(cell) == ["nbval-ignore-output", "NBVAL_SKIP"]


def sanitizers() -> list[tuple[str, str]]:
    from nbval.plugin import get_sanitize_patterns

    return get_sanitize_patterns(SANITIZE.read_text())


def test_every_sanitizer_is_used():
    """Each regex of the sanitize file compiles and masks something in the committed outputs (no dead rules)."""
    texts = []
    for path in NOTEBOOKS:
        for cell in _code_cells(path):
            for out in cell.get("outputs", []):
                values = [out.get("text", "")] + [v for k, v in out.get("data", {}).items() if not k.startswith("image/")]
                texts += ["".join(v) if isinstance(v, list) else str(v) for v in values]
    patterns = sanitizers()
    assert patterns, f"{SANITIZE} has no regex/replace pair"
    unused = [regex for regex, _ in patterns if not any(re.search(regex, t) for t in texts)]
    assert not unused, f"sanitizers in {SANITIZE.name} that match no committed output: {unused}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_names_are_numbered(path):
    assert re.fullmatch(r"\d\d[b]?_[a-z0-9_]+\.ipynb", path.name), (
        f"{path.name}: a lesson is named NN_topic.ipynb, the bonus notebook beside it NNb_topic.ipynb")


# -- no measured number typed into prose ------------------------------------------------------------
# Measured numbers (accuracies, probabilities, timings, test-set sizes) reach the prose through
# ``lengen_utils.course.notebook.show_md`` in a code cell, never typed into a markdown cell, so they cannot
# drift from the data. A number quoted from a paper may stay typed if it is *labelled as the paper's*:
# the innermost parenthesis around it contains "paper" or opens with an author's name ("(paper: 0.998)",
# "(Sabbaghi Table 1: 81 ± 1 %)"); or it sits in a quotation whose sentence names the source ('Sabbaghi
# et al. write: "... 0.998 ..."'); or "paper" / "<author> et al" stands at most 40 characters before it
# in its sentence ("the paper's 8.3e-4").
# Inline code and LaTeX are not prose, and "**Time:** N minutes" and an exercise's "Difficulty: ★★☆ · about N minutes"
# (the reader's time) are not measurements.
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
NOT_PROSE = re.compile(r"`[^`]*`|\$\$.*?\$\$|\$[^$]*\$|^\*\*Time:\*\*[^.\n]*"
                       r"|[Dd]ifficulty:? ★[★☆]{2} · about \d+ minutes", re.DOTALL | re.MULTILINE)


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
    assert typed_numbers("### Exercise 2\n\n*Difficulty: ★★☆ · about 15 minutes*") == []   # the reader's time


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


# -- no verdict typed into prose --------------------------------------------------------------------------------------
# A verdict (a claim "reproduces", "holds", "is confirmed", a target "is met") is computed and printed by its check
# (lengen_utils.course.common.claims.claim prints one line per claim, on a pass too) or rendered from the claims
# ledger (lengen_utils.lab.ledger.notebook_summary): it appears only in generated output, never in a markdown cell.
# Markdown asks the question and explains the reading. Inline code, LaTeX and a paper's words in quotation marks
# (the paper's own verdict, labelled as the paper's) are not our prose.
VERDICT_WORDS = re.compile(r"\b(?:reproduc(?:e|es|ed|ing)|holds?|confirm(?:s|ed)?|(?:is|are|was|were) met)\b",
                           re.IGNORECASE)
QUOTED = re.compile(r'"[^"\n]*"|“[^”]*”')


def typed_verdicts(markdown: str) -> list[str]:
    """The verdict words of one markdown cell, outside inline code, LaTeX and quoted words."""
    text = QUOTED.sub(" ", NOT_PROSE.sub(" ", markdown))
    return [m.group() for m in VERDICT_WORDS.finditer(text)]


def test_typed_verdicts_are_found():
    assert typed_verdicts("M1 and M2 **reproduce**; Figure 5b's claim holds and the target is met.") == [
        "reproduce", "holds", "is met"]
    assert typed_verdicts("Is Cho et al.'s claim reproduced? Figure 2b \"confirms that RPE\" (the paper's words).") \
        == ["reproduced"]
    assert typed_verdicts("The check `claim(x, 'holds')` prints its line; $holds$ and the verdict below.") == []
    assert typed_verdicts("The ledger gives the verdict; the markdown asks the question.") == []


#: markdown cells another change owns while this rule lands: ``{(notebook, cell id): reason}``. Each must still hold a
#: verdict word (a stale entry fails), so the list empties as the cells are reworded; nothing else is exempt.
VERDICT_EXEMPT: dict[tuple[str, str], str] = {
}


def test_verdict_exemptions_are_current():
    cells = {(p.name, c.get("id")): "".join(c["source"]) for p in NOTEBOOKS
             for c in json.loads(p.read_text())["cells"] if c["cell_type"] == "markdown"}
    stale = [key for key in VERDICT_EXEMPT if key not in cells or not typed_verdicts(cells[key])]
    assert not stale, f"VERDICT_EXEMPT lists cells without verdict words (or gone): {stale}; remove them"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_no_typed_verdicts(path):
    nb = json.loads(path.read_text())
    hits = [(cell.get("id"), w) for cell in nb["cells"] if cell["cell_type"] == "markdown"
            and (path.name, cell.get("id")) not in VERDICT_EXEMPT for w in typed_verdicts("".join(cell["source"]))]
    assert not hits, (f"{path.name}: verdict words typed into markdown (cell id, word): {hits}. A verdict is printed "
                      "by its check or rendered from the claims ledger (lengen_utils.lab.ledger); markdown asks the "
                      "question and explains the reading.")


# -- every check cell prints its claims ------------------------------------------------------------------------------
# A cell that calls a section's check (``module.check_x(...)`` or ``check_x(...)``; not an exercise's checker,
# ``nbNN.check_x``, nor ``notebook.check`` on an exercise's answer) shows on a pass what it checked: each claim prints
# "check met: <claim> (<whose target>); measured <value>." (lengen_utils.course.common.claims.claim).
CHECK_CALL = re.compile(r"(?<![\w.])(?:(\w+)\.)?(check_\w+)\(")


def check_calls(source: str) -> list[str]:
    """The section checks a code cell calls (exercise checkers ``nbNN.check_x`` excluded)."""
    return [m.group(2) for m in CHECK_CALL.finditer(source) if not re.match(r"nb\d\d$|exercises", m.group(1) or "")]


def test_check_calls_are_found():
    assert check_calls("upe_m3.check_m2_target()\nnb04.check_frame(f)\ncheck(x, 3)") == ["check_m2_target"]
    assert check_calls("exercises05.check_ids(ids)") == []
    assert check_calls("tour.check_sum(a, b)  # and check_live(live)") == ["check_sum", "check_live"]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_every_check_cell_prints_its_claims(path):
    silent = []
    for cell in _code_cells(path):
        if not check_calls("".join(cell["source"])):
            continue
        text = "".join("".join(o.get("text", "")) for o in cell.get("outputs", []))
        if "check met: " not in text:
            silent.append(cell.get("id"))
    assert not silent, (f"{path.name}: cells {silent} call a check but print no 'check met:' line; every check "
                        "prints its claim, target and value on a pass (common.claims.claim)")

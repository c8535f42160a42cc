"""Build the course's book: a static HTML site of the notebooks as committed, with their outputs (never executed).

    python scripts/book.py                        # notebooks/ -> build/book/ (open build/book/index.html)
    python scripts/book.py --notebooks /tmp/executed
    LENGEN_BOOK_NOTEBOOKS=/tmp/executed python scripts/book.py

The builder is Sphinx with MyST-NB and the Sphinx Book Theme (the extra ``book``; ``make book`` installs only
that, ``python scripts/book.py --requirements``, into build/book-venv: the book needs neither torch nor the
package).
This script stages a source folder beside the output, ``build/.book-src/`` (and Sphinx's cache in
``build/.book-doctrees/``), and runs Sphinx on it:

- ``book/conf.py``, ``book/references.md`` and ``book/_static/`` (the configuration, the papers' page, the
  local Colab badge and a style sheet);
- ``reproduction.md``, the course-wide reproduction table: the README's section "The papers' claims, one by one"
  (generated from the claims ledger);
- ``index.md``, the landing page, generated from the README: its title and introduction, then its section
  "The course" (the course table, each notebook's name linked to its page). The build fails if the table and
  the notebooks disagree, so the two cannot drift;
- every notebook of ``--notebooks`` (default ``notebooks/``; a notebook missing there is taken from
  ``notebooks/``), with three changes that keep the site offline and readable: the Colab setup cell is
  removed, the Colab badge points at a local copy of its image, widget outputs (which need a kernel)
  become a note saying so (a progress bar keeps its text; scripts/outputs.py marks a widget's display with
  the output metadata ``lengen_widget``), and a table wider than the text column is split by columns into
  tables that fit it, each repeating the row labels (tests/browser/test_book_browser.py measures them);
- MathJax 3 (``tex-chtml.js`` and its fonts, from the ``django-static-mathjax`` package), so that the formulas
  render without a network.

Sphinx runs with ``-W --keep-going``: a broken cross-reference or an unreadable notebook fails the build. The
last lines give the build time and the site's size.
"""
from __future__ import annotations

import argparse
import copy
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CONF_DIR = REPO / "book"
NOTEBOOKS = REPO / "notebooks"
DEFAULT_OUT = REPO / "build" / "book"

BADGE_IMAGE = "https://colab.research.google.com/assets/colab-badge.svg"
LOCAL_BADGE = "_static/colab-badge.svg"
SETUP_TAG = "colab-setup"
WIDGET_MIME = "application/vnd.jupyter.widget-view+json"
#: the output metadata key with which scripts/outputs.py marks a widget's display (it drops the view's MIME type)
WIDGET_MARK = "lengen_widget"
WIDGET_NOTE = ('<p class="lengen-widget-note"><em>An interactive widget is here in the notebook: open the notebook '
               '(its Colab badge, or <code>make course</code>) and run it to use it.</em></p>')
#: a tqdm progress bar's text (a widget whose text says all there is to see: it stays as text)
PROGRESS_TEXT = re.compile(r"^\s*\d+%\|")
#: the text column of the theme at its widest (a 1280-px window: 688 px) and what a table's column costs there: about
#: 7.5 px per character of its longest word at the style sheet's 0.8 em, plus 16 px of padding (book/_static/book.css)
TEXT_COLUMN_PX, PX_PER_CHAR, PX_PER_COLUMN = 688, 7.5, 16
TABLE_RULE = re.compile(r"^\s*\|?(\s*:?-{3,}:?\s*\|)+\s*(:?-{3,}:?\s*)?$")
#: who each reference is, as the notebooks' text names it (book/references.md: ``<!-- cited-in: KEY -->``)
CITED_AS = {"Sabbaghi": r"\bSabbaghi\b", "Cho": r"\bCho\b", "thesis": r"\bthesis\b"}


def constant(path: str, name: str) -> str:
    text = (REPO / path).read_text()
    return re.search(rf'^{name}\s*=\s*"([^"]+)"', text, re.M).group(1)


VERSION = constant("lengen_utils/core/constants.py", "__version__")
REPO_WEB = constant("lengen_utils/course/colab.py", "REPO_URL").removesuffix(".git")
REPO_REF = f"v{VERSION}"


def book_requirements() -> list[str]:
    """The extra ``book`` of pyproject.toml: what the builder needs (read as text: Python 3.9 has no tomllib)."""
    found = re.search(r"^book\s*=\s*\[([^\]]*)\]", (REPO / "pyproject.toml").read_text(), re.M)
    return re.findall(r'"([^"]+)"', found.group(1))


class BookError(RuntimeError):
    """The book cannot be built as asked (a message for the reader, no traceback)."""


def write_if_changed(path: Path, text: str | bytes) -> None:
    """Write ``path`` only when its content changes, so that Sphinx rebuilds only the pages that changed."""
    data = text.encode() if isinstance(text, str) else text
    if path.exists() and path.read_bytes() == data:
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)


# --- the landing page, from the README --------------------------------------------------------------------

def readme_sections(text: str) -> tuple[str, str, dict[str, str]]:
    """(title, introduction, {"## heading": body}) of a markdown file split at its ``## `` headings."""
    lines = text.splitlines()
    title = lines[0].lstrip("# ").strip()
    sections: dict[str, list[str]] = {"": []}
    current, fence = "", False
    for line in lines[1:]:
        if line.startswith("```"):
            fence = not fence
        if not fence and line.startswith("## "):
            current = line[3:].strip()
            sections[current] = []
            continue
        sections[current].append(line)
    body = {k: "\n".join(v).strip() for k, v in sections.items()}
    return title, body.pop(""), body


def absolute_links(markdown: str) -> str:
    """Relative links of the README (``[x](docs/...)``) point at the repository, at the release."""
    def repl(m: re.Match) -> str:
        target = m.group(2)
        if re.match(r"^[a-z][a-z0-9+.-]*:|^#", target):
            return m.group(0)
        return f"{m.group(1)}({REPO_WEB}/blob/{REPO_REF}/{target})"
    return re.sub(r"(\]\s?)\(([^)\s]+)\)", repl, markdown)


def landing_page(readme: str, stems: list[str]) -> str:
    """index.md: the README's title, introduction and course section; each notebook's name links to its page."""
    title, intro, sections = readme_sections(readme)
    course = sections.get("The course")
    if course is None:
        raise BookError("README.md has no section '## The course' (the landing page is made from its table)")
    listed: list[str] = []

    def link(m: re.Match) -> str:
        stem = m.group(1)
        listed.append(stem)
        if stem not in stems:
            raise BookError(f"README's course table lists {stem}, which is not a notebook in notebooks/")
        return f"| [`{stem}`]({stem}.ipynb)"
    course = re.sub(r"^\|\s*`(\d\db?_[A-Za-z0-9_]+)`", link, absolute_links(course), flags=re.M)
    missing = [s for s in stems if s not in listed]
    if missing:
        raise BookError(f"README's course table does not list {', '.join(missing)}")
    page = [f"# {title}", "", absolute_links(intro).replace(BADGE_IMAGE, LOCAL_BADGE), "",
            "## The course", "",
            "Each page below is a notebook as committed, with its figures and tables; nothing was re-run to make "
            "this site. To run one, open it in Colab (its badge) or clone the repository and run `make course` "
            f"(see the [README]({REPO_WEB}/blob/{REPO_REF}/README.md)). The papers are listed under "
            "{doc}`references`.", "",
            course.replace(BADGE_IMAGE, LOCAL_BADGE), "",
            "```{toctree}", ":hidden:", ":caption: Notebooks", "", *stems, "```", "",
            "```{toctree}", ":hidden:", ":caption: Papers", "", "references", "reproduction", "```", ""]
    return "\n".join(page)


LEDGER_BLOCK = re.compile(r"<!-- ledger:begin -->\n(.*?)\n<!-- ledger:end -->", re.S)


def reproduction_page(readme: str) -> str:
    """reproduction.md: the README's section "The papers' claims, one by one", its table generated from the claims
    ledger (tests/test_ledger.py keeps it current), so that the book needs no import of the package."""
    sections = readme_sections(readme)[2]
    heading = "The papers' claims, one by one"
    if heading not in sections or not LEDGER_BLOCK.search(sections[heading]):
        raise BookError(f"README.md has no section '## {heading}' with a <!-- ledger:begin --> block")
    return f"# {heading}\n\n{split_wide_tables(absolute_links(sections[heading]))}\n"


def references_page(template: str, notebooks: dict[str, dict]) -> str:
    """book/references.md with each ``<!-- cited-in: KEY -->`` replaced by the notebooks whose text names KEY."""
    def cited(m: re.Match) -> str:
        key = m.group(1)
        pattern = re.compile(CITED_AS[key])
        found = [stem for stem, nb in notebooks.items()
                 if any(pattern.search("".join(c.get("source", ""))) for c in nb["cells"])]
        if not found:
            return ""
        docs = [f"{{doc}}`{stem[:2]} <{stem}>`" for stem in found]
        listing = docs[0] if len(docs) == 1 else ", ".join(docs[:-1]) + " and " + docs[-1]
        return f"Cited in notebook{'s' if len(docs) > 1 else ''} {listing}."
    return re.sub(r"<!--\s*cited-in:\s*(\w+)\s*-->", cited, template)


# --- wide tables -------------------------------------------------------------------------------------------

def table_cells(line: str) -> list[str]:
    """The cells of a markdown table row (``\\|`` inside a cell is not a separator)."""
    return [c.strip() for c in re.split(r"(?<!\\)\|", line.strip().strip("|"))]


def column_px(rows: list[list[str]], column: int) -> float:
    """A column's estimated width when its cells wrap at spaces: its longest word, plus padding."""
    longest = max((len(word) for row in rows if column < len(row) for word in row[column].split()), default=0)
    return longest * PX_PER_CHAR + PX_PER_COLUMN


def split_table(rows: list[list[str]], limit: float = TEXT_COLUMN_PX) -> list[list[list[str]]]:
    """``rows`` (header first, no rule) as tables that each fit ``limit`` px: the columns after the first in
    order, as many per table as fit, each table repeating the first column (the row labels)."""
    widths = [column_px(rows, c) for c in range(max(len(r) for r in rows))]
    if sum(widths) <= limit:
        return [rows]
    parts, current, used = [], [], widths[0]
    for c in range(1, len(widths)):
        if current and used + widths[c] > limit:
            parts.append(current)
            current, used = [], widths[0]
        current.append(c)
        used += widths[c]
    parts.append(current)
    return [[[row[0] if row else ""] + [row[c] if c < len(row) else "" for c in part] for row in rows]
            for part in parts]


def split_wide_tables(markdown: str) -> str:
    """Markdown whose tables wider than the text column are split by columns into tables that fit it."""
    lines, out, i = markdown.split("\n"), [], 0
    while i < len(lines):
        if i + 1 < len(lines) and "|" in lines[i] and TABLE_RULE.match(lines[i + 1]):
            end = i + 2
            while end < len(lines) and lines[end].strip().startswith("|"):
                end += 1
            rows = [table_cells(line) for line in [lines[i], *lines[i + 2:end]]]
            parts = split_table(rows)
            if len(parts) == 1:
                out += lines[i:end]
            else:
                for n, part in enumerate(parts):
                    if n:
                        out.append("")
                    out.append("| " + " | ".join(part[0]) + " |")
                    out.append("|" + "---|" * len(part[0]))
                    out += ["| " + " | ".join(row) + " |" for row in part[1:]]
            i = end
            continue
        out.append(lines[i])
        i += 1
    return "\n".join(out)


# --- the notebooks ----------------------------------------------------------------------------------------

def is_widget(out: dict) -> bool:
    """A widget's display: saved by Jupyter (its view's MIME type) or by scripts/outputs.py (its mark)."""
    return WIDGET_MIME in out.get("data", {}) or bool(out.get("metadata", {}).get(WIDGET_MARK))


def book_notebook(nb: dict) -> dict:
    """The notebook as the book shows it: no Colab setup cell, a local badge image, widget outputs as a note."""
    nb = copy.deepcopy(nb)
    nb.get("metadata", {}).pop("widgets", None)       # widget state would load a widget manager from a CDN
    for cell in nb["cells"]:
        tags = cell.setdefault("metadata", {}).setdefault("tags", [])
        if cell["cell_type"] == "markdown":
            source = "".join(cell["source"])
            shown = split_wide_tables(source.replace(BADGE_IMAGE, LOCAL_BADGE))
            if shown != source:
                cell["source"] = shown
        elif cell["cell_type"] == "code":
            if SETUP_TAG in tags and "remove-cell" not in tags:
                tags.append("remove-cell")
            for out in cell.get("outputs", []):
                data = out.get("data")
                if data and is_widget(out):
                    text = "".join(data.get("text/plain", ""))
                    out["data"] = {"text/plain": text} if PROGRESS_TEXT.match(text) else {"text/html": WIDGET_NOTE}
                    out.get("metadata", {}).pop(WIDGET_MIME, None)
                    out.get("metadata", {}).pop(WIDGET_MARK, None)
                elif data and "text/markdown" in data:
                    data["text/markdown"] = split_wide_tables("".join(data["text/markdown"]))
        if not tags:
            del cell["metadata"]["tags"]
    return nb


def image_outputs(nb: dict) -> int:
    """How many image outputs (png, jpeg, svg, gif) the notebook's code cells hold (outside removed cells)."""
    count = 0
    for cell in nb["cells"]:
        if cell["cell_type"] != "code" or "remove-cell" in cell.get("metadata", {}).get("tags", []):
            continue
        for out in cell.get("outputs", []):
            if any(k.startswith("image/") for k in out.get("data", {})):
                count += 1
    return count


def load_notebooks(source: Path) -> tuple[dict[str, dict], dict[str, Path]]:
    """{stem: notebook} for every notebook of notebooks/, each read from ``source`` when it has it."""
    stems = sorted(p.stem for p in NOTEBOOKS.glob("*.ipynb"))
    extra = sorted(p.name for p in source.glob("*.ipynb") if p.stem not in stems)
    if extra:
        print(f"book: ignoring {', '.join(extra)} (not a notebook of notebooks/)", file=sys.stderr)
    books, origin = {}, {}
    for stem in stems:
        path = source / f"{stem}.ipynb"
        if not path.exists():
            path = NOTEBOOKS / f"{stem}.ipynb"
        try:
            books[stem] = json.loads(path.read_text())
        except ValueError as err:
            raise BookError(f"{path} is not a readable notebook: {err}") from None
        origin[stem] = path
    return books, origin


def mathjax_files() -> tuple[Path, list[Path]]:
    """The es5 folder of the installed MathJax 3 and the files the site needs from it (tex-chtml and its fonts)."""
    spec = importlib.util.find_spec("mathjax")
    es5 = Path(spec.origin).parent / "static" / "mathjax" / "es5" if spec and spec.origin else None
    if es5 is None or not (es5 / "tex-chtml.js").exists():
        raise BookError("MathJax not found: make book installs the builder "
                        "(pip install $(python scripts/book.py --requirements))")
    return es5, [es5 / "tex-chtml.js", *sorted((es5 / "output" / "chtml" / "fonts" / "woff-v2").glob("*.woff"))]


def staging(out: Path) -> tuple[Path, Path]:
    """The staged source folder and Sphinx's doctree cache of an output folder (beside it: build/.book-src)."""
    return out.with_name(f".{out.name}-src"), out.with_name(f".{out.name}-doctrees")


def stage(source: Path, src: Path) -> dict[str, int]:
    """Write the Sphinx source folder ``src``; {stem: image outputs} of the notebooks staged."""
    notebooks, origin = load_notebooks(source)
    if not notebooks:
        raise BookError(f"no notebooks in {NOTEBOOKS}")
    src.mkdir(parents=True, exist_ok=True)
    wanted = ({"conf.py", "index.md", "references.md", "reproduction.md", "_static"}
              | {f"{s}.ipynb" for s in notebooks})
    for old in src.iterdir():                        # a notebook or file that is gone leaves the book
        if old.name not in wanted:
            shutil.rmtree(old) if old.is_dir() else old.unlink()
    write_if_changed(src / "conf.py", (CONF_DIR / "conf.py").read_bytes())
    for path in (CONF_DIR / "_static").rglob("*"):
        if path.is_file():
            write_if_changed(src / "_static" / path.relative_to(CONF_DIR / "_static"), path.read_bytes())
    es5, files = mathjax_files()
    for path in files:
        write_if_changed(src / "_static" / "mathjax" / "es5" / path.relative_to(es5), path.read_bytes())
    write_if_changed(src / "index.md", landing_page((REPO / "README.md").read_text(), list(notebooks)))
    write_if_changed(src / "reproduction.md", reproduction_page((REPO / "README.md").read_text()))
    write_if_changed(src / "references.md", references_page((CONF_DIR / "references.md").read_text(), notebooks))
    figures = {}
    for stem, nb in notebooks.items():
        shown = book_notebook(nb)
        write_if_changed(src / f"{stem}.ipynb", json.dumps(shown, indent=1, ensure_ascii=False) + "\n")
        figures[stem] = image_outputs(shown)
    from_source = [s for s in notebooks if origin[s].parent.resolve() == source.resolve()]
    print(f"book: {len(notebooks)} notebooks ({len(from_source)} from {source}), "
          f"{sum(figures.values())} image outputs", flush=True)
    return figures


def site_size(out: Path) -> tuple[int, int]:
    files = [p for p in out.rglob("*") if p.is_file()]
    return sum(p.stat().st_size for p in files), len(files)


def build(source: Path, out: Path, jobs: str = "1", clean: bool = False) -> int:
    start = time.perf_counter()
    if importlib.util.find_spec("myst_nb") is None or importlib.util.find_spec("sphinx_book_theme") is None:
        raise BookError("the book's builder (Sphinx, MyST-NB, the Sphinx Book Theme, MathJax) is not installed: "
                        "make book installs it (pip install $(python scripts/book.py --requirements))")
    src, doctrees = staging(out)
    if clean:
        for folder in (src, doctrees, out):
            shutil.rmtree(folder, ignore_errors=True)
    stage(source, src)
    cmd = [sys.executable, "-m", "sphinx", "-b", "html", "-q", "-W", "--keep-going", "-j", str(jobs),
           "-d", str(doctrees), str(src), str(out)]
    env = dict(os.environ, LENGEN_BOOK_REPO=str(REPO), PYTHONHASHSEED="0")
    result = subprocess.run(cmd, env=env)
    if result.returncode != 0:
        print(f"book: Sphinx failed ({result.returncode}); command: {' '.join(cmd)}", file=sys.stderr)
        return result.returncode
    seconds = time.perf_counter() - start
    size, count = site_size(out)
    pages = len(list(out.glob("*.html")))
    print(f"book: built {pages} pages in {seconds:.1f} s; site {size / 2**20:.1f} MiB in {count} files")
    print(f"book: open {out / 'index.html'}  (or: python -m http.server -d {out})")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--notebooks", type=Path,
                        default=Path(os.environ.get("LENGEN_BOOK_NOTEBOOKS") or NOTEBOOKS),
                        help="folder of the notebooks to render (default $LENGEN_BOOK_NOTEBOOKS or notebooks/); "
                             "a notebook missing there is taken from notebooks/")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="output folder (default build/book)")
    parser.add_argument("--jobs", default=os.environ.get("LENGEN_BOOK_JOBS", "1"),
                        help="Sphinx's -j (default 1, or $LENGEN_BOOK_JOBS; 'auto' for every core)")
    parser.add_argument("--clean", action="store_true", help="rebuild every page (removes the staged source too)")
    parser.add_argument("--requirements", action="store_true",
                        help="print the builder's requirements (pyproject's extra 'book') and stop")
    args = parser.parse_args(argv)
    if args.requirements:
        print("\n".join(book_requirements()))
        return 0
    if not args.notebooks.is_dir():
        print(f"book: {args.notebooks} is not a folder", file=sys.stderr)
        return 2
    try:
        return build(args.notebooks, args.out.resolve(), args.jobs, args.clean)
    except BookError as err:
        print(f"book: {err}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())

"""The rendered book (``make book``, scripts/book.py) in a real browser: headless Chromium, driven by Playwright.

The book is built once per session into a temporary folder from ``LENGEN_BOOK_NOTEBOOKS`` (default
``notebooks/``; a notebook missing there comes from ``notebooks/``), served on 127.0.0.1, and every page is
opened (in a 1280 x 900 window). On each page: no table is wider than the text column (each table's right
edge, scrolled width included, is measured against the article's content box), every ``<img>`` has loaded (``naturalWidth > 0``), every link inside the site resolves to
a page that exists and, with a ``#fragment``, to an element of that page; there is no console error, no
uncaught exception, no failed request and no request that leaves the site (the book must work offline); the
search box is there, and no output shows a traceback. A notebook's page shows at least as many images in its
outputs as the notebook has image outputs, and as many tables as its outputs hold (markdown or HTML; a notebook
without outputs expects none: ``LENGEN_BOOK_NOTEBOOKS=/other/folder`` checks other copies), and each widget
display shows the book's note, never the widget's Python repr (``VBox(children=...``). The search page
finds "coupling".

Without the book's builder (the extra ``book``: ``pip install -e ".[book]"``), Chromium or Playwright the tests
are skipped, except under CI (``CI=true``), where they fail.
"""
from __future__ import annotations

import functools
import html.parser
import http.server
import json
import os
import re
import subprocess
import sys
import threading
import time
import urllib.parse
from pathlib import Path

import pytest
from chromium_support import poll_until

pytestmark = [pytest.mark.browser, pytest.mark.slow]

REPO = Path(__file__).resolve().parents[2]
COMMITTED = REPO / "notebooks"
SOURCE = Path(os.environ.get("LENGEN_BOOK_NOTEBOOKS") or COMMITTED)
STEMS = sorted(p.stem for p in COMMITTED.glob("*.ipynb"))
PAGES = ["index", "references", "reproduction", "genindex", *STEMS]     # every page the book has, besides search.html
BUILD_TIMEOUT_S = 300
PAGE_TIMEOUT_MS = 30_000
SEARCH_QUERY, SEARCH_EXPECTS = "coupling", "05_position_coupling.html"
IN_CI = os.environ.get("CI", "").strip().lower() in ("1", "true", "yes")

# after the load event: MathJax has typeset, every image is decoded (or has failed)
JS_SETTLE = """async () => {
  if (window.MathJax && MathJax.startup && MathJax.startup.promise) await MathJax.startup.promise;
  const imgs = [...document.images];
  imgs.forEach(img => { img.loading = 'eager'; });
  await Promise.all(imgs.map(img => img.decode().catch(() => null)));
}"""
JS_IMAGES = """() => [...document.images].map(img => ({src: img.currentSrc || img.src, complete: img.complete,
                                                      width: img.naturalWidth}))"""
JS_LINKS = """() => [...document.querySelectorAll('a[href]')].map(a => a.href)"""
JS_OUTPUT_IMAGES = """() => document.querySelectorAll('.cell_output img').length"""
JS_OUTPUT_TABLES = """() => document.querySelectorAll('.cell_output table').length"""
JS_ERROR_OUTPUTS = """() => [...document.querySelectorAll('.cell_output .output.traceback, .cell_output .output.error')]
                         .map(e => e.innerText.slice(0, 500))"""
#: every table of the article whose right edge passes the text column's (the article's content box): clipped
JS_CLIPPED_TABLES = """() => {
  const article = document.querySelector('.bd-article');
  if (!article) return [];
  const style = getComputedStyle(article);
  const right = article.getBoundingClientRect().right - parseFloat(style.paddingRight);
  return [...article.querySelectorAll('table')]
    .map((t, i) => ({index: i, right: t.getBoundingClientRect().left + t.scrollWidth,
                     head: (t.rows[0] ? t.rows[0].innerText : '').replace(/\\s+/g, ' ').slice(0, 60)}))
    .filter(t => t.right > right + 1)
    .map(t => `table ${t.index} (${t.head}) ends ${Math.round(t.right - right)} px past the text column`);
}"""
JS_TABLE_COUNT = """() => document.querySelectorAll('.bd-article table').length"""
JS_WIDGET_TEXT = """() => [...document.querySelectorAll('.cell_output')].map(e => e.innerText)
                         .filter(t => /\\b(VBox|HBox|Box|Tab|Accordion|Output)\\(/.test(t)).map(t => t.slice(0, 120))"""
JS_WIDGET_NOTES = """() => document.querySelectorAll('.cell_output .lengen-widget-note').length"""
JS_SEARCH_RESULTS = """() => [...document.querySelectorAll('#search-results li a')].map(a => a.getAttribute('href'))"""


def missing(reason: str):
    """Skip, or fail under CI, where the book's test must run (as conftest.missing does for the browser)."""
    if IN_CI:
        pytest.fail(f"{reason} (CI=true: the book's browser test must run)", pytrace=False)
    pytest.skip(reason)


MARKDOWN_TABLE_RULE = re.compile(r"^\|(\s*:?-{3,}:?\s*\|)+\s*$", re.M)     # |---|---| under a table's header


def outputs(path: Path) -> list[dict]:
    """The outputs of the notebook's code cells (the Colab setup cell, which the book leaves out, aside)."""
    return [out for cell in json.loads(path.read_text())["cells"]
            if cell["cell_type"] == "code" and "colab-setup" not in cell.get("metadata", {}).get("tags", [])
            for out in cell.get("outputs", [])]


def image_outputs(path: Path) -> int:
    """How many outputs of the notebook are images (png, svg, ...)."""
    return sum(any(k.startswith("image/") for k in out.get("data", {})) for out in outputs(path))


def output_tables(path: Path) -> int:
    """How many tables the notebook's outputs hold: markdown tables (the measured tables) and HTML ones."""
    count = 0
    for out in outputs(path):
        data = out.get("data", {})
        if "text/markdown" in data:
            count += len(MARKDOWN_TABLE_RULE.findall("".join(data["text/markdown"])))
        elif "text/html" in data:
            count += "".join(data["text/html"]).count("<table")
    return count


def widget_outputs(path: Path) -> int:
    """How many outputs of the notebook are a widget's display (marked by scripts/outputs.py, or Jupyter's view),
    a progress bar aside (the book keeps its text)."""
    return sum(("application/vnd.jupyter.widget-view+json" in out.get("data", {})
                or bool(out.get("metadata", {}).get("lengen_widget")))
               and not re.match(r"^\s*\d+%\|", "".join(out.get("data", {}).get("text/plain", "")))
               for out in outputs(path))


def notebook_source(stem: str) -> Path:
    path = SOURCE / f"{stem}.ipynb"
    return path if path.exists() else COMMITTED / f"{stem}.ipynb"


class _Ids(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.ids: set[str] = set()

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if name == "id" or (tag == "a" and name == "name"):
                self.ids.add(value)


@functools.lru_cache(maxsize=None)
def page_ids(path: Path) -> frozenset[str]:
    parser = _Ids()
    parser.feed(path.read_text(errors="replace"))
    return frozenset(parser.ids)


@pytest.fixture(scope="session")
def book(tmp_path_factory) -> Path:
    """The book, built once from ``SOURCE`` by scripts/book.py (as ``make book`` does) into a temporary folder."""
    for module in ("sphinx", "myst_nb", "sphinx_book_theme", "mathjax"):
        try:
            __import__(module)
        except ImportError:
            missing(f"the book's builder is not installed ({module}): pip install -e \".[book]\"")
    out = tmp_path_factory.mktemp("book") / "book"
    start = time.perf_counter()
    result = subprocess.run([sys.executable, str(REPO / "scripts" / "book.py"), "--notebooks", str(SOURCE),
                             "--out", str(out)], capture_output=True, text=True, timeout=BUILD_TIMEOUT_S,
                            env=dict(os.environ, OMP_NUM_THREADS="1"))
    assert result.returncode == 0, f"scripts/book.py failed:\n{result.stdout[-3000:]}\n{result.stderr[-5000:]}"
    assert "site" in result.stdout and "MiB" in result.stdout, result.stdout   # it reports time and size
    print(f"\nbook built in {time.perf_counter() - start:.1f} s: {result.stdout.strip().splitlines()[-2]}")
    return out


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture(scope="session")
def site(book):
    """The built book served over HTTP on 127.0.0.1 (the address of its root, ending in /)."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0),
                                             functools.partial(_Quiet, directory=str(book)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="session")
def context(browser):
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    yield ctx
    ctx.close()


def open_page(context, url: str):
    """Open ``url``; (page, problems): console errors, page errors, failed requests, HTTP errors and requests
    that leave 127.0.0.1, recorded while the page loads, typesets and decodes its images."""
    problems: list[str] = []
    page = context.new_page()
    page.on("console", lambda m: m.type == "error" and problems.append(f"console error: {m.text}"))
    page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    page.on("requestfailed", lambda r: problems.append(f"failed request: {r.url} ({r.failure})"))
    page.on("response", lambda r: r.status >= 400 and problems.append(f"HTTP {r.status}: {r.url}"))

    def request(r):
        host = urllib.parse.urlsplit(r.url).hostname
        if r.url.startswith(("http:", "https:")) and host != "127.0.0.1":
            problems.append(f"request leaving the site: {r.url}")
    page.on("request", request)
    page.goto(url, wait_until="load", timeout=PAGE_TIMEOUT_MS)
    page.evaluate(JS_SETTLE)
    page.wait_for_load_state("networkidle", timeout=PAGE_TIMEOUT_MS)
    return page, problems


def broken_links(book: Path, site: str, hrefs: list[str]) -> list[str]:
    """Links inside the site whose page does not exist or whose #fragment is not an id of that page."""
    broken = []
    for href in sorted(set(hrefs)):
        if not href.startswith(site):
            continue                                   # outside the site (GitHub, Colab, arXiv): not fetched here
        parts = urllib.parse.urlsplit(href)
        rel = urllib.parse.unquote(parts.path)[len(urllib.parse.urlsplit(site).path):]
        target = book / rel
        if rel == "" or target.is_dir():
            target = target / "index.html"
        if not target.is_file():
            broken.append(f"{href}: no such file")
            continue
        fragment = urllib.parse.unquote(parts.fragment)
        if fragment and target.suffix == ".html" and fragment not in page_ids(target):
            broken.append(f"{href}: no element with id {fragment!r}")
    return broken


def test_every_built_page_is_checked(book):
    """The pages opened below are all the book's pages: a new page must join PAGES (and so be opened)."""
    built = sorted(p.stem for p in book.glob("*.html"))
    assert set(built) == set(PAGES) | {"search"}, f"pages built: {built}; pages checked: {PAGES} and search"
    nested = [p for p in book.glob("*/**/*.html") if p.relative_to(book).parts[0] != "_static"]
    assert not nested, f"pages in subfolders: check them too: {nested}"   # (_static: the theme's templates)


@pytest.mark.parametrize("name", PAGES)
def test_page(book, site, context, name):
    page, problems = open_page(context, f"{site}{name}.html")
    try:
        images = page.evaluate(JS_IMAGES)
        unloaded = [i["src"] for i in images if not i["complete"] or i["width"] == 0]
        assert not unloaded, f"{name}: images that did not load: {unloaded}"
        broken = broken_links(book, site, page.evaluate(JS_LINKS))
        assert not broken, f"{name}: broken internal links:\n" + "\n".join(broken)
        assert page.locator('form[action$="search.html"] input[name="q"]').count() > 0, f"{name}: no search box"
        errors = page.evaluate(JS_ERROR_OUTPUTS)
        assert not errors, f"{name}: outputs that show an error:\n" + "\n".join(errors)
        if name in STEMS:
            source = notebook_source(name)
            shown, expected = page.evaluate(JS_OUTPUT_IMAGES), image_outputs(source)
            assert shown >= expected, f"{name}: {shown} images in outputs, {source} has {expected} image outputs"
            shown, expected = page.evaluate(JS_OUTPUT_TABLES), output_tables(source)
            assert shown >= expected, f"{name}: {shown} tables in outputs, {source}'s outputs hold {expected}"
            assert page.locator("h1").count() >= 1, f"{name}: no title"
            raw = page.evaluate(JS_WIDGET_TEXT)
            assert not raw, f"{name}: widgets shown as their Python repr, not as the book's note:\n" + "\n".join(raw)
            shown, expected = page.evaluate(JS_WIDGET_NOTES), widget_outputs(source)
            assert shown == expected, f"{name}: {shown} widget notes, {source} has {expected} widget displays"
        clipped = page.evaluate(JS_CLIPPED_TABLES)
        print(f"{name}: {page.evaluate(JS_TABLE_COUNT)} tables, {len(clipped)} clipped")
        assert not clipped, f"{name}: tables wider than the text column:\n" + "\n".join(clipped)
        if name == "index":
            linked = set(page.evaluate("() => [...document.querySelectorAll('article a.reference.internal')]"
                                       ".map(a => a.getAttribute('href').split('#')[0])"))
            unlinked = [s for s in STEMS if f"{s}.html" not in linked]
            assert not unlinked, f"the landing page's course table does not link {unlinked}"
        assert not problems, f"{name}:\n" + "\n".join(problems)
    finally:
        page.close()


def test_search_finds_a_query(book, site, context):
    """The search box of the landing page leads to results for a word the course uses throughout."""
    page, problems = open_page(context, f"{site}index.html")
    try:
        page.locator("button.search-button__button").first.click()
        box = page.locator('#pst-search-dialog input[name="q"]')
        box.fill(SEARCH_QUERY)
        with page.expect_navigation(timeout=PAGE_TIMEOUT_MS):
            box.press("Enter")
        assert "search.html" in page.url and f"q={SEARCH_QUERY}" in page.url, page.url
        results = poll_until(lambda: page.evaluate(JS_SEARCH_RESULTS), timeout=30)
        assert results, f"no results for {SEARCH_QUERY!r} on {page.url}"
        assert any(r.split("#")[0].split("?")[0].endswith(SEARCH_EXPECTS) for r in results), results
        page.wait_for_load_state("networkidle", timeout=PAGE_TIMEOUT_MS)
        assert not problems, "\n".join(problems)
    finally:
        page.close()

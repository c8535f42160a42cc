"""Sphinx configuration of the course's rendered book (MyST-NB: notebooks rendered from their committed outputs).

Do not run Sphinx on this folder directly: ``python scripts/book.py`` (``make book``) stages a source folder
(this file, ``references.md``, ``_static/``, the landing page generated from the README's course table and
the notebooks) and builds it into ``build/book/``. Nothing is executed: ``nb_execution_mode = "off"``.
The site works offline: MathJax is served from ``_static/`` (the build copies it from the
``django-static-mathjax`` package) and the Colab badge is a local image.
"""
from __future__ import annotations

import os
import re
from pathlib import Path

REPO = Path(os.environ.get("LENGEN_BOOK_REPO") or Path(__file__).resolve().parents[1])


def _constant(path: str, name: str) -> str:
    """A string constant of the package, read from its source (importing the package would import torch)."""
    text = (REPO / path).read_text()
    return re.search(rf'^{name}\s*=\s*"([^"]+)"', text, re.M).group(1)


VERSION = _constant("lengen_utils/core/constants.py", "__version__")
REPO_URL = _constant("lengen_utils/course/colab.py", "REPO_URL").removesuffix(".git")
REPO_REF = f"v{VERSION}"                  # the release the Colab badges and setup cells pin

project = "lengen: length generalization of Transformers in arithmetic"
author = "the lengen course"
copyright = "the lengen course authors, MIT license"
release = version = VERSION

extensions = ["myst_nb"]
exclude_patterns = ["_build", "**.ipynb_checkpoints", "_static"]
root_doc = "index"

# notebooks: rendered from their stored outputs, never executed
nb_execution_mode = "off"
nb_output_stderr = "remove"               # progress bars and warnings: the notebook's business, not the book's
nb_merge_streams = True
nb_render_markdown_format = "myst"        # markdown outputs (the notebooks' measured tables) parsed as MyST: tables
nb_ipywidgets_js = {}                     # no widget manager from a CDN (the build replaces widget outputs)
myst_enable_extensions = ["dollarmath", "amsmath", "colon_fence", "html_image"]
myst_heading_anchors = 3                  # links such as #1-one-addition resolve to their headings
suppress_warnings = ["myst.header"]       # notebooks may open a section at ### under a ##

# MathJax from the site itself (the staged _static/mathjax/), so that a page needs no network
mathjax_path = "mathjax/es5/tex-chtml.js"
mathjax3_config = {"tex": {"inlineMath": [["\\(", "\\)"]], "displayMath": [["\\[", "\\]"]]}}

html_theme = "sphinx_book_theme"
html_title = "lengen"
html_favicon = "_static/favicon.svg"     # (without one, a browser asks for /favicon.ico and gets a 404)
html_static_path = ["_static"]
html_css_files = ["book.css"]
html_last_updated_fmt = None
html_copy_source = False                  # no _sources/ copies of 12 MB of notebooks
html_show_sourcelink = False
html_context = {"default_mode": "auto"}   # light or dark as the reader's system is (unset, the theme logs an error)
html_theme_options = {
    "repository_url": REPO_URL,
    "repository_branch": REPO_REF,
    "path_to_docs": "notebooks",          # the notebooks' folder in the repository (for the launch button)
    "use_repository_button": True,
    "use_download_button": False,         # it would serve _sources/, which the book does not copy
    "launch_buttons": {"colab_url": "https://colab.research.google.com"},
    "show_toc_level": 2,
    "home_page_in_toc": True,
}

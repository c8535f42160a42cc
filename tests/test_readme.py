"""The README's result tables are generated from the manifest, and its quick start names the two commands."""
from __future__ import annotations

import re
from pathlib import Path

from lengen_utils.lab.zoo.report import BLOCK, render_readme

README = Path(__file__).resolve().parent.parent / "README.md"


def test_readme_has_generated_tables():
    assert BLOCK.search(README.read_text()), "the README should hold at least one <!-- zoo-table --> block"


def test_readme_tables_match_the_manifest():
    text = README.read_text()
    assert render_readme(text) == text, ("a README table no longer matches assets/manifest.json; run "
                                         "`python -m lengen_utils.lab.zoo table --readme README.md`")


def test_render_replaces_a_stale_block():
    stale = "<!-- zoo-table flagship-coupled -->\n| made up | 1% |\n<!-- /zoo-table -->"
    fresh = render_readme(stale)
    assert "made up" not in fresh and "`flagship-coupled`" in fresh


def test_quick_start_names_the_two_commands():
    quick = README.read_text().split("## Quick start", 1)[1].split("\n## ", 1)[0]
    assert re.search(r"^make course\b", quick, re.M) and re.search(r"^make test\b", quick, re.M)

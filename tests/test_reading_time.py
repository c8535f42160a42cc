"""How long a notebook takes to read, by a written rule, and the shape a lesson keeps.

**The rule.** A notebook states its time in its first cell as ``**Time:** about N minutes``. ``N`` is the
reading time of what the learner reads, rounded to the nearest 5 minutes (at least 5):

    words / 200  +  1 minute per figure  +  1/2 minute per table

* *words*: the prose the learner reads, in markdown cells and in the prose that code cells render
  (``show_md``'s ``text/markdown`` outputs); 200 words a minute is a careful reading of technical text;
* *figures*: the images in the committed outputs;
* *tables*: Markdown tables in that prose, and HTML tables in the outputs.

Running the cells is not counted (the notebooks load cached models and run in about a minute or two), nor are the
exercises, which state their own minutes. The rule is computed from the committed notebook, so an edit that adds
prose or figures fails here until the stated time follows.

**A lesson** (``NN_topic.ipynb``) keeps at most :data:`LESSON_MAX_WORDS` words and :data:`LESSON_MAX_TABLES` tables
where the lessons issue set them (notebooks 03, 04, 05: research depth lives in the bonus notebook
``NNb_topic.ipynb`` beside it). Every notebook numbers its sections 1, 2, 3, ... in order (a setup section 0 may open), and no ordered list
renders broken.
"""
from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
WORDS_PER_MINUTE = 200
FIGURE_MINUTES = 1.0
TABLE_MINUTES = 0.5
LESSON_MAX_WORDS = 4500
LESSON_MAX_TABLES = 15
#: the lessons the limits hold for (issue 48: each split into a lesson and a bonus notebook)
LIMITED_LESSONS = ("03_", "04_", "05_")
STATED = re.compile(r"\*\*Time:\*\*\s*(?:about\s+)?(\d+)\s+minutes")
MD_TABLE_RULE = re.compile(r"^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)+\|?\s*$", re.MULTILINE)


def _text(value) -> str:
    return "".join(value) if isinstance(value, list) else (value or "")


@dataclass(frozen=True)
class Reading:
    words: int
    figures: int
    tables: int

    @property
    def minutes(self) -> float:
        return self.words / WORDS_PER_MINUTE + FIGURE_MINUTES * self.figures + TABLE_MINUTES * self.tables

    @property
    def stated_by_rule(self) -> int:
        return max(5, 5 * math.floor(self.minutes / 5 + 0.5))


def reading(nb: dict) -> Reading:
    """Words, figures and tables a learner reads in one notebook's JSON (outputs included)."""
    words = figures = tables = 0
    for cell in nb["cells"]:
        prose = []
        if cell["cell_type"] == "markdown":
            prose.append(_text(cell["source"]))
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            figures += any(mime.startswith("image/") for mime in data)
            if "text/markdown" in data:
                prose.append(_text(data["text/markdown"]))
            elif "text/html" in data:
                tables += _text(data["text/html"]).count("<table")
        for text in prose:
            words += len(text.split())
            tables += len(MD_TABLE_RULE.findall(text))
    return Reading(words, figures, tables)


def stated_minutes(nb: dict) -> int | None:
    match = STATED.search(_text(nb["cells"][0]["source"]))
    return int(match.group(1)) if match else None


def section_numbers(nb: dict) -> list[int]:
    """The numbers of the ``## N.`` headings, in order."""
    return [int(m.group(1)) for cell in nb["cells"] if cell["cell_type"] == "markdown"
            for m in re.finditer(r"^##\s+(\d+)\.", _text(cell["source"]), re.MULTILINE)]


def broken_lists(markdown: str) -> list[str]:
    """Ordered-list items that Markdown renders broken: an item whose text opens a bullet ("2. - dropout" renders
    as a nested bullet), or an item numbered out of order within one list."""
    problems, expected = [], None
    for line in markdown.splitlines():
        item = re.match(r"^(\d+)[.)]\s+(.*)$", line)
        if item:
            number, text = int(item.group(1)), item.group(2)
            if re.match(r"[-*+]\s", text):
                problems.append(line)
            if expected is not None and number != expected:
                problems.append(line)
            expected = number + 1
        elif not line.strip() or not line.startswith((" ", "\t")):
            if line.strip():
                expected = None
    return problems


def test_the_rule_counts_words_figures_and_tables():
    nb = {"cells": [
        {"cell_type": "markdown", "source": "**Time:** about 5 minutes.\n\n" + "word " * 400},
        {"cell_type": "code", "source": "", "outputs": [
            {"data": {"image/png": "..."}},
            {"data": {"text/markdown": "| a | b |\n|---|---|\n| 1 | 2 |\n" + "more " * 196}},
            {"data": {"text/html": "<table></table><table></table>", "text/plain": "x"}}]}]}
    got = reading(nb)
    assert (got.figures, got.tables) == (1, 3)
    assert got.words == 4 + 400 + 11 + 196                 # a table's cells and bars are words too
    assert got.minutes == pytest.approx(611 / 200 + 1 + 1.5)
    assert got.stated_by_rule == 5 and stated_minutes(nb) == 5


def test_broken_lists_and_section_order_are_found():
    assert broken_lists("1. one\n2. - dropout\n") == ["2. - dropout"]
    assert broken_lists("1. one\n3. three\n") == ["3. three"]
    assert broken_lists("1. one\n   more of one\n2. two\n\ntext\n\n1. a new list\n") == []
    nb = {"cells": [{"cell_type": "markdown", "source": "## 1. a\n## 2. b"},
                    {"cell_type": "markdown", "source": "## 4. c"}]}
    assert section_numbers(nb) == [1, 2, 4]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_stated_time_follows_the_rule(path):
    nb = json.loads(path.read_text())
    got, stated = reading(nb), stated_minutes(nb)
    print(f"{path.name}: {got.words} words, {got.figures} figures, {got.tables} tables -> {got.minutes:.1f} "
          f"minutes by the rule, stated {stated}")
    assert stated is not None, f"{path.name}: the first cell states no '**Time:** about N minutes'"
    assert stated == got.stated_by_rule, (
        f"{path.name} states {stated} minutes; by the rule it takes {got.stated_by_rule} ({got.words} words / "
        f"{WORDS_PER_MINUTE} + {got.figures} figures x {FIGURE_MINUTES:g} + {got.tables} tables x "
        f"{TABLE_MINUTES:g} = {got.minutes:.1f} minutes, to the nearest 5)")


@pytest.mark.parametrize("path", [p for p in NOTEBOOKS if p.name.startswith(LIMITED_LESSONS)], ids=lambda p: p.name)
def test_a_lesson_stays_a_lesson(path):
    got = reading(json.loads(path.read_text()))
    print(f"{path.name}: {got.words} words (target <= {LESSON_MAX_WORDS}), {got.tables} tables "
          f"(target <= {LESSON_MAX_TABLES})")
    assert got.words <= LESSON_MAX_WORDS, (f"{path.name}: {got.words} words, more than a lesson's "
                                           f"{LESSON_MAX_WORDS}; move research depth to its bonus notebook")
    assert got.tables <= LESSON_MAX_TABLES, (f"{path.name}: {got.tables} tables, more than a lesson's "
                                             f"{LESSON_MAX_TABLES}")


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_sections_are_in_order_and_lists_render(path):
    nb = json.loads(path.read_text())
    numbers = section_numbers(nb)
    first = numbers[0] if numbers and numbers[0] in (0, 1) else 1     # a section 0 (setup) may open the count
    assert numbers == list(range(first, first + len(numbers))), (
        f"{path.name}: its numbered sections run {numbers}; number them 1, 2, 3, ... in order")
    broken = [line for cell in nb["cells"] if cell["cell_type"] == "markdown"
              for line in broken_lists(_text(cell["source"]))]
    assert not broken, f"{path.name}: ordered-list items that render broken: {broken}"

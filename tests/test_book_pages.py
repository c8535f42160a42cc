"""scripts/book.py's changes to a notebook, without Sphinx: wide tables split by columns, widgets shown as a note.

The browser test (tests/browser/test_book_browser.py) measures the rendered tables; these check the rules."""
from __future__ import annotations

import importlib.util
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("book_script", REPO / "scripts" / "book.py")
book = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(book)


def markdown_table(columns: int, cell: str = "100.0% [99.1–100.0%]") -> str:
    head = "| | " + " | ".join(f"{n} dig" for n in range(columns)) + " |"
    return "\n".join([head, "|---|" + "---|" * columns, "| seed 0 | " + " | ".join([cell] * columns) + " |"])


def tables(markdown: str) -> list[list[list[str]]]:
    """The tables of ``markdown`` as rows of cells (rule lines left out)."""
    found, current = [], []
    for line in markdown.split("\n") + [""]:
        if line.startswith("|"):
            if not book.TABLE_RULE.match(line):
                current.append(book.table_cells(line))
        elif current:
            found.append(current)
            current = []
    return found


def test_a_narrow_table_is_left_as_it_is():
    text = "Before.\n\n" + markdown_table(3) + "\n\nAfter."
    assert book.split_wide_tables(text) == text


def test_a_wide_table_is_split_into_tables_that_fit_and_keep_every_cell():
    wide = markdown_table(16)
    parts = tables(book.split_wide_tables("Before.\n\n" + wide + "\n\nAfter."))
    assert len(parts) > 1
    for part in parts:
        assert part[1][0] == "seed 0"                                  # each part repeats the row labels
        assert sum(book.column_px(part, c) for c in range(len(part[0]))) <= book.TEXT_COLUMN_PX
    headers = [h for part in parts for h in part[0][1:]]
    assert headers == [f"{n} dig" for n in range(16)]                  # every column once, in order


def test_widget_displays_become_the_note_and_progress_bars_keep_their_text():
    nb = {"metadata": {}, "nbformat": 4, "nbformat_minor": 5, "cells": [{
        "cell_type": "code", "metadata": {}, "source": "", "execution_count": 1, "outputs": [
            {"output_type": "display_data", "metadata": {"lengen_widget": True},
             "data": {"text/plain": "VBox(children=(HBox(),))"}},
            {"output_type": "display_data", "metadata": {"lengen_widget": True},
             "data": {"text/plain": " 40%|####      | 4/10"}},
            {"output_type": "display_data", "metadata": {}, "data": {"text/plain": "VBox(children=(HBox(),))"}},
        ]}]}
    outs = book.book_notebook(nb)["cells"][0]["outputs"]
    assert outs[0]["data"] == {"text/html": book.WIDGET_NOTE}
    assert outs[1]["data"] == {"text/plain": " 40%|####      | 4/10"}
    assert outs[2]["data"] == {"text/plain": "VBox(children=(HBox(),))"}   # not marked: a plain text output


def test_outputs_script_marks_a_widget_display_for_the_book():
    """scripts/outputs.py drops a widget's view (its model dies with the kernel) and marks the display instead."""
    import nbformat

    spec = importlib.util.spec_from_file_location("outputs_script", REPO / "scripts" / "outputs.py")
    outputs = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(outputs)
    widget = nbformat.v4.new_output("display_data", data={"text/plain": "VBox(children=())",
                                                          outputs.WIDGET_VIEW: {"model_id": "abc"}})
    text = nbformat.v4.new_output("display_data", data={"text/plain": "VBox(children=())"})
    kept = outputs.clean_outputs([widget, text])
    assert outputs.WIDGET_VIEW not in kept[0].data and kept[0].metadata == {book.WIDGET_MARK: True}
    assert book.is_widget(kept[0]) and not book.is_widget(kept[1])
    assert outputs.fingerprint(kept[:1], []) != outputs.fingerprint(kept[1:], [])   # a re-run adds a missing mark

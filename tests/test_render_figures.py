"""scripts/render_figures.py saves and checks the figures a notebook shows, from the notebook itself."""
import importlib.util
from pathlib import Path

import nbformat
import pytest

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "render_figures.py"


@pytest.fixture(scope="module")
def render_figures():
    spec = importlib.util.spec_from_file_location("render_figures", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_figures_shown_or_left_open_are_saved_and_checked(render_figures, tmp_path):
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("%matplotlib inline\nimport matplotlib.pyplot as plt"),
                nbformat.v4.new_code_cell("fig, ax = plt.subplots(figsize=(4, 3))\nax.plot([0, 1], [0, 1])\nplt.show()"),
                nbformat.v4.new_code_cell("fig, ax = plt.subplots(figsize=(4, 3))\n"
                                          "ax.set_title('tiny', fontsize=3)"),   # left open; its title breaks the standard
                nbformat.v4.new_code_cell("1 / 0")]
    path = tmp_path / "09_demo.ipynb"
    nbformat.write(nb, path)
    out = tmp_path / "figures"
    out.mkdir()
    figures, error = render_figures.render(path, out, timeout=120)
    assert [f["png"] for f in figures] == ["09_demo-cell2-1.png", "09_demo-cell3-2.png"]
    assert all((out / f["png"]).stat().st_size > 1000 for f in figures)
    assert figures[0]["breaches"] == [] and any("'tiny'" in b for b in figures[1]["breaches"])
    assert error is not None and "ZeroDivisionError" in error

"""The notebook output policy: notebooks are committed stripped (no outputs, no execution counts).

CI executes them with ``pytest --nbval``; with stripped notebooks nbval checks that every cell runs,
and the ``assert`` lines inside the notebooks check the results. A notebook saved with outputs would
make nbval compare widget and timing output, which is not reproducible, so it is refused here.
"""
import json
from pathlib import Path

import pytest

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

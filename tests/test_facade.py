"""The facade re-exports its everyday names explicitly, and the short module names of 0.2 warn and point to
where each module lives."""
import ast
import importlib
import json
import re
import warnings
from pathlib import Path

import pytest

import lengen_utils

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))


def test_every_name_in_all_is_written_in_the_facade():
    """Editors and type checkers see what they can import: each name of ``__all__`` is bound by an import
    statement in ``__init__.py`` itself (no lazy attribute)."""
    tree = ast.parse((ROOT / "lengen_utils" / "__init__.py").read_text())
    bound = {alias.asname or alias.name for node in tree.body if isinstance(node, ast.ImportFrom)
             for alias in node.names}
    assert set(lengen_utils.__all__) <= bound
    assert all(getattr(lengen_utils, name) is not None for name in lengen_utils.__all__)


def test_a_short_module_name_warns_with_its_full_path():
    from lengen_utils.lab import zoo
    with pytest.warns(DeprecationWarning, match=r"from lengen_utils\.lab import zoo"):
        assert lengen_utils.zoo is zoo
    with pytest.raises(AttributeError, match="no attribute 'not_a_module'"):
        lengen_utils.not_a_module  # noqa: B018


def test_the_package_imports_without_warnings():
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        importlib.reload(lengen_utils)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebooks_import_by_full_path(path):
    """One import style in the notebooks: every name from the module that defines it (``from
    lengen_utils.lab import zoo``), never through the facade."""
    cells = [''.join(c["source"]) for c in json.loads(path.read_text())["cells"] if c["cell_type"] == "code"]
    facade = [line.strip() for src in cells for line in src.splitlines()
              if re.match(r"\s*from lengen_utils import ", line)]
    assert not facade, f"{path.name}: import these by their full path: {facade}"

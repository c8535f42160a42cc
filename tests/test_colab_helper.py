"""`python -m lengen_utils.course.colab`: a bad notebook file or a missing path gets one line, never a traceback."""
import json
import shutil
from pathlib import Path

import pytest
from cli_run import run_cli

from lengen_utils.course.colab import main

NOTEBOOK = Path(__file__).resolve().parents[1] / "notebooks" / "00_setup_and_tour.ipynb"


def test_the_committed_notebook_is_up_to_date_and_a_stale_copy_is_named(tmp_path, capsys):
    copy = tmp_path / NOTEBOOK.name
    shutil.copy(NOTEBOOK, copy)
    assert run_cli(main, ["--check", str(copy)], capsys)[0] == 0
    nb = json.loads(copy.read_text())
    nb["cells"][0]["source"] = ["# 00 · A tour\n"]                    # the badge removed
    copy.write_text(json.dumps(nb))
    code, err = run_cli(main, ["--check", str(copy)], capsys)
    assert code == 1 and "out of date" in err and str(copy) in err


@pytest.mark.parametrize("content, words", [("{ not json", "is not valid notebook JSON"),
                                             ('{"cells": 3}', "is not a notebook"),
                                             (None, "cannot read")])
def test_a_bad_file_or_a_missing_path_gets_one_line(tmp_path, capsys, content, words):
    path = tmp_path / "broken.ipynb"
    if content is not None:
        path.write_text(content)
    code, err = run_cli(main, ["--check", str(path)], capsys)
    assert code == 2 and words in err and str(path) in err, err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("argv", [["--check"], []], ids=["--check", "rewrite"])
def test_nothing_to_check_is_refused_not_passed(argv, capsys):
    """``--check`` with no paths checked nothing: it must not exit 0 as if everything were up to date."""
    code, err = run_cli(main, argv, capsys)
    assert code == 2 and "nothing was" in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_a_check_says_what_it_checked(capsys):
    assert main(["--check", str(NOTEBOOK)]) == 0
    assert "1 file(s) checked: all up to date" in capsys.readouterr().out

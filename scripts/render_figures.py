"""Render every figure the notebooks draw into a folder of PNGs, to look at them.

    python scripts/render_figures.py [--out /tmp/lengen-figures] [--only 03] [--timeout 1200]

The figures come from the notebooks themselves, so this script cannot drift from them: each notebook (or those
whose file name contains ``--only``) runs top to bottom in a fresh kernel (``nbclient``), as ``pytest --nbval``
runs it, with one cell put in front that captures every matplotlib figure the notebook shows -- at
``plt.show()`` and at the end of each cell, before the inline backend closes it. Each figure is saved as
``NOTEBOOK-cellN-K.png`` (the K-th figure, shown by the N-th code cell) at the size a learner sees at 100 % zoom,
and checked against the figure standard (:func:`lengen_utils.course.plots.check_figure`). Breaches and failing notebooks
are listed and make the exit status 1. ``LENGEN_FAST=1`` (the notebooks' fast mode) makes the run quicker; the
figures' layout is the same.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"

#: Run first in each kernel: save and check every figure the notebook shows (``{out}``, ``{stem}`` filled in).
CAPTURE = '''
import json as _json, matplotlib.pyplot as _plt
from pathlib import Path as _Path
from lengen_utils.course.plots import check_figure as _check, style as _style
_OUT, _STEM, _seen, _cell = _Path({out!r}), {stem!r}, set(), [0]

def _capture():
    for _num in _plt.get_fignums():
        _fig = _plt.figure(_num)
        if id(_fig) in _seen:
            continue
        _seen.add(id(_fig))
        _path = _OUT / f"{{_STEM}}-cell{{_cell[0]}}-{{len(_seen)}}.png"
        _fig.savefig(_path, dpi=_style.DPI)
        print("LENGEN-FIGURE " + _json.dumps({{"png": _path.name, "breaches": _check(_fig)}}))

_show = _plt.show
def _show_and_capture(*args, **kwargs):
    _capture()
    return _show(*args, **kwargs)
_plt.show = _show_and_capture

def _count_cell(*args):
    _cell[0] += 1
get_ipython().events.register("pre_run_cell", _count_cell)
get_ipython().events.register("post_execute", _capture)   # before the inline backend closes the cell's figures
'''


def render(notebook: Path, out: Path, timeout: int) -> tuple[list[dict], str | None]:
    """Run ``notebook`` with the capture cell in front; returns the figures it showed and the error, if any."""
    nb = nbformat.read(notebook, as_version=4)
    nb.cells.insert(0, nbformat.v4.new_code_cell(CAPTURE.format(out=str(out), stem=notebook.stem)))
    client = NotebookClient(nb, timeout=timeout, kernel_name="python3",
                            resources={"metadata": {"path": str(notebook.parent)}})
    error = None
    try:
        client.execute()
    except CellExecutionError as err:
        error = str(err).strip().splitlines()[-1]
    figures = []
    for cell in nb.cells:
        for output in cell.get("outputs", []):
            text = output.get("text", "") if output.get("output_type") == "stream" else ""
            figures += [json.loads(line.split(" ", 1)[1]) for line in text.splitlines()
                        if line.startswith("LENGEN-FIGURE ")]
    return figures, error


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default="/tmp/lengen-figures", help="folder for the PNGs (default %(default)s)")
    parser.add_argument("--only", default="", help="run only the notebooks whose file name contains this text")
    parser.add_argument("--timeout", type=int, default=1200, help="seconds one cell may run (default %(default)s)")
    args = parser.parse_args(argv)
    out = Path(args.out).resolve()
    out.mkdir(parents=True, exist_ok=True)
    notebooks = [p for p in sorted(NOTEBOOKS.glob("[0-9]*.ipynb")) if args.only in p.name]
    if not notebooks:
        print(f"no notebook in {NOTEBOOKS} matches --only {args.only!r}", file=sys.stderr)
        return 2
    failed, breaches, n = [], [], 0
    for notebook in notebooks:
        t0 = time.perf_counter()
        figures, error = render(notebook, out, args.timeout)
        n += len(figures)
        breaches += [f"{f['png']}: {b}" for f in figures for b in f["breaches"]]
        if error:
            failed.append(f"{notebook.name} ({error})")
        print(f"{notebook.name:45s} {len(figures):3d} figure(s) in {time.perf_counter() - t0:6.1f} s"
              + (" -- failed" if error else ""))
    print(f"{n} PNGs in {out}")
    for line in breaches:
        print("breach:", line)
    for line in failed:
        print("failed:", line)
    return 1 if failed or breaches else 0


if __name__ == "__main__":
    sys.exit(main())

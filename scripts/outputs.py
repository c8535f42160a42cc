"""Execute the notebooks in place and save their outputs, as they are committed: ``make outputs [NB=05]``.

    python scripts/outputs.py            # every notebooks/NN_*.ipynb and NNb_*.ipynb
    python scripts/outputs.py 05 07      # only notebooks/05_*.ipynb and notebooks/07_*.ipynb
    python scripts/outputs.py 05b        # only the bonus notebook beside 05

Each notebook runs top to bottom in a fresh kernel of this Python (the kernel that ``pytest --nbval
--nbval-current-env`` starts), in full mode (``LENGEN_FAST`` unset), on the CPU, on one thread
(``LENGEN_THREADS=1``, ``OMP_NUM_THREADS=1``), with ``PYTHONHASHSEED=0``; the notebooks fix their own seeds.
A cell that fails stops the run and leaves that notebook as it was.

A cell's outputs are recorded as nbval records them when CI compares: every display, result and stream that
the cell sends while it runs, streams merged per stream with carriage returns applied (a progress bar keeps its
last state), ``clear_output`` not applied; so what a widget's Output area shows when the cell runs (its first
figure) is saved as the cell's output, which is also what a learner sees before running anything. Saved beside
them: execution counts 1, 2, 3, ... in cell order. Not saved: widget state (no ``widgets`` in the notebook's
metadata; a widget's display keeps its text fallback, not the ``application/vnd.jupyter.widget-view+json`` part,
which names a model that exists only while the kernel runs; the output's metadata ``lengen_widget: true``
marks it instead, and ``make book`` shows a note there), timing metadata, the running kernel's versions (the
notebook's metadata stays as it was). Figures are PNG at the course style's resolution
(``lengen_utils.course.plots.style.DPI``).

A cell whose fresh outputs match its committed ones under the sanitizers that CI uses
(``tests/nbval_sanitize.cfg``) keeps its committed outputs byte for byte (images must match exactly), so a second
run changes nothing, and a run on another machine rewrites only what CI would see as changed. Prints each
notebook's run time and the total.
"""
from __future__ import annotations

import argparse
import copy
import os
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
SANITIZE = ROOT / "tests" / "nbval_sanitize.cfg"
CELL_TIMEOUT_S = 3600          # nbval's default is 2000 s
OUTPUT_TIMEOUT_S = 30          # after a cell's reply, for its last messages
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
#: output metadata marking a widget's display, whose view is not saved: scripts/book.py shows a note there
WIDGET_MARK = "lengen_widget"
IMAGES = ("image/png", "image/jpeg")

#: The kernel's environment: the CI's full mode, reproducible. Set before the kernel starts (it inherits them).
ENV = {"LENGEN_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1",
       "LENGEN_DEVICE": "cpu", "PYTHONHASHSEED": "0"}
UNSET = ("LENGEN_FAST", "LENGEN_ASSETS")


#: a lesson is ``NN_topic.ipynb``; the bonus notebook beside it ``NNb_topic.ipynb``
NOTEBOOK_NAME = re.compile(r"\d\d[b]?_[a-z0-9_]+\.ipynb")


def select(names: list[str]) -> list[Path]:
    """The notebooks named by number prefix ("05"), file name or path; all of them when none is named."""
    every = sorted(p for p in NOTEBOOKS.glob("[0-9][0-9]*_*.ipynb") if NOTEBOOK_NAME.fullmatch(p.name))
    if not names:
        return every
    chosen = []
    for name in names:
        for part in re.split(r"[,\s]+", name.strip()):
            if not part:
                continue
            stem = Path(part).name
            hits = [p for p in every if p.name == stem or p.name.startswith(stem.zfill(2) + "_")
                    or (len(stem) == 3 and p.name.startswith(stem + "_"))
                    or p.stem == stem]
            if not hits:
                raise SystemExit(f"outputs.py: no notebook in {NOTEBOOKS.relative_to(ROOT)}/ matches {part!r} "
                                 f"(give its number, e.g. 05)")
            chosen += [p for p in hits if p not in chosen]
    return sorted(chosen)


def sanitize_patterns() -> list[tuple[str, str]]:
    """The (regex, replacement) pairs of the sanitize file, read as nbval reads them."""
    from nbval.plugin import get_sanitize_patterns

    return list(get_sanitize_patterns(SANITIZE.read_text())) if SANITIZE.exists() else []


def clean_outputs(outputs: list) -> list:
    """Streams merged and carriage returns applied (as nbval does), widget views reduced to their text."""
    from nbval.plugin import coalesce_streams

    kept = []
    for out in coalesce_streams(copy.deepcopy(list(outputs))):
        if out.output_type in ("display_data", "execute_result"):
            widget = out.data.pop(WIDGET_VIEW, None) is not None
            out.metadata.pop(WIDGET_VIEW, None)
            if not out.data:
                continue
            if widget:
                out.metadata[WIDGET_MARK] = True
        if out.output_type == "display_data":
            out.pop("transient", None)
        kept.append(out)
    return kept


def fingerprint(outputs: list, patterns: list[tuple[str, str]]) -> list:
    """What must stay equal for committed outputs to stand: texts under the sanitizers, images exactly."""
    def clean(text):
        text = "".join(text) if isinstance(text, list) else text
        for regex, replace in patterns:
            text = re.sub(regex, replace, text)
        return text

    found = []
    for out in outputs:
        if out.output_type == "stream":
            found.append(("stream", out.name, clean(out.text)))
        elif out.output_type == "error":
            found.append(("error", out.ename, clean(out.evalue)))
        else:
            found.append((out.output_type, bool(out.get("metadata", {}).get(WIDGET_MARK)), sorted(
                (mime, value if mime in IMAGES or not isinstance(value, (str, list)) else clean(value))
                for mime, value in out.data.items() if mime != WIDGET_VIEW)))
    return found


class CellFailed(Exception):
    """A cell raised: its number among the code cells, its first line and the traceback."""


def run_cells(path: Path, cells: list) -> list[list]:
    """Run the code cells in a fresh kernel of this Python; each cell's outputs as ``pytest --nbval`` records them.

    The same kernel (nbval's ``--nbval-current-env`` one) and the same reading of its messages as nbval's: every
    display, result and stream sent while the cell runs is an output, including what a widget's Output area
    shows (nbval sees it as the cell's output, so it is committed as one), and ``clear_output`` is not applied.
    """
    import nbformat
    from nbval.kernel import CURRENT_ENV_KERNEL_NAME, RunningKernel

    kernel = RunningKernel(CURRENT_ENV_KERNEL_NAME, cwd=str(path.parent), startup_timeout=120)
    results = []
    try:
        for n, cell in enumerate(cells, 1):
            msg_id = kernel.execute_cell_input(cell.source, allow_stdin=False)
            kernel.await_reply(msg_id, timeout=CELL_TIMEOUT_S)
            outs = []
            while True:
                msg = kernel.get_message("iopub", timeout=OUTPUT_TIMEOUT_S)
                if msg["parent_header"].get("msg_id") != msg_id:
                    continue
                kind, content = msg["msg_type"], msg["content"]
                if kind == "status" and content["execution_state"] == "idle":
                    break
                if kind in ("display_data", "execute_result"):
                    extra = {"execution_count": n} if kind == "execute_result" else {}
                    outs.append(nbformat.v4.new_output(kind, data=content["data"],
                                                       metadata=content["metadata"], **extra))
                elif kind == "stream":
                    outs.append(nbformat.v4.new_output("stream", name=content["name"], text=content["text"]))
                elif kind == "error":
                    first = (cell.source.splitlines() or [""])[0]
                    raise CellFailed(f"code cell {n} ({first[:60]!r}) raised {content['ename']}: "
                                     f"{content['evalue']}\n" + "\n".join(content["traceback"]))
            results.append(outs)
    finally:
        kernel.stop()
    return results


def execute(path: Path, patterns: list[tuple[str, str]]) -> tuple[int, int]:
    """Run one notebook and write it back; returns (code cells, cells whose outputs were rewritten)."""
    import nbformat

    nb = nbformat.read(path, as_version=4)
    code = [cell for cell in nb.cells if cell.cell_type == "code"]
    fresh = run_cells(path, code)
    rewritten = 0
    for n, (cell, outs) in enumerate(zip(code, fresh), 1):
        outputs = clean_outputs(outs)
        if fingerprint(cell.outputs, patterns) == fingerprint(outputs, patterns):
            outputs = cell.outputs                 # the same under CI's comparison: keep the committed bytes
        else:
            rewritten += 1
        for out in outputs:
            if out.output_type == "execute_result":
                out.execution_count = n
        cell.outputs, cell.execution_count = outputs, n
        cell.metadata.pop("execution", None)
    nb.metadata.pop("widgets", None)
    nbformat.validate(nb)
    text = nbformat.writes(nb) + "\n"
    if text != path.read_text():
        path.write_text(text)
    return len(code), rewritten


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("notebooks", nargs="*", help="numbers (05) or names of notebooks; default: all")
    args = parser.parse_args(argv)
    paths = select(args.notebooks)
    for var in UNSET:
        os.environ.pop(var, None)
    os.environ.update(ENV)
    patterns = sanitize_patterns()
    total0 = time.perf_counter()
    for path in paths:
        t0 = time.perf_counter()
        print(f"{path.name:50s}", end="", flush=True)
        try:
            cells, rewritten = execute(path, patterns)
        except Exception as err:                   # a failing cell: say which, leave the file as it was
            print(f" FAILED after {time.perf_counter() - t0:.1f} s", flush=True)
            print(str(err).strip()[-3000:], file=sys.stderr)
            return 1
        print(f" {time.perf_counter() - t0:7.1f} s  "
              f"({cells} code cells, {rewritten} with new outputs)", flush=True)
    size = sum(p.stat().st_size for p in NOTEBOOKS.glob("*.ipynb"))
    print(f"{'total':50s} {time.perf_counter() - total0:7.1f} s  (notebooks/ now {size / 1e6:.1f} MB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

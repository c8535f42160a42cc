#!/usr/bin/env bash
# Builds the virtual environment of the Colab test (tests/colab): Colab's widget stack, apart from the
# project's own environment, so that nothing of JupyterLab 4 or ipywidgets 8 leaks into it.
#   bash scripts/ci-colab-env.sh            # creates build/colab-venv/ with python3 (PYTHON=... picks another)
# What it holds, as a Colab runtime does: torch (the CPU build here), ipywidgets 7.7.1 with the classic
# Notebook 6.5 and widgetsnbextension 3.6.1 as the front end, ipykernel 6.17, and the course's runtime
# dependencies (pyproject.toml). The course itself is NOT installed: the test installs it the way a
# learner's first notebook cell does on Colab (lengen_utils.course.colab), from a file:// clone, and removes it
# afterwards. Prints the environment's python as its last line.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
VENV=${LENGEN_COLAB_VENV:-build/colab-venv}
# widgetsnbextension 3.6.1 is the front end released with ipywidgets 7.7.1; the later 3.6.x that pip would pick
# (3.6.10 was tried) create no widget at all with 7.7.1's kernel side ("_deserialize_state is not a function")
COLAB_STACK=("ipywidgets==7.7.1" "notebook>=6.5,<6.6" "widgetsnbextension==3.6.1" "ipykernel>=6.17,<6.18")

if [ ! -x "$VENV/bin/python" ]; then
  echo "ci-colab-env: creating $VENV with $("$PYTHON" --version 2>&1)" >&2
  "$PYTHON" -m venv "$VENV"
fi
PY="$PWD/$VENV/bin/python"
if ! "$PY" -c "import torch" >/dev/null 2>&1; then
  # a CPU build, tried in scripts/install.sh's order: a local wheel pip finds without an index, PyTorch's CPU
  # index, the default index; then torch's small dependencies (the local wheel comes without them)
  "$PY" -m pip install --no-index --no-deps "torch>=2.2" >/dev/null 2>&1 \
    || "$PY" -m pip install -q --timeout 20 --retries 1 --index-url https://download.pytorch.org/whl/cpu "torch>=2.2" >&2 \
    || "$PY" -m pip install -q "torch>=2.2" >&2
  "$PY" -m pip install -q filelock typing-extensions sympy networkx jinja2 fsspec >&2
fi
# the course's dependencies, resolved together with Colab's pins; then the course itself goes again
"$PY" -m pip install -q "${COLAB_STACK[@]}" . >&2
"$PY" -m pip uninstall -q -y lengen_utils >&2
"$PY" -c "import importlib.metadata as m; print('ci-colab-env:', ', '.join(f'{p} {m.version(p)}' for p in \
  ('torch', 'ipywidgets', 'notebook', 'widgetsnbextension', 'ipykernel')))" >&2
echo "$PY"

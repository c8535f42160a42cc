#!/usr/bin/env bash
# Install everything the course and its tests need, into a project virtual environment.
#
# Which Python environment:
#   - one already active (a venv, conda, or Colab / a notebook kernel with VIRTUAL_ENV or CONDA_PREFIX set):
#     we install into it;
#   - otherwise we create .venv/ beside this repo with $PYTHON (default python3) and install there. This is
#     what a stock Debian/Ubuntu/Fedora Python needs: PEP 668 refuses `pip install` into the system one.
#     When that Python already has a working torch, the venv sees it (--system-site-packages) instead
#     of downloading another.
# PyTorch: on a machine without an NVIDIA GPU a CPU-only build is enough (about 200 MB instead of
# several GB of CUDA libraries). We try, in order: a torch already importable, a local wheel pip can find
# without an index (some managed machines ship one), PyTorch's CPU index, and finally the default index.
#
# Prints the path of the environment's python as its last line (the Makefile reads it).
set -euo pipefail
PYTHON=${PYTHON:-python3}
cd "$(dirname "$0")/.."

if ! command -v "$PYTHON" >/dev/null 2>&1; then
  echo "install.sh: no Python found at '$PYTHON'; set PYTHON=/path/to/python3 (3.9 or newer)" >&2
  exit 2
fi
if ! "$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 9))'; then
  echo "install.sh: $("$PYTHON" --version 2>&1) is too old; lengen needs Python 3.9 or newer" >&2
  exit 2
fi

active_env() {
  # a virtual environment or conda env is active, or this interpreter already is one
  [ -n "${VIRTUAL_ENV:-}" ] || [ -n "${CONDA_PREFIX:-}" ] || [ -n "${COLAB_RELEASE_TAG:-}" ] \
    || "$PYTHON" -c 'import sys; sys.exit(sys.prefix == sys.base_prefix)'
}

if active_env; then
  PY="$PYTHON"
else
  if [ ! -x .venv/bin/python ]; then
    if "$PYTHON" -c "import torch" >/dev/null 2>&1; then
      echo "install.sh: creating .venv/ (reusing the torch of $PYTHON)" >&2
      "$PYTHON" -m venv --system-site-packages .venv
    else
      echo "install.sh: creating .venv/ with $("$PYTHON" --version 2>&1)" >&2
      if ! "$PYTHON" -m venv .venv; then
        echo "install.sh: '$PYTHON -m venv' failed; on Debian/Ubuntu install the python3-venv package" >&2
        exit 2
      fi
    fi
  fi
  PY="$PWD/.venv/bin/python"
fi

if ! "$PY" -c "import torch" >/dev/null 2>&1; then
  if command -v nvidia-smi >/dev/null 2>&1; then
    "$PY" -m pip install "torch>=2.2" >&2
  else
    "$PY" -m pip install --no-index --no-deps "torch>=2.2" >/dev/null 2>&1 \
      || "$PY" -m pip install --timeout 20 --retries 1 --index-url https://download.pytorch.org/whl/cpu "torch>=2.2" >&2 \
      || "$PY" -m pip install "torch>=2.2" >&2
    # torch's own small dependencies (the local wheel was installed without them)
    "$PY" -m pip install -q filelock typing-extensions sympy networkx jinja2 fsspec >&2
  fi
fi
"$PY" -m pip install -q -r requirements.txt >&2
"$PY" -m pip install -q --no-deps -e . >&2
echo "$PY"

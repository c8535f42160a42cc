#!/usr/bin/env bash
# Install everything the course and its tests need into the current Python environment.
# PyTorch first: on a machine without an NVIDIA GPU a CPU-only build is enough (about 200 MB
# instead of several GB of CUDA libraries). We try, in order: a torch already installed, a local
# CPU wheel that pip can find without an index (some managed machines ship one), PyTorch's CPU
# index, and finally the default index.
set -euo pipefail
PYTHON=${PYTHON:-python3}
cd "$(dirname "$0")/.."

if ! "$PYTHON" -c "import torch" >/dev/null 2>&1; then
  if command -v nvidia-smi >/dev/null 2>&1; then
    "$PYTHON" -m pip install "torch>=2.2"
  else
    "$PYTHON" -m pip install --no-index --no-deps "torch>=2.2" 2>/dev/null \
      || "$PYTHON" -m pip install --timeout 20 --retries 1 --index-url https://download.pytorch.org/whl/cpu "torch>=2.2" \
      || "$PYTHON" -m pip install "torch>=2.2"
  fi
fi
"$PYTHON" -m pip install -r requirements.txt
"$PYTHON" -m pip install --no-deps -e .

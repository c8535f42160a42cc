#!/usr/bin/env bash
# Installs what the browser tests (tests/browser) need, into the given Python:
#   bash scripts/ci-browser-deps.sh "$PY"
# - Chromium from the system's packages (Debian's `chromium`, /usr/bin/chromium), only when missing;
# - Playwright for Python, only when missing. Playwright drives the system Chromium through
#   executable_path: never run `playwright install` (no browser downloads here).
set -euo pipefail
PY="${1:-python3}"

if [ -z "${LENGEN_CHROMIUM:-}" ] && ! command -v chromium >/dev/null 2>&1 && [ ! -x /usr/bin/chromium ]; then
    if [ "$(id -u)" -eq 0 ]; then
        SUDO=()
    elif command -v sudo >/dev/null 2>&1; then
        SUDO=(sudo)
    else
        echo "ci-browser-deps: chromium is missing and apt-get needs root (no sudo)" >&2
        exit 1
    fi
    echo "ci-browser-deps: installing chromium (apt-get)" >&2
    export DEBIAN_FRONTEND=noninteractive
    "${SUDO[@]}" apt-get update -q >/dev/null
    "${SUDO[@]}" apt-get install -y -q chromium >/dev/null
fi

if ! "$PY" -c "import playwright.sync_api" >/dev/null 2>&1; then
    echo "ci-browser-deps: installing playwright into $PY (pip)" >&2
    "$PY" -m pip install -q playwright
fi

"${LENGEN_CHROMIUM:-$(command -v chromium || echo /usr/bin/chromium)}" --version >&2
"$PY" -c "import importlib.metadata as m; print('playwright', m.version('playwright'))" >&2

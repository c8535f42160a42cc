"""What the two browser tests share: tests/browser (JupyterLab 4) and tests/colab (Colab's widget stack on the
classic Notebook). Both start a notebook server, wait for it, and drive the system's Chromium through Playwright
(never `playwright install`).
"""
from __future__ import annotations

import atexit
import os
import shutil
import subprocess
import time
import urllib.request
from pathlib import Path
from typing import Callable

import pytest

# flags this machine's Chromium needs (no sandbox as root, no GPU, no network beyond localhost);
# Playwright adds --headless and a fresh --user-data-dir itself
CHROMIUM_FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  "--disable-dev-shm-usage"]


def chromium_path() -> str | None:
    """``$LENGEN_CHROMIUM`` if set, else the system's chromium; None when it is not an executable file."""
    override = os.environ.get("LENGEN_CHROMIUM")
    candidates = [override] if override else [shutil.which("chromium"), shutil.which("chromium-browser"),
                                              "/usr/bin/chromium"]
    for candidate in candidates:
        if candidate and os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    return None


_RUNNING: list = []          # (playwright, browser) once started: one per test process


def headless_chromium(missing: Callable[[str], None]):
    """The test process's one Playwright browser on the system Chromium (both suites share it: Playwright's sync
    API allows one running instance per thread); ``missing(reason)`` skips (or, under CI, fails) without one."""
    if _RUNNING:
        return _RUNNING[0][1]
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        missing("Playwright for Python is not installed (bash scripts/ci-browser-deps.sh installs it)")
    exe = chromium_path()
    if exe is None:
        missing("Chromium not found (apt-get install chromium, or set LENGEN_CHROMIUM)")
    pw = sync_playwright().start()
    browser = pw.chromium.launch(executable_path=exe, headless=True, args=CHROMIUM_FLAGS)
    _RUNNING.append((pw, browser))
    atexit.register(_stop)
    return browser


def _stop() -> None:
    for pw, browser in _RUNNING:
        browser.close()
        pw.stop()
    _RUNNING.clear()


def js_display(output_area: str) -> str:
    """JavaScript ``(cell, controls) => text``: what a widget shows without its controls (text, HTML and a hash of
    every image) inside the cell's ``output_area`` (a CSS selector: JupyterLab's and the classic Notebook's differ)."""
    return """(cell, controls) => {
  const area = cell.querySelector('%s') || cell;
  const hash = s => { let h = 0; for (let i = 0; i < s.length; i++) h = (h * 31 + s.charCodeAt(i)) | 0; return h; };
  const clone = area.cloneNode(true);
  clone.querySelectorAll(controls).forEach(e => e.remove());
  const imgs = [...area.querySelectorAll('img')].map(im => `${im.src.length}:${hash(im.src)}`);
  return clone.innerText + '\\n' + imgs.join(' ');
}""" % output_area


def wait_until_serving(proc: subprocess.Popen, url: str, token: str, log_path: Path, name: str,
                       timeout: float) -> None:
    """Wait until the server at ``url`` answers its status API; fail with the end of its log if it exits first or
    does not answer within ``timeout`` seconds."""
    deadline = time.time() + timeout
    while True:
        if proc.poll() is not None:
            pytest.fail(f"{name} exited with {proc.returncode}:\n{log_path.read_text()[-3000:]}")
        try:
            with urllib.request.urlopen(f"{url}/api/status?token={token}", timeout=2) as r:
                if r.status == 200:
                    return
        except OSError:
            pass
        if time.time() > deadline:
            pytest.fail(f"{name} did not answer in {timeout} s:\n{log_path.read_text()[-3000:]}")
        time.sleep(0.3)


def stop(proc: subprocess.Popen) -> None:
    """Terminate a server, and kill it if it does not stop within 15 s."""
    proc.terminate()
    try:
        proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def settled_display(display: Callable[[], str], idle_count: Callable[[], int], before: str, idle0: int,
                    timeout: float, settle: float) -> str:
    """After an action on a widget: poll ``display()`` until the kernel has gone idle (``idle_count()`` above
    ``idle0``) and the display has not changed for ``settle`` seconds, or ``timeout`` passes; the last display."""
    start, idle_seen, last = time.time(), None, before
    while time.time() - start < timeout:
        time.sleep(0.05)
        now = display()
        if now != last:                      # still redrawing: wait until it settles
            last, idle_seen = now, None
            continue
        if idle_seen is None and idle_count() > idle0:
            idle_seen = time.time()
        if idle_seen is not None and time.time() - idle_seen > settle:
            break
    return last


#: how long a widget test waits for the widgets to render after the run ends (a loaded machine renders slowly)
WIDGETS_TIMEOUT_S = 120.0


def poll_until(probe: Callable[[], list], timeout: float = WIDGETS_TIMEOUT_S, interval: float = 0.5) -> list:
    """Call ``probe`` until it returns something non-empty or ``timeout`` seconds pass; return its last result.
    Browser tests wait for a state this way, never for a fixed moment."""
    deadline = time.monotonic() + timeout
    while True:
        found = probe()
        if found or time.monotonic() >= deadline:
            return found
        time.sleep(interval)


"""The course's widgets in a real browser: JupyterLab + headless Chromium, driven by Playwright.

For every notebook that uses a widget: open it in JupyterLab, run all cells (Run menu), wait for
the kernel to go idle, then move each slider, change each dropdown and type an operand (a good one,
then a bad one) into each text box, and check that the widget's display (its HTML, text and plot
images, not the controls themselves) really changes, and that no cell shows a traceback, stderr or
"Error displaying widget". The kernel runs with ``LENGEN_FAST=1`` (see conftest.py).

A control that changes nothing at first is tried again under each option of the widget's dropdowns
(e.g. a frame-width slider only matters for the format that uses frames): it fails only if no
setting makes it change the display.
"""
from __future__ import annotations

import json
import os
import re
import time
from pathlib import Path

import pytest
from chromium_support import WIDGETS_TIMEOUT_S, js_display, poll_until, settled_display


pytestmark = [pytest.mark.browser, pytest.mark.slow]

NOTEBOOKS = Path(os.environ.get("LENGEN_BROWSER_NOTEBOOKS") or Path(__file__).resolve().parents[2] / "notebooks")

RUN_ALL_TIMEOUT_MS = 150_000   # one notebook, all cells, LENGEN_FAST=1 (a few seconds to ~1 min on 2 cores)
CHANGE_TIMEOUT_S = 10.0        # one widget round trip (the kernel redraws a plot)
SETTLE_S = 0.3                 # a kernel that went idle without changing the display has answered
WIDGET_CODE = re.compile(r"ipywidgets|lengen_utils\.course\.widgets|from lengen_utils import [^\n]*\bwidgets\b"
                         r"|\bwidgets\.[A-Z]|\binteract(ive)?\(")

SLIDERS = ".widget-slider, .widget-hslider, .widget-vslider"
DROPDOWNS = ".widget-dropdown"
TEXTS = ".widget-text, .widget-textarea"
CONTROLS = f"{SLIDERS}, {DROPDOWNS}, {TEXTS}, .widget-button, .widget-toggle-button, button, input, select, textarea"


def widget_notebooks() -> list[str]:
    """Notebooks whose code uses ipywidgets or lengen_utils.course.widgets (an unreadable one is included)."""
    found = []
    for path in sorted(NOTEBOOKS.glob("*.ipynb")):
        try:
            cells = json.loads(path.read_text())["cells"]
        except (ValueError, KeyError):
            found.append(path.name)
            continue
        code = "\n".join("".join(c.get("source", "")) for c in cells if c.get("cell_type") == "code")
        if WIDGET_CODE.search(code):
            found.append(path.name)
    return found


NOTEBOOKS_WITH_WIDGETS = widget_notebooks()

# --- JavaScript run in the page (window.jupyterapp exists: the server passes expose_app_in_browser) ---
JS_KERNEL_READY = """(name) => {
  const app = window.jupyterapp; if (!app || !app.shell) return false;
  const panel = app.shell.currentWidget;
  if (!panel || !panel.context || !panel.context.path.endsWith(name)) return false;
  const s = panel.sessionContext && panel.sessionContext.session;
  return !!(s && s.kernel && s.kernel.status === 'idle' && panel.content.widgets.length > 0);
}"""
JS_COUNT_IDLE = """() => {
  const k = window.jupyterapp.shell.currentWidget.sessionContext.session.kernel;
  window.__lengenIdle = 0;
  window.__lengenKernelErrors = [];
  k.statusChanged.connect((_, status) => { if (status === 'idle') window.__lengenIdle += 1; });
  // errors and stderr of widget callbacks go to the log console, not to a cell: collect them here
  k.iopubMessage.connect((_, msg) => {
    const t = msg.header.msg_type, c = msg.content;
    if (t === 'error') window.__lengenKernelErrors.push(`kernel error: ${c.ename}: ${c.evalue}\\n`
                                                        + (c.traceback || []).join('\\n').slice(-1500));
    else if (t === 'stream' && c.name === 'stderr') window.__lengenKernelErrors.push(`kernel stderr: ${c.text.slice(-1500)}`);
  });
}"""
JS_RUN_DONE = """() => {
  const panel = window.jupyterapp.shell.currentWidget;
  const k = panel.sessionContext.session && panel.sessionContext.session.kernel;
  const prompts = [...panel.node.querySelectorAll('.jp-CodeCell .jp-InputPrompt')].map(p => p.textContent);
  return !!k && k.status === 'idle' && !prompts.some(t => t.includes('*')) && prompts.some(t => /\\d/.test(t));
}"""
JS_PROBLEMS = """() => {
  const panel = window.jupyterapp.shell.currentWidget;
  const found = [];
  const cells = [...panel.node.querySelectorAll('.jp-Cell')];
  cells.forEach((cell, i) => {
    cell.querySelectorAll('[data-mime-type="application/vnd.jupyter.error"],'
                          + '[data-mime-type="application/vnd.jupyter.stderr"]').forEach(o =>
      found.push(`cell ${i} ${o.getAttribute('data-mime-type').split('.').pop()}: ${o.innerText.slice(-1500)}`));
    const out = cell.querySelector('.jp-Cell-outputArea');
    const text = out ? out.innerText : '';
    if (text.includes('Error displaying widget')) found.push(`cell ${i}: Error displaying widget`);
    else if (/Traceback \\(most recent call last\\)/.test(text) && !found.some(f => f.startsWith(`cell ${i} `)))
      found.push(`cell ${i} traceback: ${text.slice(-1500)}`);
  });
  (window.__lengenKernelErrors || []).forEach(e => { if (!found.includes(e)) found.push(e.replace(/\\x1b\\[[0-9;]*m/g, '')); });
  return found;
}"""
# what the widget shows, without its controls: text, HTML and a hash of every image
JS_DISPLAY = js_display(".jp-Cell-outputArea")


CONTROL_TARGET_MISSING = "No such comm target registered: jupyter.widget.control"
UNKNOWN_COMM = re.compile(r"^kernel stderr: No such comm: [0-9a-f-]+\s*$")


def without_control_comm_race(found: list[str]) -> list[str]:
    """Drop the kernel's two lines about JupyterLab's widget manager asking for existing widgets
    (the ``jupyter.widget.control`` comm) before the notebook has imported ipywidgets.

    The manager falls back by itself and no widget is affected; seen once in CI, on notebook 08.
    The unknown-comm line is dropped only beside the missing-target line (the same race):
    alone, it may mean a widget lost its kernel side, and stays a failure.
    """
    if not any(CONTROL_TARGET_MISSING in f for f in found):
        return found
    return [f for f in found if CONTROL_TARGET_MISSING not in f and not UNKNOWN_COMM.match(f)]


class Notebook:
    """The notebook open in the shared JupyterLab page, and the helpers that drive its widgets."""

    def __init__(self, page, name: str):
        self.page, self.name = page, name
        self.stale: list[str] = []
        self.timings: dict[str, float] = {}

    def open(self) -> None:
        self.page.evaluate("(path) => window.jupyterapp.commands.execute('docmanager:open', "
                           "{path, factory: 'Notebook'}).then(() => true)", self.name)
        self.page.wait_for_function(JS_KERNEL_READY, arg=self.name, timeout=90_000, polling=250)
        self.page.evaluate(JS_COUNT_IDLE)

    def close(self) -> None:
        """Shut the kernel down and drop the tab without a save dialog (it is a temporary copy)."""
        self.page.evaluate("""async () => {
          const panel = window.jupyterapp.shell.currentWidget;
          if (!panel || !panel.sessionContext) return;
          await panel.sessionContext.shutdown();
          panel.dispose();
        }""")

    def idle_count(self) -> int:
        return self.page.evaluate("() => window.__lengenIdle || 0")

    def run_all(self) -> None:
        page = self.page
        try:
            page.locator(".lm-MenuBar-item", has_text=re.compile(r"^\s*Run\s*$")).first.click(timeout=10_000)
            page.locator(".lm-Menu-item", has_text=re.compile(r"^\s*Run All Cells\s*$")).first.click(timeout=10_000)
        except Exception:  # menu layout changed: the same command, called directly
            page.keyboard.press("Escape")
            page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")
        page.wait_for_function(JS_RUN_DONE, timeout=RUN_ALL_TIMEOUT_MS, polling=250)

    def problems(self) -> list[str]:
        """Tracebacks, stderr and widget errors, in the cells or from widget callbacks (first 3 kinds)."""
        found = without_control_comm_race(list(dict.fromkeys(self.page.evaluate(JS_PROBLEMS))))
        return found[:3] + ([f"... and {len(found) - 3} more"] if len(found) > 3 else [])

    def widget_cells(self):
        cells = self.page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-CodeCell")
        return [c for c in cells.all() if c.locator(".jupyter-widgets").count() > 0
                and c.locator(f"{SLIDERS}, {DROPDOWNS}, {TEXTS}").count() > 0]

    def display(self, cell) -> str:
        return cell.evaluate(JS_DISPLAY, CONTROLS)

    def changed_after(self, cell, action) -> bool | None:
        """Do ``action`` and wait for the kernel's answer: True when the widget's display changed,
        False when it did not, None when the action did not move the control (nothing to wait for).

        With a plot in the display, the plot image must change too (a stale figure is a failure).
        """
        before, idle0 = self.display(cell), self.idle_count()
        if action() is False:
            return None
        last = settled_display(lambda: self.display(cell), self.idle_count, before, idle0, CHANGE_TIMEOUT_S, SETTLE_S)
        if last == before:
            return False
        img_before, img_after = before.rsplit("\n", 1)[-1], last.rsplit("\n", 1)[-1]
        if img_before.strip() and img_after == img_before:
            self.stale.append("the text changed but the plot stayed the same")
            return False
        return True

    def exercise(self, cell, actions, tries: int) -> bool:
        """Try ``actions`` until one changes the display; at most ``tries`` that really move the control."""
        for act in actions:
            result = self.changed_after(cell, act)
            if result:
                return True
            if result is False:
                tries -= 1
                if tries == 0:
                    return False
        return False

    # the ways to move each kind of control; an action returns False when the control did not move
    def slider_actions(self, ctrl):
        handle, readout = ctrl.locator(".noUi-handle").first, ctrl.locator(".widget-readout").first

        def value():
            return readout.inner_text() if readout.count() else handle.get_attribute("aria-valuenow")

        def press(key):
            def act():
                before = value()
                handle.focus()
                handle.press(key)
                return value() != before
            return act
        return [press("ArrowRight"), press("ArrowLeft"), press("ArrowLeft"), press("ArrowRight")]

    def dropdown_actions(self, ctrl):
        select = ctrl.locator("select").first
        n = select.locator("option").count()
        current = select.evaluate("s => s.selectedIndex")

        def choose(i):
            return lambda: select.select_option(index=i) and None
        return [choose(i) for i in range(n) if i != current]

    def text_actions(self, ctrl):
        box = ctrl.locator("input, textarea").first
        current = box.input_value()

        def type_(value):
            def act():
                box.fill(value)
                box.press("Enter")
            return act
        return [type_(v) for v in ("7318", "2046", current + "9") if v != current]

    def label(self, ctrl) -> str:
        labels = ctrl.locator(".widget-label")
        text = labels.first.inner_text().strip() if labels.count() else ""
        return text or (ctrl.get_attribute("class") or "control").split()[0]

    def check_controls(self, cell) -> tuple[int, list[str]]:
        """Move every control of one widget; returns (number of controls, failures)."""
        failures, n = [], 0
        dropdowns = cell.locator(DROPDOWNS).all()
        for selector, actions in ((SLIDERS, self.slider_actions), (DROPDOWNS, self.dropdown_actions),
                                  (TEXTS, self.text_actions)):
            for ctrl in cell.locator(selector).all():
                n += 1
                if self.exercise(cell, actions(ctrl), tries=2):
                    continue
                # it may matter only under another setting of a dropdown (a frame width only for the
                # format with frames): try once under each option of each other dropdown
                ok = False
                for dd in dropdowns:
                    if dd == ctrl:
                        continue
                    for choose in self.dropdown_actions(dd):
                        self.changed_after(cell, choose)
                        if self.exercise(cell, actions(ctrl), tries=1):
                            ok = True
                            break
                    if ok:
                        break
                if not ok:
                    failures.append(f"{self.name}: changing '{self.label(ctrl)}' never changes the widget's display"
                                    + "".join(f" ({note})" for note in sorted(set(self.stale))))
        # a bad operand gives a message in the widget, not a traceback
        for ctrl in cell.locator(TEXTS).all():
            box = ctrl.locator("input, textarea").first
            good = box.input_value()
            if not re.fullmatch(r"\d+", good):
                continue
            if not self.changed_after(cell, lambda: (box.fill("12a"), box.press("Enter")) and None):
                failures.append(f"{self.name}: the bad operand '12a' in '{self.label(ctrl)}' shows nothing")
            problems = self.problems()
            if problems:
                failures.append(f"{self.name}: bad operand '12a' in '{self.label(ctrl)}':\n" + "\n".join(problems))
            self.changed_after(cell, lambda: (box.fill(good), box.press("Enter")) and None)
        return n, failures


@pytest.fixture(scope="module")
def lab_page(browser, lab_server):
    """One JupyterLab page for all notebooks (loading the front end once saves ~10 s a notebook)."""
    url, token, _root = lab_server
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    page.lengen_errors = []
    page.on("pageerror", lambda err: page.lengen_errors.append(str(err)))
    page.goto(f"{url}/lab?reset&token={token}", wait_until="domcontentloaded")
    page.wait_for_function("() => window.jupyterapp && window.jupyterapp.shell", timeout=90_000, polling=250)
    page.evaluate("() => window.jupyterapp.restored")
    yield page
    context.close()


@pytest.mark.parametrize("name", NOTEBOOKS_WITH_WIDGETS)
def test_widgets_in_browser(name: str, lab_page, shots_dir: Path):
    page = lab_page
    page.lengen_errors.clear()
    nb = Notebook(page, name)
    t0 = time.time()
    try:
        nb.open()
        nb.timings["open"] = time.time() - t0
        t0 = time.time()
        nb.run_all()
        nb.timings["run all cells"] = time.time() - t0
        problems = nb.problems()
        assert not problems, f"{name}: after Run All Cells:\n" + "\n".join(problems)

        t0 = time.time()
        cells = poll_until(nb.widget_cells)
        assert cells, (f"{name}: uses widgets but no widget with a slider, dropdown or text box rendered within "
                       f"{WIDGETS_TIMEOUT_S:.0f} s of the run's end")
        n_controls, failures = 0, []
        for cell in cells:
            cell.scroll_into_view_if_needed()
            n, fails = nb.check_controls(cell)
            n_controls, failures = n_controls + n, failures + fails
        nb.timings[f"{n_controls} controls"] = time.time() - t0
        print(f"{name}: " + ", ".join(f"{k} {v:.1f} s" for k, v in nb.timings.items()))
        problems = nb.problems()
        assert not problems, f"{name}: after moving the widgets:\n" + "\n".join(problems)
        assert not failures, "\n".join(failures)
        for i, cell in enumerate(cells):
            cell.screenshot(path=str(shots_dir / f"{Path(name).stem}-widget{i}.png"))
    except BaseException:
        page.screenshot(path=str(shots_dir / f"{Path(name).stem}-FAILED.png"))
        if page.lengen_errors:
            print(f"{name}: errors in the page:\n" + "\n".join(page.lengen_errors[-10:]))
        raise
    finally:
        try:
            nb.close()
        except Exception:
            pass


def test_some_notebook_has_widgets():
    assert NOTEBOOKS_WITH_WIDGETS, f"no notebook in {NOTEBOOKS} uses a widget: the browser test tests nothing"


def test_only_the_control_comm_race_is_forgiven():
    race = ["kernel stderr: No such comm: 88b1e264-2df0-45d9-ae36-172c72affdfc\n",
            "kernel stderr: No such comm target registered: jupyter.widget.control\n"]
    assert without_control_comm_race(race) == []
    real = "cell 4 error: ValueError: operand '12a' is not a number"
    assert without_control_comm_race(race + [real]) == [real]
    assert without_control_comm_race(race[:1]) == race[:1]  # an unknown comm alone stays a failure

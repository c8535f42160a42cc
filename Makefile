# The README's quick start: `make course` (install + open the course) and `make test` (install + all tests).
# scripts/install.sh installs into the active virtual environment, or creates .venv/ with $(PYTHON)
# (PEP 668 forbids pip into a system Python); it prints that environment's python as its last line.
PYTHON ?= python3
INSTALL = PYTHON=$(PYTHON) bash scripts/install.sh | tail -n 1

.PHONY: install course test test-fast flagship
install:
	@$(INSTALL)

# (as root, in a container, JupyterLab needs --allow-root)
course:
	PY=$$($(INSTALL)) && "$$PY" -m jupyter lab notebooks/ $$([ "$$(id -u)" = 0 ] && echo --allow-root)

# unit tests and every notebook (nbval); notebooks are committed without outputs, so nbval checks
# that each cell runs, and the asserts inside the notebooks check the results
test:
	PY=$$($(INSTALL)) && "$$PY" -m pytest tests notebooks --nbval --nbval-current-env -q

# the unit tests without the slow ones (marked @pytest.mark.slow) and without the notebooks
test-fast:
	PY=$$($(INSTALL)) && "$$PY" -m pytest tests -q -m "not slow"

flagship:
	PY=$$($(INSTALL)) && "$$PY" -m lengen_utils.lab.bench flagship

# The README's quick start: `make course` (install + open the course) and `make test` (install + all tests).
# scripts/install.sh installs into the active virtual environment, or creates .venv/ with $(PYTHON)
# (PEP 668 forbids pip into a system Python); it prints that environment's python as its last line.
PYTHON ?= python3
INSTALL = PYTHON=$(PYTHON) bash scripts/install.sh | tail -n 1

.PHONY: install course test test-fast outputs book flagship
install:
	@$(INSTALL)

# (as root, in a container, JupyterLab needs --allow-root)
course:
	PY=$$($(INSTALL)) && "$$PY" -m jupyter lab notebooks/ $$([ "$$(id -u)" = 0 ] && echo --allow-root)

# unit tests and every notebook (nbval): notebooks are committed executed (`make outputs`), so nbval runs each
# cell and compares its fresh outputs with the committed ones, after tests/nbval_sanitize.cfg masks what
# legitimately varies (live timings, the machine's torch and threads); the asserts inside the notebooks check the
# claims. The cells whose outputs are not compared are listed, with the reason, in tests/test_notebook_policy.py.
# (The two flags after --nbval are the defaults that the root conftest.py sets; they are spelled out here.)
NBVAL = --nbval --nbval-current-env --nbval-sanitize-with tests/nbval_sanitize.cfg
test:
	PY=$$($(INSTALL)) && "$$PY" -m pytest tests notebooks $(NBVAL) -q

# the unit tests without the slow ones (marked @pytest.mark.slow) and without the notebooks
test-fast:
	PY=$$($(INSTALL)) && "$$PY" -m pytest tests -q -m "not slow"

# execute the notebooks in place and save their outputs as committed: full mode, CPU, one thread, fixed seeds;
# NB=05 (or NB="03 05") re-executes only those. Prints each notebook's run time and the total
outputs:
	PY=$$($(INSTALL)) && "$$PY" scripts/outputs.py $(NB)

# the course as a static site (build/book/index.html) from the committed notebooks, not re-executed;
# BOOK_NOTEBOOKS=/other/folder renders another folder's notebooks; prints the build time and the site's size.
# The builder has its own environment, build/book-venv, with only the extra `book` (Sphinx, MyST-NB, the theme,
# MathJax): neither torch nor the package, which the book does not import
BOOK_PY = build/book-venv/bin/python
book:
	@[ -x $(BOOK_PY) ] || $(PYTHON) -m venv build/book-venv
	$(BOOK_PY) -m pip install -q $$($(PYTHON) scripts/book.py --requirements)
	$(BOOK_PY) scripts/book.py $(if $(BOOK_NOTEBOOKS),--notebooks $(BOOK_NOTEBOOKS))

flagship:
	PY=$$($(INSTALL)) && "$$PY" -m lengen_utils.lab.bench flagship

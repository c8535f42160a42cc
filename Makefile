# The README's quick start: `make course` (install + open the course) and `make test` (install + all tests).
PYTHON ?= python3

.PHONY: install course test test-fast flagship zoo
install:
	PYTHON=$(PYTHON) bash scripts/install.sh

course: install
	$(PYTHON) -m jupyter lab notebooks/

# unit tests and every notebook (nbval); notebooks are committed without outputs, so nbval checks
# that each cell runs, and the asserts inside the notebooks check the results
test: install
	$(PYTHON) -m pytest tests notebooks --nbval --nbval-current-env -q

flagship: install
	$(PYTHON) -m lengen_utils.bench flagship

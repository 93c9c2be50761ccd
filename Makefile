# simlab — the two commands a newcomer needs, on a machine with only Python 3.11+:
#   make demo   set up .venv with simlab alone, run scenarios/quickstart.toml into results/quickstart, write its report
#   make test   set up .venv with the test extras too, (install chromium if missing,) run ruff and the whole test suite
#   make notebooks  add Jupyter to .venv (the `notebook` extra) and open notebooks/ in it
# Each target installs what it needs: the demo `.` (no test, dask or ray extras), the tests `.[test]` (pytest, ruff,
# the cluster backends, the notebook runners); `make test` after `make demo` adds the extras. The environment is
# (re)installed when pyproject.toml changes. PYTHON=python3.12 make ... picks another Python.

PYTHON     ?= python3
VENV       ?= .venv
BIN        := $(VENV)/bin
# simlab and its runtime dependencies (pip install -e .)
STAMP      := $(VENV)/.simlab-installed
# and the test extra (pip install -e '.[test]'); it implies STAMP
TEST_STAMP := $(VENV)/.simlab-test-installed
# and the notebook extra (pip install -e '.[notebook]': Jupyter); it implies STAMP
NB_STAMP   := $(VENV)/.simlab-notebook-installed
# `make notebooks JUPYTER_ARGS=--no-browser` on a machine without a browser (then open the URL it prints)
JUPYTER_ARGS ?=

.PHONY: demo example-report test env test-env notebooks notebook-env lint browser warm help

help:
	@echo "make demo      run a small Massilia experiment into results/quickstart, and its report (installs simlab only)"
	@echo "make test      ruff check, ruff format --check and the whole pytest suite (installs the test extras)"
	@echo "make notebooks add Jupyter to $(VENV) and open the notebooks (notebooks/*.ipynb) in it"
	@echo "make example-report  regenerate reports/example_quickstart.html (the demo's run, priced by a money sweep)"
	@echo "make warm      compile every game's engines now (numba caches them; every core, a few minutes once)"
	@echo "make env       only create/update $(VENV) with simlab"
	@echo "make test-env  only create/update $(VENV) with simlab and its test extras"

env: $(STAMP)

test-env: $(TEST_STAMP)

define make_venv
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "simlab needs Python 3.11 or newer; found " + sys.version.split()[0] + " (try: make PYTHON=python3.11 ...)")'
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
endef

$(STAMP): pyproject.toml
	$(make_venv)
	$(BIN)/python -m pip install --quiet -e .
	@touch $(STAMP)

# the test extra includes everything the demo needs: both stamps are fresh afterwards
$(TEST_STAMP): pyproject.toml
	$(make_venv)
	$(BIN)/python -m pip install --quiet -e '.[test]'
	@touch $(STAMP) $(TEST_STAMP)

# the notebook extra includes everything the demo needs: both stamps are fresh afterwards
$(NB_STAMP): pyproject.toml
	$(make_venv)
	$(BIN)/python -m pip install --quiet -e '.[notebook]'
	@touch $(STAMP) $(NB_STAMP)

notebook-env: $(NB_STAMP)

notebooks: notebook-env
	@echo "notebooks:" && ls notebooks/*.ipynb
	$(BIN)/jupyter notebook $(JUPYTER_ARGS) notebooks

demo: env
	$(BIN)/simlab run scenarios/quickstart.toml --out results/quickstart --resume
	$(BIN)/simlab report results/quickstart --out reports/quickstart.html

# the example report committed in reports/: the demo's run, its seats priced in sesterces by a starting-money sweep
# of 10,000 games per variant (a few minutes on 2 cores). Regenerate it whenever the report changes: the test
# tests/report/test_example_report.py fails while its sections differ from the report simlab writes today
example-report: env
	$(BIN)/simlab run scenarios/quickstart.toml --out results/quickstart --resume
	$(BIN)/simlab run scenarios/starting_money_sweep.toml --out results/starting_money_sweep_10k --resume --games 10000
	$(BIN)/simlab report results/quickstart --out reports/example_quickstart.html --sweep results/starting_money_sweep_10k

# compile every game's engines (play, batch loop, search) into numba's cache, one process per core, before
# the suite: its workers then load them instead of compiling the same engine twice at once (seconds when cached)
warm: env
	$(BIN)/python -m simlab.core.warmup --all

# the report's browser tests load it in Debian's chromium: installed here when missing (needs root and apt;
# otherwise the script says why and those tests skip)
browser:
	@sh .ci/install-chromium

lint: test-env
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

# pytest's own exit codes pass through: "no tests collected" (5) fails the target too. The suite runs on every
# core (pytest-xdist; tests are handed out one by one, so a slow file does not hold one worker); PYTEST_ARGS adds
# options, e.g. PYTEST_ARGS="-n 0" for one process or PYTEST_ARGS=tests/core for a part
PYTEST_ARGS ?=
test: test-env lint browser
	$(BIN)/python -m simlab.core.warmup --all
	$(BIN)/pytest -n auto --dist worksteal $(PYTEST_ARGS)

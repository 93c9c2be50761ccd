# simlab — the two commands a newcomer needs, on a machine with only Python 3.11+:
#   make demo   set up .venv, run scenarios/quickstart.toml into results/quickstart, write its HTML report
#   make test   set up .venv, (install chromium if missing,) run ruff (lint and format check) and the whole test suite
# The environment is (re)installed when pyproject.toml changes. PYTHON=python3.12 make ... picks another Python.

PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.simlab-installed

.PHONY: demo test env lint browser help

help:
	@echo "make demo   run a small Massilia experiment (about a minute) into results/quickstart, and its report"
	@echo "make test   ruff check, ruff format --check and the whole pytest suite"
	@echo "make env    only create/update $(VENV)"

env: $(STAMP)

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "simlab needs Python 3.11 or newer; found " + sys.version.split()[0] + " (try: make PYTHON=python3.11 ...)")'
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet -e '.[test]'
	@touch $(STAMP)

demo: env
	$(BIN)/simlab run scenarios/quickstart.toml --out results/quickstart --resume
	$(BIN)/simlab report results/quickstart --out reports/quickstart.html

# the report's browser tests load it in Debian's chromium: installed here when missing (needs root and apt;
# otherwise the script says why and those tests skip)
browser:
	@sh .ci/install-chromium

lint: env
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

# pytest's own exit codes pass through: "no tests collected" (5) fails the target too
test: lint browser
	$(BIN)/pytest

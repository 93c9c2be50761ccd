# simlab — the two commands a newcomer needs, on a machine with only Python 3.11+:
#   make demo   set up .venv, run scenarios/quickstart.toml into results/quickstart
#   make test   set up .venv, run ruff and the whole test suite
# The environment is (re)installed when pyproject.toml changes. PYTHON=python3.12 make ... picks another Python.

PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.simlab-installed

.PHONY: demo test env lint help

help:
	@echo "make demo   run a small Massilia experiment (about a minute) into results/quickstart"
	@echo "make test   ruff check + the whole pytest suite"
	@echo "make env    only create/update $(VENV)"

env: $(STAMP)

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "simlab needs Python 3.11 or newer; found " + sys.version.split()[0] + " (try: make PYTHON=python3.11 ...)")'
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet -e '.[test]'
	@touch $(STAMP)

demo: env
	$(BIN)/simlab run scenarios/quickstart.toml --out results/quickstart --resume

lint: env
	$(BIN)/ruff check .

# pytest's own exit codes pass through: "no tests collected" (5) fails the target too
test: lint
	$(BIN)/pytest

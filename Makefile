# Starbase: `make run` starts everything, `make test` runs the whole suite.
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: install run check test test-unit test-integration bench chaos clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[local,test]'
	touch $(STAMP)

install: $(STAMP)

# CLUSTER=3: NATS as a 3-node JetStream cluster, streams replicated on all three (starbase_core.cluster).
run: $(STAMP)
	CLUSTER=$(CLUSTER) $(PY) -m starbase_cli.run

# Package boundaries (.importlinter) and types (pyproject's [tool.mypy]) before the tests.
check: $(STAMP)
	$(VENV)/bin/lint-imports
	$(VENV)/bin/mypy

test: check
	$(PY) -m pytest -q

test-unit: $(STAMP)
	$(PY) -m pytest -q -m "not integration"

test-integration: $(STAMP)
	$(PY) -m pytest -q -m integration

bench: $(STAMP)
	$(PY) -m starbase_cli.bench

# Every fault trial against the stack as separate processes, then the table (docs/chaos.md); ~10 min.
chaos: $(STAMP)
	$(PY) -m starbase_chaos

clean:
	rm -rf $(VENV) .run .chaos .pytest_cache

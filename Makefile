# Starbase: `make run` starts everything, `make test` runs the whole suite.
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
# The web client (services/web): npm ci when its lock changes, a build when its sources change.
WEB       := services/web
WEB_DEPS  := $(WEB)/node_modules/.installed
WEB_BUILD := $(WEB)/dist/index.html

.PHONY: install run check test test-unit test-integration bench chaos clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[local,test]'
	touch $(STAMP)

$(WEB_DEPS): $(WEB)/package.json $(WEB)/package-lock.json
	cd $(WEB) && npm ci --no-audit --no-fund
	touch $(WEB_DEPS)

$(WEB_BUILD): $(WEB_DEPS) $(shell find $(WEB)/src $(WEB)/scripts -type f 2>/dev/null) $(WEB)/index.html $(WEB)/vite.config.ts $(WEB)/tsconfig.json
	cd $(WEB) && npm run build

install: $(STAMP) $(WEB_BUILD)

# CLUSTER=3: NATS as a 3-node JetStream cluster, streams replicated on all three (starbase_core.cluster).
# The open-file limit as high as this shell may set it, for every child (a WebSocket is a descriptor;
# the lobby raises its own soft limit again at start).
run: install
	ulimit -n "$$(ulimit -Hn)" 2>/dev/null || true; CLUSTER=$(CLUSTER) $(PY) -m starbase_cli.run

# Package boundaries (.importlinter) and types (pyproject's [tool.mypy]) before the tests.
check: $(STAMP)
	$(VENV)/bin/lint-imports
	$(VENV)/bin/mypy

# The suite in parallel worker processes (pytest-xdist; each starts its own NATS and Redis on first use):
# most tests wait on servers, sockets and browsers, so even 2 cores run it in about half the time.
# TEST_WORKERS=0 runs it in this process alone.
TEST_WORKERS ?= auto
test: check $(WEB_BUILD)
	$(PY) -m pytest -q -n $(TEST_WORKERS)

test-unit: $(STAMP)
	$(PY) -m pytest -q -n $(TEST_WORKERS) -m "not integration"

test-integration: $(STAMP)
	$(PY) -m pytest -q -n $(TEST_WORKERS) -m integration

bench: $(STAMP) $(WEB_BUILD)
	$(PY) -m starbase_cli.bench

# Every fault trial against the stack as separate processes, then the table (docs/chaos.md); ~10 min.
chaos: $(STAMP)
	$(PY) -m starbase_chaos

clean:
	rm -rf $(VENV) .run .chaos .pytest_cache $(WEB)/node_modules $(WEB)/dist

# Quick start: `make play` and `make test` build .venv from pyproject.toml on a
# machine with only Python 3.11+, and rebuild it whenever pyproject.toml changes.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp

.PHONY: play test soak bench schemas clean

$(STAMP): pyproject.toml
	rm -rf $(VENV)
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[test,bots]'
	touch $(STAMP)

play: $(STAMP)
	$(BIN)/mbrules play

test: $(STAMP)
	$(BIN)/python -m pytest -q

soak: $(STAMP)
	$(BIN)/python benchmarks/soak.py

bench: $(STAMP)
	$(BIN)/python benchmarks/bench_engine.py

schemas: $(STAMP)
	$(BIN)/mbrules schema ruleset > schemas/ruleset.schema.json
	$(BIN)/mbrules schema scenario > schemas/scenario.schema.json

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis build *.egg-info

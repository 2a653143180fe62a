# Quick start: `make play` and `make test` build .venv from pyproject.toml on a
# machine with only Python 3.11+, and rebuild it whenever pyproject.toml changes.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp

.PHONY: play human test soak bench schemas clean

$(STAMP): pyproject.toml
	rm -rf $(VENV)
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[test,human,plots,rl,cluster,bots]'
	touch $(STAMP)

play: $(STAMP)
	$(BIN)/mbrules play

human: $(STAMP)  # you play p1 (Winning Moves, 4 players) in the terminal: docs/play.md
	$(BIN)/mbrules play --human p1

test: $(STAMP)
	$(BIN)/python -m pytest -q

soak: $(STAMP)
	$(BIN)/python benchmarks/soak.py

bench: $(STAMP)
	$(BIN)/python benchmarks/bench_engine.py

schemas: $(STAMP)
	$(BIN)/mbrules schema ruleset > schemas/ruleset.schema.json
	$(BIN)/mbrules schema scenario > schemas/scenario.schema.json
	$(BIN)/python -m mbrules.ruleset.reference > docs/ruleset-reference.md

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis build *.egg-info

# Quick start: `make play` and `make test` build .venv from pyproject.toml on a
# machine with only Python 3.11+, and rebuild it whenever pyproject.toml changes.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp

.PHONY: play human test soak bench schemas models clean

$(STAMP): pyproject.toml
	rm -rf $(VENV)
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[test,human,plots,rl,cluster,bots,learn]'
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

# the learned bot's shipped value models (mbrules/bots/models/): retrained reproducibly (same seed, same files)
MODEL_GAMES ?= 1000
models: $(STAMP)
	for r in winning-moves; do for n in 2 3 4 6; do \
	  $(BIN)/mbrules train $$r -p $$n --games $(MODEL_GAMES) --seed 0 --out mbrules/bots/models/$$r-$${n}p.json || exit 1; \
	done; done

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis build *.egg-info

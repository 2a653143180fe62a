# Quick start: `make play` and `make test` on a machine with only Python 3.11+.
# `make play` builds a light .venv-play (the core and the terminal seat only); `make test` builds .venv
# with every optional extra; `make test-core` builds .venv-core with the core and the test tools only.
# Each is rebuilt whenever pyproject.toml changes.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp
PLAY_VENV  := .venv-play
PLAY_BIN   := $(PLAY_VENV)/bin
PLAY_STAMP := $(PLAY_VENV)/.installed-stamp
CORE_VENV  := .venv-core
CORE_BIN   := $(CORE_VENV)/bin
CORE_STAMP := $(CORE_VENV)/.installed-stamp
PIP_FLAGS  := --quiet --disable-pip-version-check
# a venv is rebuilt by deleting it: only one inside this checkout (VENV=/elsewhere on the command line would delete
# a directory this Makefile did not make). Usage: $(call inside,DIR)
inside = case "$(abspath $(1))" in "$(CURDIR)"/?*) ;; *) echo "make: $(1) is outside this checkout: make deletes (to rebuild or clean) only the venvs it makes inside it; build that one yourself, or use the default" >&2; exit 2;; esac

# Python caches compiled modules, and pytest the test modules it rewrites for its assertion messages, in __pycache__
# (ignored by git). An environment that turns the caches off (PYTHONDONTWRITEBYTECODE) made every pytest process
# rewrite all ~310 test modules again: 7 CPU-s a process, twice under -n 2 (docs/performance.md). The targets keep them.
unexport PYTHONDONTWRITEBYTECODE

.PHONY: play human check test test-fast test-core compiled test-compiled wheel wheel-compiled ci soak soak-bots bench schemas models clean

$(STAMP): pyproject.toml
	@$(call inside,$(VENV))
	rm -rf $(VENV)
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install $(PIP_FLAGS) -e '.[test,human,plots,rl,cluster,bots,learn,web]'
	touch $(STAMP)

$(PLAY_STAMP): pyproject.toml
	@$(call inside,$(PLAY_VENV))
	rm -rf $(PLAY_VENV)
	$(PYTHON) -m venv $(PLAY_VENV)
	$(PLAY_BIN)/python -m pip install $(PIP_FLAGS) -e '.[human]'
	touch $(PLAY_STAMP)

$(CORE_STAMP): pyproject.toml
	@$(call inside,$(CORE_VENV))
	rm -rf $(CORE_VENV)
	$(PYTHON) -m venv $(CORE_VENV)
	$(CORE_BIN)/python -m pip install $(PIP_FLAGS) -e '.[test]'
	touch $(CORE_STAMP)

play: $(PLAY_STAMP)
	$(PLAY_BIN)/mbrules play

human: $(PLAY_STAMP)  # you play p1 (Winning Moves, 4 players) in the terminal: docs/play.md
	$(PLAY_BIN)/mbrules play --human p1

# the static gate (CI runs it before the tests): ruff's defect rules, ruff's one layout and mypy, as pyproject configures them
# (--strict flags on the public API's modules listed there; the other modules' remaining codes listed too)
check: $(STAMP)
	$(BIN)/python -m ruff check --no-cache .
	$(BIN)/python -m ruff format --no-cache --check .
	$(BIN)/python -m mypy

# make test's pytest-xdist processes. A third on two cores would fill the time a worker waits on a browser, a
# terminal, a Ray node or a probe's timeout, about 160 s of the suite (docs/performance.md, issue 46 point 7):
# `make test TEST_WORKERS=3` measures it; the default stays two (on a machine at load 6 a third starved a browser
# test's waits into a timeout)
TEST_WORKERS ?= 2

test: $(STAMP)  # every test, the slow ones included (CI runs this), on two processes (pytest-xdist; Ray's tests on one)
	$(BIN)/python -m pytest -q -n $(TEST_WORKERS) --dist loadgroup

test-fast: $(STAMP)  # one check of each mechanism, option and edition (the slow set: the sweeps; tests/conftest.py): about 2.9 CPU-minutes (159.4 to 177.8 CPU-s user + sys in four runs on 2026-11-29 at 20:55-21:57 alone on the machine; 187.5 at the evening stop; no compiled build; docs/performance.md, "The whole suite at the stop of 2026-11-29 night")
	$(BIN)/python -m pytest -q -m "not slow"

# the fast suite with none of the optional extras (the test tools pull in textual, the human extra's):
# a test of an extra skips when it is missing, as promised; CI runs it after `make test`
test-core: $(CORE_STAMP)
	$(CORE_BIN)/python -m pytest -q -m "not slow" -n 2 --dist loadgroup

# the optional compiled engine: the same source compiled by mypyc into build/compiled (never next to a .py);
# a process runs it only with MBRULES_COMPILED=1, and only while no source has changed since (docs/performance.md)
compiled: $(STAMP)  # needs a C compiler and Python's headers; setuptools (no longer in a new venv from 3.12) if missing
	$(BIN)/python -c "import setuptools" 2>/dev/null || $(BIN)/python -m pip install $(PIP_FLAGS) setuptools
	$(BIN)/python -m mbrules._compiled build

# the engine, conformance and differential suites in the compiled engine (CI); MBRULES_COMPILED=require
# fails rather than falls back to the pure engine
COMPILED_TESTS := tests/test_compiled_engine.py tests/test_conformance.py tests/test_engine_legality.py tests/test_engine_shuffle.py \
	tests/test_engine_actions.py tests/test_engine_rooms.py tests/api tests/rl \
	tests/properties/test_soak_slice.py::test_an_engine_crash_is_caught_and_written_with_the_crashing_step
test-compiled: compiled
	MBRULES_COMPILED=require $(BIN)/python -m pytest -q -m "not slow" -n 2 --dist loadgroup $(COMPILED_TESTS)

# the wheels, into dist/ (docs/performance.md): the pure one (py3-none-any), built by pip from this checkout
# (setuptools' stale build/lib cleared first); the compiled one (tagged for this Python and platform), the pure
# one's files plus the build's extensions and manifest in mbrules/_native/: installed, MBRULES_COMPILED=1 runs them
wheel: $(STAMP)
	rm -rf build/lib build/bdist.* dist/mbrules-*-py3-none-any.whl
	$(BIN)/python -m pip wheel $(PIP_FLAGS) --no-deps -w dist .

wheel-compiled: wheel compiled
	$(BIN)/python -m mbrules._compiled wheel dist

ci: check test test-core test-compiled  # what CI runs (.ci/run)

soak: $(STAMP)
	$(BIN)/python benchmarks/soak.py

soak-bots: $(STAMP)
	$(BIN)/python benchmarks/soak.py --every-bot

bench: $(STAMP)
	$(BIN)/python benchmarks/bench_engine.py

schemas: $(STAMP)
	$(BIN)/mbrules schema ruleset > schemas/ruleset.schema.json
	$(BIN)/mbrules schema scenario > schemas/scenario.schema.json
	$(BIN)/python -m mbrules.ruleset.reference > docs/ruleset-reference.md

# the learned bot's shipped value models (mbrules/bots/models/): retrained reproducibly (same seed, same files)
# (winning-moves from 1,000 self-play matches; the other editions from 300, as a model trained on first use)
MODEL_GAMES ?= 1000
OTHER_MODEL_GAMES ?= 300
models: $(STAMP)
	for n in 2 3 4 6; do \
	  $(BIN)/mbrules train winning-moves -p $$n --games $(MODEL_GAMES) --seed 0 --max-positions 2000000 --out mbrules/bots/models/winning-moves-$${n}p.json || exit 1; \
	  for r in parker-1971 kids-115 wikipedia dujardin-classic asmodee-2014 playaural sisyphus-bbs bsd-mille; do \
	    $(BIN)/mbrules train $$r -p $$n --games $(OTHER_MODEL_GAMES) --seed 0 --out mbrules/bots/models/$$r-$${n}p.json || exit 1; \
	  done; \
	done
	for n in 5 7 8 9; do \
	  $(BIN)/mbrules train playaural -p $$n --games $(OTHER_MODEL_GAMES) --seed 0 --out mbrules/bots/models/playaural-$${n}p.json || exit 1; \
	done
	for n in 2 3 4; do \
	  $(BIN)/mbrules train express -p $$n --games $(OTHER_MODEL_GAMES) --seed 0 --out mbrules/bots/models/express-$${n}p.json || exit 1; \
	done

clean:
	@$(call inside,$(VENV)); $(call inside,$(PLAY_VENV)); $(call inside,$(CORE_VENV))
	rm -rf $(VENV) $(PLAY_VENV) $(CORE_VENV) .pytest_cache .hypothesis .mypy_cache .ruff_cache build dist *.egg-info

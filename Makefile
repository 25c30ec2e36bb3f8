# Two commands do all the set-up: `make run` and `make test` (see README.md).
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# Browser tests drive Debian's chromium headless shell (Playwright's own browser download
# cannot work here): the browser without a window, at half the full browser's CPU.
CHROMIUM := /usr/bin/chromium-headless-shell
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
# Database tests start a throw-away PostgreSQL cluster with Debian's postgresql (initdb and
# pg_ctl live in /usr/lib/postgresql/*/bin, off the PATH).
INITDB = $(firstword $(wildcard /usr/lib/postgresql/*/bin/initdb))

.PHONY: run play test suite test-pure lint typecheck pytest bench golden clean postgresql messages screenshots

# The install compiles the modules listed in src/mathable/compiled.py with mypyc (setup.py;
# pure Python if that fails): an edit to them installs again, so the build is never stale.
COMPILED_SOURCES := setup.py src/mathable/compiled.py $(wildcard src/mathable/games/board/*.py src/mathable/ai/*.py)

# The translations (issue 17): gettext catalogs, one per language, compiled at install.
LOCALE := src/mathable/locale

$(STAMP): pyproject.toml $(COMPILED_SOURCES) $(wildcard $(LOCALE)/*/LC_MESSAGES/mathable.po)
	@command -v $(PYTHON) >/dev/null 2>&1 || { echo "Python 3.11 is needed ($(PYTHON) not found)"; exit 1; }
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[dev,rl]"
	$(BIN)/python -m mathable.i18n.messages --compile
	@$(BIN)/python -W ignore -c "$$COMPILED_OR_NOT"
	touch $(STAMP)

# pip hides what setup.py prints: say here whether the install compiled (issue 31).
define COMPILED_OR_NOT
import importlib.machinery, importlib.util, pathlib
from mathable.compiled import COMPILED_MODULES as listed
def built(name):
    base = pathlib.Path(importlib.util.find_spec(name).origin).with_suffix('')
    return any(pathlib.Path(f'{base}{s}').exists() for s in importlib.machinery.EXTENSION_SUFFIXES)
print(f'mathable: {len(listed)} modules compiled with mypyc' if all(map(built, listed)) else
      'mathable: NOT compiled, the pure-Python modules are used (about half as fast);'
      ' `.venv/bin/pip install -v -e .` says why')
# Each build names its shared library after the modules compiled: keep only this one's.
if all(map(built, listed)):
    shared = sorted(pathlib.Path('src').glob('*__mypyc.*'), key=lambda p: p.stat().st_mtime)
    for stale in shared[:-1]:
        stale.unlink()
endef
export COMPILED_OR_NOT

TMUX := /usr/bin/tmux

# The terminal game's keyboard test drives a real terminal (issue 33).
$(TMUX):
	@echo "Installing Debian's tmux for the terminal test"
	$(SUDO) apt-get update -qq
	$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq tmux

$(CHROMIUM):
	@echo "Installing Debian's chromium-headless-shell for the browser tests"
	$(SUDO) apt-get update -qq
	$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium-headless-shell

postgresql:
	@if [ -z "$(INITDB)" ]; then \
		echo "Installing Debian's postgresql for the database tests"; \
		$(SUDO) apt-get update -qq && \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql; \
	fi

run: $(STAMP)
	$(BIN)/mathable serve

play: $(STAMP)
	$(BIN)/mathable play

# mypy runs beside the suite (its ~20 s on one core, where the suite leaves the cores idle
# part of the time); its output follows the suite's, and either failing fails the test.
MYPY_LOG := .mypy.log

test: $(STAMP) $(CHROMIUM) $(TMUX) postgresql lint
	@$(BIN)/mypy > $(MYPY_LOG) 2>&1 & types=$$!; \
	$(MAKE) --no-print-directory suite; tests=$$?; \
	wait $$types; typed=$$?; \
	echo "== mypy, run beside the suite:"; cat $(MYPY_LOG); \
	test $$tests -eq 0 && test $$typed -eq 0
	@if [ -x $(CHROMIUM) ]; then $(BIN)/python docs/screenshots.py --taken; \
	else echo "no chromium at $(CHROMIUM): the pictures are not taken again"; fi

lint: $(STAMP)
	$(BIN)/ruff check setup.py src tests benchmarks docs examples
	$(BIN)/ruff format --check setup.py src tests benchmarks docs examples

typecheck: $(STAMP)
	$(BIN)/mypy

# The whole suite on the compiled build (tests/test_compiled.py fails if the build fell
# back to pure Python), then the rules and the computer players on the pure source.
# Both run on every core (pytest-xdist, JOBS workers), a test file to a worker and the
# files with slow tests first (tests/conftest.py); each worker has its own PostgreSQL
# cluster, servers on free ports and temporary folders (tests/README.md).
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
PARALLEL := -n $(JOBS) --dist loadfile

# The few tests that mostly wait on the real clock (marked realtime: issue 29's minute of
# claims, a flagged game) run in a process of their own beside the parallel rest, so no
# worker sits idle through their minutes; their output follows the rest's.
REALTIME_LOG := .pytest-realtime.log

pytest: $(STAMP) $(CHROMIUM) $(TMUX) postgresql
	@MATHABLE_EXPECT_COMPILED=1 $(BIN)/pytest -m realtime --basetemp=.pytest-realtime \
		> $(REALTIME_LOG) 2>&1 & realtime=$$!; \
	MATHABLE_EXPECT_COMPILED=1 $(BIN)/pytest $(PARALLEL) -m "not realtime"; rest=$$?; \
	wait $$realtime; late=$$?; \
	echo "== the tests on the real clock, run beside the rest:"; cat $(REALTIME_LOG); \
	test $$rest -eq 0 && test $$late -eq 0

PURE_TESTS := tests/test_compiled.py tests/games tests/engine tests/ai src/mathable/games src/mathable/ai

test-pure: $(STAMP)
	MATHABLE_PURE=1 $(BIN)/pytest $(PARALLEL) -m "not slow" $(PURE_TESTS)

# `make test`'s tests: the compiled suite (`pytest`, the real-clock stories beside it),
# and the pure-Python run beside both, in one process: the browser tests leave the cores
# idle a sixth of the time (waiting on pages and computer turns), which it fills. Its
# output follows the rest's.
PURE_LOG := .pytest-pure.log

suite: $(STAMP) $(CHROMIUM) $(TMUX) postgresql
	@MATHABLE_PURE=1 $(BIN)/pytest -p no:cacheprovider --basetemp=.pytest-pure -m "not slow" \
		$(PURE_TESTS) > $(PURE_LOG) 2>&1 & pure=$$!; \
	$(MAKE) --no-print-directory pytest; rest=$$?; \
	wait $$pure; late=$$?; \
	echo "== the rules and the computer players on the pure source, run beside the rest:"; \
	cat $(PURE_LOG); \
	test $$rest -eq 0 && test $$late -eq 0

bench: $(STAMP)
	$(BIN)/python benchmarks/run.py

# Every picture of README.md and docs/ taken again from the current code: the terminal
# game's with Textual's Pilot, the web app's by the browser tests that check those pages
# (docs/screenshots.py; tests/test_docs.py fails on a missing or an unused picture).
# `make test` takes them too, the web ones from the browser tests it has just run (--taken).
screenshots: $(STAMP) $(CHROMIUM)
	$(BIN)/python docs/screenshots.py

# After a deliberate rules change: rewrite tests/golden/*.txt, then review `git diff tests/golden`.
golden: $(STAMP)
	$(BIN)/python tests/golden/regenerate.py

# After changing texts in the code: the template (mathable.pot) extracted again, every
# catalog updated from it (new texts to translate, gone ones dropped), all compiled.
messages: $(STAMP)
	$(BIN)/python -m mathable.i18n.messages

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache build
	find src -name "*.so" -delete

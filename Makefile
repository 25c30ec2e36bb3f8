# Two commands do all the set-up: `make run` and `make test` (see README.md).
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# Browser tests drive Debian's chromium (Playwright's own browser download cannot work here).
CHROMIUM := /usr/bin/chromium
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
# Database tests start a throw-away PostgreSQL cluster with Debian's postgresql (initdb and
# pg_ctl live in /usr/lib/postgresql/*/bin, off the PATH).
INITDB = $(firstword $(wildcard /usr/lib/postgresql/*/bin/initdb))

.PHONY: run play test test-pure lint typecheck pytest bench golden clean postgresql messages

# The install compiles the modules listed in src/mathable/compiled.py with mypyc (setup.py;
# pure Python if that fails): an edit to them installs again, so the build is never stale.
COMPILED_SOURCES := setup.py src/mathable/compiled.py $(wildcard src/mathable/games/board/*.py src/mathable/ai/*.py)

# The translations (issue 17): gettext catalogs, one per language, compiled at install.
LOCALE := src/mathable/locale

$(STAMP): pyproject.toml $(COMPILED_SOURCES) $(wildcard $(LOCALE)/*/LC_MESSAGES/mathable.po)
	@command -v $(PYTHON) >/dev/null 2>&1 || { echo "Python 3.11 is needed ($(PYTHON) not found)"; exit 1; }
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[dev]"
	$(BIN)/python -m mathable.i18n.messages --compile
	touch $(STAMP)

$(CHROMIUM):
	@echo "Installing Debian's chromium for the browser tests"
	$(SUDO) apt-get update -qq
	$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium

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

test: $(STAMP) $(CHROMIUM) postgresql lint typecheck pytest test-pure

lint: $(STAMP)
	$(BIN)/ruff check setup.py src tests benchmarks docs examples
	$(BIN)/ruff format --check setup.py src tests benchmarks docs examples

typecheck: $(STAMP)
	$(BIN)/mypy

# The whole suite on the compiled build (tests/test_compiled.py fails if the build fell
# back to pure Python), then the rules and the computer players on the pure source.
pytest: $(STAMP) $(CHROMIUM) postgresql
	MATHABLE_EXPECT_COMPILED=1 $(BIN)/pytest

test-pure: $(STAMP)
	MATHABLE_PURE=1 $(BIN)/pytest -m "not slow" tests/test_compiled.py tests/games tests/engine tests/ai src/mathable/games src/mathable/ai

bench: $(STAMP)
	$(BIN)/python benchmarks/run.py

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

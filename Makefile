# Two commands for a fresh machine (Python 3.11, pip, gcc):
#   make run   - set everything up and run the main job
#   make test  - set everything up and pass the tests (what CI runs)

VENV ?= .venv
PY := $(VENV)/bin/python
CROUPIER := $(VENV)/bin/croupier
STAMP := $(VENV)/.installed

.PHONY: setup run test lint typecheck pytest bench coverage demo browser postgres pdf clean

setup: $(STAMP)

$(STAMP): pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[dev]"
	touch $(STAMP)

# Debian's chromium for the browser tests (Playwright drives it; no
# browser download). Needs root, as on CI and the project's machines.
browser:
	@command -v chromium >/dev/null 2>&1 || { \
	  apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; }

# Debian's PostgreSQL server for the tests of several server processes
# (tests/server/postgres.py starts a throwaway one on loopback).
postgres:
	@ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || { \
	  apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
	    postgresql >/dev/null; }

# Debian's Pango (WeasyPrint lays out the PDF math reports with it), the
# DejaVu fonts the reports use, and poppler's pdftoppm (the report tests
# render the PDF pages to PNG).
pdf:
	@{ command -v pdftoppm >/dev/null 2>&1 && \
	  ls /usr/lib/*/libpangoft2-1.0.so.0 >/dev/null 2>&1 && \
	  ls /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf \
	    >/dev/null 2>&1; } || { \
	  apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
	    poppler-utils libpango-1.0-0 libpangoft2-1.0-0 \
	    fonts-dejavu-core >/dev/null; }

run: setup
	@if $(CROUPIER) --help | grep -q " serve "; then \
	  $(CROUPIER) serve; \
	else \
	  $(CROUPIER) demo; \
	fi

demo: setup
	$(CROUPIER) demo

lint: setup
	$(VENV)/bin/ruff check src tests bench
	$(VENV)/bin/ruff format --check src tests bench

typecheck: setup
	$(VENV)/bin/mypy

pytest: setup browser postgres pdf
	$(PY) -m pytest

# every seed subsection must be proved by a marked test or a scenario
test: lint typecheck pytest
	$(CROUPIER) regs coverage --tests tests --fail-under 100 \
	  > $(VENV)/coverage.txt; status=$$?; \
	  tail -n 1 $(VENV)/coverage.txt; exit $$status

coverage: setup
	$(CROUPIER) regs coverage --tests tests

bench: setup
	@for script in bench/bench_*.py; do \
	  echo "== $$script"; $(PY) $$script; \
	done

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache

# Two commands for a fresh machine (Python 3.11, pip, gcc):
#   make run   - set everything up and run the main job
#   make test  - set everything up and pass the tests (what CI runs)
# and one for local work:
#   make check - ruff, mypy and the fast tests in parallel (~ a minute)

VENV ?= .venv

# Every command here keeps Python's compiled modules (__pycache__, which
# git ignores), though the machine's environment may say not to (the
# project's machines set PYTHONDONTWRITEBYTECODE): else each process the
# tests start compiled croupier's modules again (`croupier --help` took
# 1.2 s for 0.65), and each pytest process rewrote the asserts of every
# test module before its first test (collecting the fast tests took 18 s
# of CPU for 8 with the rewritten modules kept).
unexport PYTHONDONTWRITEBYTECODE
PY := $(VENV)/bin/python
CROUPIER := $(VENV)/bin/croupier
STAMP := $(VENV)/.installed

.PHONY: setup run test check core lint typecheck pytest bench coverage demo browser postgres pdf clean \
  prepare packages kernels

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

# Every test: the fast ones on every core (what `make check` runs), then
# the slow-marked ones. The browser tests run with the machine as good as
# to themselves (chromium, the page and the served table are timed by
# clocks: on two workers beside a CPU-bound test file, one of them once
# waited 30 s for a page that did not redraw); they keep some 1.2 of the
# 2 cores busy, so the slow tests that only compute (COMPUTE_TESTS: no
# server, no clock, no other process) run beside them at the lowest
# priority (nice 19), on what is left, their report printed after the
# browser tests'. Then the other slow ones (several processes, servers on
# ports of their own, long simulations) on two workers, each file whole
# on one (a worker starts its own PostgreSQL). Much of those is waiting,
# so two at once take about half the time. Measured in CI on a clean
# clone on 2026-12-07 (the nineteenth session): the browser tests 446 s
# beside the compute tests (473 s), then the other slow tests 95 s, where
# the browser tests alone took 370 s and all the other slow tests 292 s
# after them; the whole run 1,030 s against 1,156 s.
# A background job of a shell script ignores Ctrl-C, so the recipe kills
# the compute tests itself when it ends early (Ctrl-C, or the browser
# step's pytest killed): else they ran on for minutes after `make test`
# was stopped (the nineteenth session's re-read).
# Each run names its ten slowest tests (CI's 20 minutes are watched by
# them).
BROWSER_TESTS = tests/web
COMPUTE_TESTS = tests/rngtest/test_calibration.py \
  tests/odds/test_double_back_jack_ca_td.py \
  tests/odds/test_double_back_jack_cdp.py \
  tests/odds/test_double_back_jack_ca.py \
  tests/odds/test_baccarat_simulation.py \
  tests/odds/test_double_back_jack_exact.py \
  tests/odds/test_paigow_agreement.py \
  tests/report/test_math_report.py \
  tests/report/test_analyst_audit_2026_12_06.py
SLOWEST = --durations=10
pytest: setup browser postgres pdf
	$(PY) -m pytest -n auto -m "not slow" $(SLOWEST)
	@log=$$(mktemp) && \
	  { nice -n 19 $(PY) -m pytest -m slow $(SLOWEST) $(COMPUTE_TESTS) \
	    > "$$log" 2>&1 & } && compute=$$! && \
	  trap 'kill $$compute 2>/dev/null; rm -f "$$log"' EXIT && \
	  trap 'exit 130' INT TERM HUP && \
	  echo "(the slow compute tests run beside the browser tests; their" \
	    "report follows)" && \
	  { $(PY) -m pytest -m slow $(SLOWEST) $(BROWSER_TESTS); web=$$?; } && \
	  { wait $$compute; computed=$$?; } && trap - EXIT && \
	  echo "== the slow compute tests ($(words $(COMPUTE_TESTS)) files)" && \
	  cat "$$log" && rm -f "$$log" && \
	  test $$web -eq 0 && test $$computed -eq 0
	$(PY) -m pytest -n 2 --dist loadfile -m slow $(SLOWEST) \
	  $(addprefix --ignore=,$(BROWSER_TESTS) $(COMPUTE_TESTS))

# The core install (issue 18): `pip install .` with no extra, into a
# fresh venv, runs every game, scenario and `croupier rules`, and the
# commands of an extra name it (.ci/core_check.py).
core:
	@dir=$$(mktemp -d) && trap 'rm -rf "$$dir"' EXIT && \
	  python3 -m venv "$$dir/venv" && \
	  "$$dir/venv/bin/pip" install -qq --disable-pip-version-check . && \
	  "$$dir/venv/bin/python" .ci/core_check.py

# Local work: lint, types and the tests not marked slow, on every core
# (pytest-xdist); `make test` runs everything, as CI does.
check: lint typecheck
	$(PY) -m pytest -n auto -m "not slow"

# Before the tests, the steps that run none share the two cores: ruff,
# mypy and the core install's check each keep one busy, Debian's
# packages (one apt-get at a time) mostly wait on the network, and
# `kernels` compiles the numba kernels into their cache, which the fast
# tests' workers would otherwise each compile for themselves (on a cold
# clone 46 s of Double Back Jack's analysis and 15 s of pai gow's,
# 2026-12-07). Debian's packages need no venv: on a fresh machine their
# downloads start with the venv's install, not after it (the twentieth
# session). Each step's output is printed whole when it ends (-Otarget).
prepare:
	$(MAKE) --no-print-directory -j4 -Otarget lint typecheck core kernels \
	  packages

packages:
	$(MAKE) --no-print-directory browser postgres pdf

kernels: setup
	@for game in $$($(PY) -c "from croupier.registry import all_games; \
	  print(' '.join(g.name for g in all_games()))"); do \
	  $(CROUPIER) analyze $$game --json >/dev/null || exit 1; \
	done; echo "numba kernels compiled into their cache"

# every seed subsection must be proved by a marked test or a scenario
test: prepare pytest
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

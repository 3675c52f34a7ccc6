# The two commands of the README. Each installs what it needs first (scripts/setup.sh).
.PHONY: demo test test-slow setup setup-tests bytecode lint bench mutation

# Main job: the default experiment (Redis vs the MongoDB-compatible server this machine can run).
# ycsbctl exits 3 when every point was measured but some are degraded (a busy host), 1 when a target was skipped
# or a point failed (the folder and report are still written and say why); make only fails for worse (bad input,
# a crash). docs/guide/result-folder.md#status-and-exit-codes
demo: setup
	.venv/bin/ycsbctl run workload-b || { code=$$?; [ $$code -eq 1 ] || [ $$code -eq 3 ]; }

# The whole test suite, including the fidelity tests against the real YCSB core jar, after ruff,
# mypy, the import layers (lint-imports: a cycle between packages or an upward import fails) and the manual
# (mkdocs build --strict: a broken link or anchor, a page left out of mkdocs.yml's nav fails; a few seconds,
# into a temporary folder, so the checkout is left as it was;
# rich-click's "Not implemented" RuntimeWarnings, from the plain formatter mkdocs-click drives, are muted).
# setup-tests installs every real part the tests use, so here a skipped test fails (with its
# reason: what is missing); `make test YCSBCTL_NO_SKIP=0` lets skips pass.
YCSBCTL_NO_SKIP ?= 1
# The tests mostly wait on servers, sleeps and child processes (one after the other they keep about one core
# busy): two pytest-xdist workers share the cores (tests/fixtures/parallel.py: a module stays on one worker, the
# Docker engine's users share one, so do the Elasticsearch node's), then the tests marked `speed` run alone, one
# at a time. Three workers (29 Nov: `make test` kept 1.1 of 2 cores busy on average) made the shared phase ~15 %
# shorter, but each of two runs starved one test's client long enough to read a point as a client stall; tried again
# on a slower VM (29 Nov, 10:33) it took 1306 s against the two workers' 1399 s an hour before (-7 %): two workers keep
# ~1.3 cores busy, a third mostly queues for the same CPU. (eatmydata, fsync made a no-op for every process, changed
# nothing measurable: a SQL and CLI sample 0.98× [0.93, 1.04] wall.) The speed tests keep ~1.1 of 2 cores busy, so
# beside them, pinned to the last CPU (where test-slow's hog spins: what they are proven to hold with), runs one CPU's
# worth of the rest (scripts/one_cpu_lane.sh): mypy, then the modules of tests/fixtures/one_cpu.py (chosen for
# starting no server and running no point of their own). The folders the suite makes once are made once for all
# three pytests (YCSBCTL_TEST_ONCE_DIR, tests/fixtures/once.py). Their lines come after the speed tests', and any
# part failing fails the target.
PYTEST = YCSBCTL_NO_SKIP=$(YCSBCTL_NO_SKIP) .venv/bin/python -m pytest -q -rs
test: bytecode
	.venv/bin/ruff check ycsbctl tests bench scripts infra  # E501 too: lines ≤ 120 ([tool.ruff])
	.venv/bin/lint-imports  # the layers and contracts of [tool.importlinter] in pyproject.toml
	@site=$$(mktemp -d); NO_MKDOCS_2_WARNING=1 PYTHONWARNINGS=ignore::RuntimeWarning .venv/bin/mkdocs build --strict --site-dir $$site; built=$$?; rm -rf $$site; \
	[ $$built -eq 0 ] && echo "mkdocs build --strict: the manual (docs/) builds"
	@once=$$(mktemp -d); export YCSBCTL_TEST_ONCE_DIR=$$once; \
	$(PYTEST) --durations=30 -n 2 --dist loadgroup --no-loadscope-reorder -m "not speed and not one_cpu" tests; \
	shared=$$?; lane=$$(mktemp -d); \
	echo "the tests marked speed, alone but for mypy and the tests marked one_cpu pinned to one CPU beside them:"; \
	YCSBCTL_NO_SKIP=$(YCSBCTL_NO_SKIP) bash scripts/one_cpu_lane.sh $$lane & beside=$$!; \
	$(PYTEST) --durations=10 -m speed tests; alone=$$?; \
	wait $$beside; pinned=$$?; echo "the tests marked one_cpu:"; cat $$lane/tests.txt; \
	echo "mypy ycsbctl:"; cat $$lane/mypy.txt; rm -rf $$lane $$once; \
	[ $$shared -eq 0 ] && [ $$alone -eq 0 ] && [ $$pinned -eq 0 ]

# The checkout's modules compiled once, up front: the suite starts well over a thousand Python processes
# (ycsbctl commands, their engine workers), and where PYTHONDONTWRITEBYTECODE is set (as on CI-like
# containers) none of them may write the .pyc it compiled, so each compiled its ~160 modules again
# (~0.17 s of CPU per process). Python still reads the .pyc files compileall writes (stale ones are
# recompiled in memory, never trusted); __pycache__ is git-ignored.
# pytest's own bytecode too: it rewrites the asserts of every test module and fixture as it collects them, and
# caches the result (__pycache__/*-pytest-*.pyc) only where bytecode may be written. Under
# PYTHONDONTWRITEBYTECODE each pytest of `make test` (both xdist workers, then the speed phase) rewrote all ~300
# modules again: a collection took 19 s of a core, 5.6 s with the cache. So one collection writes it here, half
# the folders on each core; pytest reads a cached module only while its source is unchanged (size and mtime).
REWRITE = PYTHONDONTWRITEBYTECODE= .venv/bin/python -m pytest --collect-only -q -p no:cacheprovider
HALF = tests/experiment tests/results tests/engine tests/cli
bytecode: setup-tests
	.venv/bin/python -m compileall -q -j 0 ycsbctl tests bench >/dev/null
	@$(REWRITE) $(HALF) >/dev/null & half=$$!; \
	$(REWRITE) tests $(HALF:%=--ignore=%) >/dev/null; rest=$$?; wait $$half; first=$$?; \
	[ $$first -eq 0 ] && [ $$rest -eq 0 ] || { echo "pytest could not collect the tests: run .venv/bin/python -m pytest --collect-only tests"; exit 1; }

# What a slower machine of CI's kind sees, on a fast one: the speed-sensitive tests (marker `speed`:
# they assert a rate, a duration, a latency or a CPU figure, derived from what they measured) with
# one core held busy by a spinning process that pytest starts and stops itself (--cpu-hog).
test-slow: bytecode
	YCSBCTL_NO_SKIP=$(YCSBCTL_NO_SKIP) .venv/bin/python -m pytest -q -rs -m speed --cpu-hog tests

setup:
	bash scripts/setup.sh

setup-tests:
	bash scripts/setup.sh --for-tests

lint:
	.venv/bin/ruff check ycsbctl tests bench scripts infra  # E501 too: lines ≤ 120 ([tool.ruff])

bench: setup
	.venv/bin/python -m bench

# Mutation testing of the modules that compute what users read (scripts/mutation.py). By default a
# stratified random sample of the whole map (one mutant of every module first, then by each module's
# share) until a 25-minute budget is spent: the share killed with its 95 % Clopper-Pearson interval, a
# row per module, every survivor, the seed (MUTATION_ARGS="--seed N --budget-min M" repeats or resizes
# it). Exact runs of named modules (each mutant runs the tests that ran its line, coverage.py):
# make mutation MUTATION_ARGS="ycsbctl/report/compare.py" (--max N samples N per module).
# Not part of `make test`.
MUTATION_ARGS ?=
mutation: setup-tests
	.venv/bin/python scripts/mutation.py $(MUTATION_ARGS)

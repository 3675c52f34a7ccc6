#!/usr/bin/env bash
# What `make test` runs beside the tests marked speed, one thing after another on one CPU: mypy, then the tests marked
# one_cpu (tests/fixtures/one_cpu.py) in a pytest of their own. Everything here, and every process it starts, is
# pinned to the last CPU — where `make test-slow`'s hog spins, so the speed tests beside it are the ones proven to
# hold with that CPU busy. The speed tests keep about 1.1 of 2 cores busy; this uses the idle rest, which the two
# workers' phase before it would otherwise spend on the same work.
# Usage: scripts/one_cpu_lane.sh DIR — DIR/mypy.txt and DIR/tests.txt get their output; exits non-zero if either
# failed.
set -u
cd "$(dirname "$0")/.."
out=$1
cpu=$(.venv/bin/python -c 'import os; print(max(os.sched_getaffinity(0)))')
pin=(taskset -c "$cpu")
"${pin[@]}" .venv/bin/mypy ycsbctl > "$out/mypy.txt" 2>&1
typed=$?
# its own basetemp (pytest clears it), and no cache writes racing the speed tests' pytest
"${pin[@]}" .venv/bin/python -m pytest -q -rs -p no:cacheprovider --basetemp "$out/tmp" --durations=10 \
    -m "one_cpu and not speed" tests > "$out/tests.txt" 2>&1
tested=$?
rm -rf "$out/tmp"
[ "$typed" -eq 0 ] && [ "$tested" -eq 0 ]

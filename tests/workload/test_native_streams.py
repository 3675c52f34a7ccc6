"""The compiled core and its pure-Python twin make the same operations: for every request
distribution (with and without run-phase inserts), hashed and ordered keys, and the load phase's
insert order, the same keys in the same order with the same fields, scan lengths and values, per
seed. Each path runs in its own process (the switch is read at import), compared op for op."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from ycsbctl.native import FORCE_PURE_ENV

DUMP = Path(__file__).with_name("stream_dump.py")


def _streams(pure: bool) -> dict:
    env = {k: v for k, v in os.environ.items() if k != FORCE_PURE_ENV}
    if pure:
        env[FORCE_PURE_ENV] = "1"
    out = subprocess.run([sys.executable, str(DUMP)], capture_output=True, text=True, env=env, timeout=300)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def test_the_compiled_and_the_pure_path_make_the_same_operations_op_for_op():
    compiled, pure = _streams(pure=False), _streams(pure=True)
    assert compiled["path"] == "compiled", "the compiled core is not built here: run scripts/setup.sh"
    assert pure["path"].startswith("pure-Python")
    assert compiled["streams"].keys() == pure["streams"].keys()
    for name, ops in pure["streams"].items():
        theirs = compiled["streams"][name]
        assert len(theirs) == len(ops) > 0, name
        for i, (a, b) in enumerate(zip(ops, theirs)):
            assert a == b, f"{name}: operation {i} differs: pure {a[:6]} compiled {b[:6]}"

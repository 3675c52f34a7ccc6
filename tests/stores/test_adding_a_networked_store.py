"""The "A store with a server" recipe of docs/development/adding-a-store.md, followed on a copy of the package: a
networked toy store (``toy://``, tests/fixtures/toy_store/) whose server is a tiny line key-value server that ycsbctl
starts through the store's :class:`~ycsbctl.stores.server_kind.ServerKind` (local backend), then one short point on
it through the CLI and the engine. The server stalls once, past ``--timeout``, then drops that connection: the
client times out, then reconnects through the shared wire binding. The point's counts must be the server's own, and
the server must be stopped at the end.

The recipe's code lines are read from the page (its ``python`` blocks, with ``echo`` for ``toy``), so the page and
this test cannot drift apart: the toy's ``store.py`` and ``server.py`` (its server kind and its catalogue
entry) must hold them, and the registry line written into the copy is the page's own: nothing outside the
toy's folder but that line is edited."""

from __future__ import annotations

import json
import os
import re
import shutil
import sys
from pathlib import Path

import pandas as pd
import psutil

import ycsbctl
from tests.fixtures.cli import ycsbctl as run_ycsbctl
from tests.fixtures.docs import blocks

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "development" / "adding-a-store.md"
TOY = ROOT / "tests" / "fixtures" / "toy_store"
STALL_AT = 300  # the request the server never answers: past the load's 100 inserts, in the run phase
TIMEOUT_S = 0.3  # --timeout; the server stalls for STALL_S, then closes that connection
STALL_S = 1.0


def as_toy(text: str) -> str:
    """The page's ``echo`` example as the toy store."""
    return text.replace("echo", "toy").replace("Echo", "Toy")


def recipe() -> dict[str, str]:
    """The page's essential lines, as the toy store: the registry line (``_MODULES``), ``open_bindings`` of a
    networked store, the server kind, the catalogue entry."""
    text = PAGE.read_text()
    module = re.search(r'`("ycsbctl\.stores\.echo\.store")` in `_MODULES`', text)
    assert module, f"{PAGE.name} no longer names the store's line in _MODULES"
    code = [as_toy(b.text) for b in blocks(PAGE) if b.info == "python"]
    found = {"module": as_toy(module.group(1))}
    for key, mark in (("open_bindings", "connect_wire("), ("server", "KINDS"), ("catalogue", "Target(")):
        (found[key],) = [c for c in code if mark in c] or [""]
        assert found[key], f"{PAGE.name} has no python block with {mark}"
    return found


def _tree_with_toy(root: Path, lines: dict[str, str]) -> Path:
    """A copy of the package with the toy folder (its catalogue entry in its ``server.py``) and its registry
    line: nothing more."""
    tree = root / "tree"
    shutil.copytree(Path(ycsbctl.__file__).parent, tree / "ycsbctl", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(TOY / "package", tree / "ycsbctl" / "stores" / "toy", ignore=shutil.ignore_patterns("__pycache__"))
    # the toy is what the page shows
    for name, key in (("store.py", "open_bindings"), ("server.py", "server"), ("server.py", "catalogue")):
        written = (tree / "ycsbctl" / "stores" / "toy" / name).read_text()
        assert lines[key].strip() in written, f"toy_store/package/{name} no longer follows {PAGE.name}"
    registry = tree / "ycsbctl" / "stores" / "registry.py"
    text = registry.read_text()
    assert text.count("_MODULES = (") == 1, "the registry's list of stores moved: update this test and the page"
    registry.write_text(text.replace("_MODULES = (", f"_MODULES = ({lines['module']}, ", 1))
    return tree


def _toy_binary(root: Path, lines: dict[str, str]) -> Path:
    """The folder of the catalogue entry's binary (``toy-server``): the toy line server."""
    binary = re.search(r'"(toy-[a-z]+)"', lines["catalogue"])
    assert binary, lines["catalogue"]
    folder = root / "bin"
    folder.mkdir()
    path = folder / binary.group(1)
    path.write_text(f"#!/bin/sh\nexec {sys.executable} {TOY / 'toy_server.py'} \"$@\"\n")
    path.chmod(0o755)
    return folder


def test_a_networked_store_added_as_the_docs_say_is_started_measured_and_stopped(tmp_path: Path):
    lines = recipe()
    tree = _tree_with_toy(tmp_path, lines)
    counts_file, out = tmp_path / "toy-counts.json", tmp_path / "out"
    environ = {**os.environ, "PYTHONPATH": str(tree),  # the copy's ycsbctl, with its toy store, in every process
               "YCSBCTL_BIN_DIR": str(_toy_binary(tmp_path, lines)), "YCSBCTL_STATE_DIR": str(tmp_path / "state"),
               "TOY_COUNTS": str(counts_file), "TOY_STALL_AT": str(STALL_AT), "TOY_STALL_S": str(STALL_S)}
    done = run_ycsbctl("run", "workload-b", "--target", "toy", "--backend", "local", "--threads", "2",
                       "--load-threads", "2", "--duration", "3", "--records", "100", "--timeout", str(TIMEOUT_S),
                       "--no-report", "--out", str(out), cwd=tmp_path, timeout=240, environ=environ)
    said = done.stdout + done.stderr
    assert "Traceback" not in said and "worker crashed" not in said, said[-4000:]
    runs = pd.read_parquet(out / "runs.parquet").set_index("phase")
    load, run = runs.loc["load"], runs.loc["run"]
    # the load is whole; the point is degraded by the stall (so the command exits 3), and by nothing else
    assert load.status == "ok" and load.operations == 100 and load.errors == 0, said[-4000:]
    assert done.returncode == 3 and run.status == "degraded" and run.bottleneck == "stall", said[-4000:]
    assert "operations timed out" in run.error and "1 ERROR: connection lost" in run.error, run.error

    # stopped at the end: on SIGTERM the server wrote its counts and exited
    assert counts_file.is_file(), f"the toy server was not stopped with SIGTERM:\n{said[-4000:]}"
    server = json.loads(counts_file.read_text())
    assert not psutil.pid_exists(server["pid"]) or psutil.Process(server["pid"]).status() == psutil.STATUS_ZOMBIE

    # the point's counts are the server's: every operation that did not fail was answered by it; the stalled request
    # timed out (with those sent after it on that connection while the server slept), and the one that met the
    # dropped connection is the one ERROR, after which the client reconnected and went on
    assert server["stalled"] == 1 and server["requests"] == sum(server["answered"].values()) + 1
    assert run.timeouts >= 1 and run.errors - run.timeouts == 1
    assert load.operations + run.operations - load.errors - run.errors == sum(server["answered"].values())
    assert server["answered"]["SET"] > load.operations and server["answered"]["GET"] > 0  # the run's updates, reads
    assert run.operations > STALL_AT  # the client went on after its reconnect

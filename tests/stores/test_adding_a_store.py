"""The "Adding a store" recipe of docs/development/adding-a-store.md, followed as a new contributor would: a toy
``echo://`` store (one folder) and its one registry line, on a copy of the package, then a point on it through the
CLI."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pandas as pd
import pytest

import ycsbctl
from tests.fixtures.cli import ycsbctl as run_ycsbctl

# What docs/development/adding-a-store.md tells a contributor to write, and nothing more.
INIT = '"""``echo://``: a toy store that answers every operation itself."""\n'
BINDING = '''"""The echo binding: every operation is OK at once."""

from __future__ import annotations

from ycsbctl.stores.binding import Binding, Fields, Status, Values


class EchoBinding(Binding):
    echoed = 0  # operations answered by this connection

    def answer(self, key: bytes) -> Status:
        self.echoed += 1
        return Status.OK

    async def read(self, table: str, key: bytes, fields: Fields) -> Status:
        return self.answer(key)

    async def insert(self, table: str, key: bytes, values: Values) -> Status:
        return self.answer(key)

    async def update(self, table: str, key: bytes, values: Values) -> Status:
        return self.answer(key)

    async def scan(self, table: str, start_key: bytes, count: int, fields: Fields) -> Status:
        return self.answer(start_key)

    async def delete(self, table: str, key: bytes) -> Status:
        return self.answer(key)
'''
STORE = '''"""``echo://``: no server; the echo binding answers."""

from __future__ import annotations

from ycsbctl.stores.base import ServerProtocol
from ycsbctl.stores.binding_set import BindingSet
from ycsbctl.stores.echo.binding import EchoBinding
from ycsbctl.stores.registry import register


class EchoProtocol(ServerProtocol):
    name = "echo"
    schemes = ("echo",)
    example = "echo://"
    has_server = HAS_SERVER

    async def open_bindings(self, url: str, clients: int, properties: dict[str, str], timeout_s: float) -> BindingSet:
        return BindingSet([EchoBinding() for _ in range(clients)])


PROTOCOL = register(EchoProtocol())
'''
REGISTRY_LINE = '_MODULES = ("ycsbctl.stores.redis.store",'


def _tree_with_echo(root: Path, has_server: bool) -> Path:
    """A copy of the package under test with the echo folder and its one registry line."""
    tree = root / "tree"
    shutil.copytree(Path(ycsbctl.__file__).parent, tree / "ycsbctl", ignore=shutil.ignore_patterns("__pycache__"))
    echo = tree / "ycsbctl" / "stores" / "echo"
    echo.mkdir()
    (echo / "__init__.py").write_text(INIT)
    (echo / "binding.py").write_text(BINDING)
    (echo / "store.py").write_text(STORE.replace("HAS_SERVER", str(has_server)))
    registry = tree / "ycsbctl" / "stores" / "registry.py"
    text = registry.read_text()
    assert text.count(REGISTRY_LINE) == 1, (
        "the registry's list of stores moved: update this test and docs/development/adding-a-store.md"
    )
    registry.write_text(text.replace(REGISTRY_LINE,
                                     '_MODULES = ("ycsbctl.stores.echo.store", "ycsbctl.stores.redis.store",'))
    return tree


def _run_point(tree: Path, cwd: Path) -> tuple[subprocess.CompletedProcess, Path]:
    out = cwd / "out"
    done = run_ycsbctl("run", "workload-b", "--target", "echo://", "--threads", "2", "--duration", "1",
                       "-p", "recordcount=100", "--out", str(out), cwd=cwd, timeout=180,
                       environ={**os.environ, "PYTHONPATH": str(tree)})  # the copy's ycsbctl, with its echo store
    return done, out


@pytest.mark.parametrize("has_server", [False, True], ids=["as-the-docs-say", "has_server-left-out"])
def test_a_store_added_as_the_docs_say_runs_a_point_through_the_cli(tmp_path: Path, has_server: bool):
    tree = _tree_with_echo(tmp_path, has_server)
    done, out = _run_point(tree, tmp_path)
    said = done.stdout + done.stderr
    assert done.returncode == 0, said
    assert "Traceback" not in said
    manifest = json.loads((out / "manifest.json").read_text())
    runs = pd.read_parquet(out / "runs.parquet")
    assert list(runs.status) == ["ok"] and int(runs.threads.iloc[0]) == 2 and runs.operations.iloc[0] > 0
    (endpoint,) = manifest["servers"].values()
    assert endpoint["protocol"] == "echo" and endpoint["has_server"] is has_server
    if not has_server:  # the recipe: no network to measure, no server process to look for
        assert manifest["network"] == {}
        assert "server process not on this host" not in said + json.dumps(manifest)
    else:  # what the docs warn of: a store without has_server = False is taken for a server
        assert manifest["network"] != {} and "server process not on this host" in said

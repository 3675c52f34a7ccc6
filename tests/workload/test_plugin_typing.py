"""The binding a plug-in's executor gets is typed per store (``workload.plugin.RespBinding``,
``CommandBinding``): the stores' bindings satisfy them, mypy finds a call of the wrong shape, and an
executor written for one store's binding handed out as another's (``Executor[RespBinding]``)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

EXECUTORS = '''
from ycsbctl.stores.mongodb.wire import MongoWireBinding
from ycsbctl.stores.redis.binding import RedisBinding
from ycsbctl.workload.plugin import CommandBinding, Executor, RespBinding


def redis_binding(b: RedisBinding) -> RespBinding:
    return b


def mongo_binding(b: MongoWireBinding) -> CommandBinding:
    return b


async def ping(b: RespBinding, op: int, arg: object) -> int:
    st, _ = await b.resp((b"PING",))
    return st


async def wrong_shape(b: RespBinding, op: int, arg: object) -> int:
    st, _ = await b.resp(b"PING")
    return st


class Pinger:
    async def __call__(self, b: RespBinding, op: int, arg: object) -> int:
        return await ping(b, op, arg)


class Finder:
    async def __call__(self, b: CommandBinding, op: int, arg: object) -> int:
        st, _ = await b.run_command({"find": "t"})
        return st


def for_redis() -> Executor[RespBinding]:
    return Pinger()


def for_redis_by_mistake() -> Executor[RespBinding]:
    return Finder()
'''


def test_mypy_sees_the_stores_bindings_as_the_executors_interfaces_and_flags_a_wrong_shape(tmp_path: Path):
    plugin = tmp_path / "toy_plugin.py"
    plugin.write_text(EXECUTORS)
    # mypy as `make test` runs it on ycsbctl (from the checkout, its pyproject.toml's options), so that the
    # cache that run left (.mypy_cache) holds every module the plug-in imports: a copy of it, where there is
    # one, leaves mypy only the plug-in to check (each cached module is still checked against its source)
    cache = tmp_path / "cache"
    if (ROOT / ".mypy_cache").is_dir():
        shutil.copytree(ROOT / ".mypy_cache", cache)
    done = subprocess.run([sys.executable, "-m", "mypy", "--cache-dir", str(cache), "--no-error-summary", str(plugin)],
                          cwd=ROOT, capture_output=True, text=True, timeout=300,
                          env={**os.environ, "MYPYPATH": str(ROOT), "PYTHONPATH": str(ROOT)})
    errors = [line for line in done.stdout.splitlines() if ": error:" in line]
    wrong = EXECUTORS.splitlines().index('    st, _ = await b.resp(b"PING")') + 1
    mistaken = EXECUTORS.splitlines().index("    return Finder()") + 1
    assert len(errors) == 2, done.stdout + done.stderr
    assert errors[0].startswith(f"{plugin}:{wrong}: error: Argument 1 to \"resp\"") and "Sequence[bytes]" in errors[0]
    assert errors[1].startswith(f"{plugin}:{mistaken}: error: Incompatible return value type (got \"Finder\", "
                                'expected "Executor[RespBinding]")'), errors[1]

"""ycsbctl's own redis-py clients (stores/redis/admin.py: describe, probes, the INFO sampler, disturbances) against a
real Redis: each connection names redis-py and its version as redis-py itself would, without reading the installed
package's metadata again (importlib.metadata, ~10 ms of a core at every connection of redis-py ≥ 6)."""

from __future__ import annotations

import importlib.metadata

import pytest
import redis

from ycsbctl.stores.redis.admin import client


def test_an_admin_client_connects_without_reading_redis_pys_metadata_and_names_its_version(redis_server, monkeypatch):
    read: list[str] = []
    real = importlib.metadata.version
    monkeypatch.setattr(importlib.metadata, "version", lambda name: read.append(name) or real(name))
    for _ in range(3):
        c = client(redis_server.url, 5.0)
        try:
            assert c.ping()
            info = c.connection_pool.connection_kwargs.get("driver_info")
        finally:
            c.close()
    assert read == []
    if info is None:
        pytest.skip(f"redis-py {redis.__version__} reads its version once, at import (no DriverInfo before 6)")
    assert (info.name, info.lib_version) == ("redis-py", real("redis"))


def test_an_admin_clients_connect_deadline_is_its_own_or_else_the_commands(redis_server):
    """Connecting is bounded too: by ``connect_timeout_s`` where given, else by the commands' ``timeout_s``
    (never unbounded: a server whose host drops the SYN would hold describe for the kernel's minutes)."""
    for given, connect_s in ((None, 2.5), (0.5, 0.5)):
        c = client(redis_server.url, 2.5, given)
        try:
            kwargs = c.connection_pool.connection_kwargs
            assert (kwargs["socket_timeout"], kwargs["socket_connect_timeout"]) == (2.5, connect_s)
            assert c.ping()
        finally:
            c.close()

"""Redis's store (stores/redis/store.py): the properties YCSB's own binding is given (against a real
redis-server), the cores a server's data path has, what its INFO says of evictions and expiries, and where
a URL whose server closes at PING is probed for TLS."""

from __future__ import annotations

import contextlib
import threading

import pytest


def test_ycsbs_redis_binding_is_given_the_servers_host_port_and_its_timeout_in_milliseconds(redis_server):
    # YCSB's RedisClient reads redis.timeout in ms (Jedis's timeout); a standalone server: no redis.cluster
    from ycsbctl.stores import registry

    url = f"redis://127.0.0.1:{redis_server.port}/0"
    db_class, props = registry.for_url(url).ycsb_binding(url, 1.5)
    assert (db_class, props) == ("redis", {"redis.host": "127.0.0.1", "redis.port": str(redis_server.port),
                                           "redis.timeout": "1500"})


def test_a_server_whose_info_counts_no_evictions_or_expiries_is_not_said_short(monkeypatch):
    # INFO text as redis-py parses it; a server that leaves the counters out (Dragonfly-like) or counts none
    from contextlib import contextmanager
    from types import SimpleNamespace

    from redis._parsers.helpers import parse_info

    from ycsbctl.stores import registry
    from ycsbctl.stores.redis import store

    said: dict[str, str] = {}

    @contextmanager
    def client(url, timeout_s):
        sections = {s.split("\n", 1)[0]: s for s in said["info"].split("# ")[1:]}
        yield SimpleNamespace(info=lambda name: parse_info(sections.get(name.capitalize(), "").encode()))

    monkeypatch.setattr(store, "client", client)
    proto = registry.get("redis")
    said["info"] = "# Stats\ntotal_connections_received:3\n# Memory\nused_memory:100\n"
    assert proto.why_short("redis://127.0.0.1:1/0") is None
    said["info"] = "# Stats\nevicted_keys:0\nexpired_keys:0\n# Memory\nmaxmemory:0\n"
    assert proto.why_short("redis://127.0.0.1:1/0") is None
    # evictions counted by a server whose INFO memory says no maxmemory (nor policy): no limit is made up
    said["info"] = "# Stats\nevicted_keys:5810\nexpired_keys:0\n# Memory\nused_memory:100\n"
    assert proto.why_short("redis://127.0.0.1:1/0") == "the server counts 5,810 keys evicted (INFO evicted_keys)"


def test_a_redis_server_has_one_core_for_its_data_path_unless_it_is_a_multi_threaded_one():
    from ycsbctl.stores import registry
    from ycsbctl.stores.redis.store import MULTI_THREADED

    proto = registry.for_url("redis://h:1/0")
    assert [proto.server_cores("redis", limit) for limit in (4.0, 1.0, 0.5)] == [1.0, 1.0, 0.5]
    for kind in MULTI_THREADED:
        assert proto.server_cores(f"local-{kind}", 4.0) == 4.0, kind


def test_a_redis_url_whose_server_closes_at_ping_is_probed_for_tls_at_its_own_host_and_port(monkeypatch):
    import socket

    import redis

    from ycsbctl.stores import registry, tls_wire

    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]

    def close_each() -> None:
        while True:
            try:
                conn, _ = listener.accept()
            except OSError:  # the listener closed: the test is over
                return
            conn.close()

    threading.Thread(target=close_each, daemon=True).start()
    probed: list[tuple[str, int]] = []

    def answers_tls(host: str, port: int, timeout_s: float = 5.0) -> bool:
        probed.append((host, port))
        return False

    monkeypatch.setattr(tls_wire, "answers_tls", answers_tls)
    url = f"redis://localhost:{port}/0"  # neither the default host (127.0.0.1) nor the default port (6379)
    try:
        with pytest.raises(redis.ConnectionError, match="not a Redis server: it closed the connection at PING"):
            registry.for_url(url).ping(url, 1.0)
    finally:
        with contextlib.suppress(OSError):  # wakes the accept() blocked on it, which else keeps it listening
            listener.shutdown(socket.SHUT_RDWR)
        listener.close()
    assert probed == [("localhost", port)]
    # a URL without a port: the probe goes to redis-py's own default port (a stand-in client closed at PING)
    from types import SimpleNamespace

    from ycsbctl.stores.redis import store

    def closed(*args: object) -> None:
        raise redis.ConnectionError("Connection closed by server.")

    monkeypatch.setattr(store, "client", lambda url, timeout_s: SimpleNamespace(ping=closed, close=lambda: None))
    default = redis.connection.Connection(host="localhost").port  # what from_url leaves to the connection
    with pytest.raises(redis.ConnectionError, match="not a Redis server"):
        registry.for_url("redis://localhost/0").ping("redis://localhost/0", 1.0)
    assert probed[1:] == [("localhost", default)]


def test_a_redis_tables_records_are_its_keys_less_the_scan_index_when_there_is_one(redis_server):
    """``count``: the records a database holds are its keys (DBSIZE), less YCSB's scan index ``_indices`` where
    the database has one — 3 hashes alone are 3 records, with the index still 3; an empty database 0."""
    import redis as redis_py

    from ycsbctl.stores import registry

    db = 7  # a database of this test's own on the session's server
    url = f"redis://127.0.0.1:{redis_server.port}/{db}"
    with redis_py.Redis(port=redis_server.port, db=db) as r:
        r.flushdb()
        try:
            assert registry.for_url(url).count(url, "usertable") == 0
            for i in range(3):
                r.hset(f"user{i}", mapping={"field0": "v"})
            assert registry.for_url(url).count(url, "usertable") == r.dbsize() == 3
            r.zadd("_indices", {f"user{i}": i for i in range(3)})
            assert registry.for_url(url).count(url, "usertable") == r.dbsize() - 1 == 3
        finally:
            r.flushdb()

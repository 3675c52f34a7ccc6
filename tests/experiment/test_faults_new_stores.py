"""The fault suite on the newest stores (issue 48's Tarantool, ClickHouse, Sphinx), tried from outside: a URL of
one store at another store's port, and a server on this host that does not report its own PID.

Every case is one honest line: what listens at a port is never "does not answer", a server on this host is
never "not on this host".
"""

from __future__ import annotations

import asyncio
import socket
import threading
import time

import pytest

from tests.fixtures.cli import ycsbctl
from tests.fixtures.faults import clean, no_workers_left
from ycsbctl.errors import UserError
from ycsbctl.provision.base import Endpoint

pytestmark = pytest.mark.fault


@pytest.mark.parametrize("store", ["sphinx", "clickhouse"])
def test_a_local_server_that_does_not_report_its_pid_is_found_by_the_port_it_listens_on(store, request):
    """ClickHouse and Sphinx do not say their PID: given by URL (as a user gives a server of their own), the
    server's process is the one ycsbctl started (its recorded PID, the truth), sampled as such; was: "server
    process not on this host: server CPU is what the server reports" for a server on 127.0.0.1."""
    from ycsbctl.stores import registry
    from ycsbctl.stores.capabilities import ReportedPid
    from ycsbctl.telemetry.capture import local_server_pid, samplers_for

    started = request.getfixturevalue(store)
    given = Endpoint(target=store, protocol=started.protocol, url=started.url, backend="external")
    assert registry.ask(started.url, ReportedPid.reported_pid, started.url) is None  # the case: it does not say
    assert local_server_pid(given) == started.pid and started.pid
    samplers, notes = samplers_for(given, None, evidence=False)
    assert not any("not on this host" in n for n in notes), notes
    assert any(getattr(s, "source", "") == "server-process" for s in samplers), samplers


def test_a_redis_url_at_a_tarantool_port_says_something_else_answers_there(tarantool, tmp_path):
    """``redis://`` at Tarantool's port: Tarantool greets first, redis-py reads its "T" as a bad reply. One line
    saying a server answered but not as Redis (was: "does not answer … start the server"), exit 1."""
    port = tarantool.url.rsplit(":", 1)[1]
    r = ycsbctl("run", "workloadc", "--target", f"redis://127.0.0.1:{port}", "--threads", "1", "--duration", "1",
                "--records", "100", "--no-telemetry", "--allow-concurrent", "--out", str(tmp_path / "out"),
                cwd=tmp_path, timeout=120)
    clean(r.stdout + r.stderr)
    assert r.returncode == 1, r.stderr[-2000:]
    told = [ln for ln in r.stderr.splitlines() if "skipped" in ln]
    assert len(told) == 1 and "something answers there, but not as a redis server" in told[0], r.stderr[-2000:]
    assert "does not answer" not in r.stderr and "start the server" not in r.stderr
    no_workers_left()


def test_a_silent_listener_and_a_closed_port_are_told_apart():
    """A port where something listens but says nothing (another store that waits for its client to speak
    first, or a stopped server) is not "does not answer … start the server"; a closed port is."""
    from ycsbctl.provision import probe

    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen()
        port = silent.getsockname()[1]
        said = probe.unanswered("tarantool", f"tarantool://127.0.0.1:{port}", "TimeoutError: timed out", 5.0)
        garbled = probe.unanswered("redis", f"redis://127.0.0.1:{port}", "InvalidResponse: Protocol error", 5.0)
        http = probe.unanswered("elasticsearch", f"elasticsearch://127.0.0.1:{port}", "RemoteDisconnected", 5.0)
        # the store's own TLS hint is the line (a TLS port under redis://): never "not as a redis server"
        plain = probe.unanswered("redis", f"redis://127.0.0.1:{port}", "ConnectionError: the server may speak TLS on "
                                 "this port: use rediss://", 5.0)
        handshake = probe.unanswered("redis", f"rediss://127.0.0.1:{port}", "TimeoutError: Timeout connecting", 5.0)
    closed = probe.unanswered("tarantool", f"tarantool://127.0.0.1:{port}", "ConnectionRefusedError", 5.0)
    assert isinstance(said, UserError) and said.exit_code == 1
    assert "something accepts connections there but gave no tarantool answer within 5 s" in str(said), said
    assert "not as a redis server" in str(garbled), garbled
    assert "not as an elasticsearch server" in str(http) and "is an elasticsearch server's" in str(http), http
    assert str(plain) == (f"redis://127.0.0.1:{port}: the connection failed (ConnectionError: the server may speak TLS "
                          "on this port: use rediss://)"), plain
    assert "so does one without TLS to a TLS handshake" in str(handshake), handshake
    assert "TLS" not in str(said)  # tarantool:// asks for no TLS
    assert str(closed).startswith(f"tarantool://127.0.0.1:{port} does not answer"), closed


def test_the_process_on_a_port_is_the_server_unless_it_forwards_the_port_elsewhere(tmp_path):
    """A listener found by port is the server (a process of its own, its PID the truth), but a forwarder on
    that port (socat here, as docker-proxy for a container's published port or ssh -L) is not: no PID, the
    server's CPU not taken from the forwarder's."""
    import subprocess
    import sys

    from tests.fixtures.waiting import wait_until
    from ycsbctl.provision.local import free_port
    from ycsbctl.telemetry.process import listener_of

    port, forwarded = free_port(), free_port()
    code = f"import socket, time; s = socket.socket(); s.bind(('127.0.0.1', {port})); s.listen(); time.sleep(60)"
    server = subprocess.Popen([sys.executable, "-c", code])
    forwarder = subprocess.Popen(["socat", f"TCP-LISTEN:{forwarded},bind=127.0.0.1,fork", f"TCP:127.0.0.1:{port}"])
    try:
        assert wait_until(lambda: listener_of(port), 20, "the listener") == server.pid
        wait_until(lambda: _listening(forwarded), 20, "socat's listener")
        assert listener_of(forwarded) is None
    finally:
        for p in (server, forwarder):
            p.kill()
            p.wait()


def _listening(port: int) -> bool:
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) == 0


def _one_shot_server(greeting: bytes | None) -> tuple[socket.socket, threading.Thread]:
    """A listener on a free loopback port whose one connection gets ``greeting`` (None: closed at once, unread)."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()

    def serve() -> None:
        conn, _ = listener.accept()
        with conn:
            if greeting is not None:
                conn.sendall(greeting)
                conn.recv(1)  # holds the connection open until the client closes it

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    return listener, thread


@pytest.mark.parametrize(("greeting", "said"), [
    (b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n", "an HTTP reply ('HTTP/1.1 400 Bad Request')"),
    (b"-ERR unknown command\r\n", "a RESP reply, as Redis speaks ('-ERR unknown command')"),
    (b"\0\0\0\x01", "4 bytes, a protocol version (1), as Sphinx searchd's API port does"),
    (None, "the server closed the connection without a Tarantool greeting"),
])
def test_a_tarantool_url_at_a_server_that_greets_otherwise_is_told_at_once(greeting, said):
    """A server that greets first with something else (or closes) is told at once, naming what answered: was a 5 s
    wait for 128 bytes that never came, then "gave no tarantool answer". The bound is the ping's own timeout."""
    from ycsbctl.provision.external import PING_TIMEOUT_S, ExternalProvisioner

    listener, thread = _one_shot_server(greeting)
    with listener:
        url = f"tarantool://127.0.0.1:{listener.getsockname()[1]}"
        began = time.monotonic()
        with pytest.raises(UserError) as told:
            ExternalProvisioner().up(url)
        took = time.monotonic() - began
    thread.join(PING_TIMEOUT_S)
    assert took < PING_TIMEOUT_S / 2, took
    line = str(told.value)
    assert told.value.exit_code == 1 and "\n" not in line  # as a redis:// or mongodb:// URL at another store's port
    assert line.startswith(f"{url}: something answers there, but not as a tarantool server (") and said in line, line
    assert "gave no tarantool answer" not in line and "does not answer" not in line


def test_a_tarantool_url_at_sphinx_is_told_at_once_by_ping_and_by_the_binding(sphinx):
    """Sphinx's SphinxQL port greets first with a MySQL-protocol handshake: ``tarantool://`` there is told at once,
    by the probe and by the engine's own binding (its connect is bounded by the point's timeout, not waited out)."""
    from ycsbctl.provision.external import PING_TIMEOUT_S, ExternalProvisioner
    from ycsbctl.stores.binding import ConnectionLost
    from ycsbctl.stores.tarantool.binding import TarantoolBinding

    url = f"tarantool://127.0.0.1:{sphinx.url.rsplit(':', 1)[1]}"
    began = time.monotonic()
    with pytest.raises(UserError) as told:
        ExternalProvisioner().up(url)
    assert time.monotonic() - began < PING_TIMEOUT_S / 2
    assert "not a Tarantool server: it greeted with a MySQL-protocol handshake (MySQL, MariaDB or SphinxQL), " \
           "version '2.2." in str(told.value), told.value

    timeout_s = 10.0
    binding = TarantoolBinding(url, timeout_s, {})

    async def connect() -> float:
        began = time.monotonic()
        with pytest.raises(ConnectionLost, match="not a Tarantool server: it greeted with a MySQL-protocol"):
            await binding.connect()
        return time.monotonic() - began

    assert asyncio.run(connect()) < timeout_s / 4


def test_a_postgresql_url_at_tarantool_says_something_else_answers_there_not_tls(tarantool):
    """``postgresql://`` at Tarantool's port: asyncpg reads Tarantool's greeting as a refused SSL upgrade, which was
    said as "the connection failed (… rejected SSL upgrade)", a TLS matter. Now: not a PostgreSQL server, with what
    answered (Tarantool's own greeting), exit 1 as for any URL at another store's port."""
    from ycsbctl.provision.external import ExternalProvisioner

    url = f"postgresql://127.0.0.1:{tarantool.url.rsplit(':', 1)[1]}/ycsb"
    with pytest.raises(UserError) as told:
        ExternalProvisioner().up(url)
    line = str(told.value)
    assert told.value.exit_code == 1 and line.startswith(f"{url}: something answers there, but not as a postgresql "
                                                         "server (ConnectionError: not a PostgreSQL server: it "
                                                         "answered "
                                                         "PostgreSQL's opening request with b'Tarantool "), line
    assert "SSL" not in line and "TLS" not in line, line


def test_a_memcached_url_at_tarantool_is_told_at_once_naming_what_answered(tarantool):
    """``memcached://`` at Tarantool's port: its greeting is no memcached reply line (and ends lines with a bare
    newline), so the admin connection says so at once; was a 5 s wait for ``\\r\\n`` and "gave no memcached answer"."""
    from ycsbctl.provision.external import PING_TIMEOUT_S, ExternalProvisioner

    url = f"memcached://127.0.0.1:{tarantool.url.rsplit(':', 1)[1]}"
    began = time.monotonic()
    with pytest.raises(UserError) as told:
        ExternalProvisioner().up(url)
    assert time.monotonic() - began < PING_TIMEOUT_S / 2
    line = str(told.value)
    assert told.value.exit_code == 1 and line.startswith(f"{url}: something answers there, but not as a memcached "
                                                         "server (ConnectionError: not a memcached server: it sent "
                                                         "b'Tarantool "), line


def test_a_mongodb_url_at_tarantool_is_not_called_silent(tarantool):
    """``mongodb://`` at Tarantool's port: pymongo reads Tarantool's greeting as a reply to another request and waits
    out its server selection; the line said "gave no mongodb answer … stays silent so". Now: something answers
    there, but not as a mongodb server (the store's ping with a short timeout, then the probe's line for it)."""
    from ycsbctl.errors import short_error
    from ycsbctl.provision import probe
    from ycsbctl.stores import registry

    url = f"mongodb://127.0.0.1:{tarantool.url.rsplit(':', 1)[1]}/ycsb"
    with pytest.raises(ConnectionError) as failed:
        registry.for_url(url).ping(url, 0.3)
    line = str(probe.unanswered("mongodb", url, short_error(failed.value), 0.3))
    assert line.startswith(f"{url}: something answers there, but not as a mongodb server (ConnectionError: not a "
                           "MongoDB server: its reply to our ping is not the MongoDB wire protocol's (Got "
                           "response id"), line
    assert "silent" not in line


def test_a_mongodb_url_where_nothing_listens_is_not_called_another_kind_of_server():
    """Only a reply that is no MongoDB reply makes "not a MongoDB server": nothing listening at the port is pymongo's
    own error, which the probe says as "does not answer"."""
    from pymongo.errors import PyMongoError

    from ycsbctl.stores import registry

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # closed when the block ends: nothing listens there
    url = f"mongodb://127.0.0.1:{port}/ycsb"
    with pytest.raises(PyMongoError) as failed:
        registry.for_url(url).ping(url, 0.3)
    assert "not a MongoDB server" not in str(failed.value)

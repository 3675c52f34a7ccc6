"""One deadline per request or admin call, the whole reply included (stores/deadline.py and its users): against a
real server on loopback that answers every request with a valid reply one byte every 50 ms
(:class:`~tests.fixtures.slow_drip.SlowDrip`), so that every read of its socket succeeds inside any per-read
timeout while a whole reply takes tens of seconds. ``describe`` (through the CLI), the INFO sampler, the HTTP
stores' admin calls and a raw admin socket end at their deadline with one line naming the server, the call and the
deadline; the workload binding's request ends TIMEOUT at its timeout. Bounds are the configured deadline times the
requests the server was sent, plus slack for start-up: never an absolute speed."""

from __future__ import annotations

import asyncio
import socket
import time

import pytest

from tests.fixtures.cli import run_cli
from tests.fixtures.slow_drip import DRIP_S, SlowDrip, http_reply, mysql_greeting, resp_reply
from tests.fixtures.waiting import wait_until
from ycsbctl.stores.binding import Status
from ycsbctl.stores.deadline import Deadline, DeadlinePassed, recv, sendall

SLACK_S = 10.0  # what a CLI run does besides its calls to the server, on a busy host
def _whole_s(reply: bytes) -> float:
    """What waiting for the whole of ``reply`` takes at the drip (s): a call its deadline ends takes less, however
    fast the host (the drip's pace is the server's sleep, not the host's speed)."""
    return len(reply) * DRIP_S


INFO_REPLY_S = _whole_s(resp_reply([b"INFO"]))  # what waiting for the whole INFO reply would take


@pytest.fixture(scope="module")
def resp():
    with SlowDrip("resp") as d:
        yield d


def test_describe_of_a_server_dripping_its_info_ends_at_the_deadline_with_one_line(resp):
    from ycsbctl.provision.external import PING_TIMEOUT_S

    before = resp.requests
    t0 = time.monotonic()
    # ?protocol=2: redis-py's RESP2 handshake (no HELLO), so that the run reaches describe's INFO sooner; the command
    # in this process (its imports done): a traceback would raise here
    r = run_cli("load", "workload-b", "--target", f"{resp.url}/0?protocol=2", "-p", "recordcount=10")
    took = time.monotonic() - t0
    line = f"redis at 127.0.0.1:{resp.port} did not finish its INFO reply within 5 s"
    assert r.exit_code == 1, r.output  # as a server that does not answer
    assert [x for x in r.output.splitlines() if "did not finish" in x] == [
        f"redis-127-0-0-1-{resp.port}: skipped — {line}: the server answers, but too slowly to be measured: check its "
        "load and the network to it, or that the port is the store's"], r.output
    sent = resp.requests - before  # each bounded by its deadline (5 s: PING_TIMEOUT_S, describe's)
    assert took < sent * PING_TIMEOUT_S + SLACK_S < INFO_REPLY_S, (took, sent)
    wait_until(lambda: resp.connections == 0, 10, "every connection of the run closed")  # nothing left running


def test_the_info_sampler_stops_at_its_deadline_saying_which_server_and_call(resp):
    from ycsbctl.stores.redis.info import RedisInfoSampler

    sampler = RedisInfoSampler(f"{resp.url}/0?protocol=2", 0.2)
    sampler.timeout_s = 1.0
    before, t0 = resp.requests, time.monotonic()
    sampler.start()
    sampler.stop()
    took, sent = time.monotonic() - t0, resp.requests - before
    assert sampler.warning == (f"redis-info sampler stopped: redis at 127.0.0.1:{resp.port} did not finish its INFO "
                               "reply within 1 s")
    assert took < sent * sampler.timeout_s + 2.0, (took, sent)  # 2 s: the thread's start and end


def test_the_workload_bindings_request_ends_timeout_at_its_timeout_not_at_the_reply(resp):
    """The engine's binding: each request expires at its timeout (the watchdog), and the seed connection's CLUSTER
    SLOTS, asked before any watchdog runs, ends ConnectionLost at the same timeout with the deadline's line."""
    from ycsbctl.stores import registry
    from ycsbctl.stores.binding import ConnectionLost

    timeout_s = 0.5

    async def read_twice() -> list[tuple[Status, str | None, float]]:
        bs = await registry.open_bindings(resp.url, 1, {"redis.cluster": "false"}, timeout_s)  # no seed
        try:
            b, out = bs.bindings[0], []
            for _ in range(2):
                t0 = time.monotonic()
                st = await b.read("usertable", b"user1", None)
                out.append((st, b.last_error, time.monotonic() - t0))
            return out
        finally:
            await bs.close()

    reads = asyncio.run(read_twice())
    # the watchdog expires a request after timeout ±12 % (every timeout/8): a whole 100-byte record takes ~6 s
    assert [(st, said) for st, said, _ in reads] == [(Status.TIMEOUT, f"timed out after {timeout_s:g} s")] * 2
    # ended long before the record's whole reply could have dripped: the timeout ended it, at any host's speed
    assert all(timeout_s <= took < _whole_s(resp_reply([b"HGETALL", b"user1"])) for *_, took in reads), reads
    t0 = time.monotonic()
    with pytest.raises(ConnectionLost, match=f"^redis at 127.0.0.1:{resp.port} did not finish its CLUSTER SLOTS "
                                             "reply within 1 s$"):  # the seed's deadline: the timeout, 1 s at least
        asyncio.run(registry.open_bindings(resp.url, 1, {}, timeout_s))
    assert time.monotonic() - t0 < _whole_s(resp_reply([b"CLUSTER", b"SLOTS"]))  # not the whole error's drip


@pytest.mark.parametrize("store", ["elasticsearch", "clickhouse"])
def test_an_http_stores_admin_call_ends_at_its_deadline_naming_the_call(store):
    from ycsbctl.stores.clickhouse.admin import query
    from ycsbctl.stores.elasticsearch.admin import call

    with SlowDrip("http") as d:
        url = f"{store}://127.0.0.1:{d.port}"
        t0 = time.monotonic()
        with pytest.raises(DeadlinePassed) as err:
            call(url, "GET", "/_stats",
                 timeout_s=1.0) if store == "elasticsearch" else query(url, "SELECT version()", 1.0)
        took = time.monotonic() - t0
    said = "GET /_stats" if store == "elasticsearch" else "SELECT version()"
    assert str(err.value) == f"{store} at 127.0.0.1:{d.port} did not finish its {said} reply within 1 s"
    assert 1.0 <= took < _whole_s(http_reply(b"")), took  # the deadline, not the whole reply's drip


def test_a_raw_admin_socket_reads_no_longer_than_the_deadline_leaves_and_tells_silence_apart(resp):
    """memcached's and Tarantool's admin connections read through deadline.recv: each read waits what is left;
    a server that sent part of a reply is told apart from one that sent nothing."""
    with socket.create_connection(("127.0.0.1", resp.port), timeout=5) as sock:
        d = Deadline(1.0, "redis at the drip", "INFO")
        sendall(sock, b"*1\r\n$4\r\nINFO\r\n", d)
        got, t0 = b"", time.monotonic()
        with pytest.raises(DeadlinePassed,
                           match="^redis at the drip did not finish its INFO reply within 1 s$") as part:
            while True:
                got += recv(sock, d)
        assert time.monotonic() - t0 < INFO_REPLY_S  # not the whole reply's drip
        assert part.value.got == len(got) > 0  # bytes came, each read in time, the whole reply did not
    with socket.socket() as silent:  # a listener that never says a byte: no "did not finish", a silence
        silent.bind(("127.0.0.1", 0))
        silent.listen()
        with socket.create_connection(silent.getsockname(), timeout=5) as sock:
            d = Deadline(0.3, "memcached at the listener", "version")
            with pytest.raises(DeadlinePassed, match="^memcached at the listener timed out: no reply to version "
                                                     "within 0.3 s$") as err:
                recv(sock, d)
    assert err.value.got == 0



def test_a_librarys_own_shorter_wait_on_a_deadline_socket_is_its_own_timeout_not_the_deadline():
    """DeadlineSocket (redis-py's admin socket): a read the library bounds with a timeout of its own shorter than the
    call's deadline ends at the library's timeout as the library's own ``TimeoutError`` — not a DeadlinePassed saying
    a deadline of 30 s passed after a fraction of a second — and so does a read made before any request (no deadline
    yet). A listener that never says a byte; the library's 0.2 s is far inside the 30 s deadline at any speed."""
    from ycsbctl.stores.deadline import DeadlineSocket
    from ycsbctl.stores.redis.admin import command_name

    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen()
        with socket.create_connection(silent.getsockname(), timeout=5) as sock:
            wrapped = DeadlineSocket(sock, "redis at the listener", 30.0, command_name)
            wrapped.settimeout(0.2)  # the library's own wait
            with pytest.raises(TimeoutError) as before:
                wrapped.recv(16)  # no request yet: no deadline
            assert not isinstance(before.value, DeadlinePassed)
            wrapped.sendall(b"*1\r\n$4\r\nPING\r\n")  # a request: its deadline starts
            assert wrapped.deadline is not None and wrapped.deadline.call == "PING"
            t0 = time.monotonic()
            with pytest.raises(TimeoutError) as own:
                wrapped.recv(16)
            assert not isinstance(own.value, DeadlinePassed), str(own.value)
            assert time.monotonic() - t0 < 30.0 and wrapped.gettimeout() == 0.2  # the library's timeout kept

def test_a_pymysql_admin_connection_ends_at_its_deadline_while_the_greeting_drips():
    """Sphinx's and MariaDB's admin calls (stores/mysql_admin.py): PyMySQL's read_timeout alone would read the
    greeting byte by byte for as long as it comes."""
    import pymysql

    from ycsbctl.stores.sphinx.admin import query

    with SlowDrip("mysql") as d:
        t0 = time.monotonic()
        with pytest.raises(pymysql.err.OperationalError) as err:
            query(f"sphinx://127.0.0.1:{d.port}", "SHOW STATUS", 1.0)
        took = time.monotonic() - t0
    assert err.value.args == (2013, f"sphinx at 127.0.0.1:{d.port} did not finish its handshake reply within 1 s")
    assert 1.0 <= took < _whole_s(mysql_greeting()), took  # not the whole greeting's drip



def test_a_mariadb_admin_statement_past_its_deadline_is_named_by_its_first_two_words(mariadb):
    """A real MariaDB answering ``SELECT SLEEP(5)`` no sooner than 5 s after it is asked, with a deadline of 1 s: the
    line names the server and the statement by its first two words as sent (the call a user recognises), never the
    first word alone."""
    from urllib.parse import urlsplit

    import pymysql

    from ycsbctl.stores.mariadb.session import query

    parts = urlsplit(mariadb.url)
    with pytest.raises(pymysql.err.OperationalError) as err:
        query(mariadb.url, "SELECT   SLEEP(5) AS waited", 1.0)
    assert err.value.args == (2013, f"mariadb at {parts.hostname}:{parts.port} timed out: no reply to SELECT "
                                    "SLEEP(5) within 1 s")

def test_a_deadline_no_caller_said_ends_any_command_in_one_line_exit_1(resp):
    """The CLI's last word (cli._Group.invoke): an admin call past its deadline where no caller turned it into a
    line of its own is one ``error:`` line and exit 1, as a server that does not answer; never a traceback."""
    import click
    from click.testing import CliRunner

    from ycsbctl.cli import _Group
    from ycsbctl.stores.redis.admin import client

    @click.group(cls=_Group)
    def cli() -> None:
        pass

    @cli.command()
    def info() -> None:
        client(f"{resp.url}/0?protocol=2", 0.5).info()

    r = CliRunner().invoke(cli, ["info"])
    assert (r.exit_code, r.output) == (1, f"error: redis at 127.0.0.1:{resp.port} did not finish its "
                                          "INFO reply within 0.5 s\n"), r.output


def _wrapped(deadline: DeadlinePassed, times: int) -> BaseException:
    """``deadline`` wrapped ``times`` times as libraries wrap errors: by turns ``raise … from`` it (its cause) and a
    new error raised while handling it (its context)."""
    err: BaseException = deadline
    for i in range(times):
        try:
            try:
                raise err
            except BaseException:
                if i % 2:
                    raise TimeoutError(f"a library's own timeout ({i})")  # noqa: B904 - the context is the point
                raise ConnectionError(f"a library's wrapper ({i})") from err
        except (TimeoutError, ConnectionError) as exc:
            err = exc
    return err


def test_a_passed_deadline_is_found_within_8_links_of_a_wrapped_errors_chain_and_a_looping_chain_ends():
    """``passed_in`` finds the deadline that a library's errors wrap, through causes and contexts alike, up to the
    8 links its docstring says (the error and 7 behind it), and no further; a chain that loops back ends (None)."""
    from ycsbctl.stores.deadline import passed_in

    deadline = DeadlinePassed("redis at 127.0.0.1:6390 did not finish its INFO reply within 5 s")
    for times in range(8):  # 1 .. 8 links
        assert passed_in(_wrapped(deadline, times)) is deadline, times
    assert passed_in(_wrapped(deadline, 8)) is None  # 9 links: past the bound
    a, b = ConnectionError("a"), TimeoutError("b")
    a.__context__, b.__cause__ = b, a
    assert passed_in(a) is None

"""The yardstick's workload and its timing: FNV-1a against the published vectors, round trips counted by the
server that echoed them, and a real reading whose figures hang together and whose processes are gone."""

from __future__ import annotations

import contextlib
import os
import socket
import threading
import time

import psutil
import pytest

from tests.fixtures.docs import docs_page
from ycsbctl.results.yardstick import speed_of
from ycsbctl.telemetry import yardstick, yardstick_child


def test_fnv1a_64_gives_the_published_test_vectors():
    # FNV-1a 64 test vectors (draft-eastlake-fnv, the reference code's test suite)
    assert yardstick_child.fnv1a_64(b"") == 0xCBF29CE484222325
    assert yardstick_child.fnv1a_64(b"a") == 0xAF63DC4C8601EC8C
    assert yardstick_child.fnv1a_64(b"foobar") == 0x85944171F73967E8
    # continuing from a hash is hashing the concatenation
    assert yardstick_child.fnv1a_64(b"bar", yardstick_child.fnv1a_64(b"foo")) == 0x85944171F73967E8


def test_the_cpu_work_hashes_the_fixed_buffer_its_passes_times():
    done = yardstick_child.cpu_work(passes=2)
    buf = yardstick_child.BUFFER
    assert done["bytes"] == 2 * len(buf) == 2 * 65536
    assert done["hash"] == yardstick_child.fnv1a_64(buf + buf)
    assert done["cpu_s"] > 0 and done["elapsed_s"] > 0


def test_round_trips_are_the_messages_an_echo_server_counted():
    """37 round trips over 4 connections: the server (a thread per connection, counting) got 37 messages."""
    got: list[bytes] = []
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen(8)

        def serve(c: socket.socket) -> None:
            with c:
                while data := c.recv(4096):
                    got.append(data)
                    c.sendall(data)

        def accept() -> None:
            for _ in range(4):
                threading.Thread(target=serve, args=(s.accept()[0],)).start()

        t = threading.Thread(target=accept)
        t.start()
        done = yardstick_child.round_trips(s.getsockname()[1], 37, connections=4)
        t.join(timeout=10)
    assert done["trips"] == 37 and done["connections"] == 4
    assert b"".join(got) == yardstick_child.MESSAGE * 37
    # each round trip is inside the time all of them took; the median one is no longer than all of them
    assert 0 < done["median_us"] * 1e-6 <= done["elapsed_s"]


class _CountingEcho:
    """An echo server of the test's own on loopback, a thread per connection: it counts the messages each connection
    sent (the truth the yardstick's figures are checked against) and holds back its reply to the ``slow``-th message
    of the whole run by ``delay_s`` seconds."""

    def __init__(self, slow: int = 0, delay_s: float = 0.0) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(8)
        self.port = int(self.sock.getsockname()[1])
        self.per_connection: list[int] = []
        self.slow, self.delay_s, self.seen = slow, delay_s, 0
        self.lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                c, _ = self.sock.accept()
            except OSError:  # closed: the test is over
                return
            with self.lock:
                self.per_connection.append(0)
                slot = len(self.per_connection) - 1
            threading.Thread(target=self._serve, args=(c, slot), daemon=True).start()

    def _serve(self, c: socket.socket, slot: int) -> None:
        size = len(yardstick_child.MESSAGE)
        with c:
            pending = b""
            while data := c.recv(4096):
                pending += data
                while len(pending) >= size:
                    message, pending = pending[:size], pending[size:]
                    with self.lock:
                        self.per_connection[slot] += 1
                        self.seen += 1
                        held = self.seen == self.slow
                    if held:
                        time.sleep(self.delay_s)
                    c.sendall(message)

    def close(self) -> None:
        self.sock.close()


def test_fewer_trips_than_connections_are_timed_on_as_many_connections_as_carried_one():
    """Two round trips asked of the client's four connections: the server counted two messages, on two connections,
    and the reading's mean round trip is the time of the whole loop × the connections that carried a trip ÷ the
    trips (one outstanding on each throughout), from the server's own counts. With 37 trips all four carried some."""
    cpu = [yardstick_child.cpu_work(passes=1)]
    for trips, busy in ((2, 2), (3, 3), (37, 4)):
        server = _CountingEcho()
        try:
            done = yardstick_child.round_trips(server.port, trips)  # CONNECTIONS (4) connections
        finally:
            server.close()
        carried = [n for n in server.per_connection if n]
        assert sum(server.per_connection) == done["trips"] == trips and len(carried) == busy == done["connections"]
        r = yardstick.reading_of(cpu, done, 1.0)
        assert r.rtt_us == pytest.approx(1e6 * done["elapsed_s"] * len(carried) / sum(carried), rel=1e-12)
        assert r.rtt_median_us == done["median_us"]


def test_the_median_round_trip_is_the_middle_of_the_sorted_trips_not_of_the_order_they_came_in():
    """Five round trips on one connection, the server holding back its reply to the third by 0.3 s: that trip is the
    longest, so the median is one of the four others. The five took ``elapsed`` together, the held one at least
    0.3 s, so the sorted middle one is at most (elapsed − 0.3 s) ÷ 2 (it and the fourth fit in what the held one and
    the two shortest leave); the third as it came is the held one itself."""
    delay_s = 0.3
    server = _CountingEcho(slow=3, delay_s=delay_s)
    try:
        done = yardstick_child.round_trips(server.port, 5, connections=1)
    finally:
        server.close()
    assert done["trips"] == 5 == sum(server.per_connection) and done["elapsed_s"] >= delay_s
    assert done["median_us"] <= (done["elapsed_s"] - delay_s) * 1e6 / 2


def test_one_held_round_trip_is_its_own_median_in_microseconds():
    """One round trip whose reply the server holds back 0.3 s: the median is that trip, so at least the 0.3 s
    (300,000 µs) and no longer than the whole reading."""
    server = _CountingEcho(slow=1, delay_s=0.3)
    try:
        done = yardstick_child.round_trips(server.port, 1, connections=1)
    finally:
        server.close()
    assert done["trips"] == 1 and 0.3e6 <= done["median_us"] <= done["elapsed_s"] * 1e6


def test_the_echo_server_serves_every_connection_and_ends_with_the_last():
    import subprocess
    import sys

    echo = subprocess.Popen([sys.executable, "-I", "-S", str(yardstick.CHILD), "echo", "-1"], stdout=subprocess.PIPE,
                            stdin=subprocess.PIPE, text=True)
    assert echo.stdout is not None and echo.stdin is not None
    port = int(echo.stdout.readline())
    done = yardstick_child.round_trips(port, 50, connections=3)
    assert done["trips"] == 50 and done["connections"] == 3
    assert echo.wait(timeout=10) == 0  # all three closed: it ended by itself
    echo.stdin.close()


@pytest.mark.parametrize("mode", ["cpu", "rtt"])
@pytest.mark.parametrize("told", ["", "stop\n"], ids=["pipe-closed", "another-word"])
def test_a_child_not_told_go_takes_no_reading_and_ends_quietly(mode: str, told: str):
    """A CPU or round-trip process waits for ``go`` (the module's protocol: ycsbctl sends it, or closes the pipe when
    it stops or is killed): its pipe closed before it, or another word, is no go. It ends with exit status 1, having
    printed only ``ready`` (no reading: no JSON line, no work done) and nothing on stderr (no traceback)."""
    import subprocess
    import sys

    r = subprocess.run([sys.executable, "-I", "-S", str(yardstick.CHILD), mode, "-1"], input=told,
                       capture_output=True, text=True, timeout=30)
    assert (r.returncode, r.stdout, r.stderr) == (1, "ready\n", "")


def test_every_yardstick_process_ends_when_the_ycsbctl_that_started_it_is_killed():
    """A process taking readings in a loop is killed (SIGKILL: nothing of it runs after) as soon as its echo
    server listens, before any round trip (the echo once waited for a connection that never came, for ever): every
    process it started is gone shortly after, as the kernel's process table (psutil) lists them."""
    import signal
    import subprocess
    import sys

    from tests.fixtures.cli import env
    from tests.fixtures.waiting import wait_until

    code = "from ycsbctl.telemetry import yardstick\nwhile True:\n    yardstick.measure()\n"
    parent = subprocess.Popen([sys.executable, "-c", code], env=env(), stdout=subprocess.DEVNULL)

    kids: list[psutil.Process] = []
    try:
        listed: list[tuple[list[psutil.Process], list[list[str]]]] = []

        def echo_listening() -> bool:  # its port printed (it listens first), no round trip begun
            assert parent.poll() is None
            # its own processes, listed with their command lines in one pass (a reading that ends meanwhile takes its
            # echo with it: the next pass lists the next reading's), never another test's yardstick started since
            kids = psutil.Process(parent.pid).children(recursive=True)
            lines = []
            for k in kids:
                with contextlib.suppress(psutil.Error):
                    line = k.cmdline()
                    if "echo" in line and {c.status for c in k.net_connections("tcp")} == {psutil.CONN_LISTEN}:
                        lines.append(line)
            listed[:] = [(kids, lines)]
            return bool(lines)

        wait_until(echo_listening, 30, "the yardstick's echo server listening, not yet served", 0.001)
        (kids, lines), = listed
        parent.send_signal(signal.SIGKILL)
        parent.wait()
        assert any(str(yardstick.CHILD) in line for line in lines), (kids, lines)

        def all_gone() -> bool:
            return not [k for k in kids if k.is_running() and k.status() != psutil.STATUS_ZOMBIE]

        wait_until(all_gone, 5, "every yardstick process gone after its parent was killed")
    finally:
        if parent.poll() is None:  # the wait for its echo failed: the loop goes too
            parent.kill()
        parent.wait()
        for k in kids:
            with contextlib.suppress(psutil.Error):
                k.kill()


def test_a_reading_hangs_together_and_leaves_no_process_behind():
    before = {p.pid for p in psutil.Process().children(recursive=True)}
    r = yardstick.measure(trips=200)
    conns = yardstick_child.CONNECTIONS
    assert r.cpus == min(len(os.sched_getaffinity(0)), yardstick.MAX_CPUS)
    assert r.speed == pytest.approx(speed_of(r.cpu_ops_per_s, r.rtt_us))
    assert 0 < r.cpu_share <= 1
    # the 200 round trips, 4 at a time, took part of the reading's wall time; the median trip is positive
    assert 0 < 200 / conns * r.rtt_us * 1e-6 < r.seconds
    assert r.rtt_median_us > 0
    assert {p.pid for p in psutil.Process().children(recursive=True)} <= before


def test_a_process_allowed_one_cpu_takes_its_reading_on_that_cpu():
    """On a host (or a cgroup) that gives this process one CPU, every yardstick process runs on that CPU: one
    CPU process, and the echo server beside the client on it."""
    mine = os.sched_getaffinity(0)
    os.sched_setaffinity(0, {min(mine)})
    try:
        r = yardstick.measure(trips=40)
    finally:
        os.sched_setaffinity(0, mine)
    assert r.cpus == 1 and r.rtt_us > 0 and r.cpu_ops_per_s > 0


def test_a_host_of_more_cpus_than_the_cap_takes_its_reading_over_eight(monkeypatch):
    """A host that lets this process use more CPUs than :data:`MAX_CPUS` gets 8 CPU processes, not one per CPU.
    A reading's ``cpus`` is kept in yardstick.parquet, and compare divides out no host factor between readings over
    different counts (``results.yardstick.untrusted``): a big host's folders compare only while the cap stays 8.
    The big host is this one's CPUs listed over again: the processes run, several pinned to each real CPU."""
    mine = sorted(os.sched_getaffinity(0))
    monkeypatch.setattr(yardstick, "usable_cpus", lambda: (mine * 12)[:12])
    r = yardstick.measure(trips=40)
    assert r.cpus == 8 and r.cpu_ops_per_s > 0


def test_the_docs_describe_the_yardstick_it_runs():
    page = docs_page("studies/comparison.md")  # How sure is this?
    said = " ".join(page.split("**The host yardstick**", 1)[1].split("\n- **", 1)[0].split())
    assert f"a fixed {len(yardstick_child.BUFFER) // 1024} KiB buffer" in said
    assert f"{yardstick.TRIPS} round trips of {len(yardstick_child.MESSAGE)} bytes" in said
    assert f"over {yardstick_child.CONNECTIONS} connections" in said
    assert "yardstick.parquet" in said and "python -m bench yardstick" in said

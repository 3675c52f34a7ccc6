"""The iperf3 baseline against iperf3's own JSON: the server side of the same test, read by the test.

``iperf3 -s -1 -J`` prints, when its one test ends, what it received; ``run_client`` must report
that rate in Gbit/s (10^9 bit/s, not bytes, not GiB).
"""

from __future__ import annotations

import json
import subprocess
import time

import psutil
import pytest

from tests.fixtures.servers import free_port
from ycsbctl.errors import UserError
from ycsbctl.telemetry.network import parse_server, run_client
from ycsbctl.urls import host_of, is_loopback

pytestmark = pytest.mark.truth


def _listening(proc: subprocess.Popen, port: int, timeout_s: float = 10.0) -> None:
    deadline = time.monotonic() + timeout_s
    while not any(c.status == psutil.CONN_LISTEN and c.laddr.port == port
                  for c in psutil.Process(proc.pid).net_connections("tcp")):
        assert time.monotonic() < deadline and proc.poll() is None, "iperf3 -s did not listen"
        time.sleep(0.01)


def _baseline_against_a_one_off_server(iperf3: str, duration_s: float) -> tuple:
    """``run_client`` for ``duration_s`` against an ``iperf3 -s -1 -J`` of our own: (its result, the
    server's own JSON report, the server's port)."""
    port = free_port()
    server = subprocess.Popen([iperf3, "-s", "-1", "-J", "-B", "127.0.0.1", "-p", str(port)],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        _listening(server, port)
        b = run_client("127.0.0.1", port, duration_s)
        out, _ = server.communicate(timeout=30)
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
    return b, json.loads(out), port


def test_baseline_is_the_rate_iperf3s_server_received_in_gbit_s(iperf3):
    b, doc, port = _baseline_against_a_one_off_server(iperf3, 1.0)
    received = doc["end"]["sum_received"]
    truth_gbit_s = 8 * received["bytes"] / received["seconds"] / 1e9  # bytes the server got, over its seconds
    # The client's receiver-side figure is the server's own count of the same transfer: equal, not close.
    assert b.gbit_s == pytest.approx(truth_gbit_s, rel=1e-9)
    assert b.gbit_s == pytest.approx(received["bits_per_second"] / 1e9, rel=1e-9)
    assert b.server == f"127.0.0.1:{port}" and b.duration_s == 1.0
    assert doc["start"]["test_start"]["duration"] == 1  # the seconds asked for are the seconds iperf3 ran
    assert isinstance(b.retransmits, int) and b.retransmits >= 0  # the sender's count, read from its side


@pytest.mark.parametrize(("url", "host"), [
    ("redis://127.0.0.1:6379/0", "127.0.0.1"), ("redis://:secret@10.0.0.5:6380/0", "10.0.0.5"),
    ("redis://user:p@ss@db.example:6379", "db.example"), ("mongodb://u:p@h1:27017,h2:27017/ycsb", "h1"),
    ("redis://[::1]:6379/0", "::1"), ("mongodb://db.example/ycsb", "db.example"), ("basic://", None)])
def test_the_baseline_is_measured_to_the_host_of_the_url(url, host):
    assert host_of(url) == host


@pytest.mark.parametrize(("host", "loopback"), [
    ("127.0.0.1", True), ("127.0.0.2", True), ("::1", True), ("localhost", True), ("10.0.0.1", False),
    ("db.example", False), ("", False), (None, False)])
def test_loopback_hosts_are_measured_on_this_host(host, loopback):
    assert is_loopback(host) is loopback


@pytest.mark.parametrize("spec", [":5201", "host:port", "host:52o1"])
def test_a_bad_iperf_server_is_a_user_error(spec):
    with pytest.raises(UserError, match="give host or host:port"):
        parse_server(spec)


@pytest.mark.speed
def test_loopback_rates_times_their_intervals_are_the_bytes_the_counters_moved():
    import socket

    from ycsbctl.telemetry.network import InterfaceNetSampler

    sampler = InterfaceNetSampler("lo", interval_s=0.2)
    before = psutil.net_io_counters(pernic=True)["lo"]
    with socket.create_server(("127.0.0.1", 0)) as srv:
        sampler.start()
        deadline = time.monotonic() + 10
        while not sampler.rows:
            assert time.monotonic() < deadline
            time.sleep(0.01)
        first = len(sampler.rows)
        with socket.create_connection(srv.getsockname()) as c, srv.accept()[0] as peer:
            for _ in range(64):  # 4 MiB, each 64 KiB read back before the next
                c.sendall(b"x" * 65536)
                got = 0
                while got < 65536:
                    got += len(peer.recv(65536))
        while len(sampler.rows) < first + 2:
            assert time.monotonic() < deadline + 10
            time.sleep(0.01)
        frame = sampler.stop()
    after = psutil.net_io_counters(pernic=True)["lo"]
    t = frame["t_mono"].to_numpy()
    for column, counted in (("net_bytes_per_s", after.bytes_sent - before.bytes_sent),
                            ("net_recv_bytes_per_s", after.bytes_recv - before.bytes_recv)):
        rate = frame[column].to_numpy()
        moved = float(sum(rate[i] * (t[i] - t[i - 1]) for i in range(first, len(frame))))
        # The transfer happened after the first sample; other processes may use lo too, never less.
        assert 64 * 65536 <= moved <= 1.05 * counted, column


def test_the_interface_sampler_runs_at_1_hz_like_every_sampler():
    from ycsbctl.telemetry.network import InterfaceNetSampler

    assert InterfaceNetSampler().interval_s == 1.0 and InterfaceNetSampler().source == "net-lo"


def test_a_run_shorter_than_a_second_asks_iperf3_for_one_whole_second(iperf3):
    b, doc, _ = _baseline_against_a_one_off_server(iperf3, 0.4)
    assert doc["start"]["test_start"]["duration"] == 1  # iperf3's own record of the seconds asked
    assert b.gbit_s is not None and b.gbit_s > 0


def test_listening_is_read_from_the_process_own_listening_socket_on_that_port():
    import sys

    from ycsbctl.telemetry.network import _wait_listening

    code = ("import socket, time; s = socket.create_server(('127.0.0.1', 0)); "
            "print(s.getsockname()[1], flush=True); time.sleep(30)")
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    try:
        port = int(proc.stdout.readline())
        assert _wait_listening(proc, port)
        other = free_port()
        # Its socket listens on another port: not the one asked for, and the wait ends while it still runs.
        assert not _wait_listening(proc, other, timeout_s=0.3)
        assert proc.poll() is None
    finally:
        proc.kill()
        proc.wait()
        proc.stdout.close()


def test_a_skipped_baseline_measured_nothing_for_no_time(iperf3):
    from ycsbctl.provision.base import Endpoint
    from ycsbctl.telemetry.network import iperf_baseline

    b = iperf_baseline(Endpoint(target="redis", protocol="redis", url="redis://db.example:6379/0", backend="external"))
    assert (b.gbit_s, b.server, b.duration_s, b.retransmits) == (None, None, 0.0, None)  # another host: skipped


def test_a_failed_baseline_says_iperf3s_own_error(iperf3):
    port = free_port()  # nothing listens: iperf3 cannot connect
    own = json.loads(subprocess.run([iperf3, "-c", "127.0.0.1", "-p", str(port), "-t", "1", "-J"],
                                    capture_output=True, text=True, timeout=30).stdout)["error"]
    b = run_client("127.0.0.1", port, 1.0)
    assert own and b.gbit_s is None and b.note == f"iperf3 against 127.0.0.1:{port} failed: {own}"


def test_a_baseline_asks_for_3_seconds_unless_told_otherwise(iperf3, monkeypatch):
    from ycsbctl.errors import UserError
    from ycsbctl.provision.base import Endpoint
    from ycsbctl.telemetry.network import BASELINE_S_ENV, baseline_seconds, iperf_baseline, iperf_baseline_for

    monkeypatch.delenv(BASELINE_S_ENV, raising=False)
    port = free_port()  # nothing listens: it fails at once, with the seconds it asked for
    b = iperf_baseline(Endpoint(target="redis", protocol="redis", url="redis://db.example:6379/0", backend="external"),
                       iperf_server=f"127.0.0.1:{port}")
    assert b.gbit_s is None and b.duration_s == 3.0
    assert iperf_baseline_for("redis://db.example:6379/0", iperf_server=f"127.0.0.1:{port}").duration_s == 3.0
    monkeypatch.setenv(BASELINE_S_ENV, "2")  # told otherwise
    assert iperf_baseline_for("redis://db.example:6379/0", iperf_server=f"127.0.0.1:{port}").duration_s == 2
    for bad in ("0", "1.5", "ten", "61"):
        monkeypatch.setenv(BASELINE_S_ENV, bad)
        with pytest.raises(UserError, match=f"{BASELINE_S_ENV}='{bad}': give whole seconds"):
            baseline_seconds()


def test_baseline_seconds_take_whole_seconds_from_1_to_60_and_refuse_the_rest(monkeypatch) -> None:
    from ycsbctl.errors import UserError
    from ycsbctl.telemetry.network import BASELINE_S_ENV, baseline_seconds

    for given, seconds in (("1", 1), ("60", 60), (" 7 ", 7)):
        monkeypatch.setenv(BASELINE_S_ENV, given)
        assert baseline_seconds() == seconds
    for given in ("0", "61", "2.5", "-3", "x"):
        monkeypatch.setenv(BASELINE_S_ENV, given)
        with pytest.raises(UserError, match="from 1 to 60"):
            baseline_seconds()


def test_an_interfaces_rates_are_its_own_counters_sent_and_received_over_the_time_between_reads(monkeypatch) -> None:
    """A NIC's counters and the clock given by the test (received ≠ sent, as on any interface but lo): each rate its
    own counter's change over the seconds between the reads; two reads at the same instant say nothing."""
    from types import SimpleNamespace

    from ycsbctl.telemetry import network

    reads = iter([(10.0, 1_000, 5_000), (12.0, 3_000, 11_000), (12.0, 9_000, 99_000)])

    def counters(pernic: bool):
        t, recv, sent = next(reads)
        clock[0] = t
        return {"eth9": SimpleNamespace(bytes_recv=recv, bytes_sent=sent)}

    clock = [0.0]
    monkeypatch.setattr(network.psutil, "net_io_counters", counters)
    monkeypatch.setattr(network.time, "monotonic", lambda: clock[0])
    sampler = network.InterfaceNetSampler("eth9")
    sampler.prime()
    assert sampler.sample() == {"net_bytes_per_s": 3_000.0, "net_recv_bytes_per_s": 1_000.0}
    assert sampler.sample() == {"net_bytes_per_s": None, "net_recv_bytes_per_s": None}

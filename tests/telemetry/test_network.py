"""The iperf3 baseline on loopback, its skips and notes, the `ycsbctl iperf` command, and `lo` counters."""

from __future__ import annotations

import socket
import subprocess
import time

import psutil
import pytest
from click.testing import CliRunner

from tests.fixtures.servers import free_port
from ycsbctl.cli import main
from ycsbctl.provision.base import Endpoint
from ycsbctl.telemetry.network import InterfaceNetSampler, iperf_baseline, parse_server

DURATION_S = 1


def _ep(url: str, backend: str = "external") -> Endpoint:
    return Endpoint(target="redis", protocol="redis", url=url, backend=backend)


@pytest.mark.speed
def test_loopback_baseline_is_a_positive_gbit_s(iperf3):
    before = psutil.net_io_counters(pernic=True)["lo"].bytes_sent
    b = iperf_baseline(_ep("redis://127.0.0.1:6379/0", "local"), duration_s=DURATION_S)
    moved = psutil.net_io_counters(pernic=True)["lo"].bytes_sent - before
    # what iperf3 says it sent over its DURATION_S went through lo (the kernel's count: payload and headers,
    # and whatever else used lo meanwhile, never less)
    assert 0 < b.gbit_s * 1e9 / 8 * DURATION_S <= 1.05 * moved, (b.gbit_s, moved)
    assert b.server.startswith("127.0.0.1:") and "loopback" in b.note
    assert b.to_dict()["gbit_s"] == b.gbit_s


def test_docker_baseline_says_the_container_uses_host_networking(iperf3):
    b = iperf_baseline(_ep("redis://127.0.0.1:6379/0", "docker"), duration_s=DURATION_S)
    assert b.gbit_s > 0 and "host networking" in b.note


def test_a_named_iperf_server_is_measured(iperf3):
    port = free_port()
    server = subprocess.Popen([iperf3, "-s", "-1", "-B", "127.0.0.1", "-p", str(port)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 10
        # Wait for the listening socket without connecting (a probe would use up `-1`).
        while not any(c.status == psutil.CONN_LISTEN for c in psutil.Process(server.pid).net_connections("tcp")):
            assert time.monotonic() < deadline and server.poll() is None, "iperf3 -s did not listen"
            time.sleep(0.02)
        b = iperf_baseline(_ep("redis://db.example:6379/0"), DURATION_S, iperf_server=f"127.0.0.1:{port}")
    finally:
        server.kill()
        server.wait()
    assert b.gbit_s > 0 and f"127.0.0.1:{port}" in b.note


def test_external_host_without_iperf_server_is_skipped_with_a_note(iperf3):
    b = iperf_baseline(_ep("redis://db.example:6379/0"))
    assert b.gbit_s is None and "--iperf-server" in b.note


def test_missing_iperf3_skips_with_the_install_hint(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))
    b = iperf_baseline(_ep("redis://127.0.0.1:6379/0", "local"))
    assert b.gbit_s is None and "apt-get install iperf3" in b.note


def test_unreachable_iperf_server_is_a_note_not_an_error(iperf3):
    b = iperf_baseline(_ep("redis://db.example:6379/0"), DURATION_S, iperf_server=f"127.0.0.1:{free_port()}")
    assert b.gbit_s is None and "failed" in b.note


def test_basic_has_no_network_to_measure():
    assert iperf_baseline(Endpoint(target="basic", protocol="basic", url="basic://", backend="external")) is None


def test_iperf_server_spec_is_host_and_optional_port():
    assert parse_server("10.0.0.5") == ("10.0.0.5", 5201)
    assert parse_server("10.0.0.5:5202") == ("10.0.0.5", 5202)


def test_cli_iperf_prints_gbit_s_for_a_loopback_url(iperf3):
    res = CliRunner().invoke(main, ["iperf", "redis://127.0.0.1:6379", "--duration", "1"])
    assert res.exit_code == 0, res.output
    assert " Gbit/s" in res.output and float(res.output.split()[0]) > 0


def test_cli_iperf_explains_why_an_external_host_is_skipped(iperf3):
    res = CliRunner().invoke(main, ["iperf", "mongodb://db.example:27017/ycsb"])
    assert res.exit_code == 1 and "error: " in res.output and "--iperf-server" in res.output


def test_cli_iperf_rejects_a_bad_iperf_server():
    res = CliRunner().invoke(main, ["iperf", "redis://db.example", "--iperf-server", "host:port"])
    assert res.exit_code == 2 and "--iperf-server 'host:port'" in res.output


def test_loopback_counters_see_bytes_we_send():
    sampler = InterfaceNetSampler("lo", interval_s=0.25)
    with socket.create_server(("127.0.0.1", 0)) as srv:
        sampler.start()
        deadline = time.monotonic() + 10
        while not sampler.rows:  # primed and ticking: the transfer cannot land before its baseline
            assert time.monotonic() < deadline
            time.sleep(0.02)
        before = len(sampler.rows)
        with socket.create_connection(srv.getsockname()) as c, srv.accept()[0] as peer:
            for _ in range(64):  # 4 MB in 64 KiB steps, each read back before the next
                c.sendall(b"x" * 65536)
                got = 0
                while got < 65536:
                    got += len(peer.recv(65536))
        deadline = time.monotonic() + 10
        while len(sampler.rows) <= before + 1:  # the ticks that cover the transfer
            assert time.monotonic() < deadline
            time.sleep(0.02)
        frame = sampler.stop()
    assert frame["net_bytes_per_s"].max() > 4_000_000  # 4 MB within one 0.25 s tick, at least

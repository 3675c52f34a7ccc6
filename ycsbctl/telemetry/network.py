"""The network: an ``iperf3`` baseline before a sweep (Gbit/s), and interface byte counters during a run."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import socket
import subprocess
import time
from dataclasses import asdict, dataclass
from typing import Any

import psutil

from ycsbctl.errors import UserError
from ycsbctl.processes import deferred_signals, poll, stop_process
from ycsbctl.provision.base import Endpoint
from ycsbctl.stores import registry
from ycsbctl.stores.sampler import Sampler
from ycsbctl.urls import host_of, is_loopback, redact_url
from ycsbctl.user_input import whole_number

IPERF_PORT = 5201
INSTALL_HINT = "apt-get install iperf3"
LOOPBACK_NOTE = ("client and server share this host, so this is loopback (memory-copy) bandwidth, "
                 "not a network card")
DOCKER_NOTE = "; the server container uses host networking in our set-up, so the same loopback measurement applies"
BASELINE_S_ENV = "YCSBCTL_BASELINE_S"
BASELINE_S = 3
# A file that keeps this host's loopback baseline once measured: later runs (until the host reboots) read it
# rather than run iperf3 again, and say so. Unset (the default): every experiment measures its own.
MEMO_ENV = "YCSBCTL_BASELINE_MEMO"
BOOT_ID = "/proc/sys/kernel/random/boot_id"


def baseline_seconds() -> int:
    """Seconds of iperf3 traffic a baseline asks for: ``YCSBCTL_BASELINE_S`` (whole seconds, 1-60, iperf3's
    ``-t``), else 3. The test suite sets 1: the shortest run iperf3 makes."""
    raw = os.environ.get(BASELINE_S_ENV, "").strip()
    if not raw:
        return BASELINE_S
    try:
        seconds = whole_number(raw)
    except ValueError:
        seconds = 0
    if not 1 <= seconds <= 60:
        raise UserError(f"{BASELINE_S_ENV}={raw!r}: give whole seconds of iperf3 traffic from 1 to 60")
    return seconds


@dataclass
class NetworkBaseline:
    """What ``iperf3`` measured from the client side to the server side: ``gbit_s`` (10^9 bit/s,
    receiver side) or None when skipped; ``note`` says how it was measured, or why not."""

    gbit_s: float | None
    note: str
    server: str | None = None  # host:port of the iperf3 server
    duration_s: float = 0.0
    retransmits: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def parse_server(spec: str) -> tuple[str, int]:
    """``host[:port]`` of an iperf3 server (port 5201 by default)."""
    host, colon, port = spec.rpartition(":") if spec.count(":") == 1 else (spec, "", "")
    try:
        number = whole_number(port) if colon else IPERF_PORT
    except ValueError:
        number = 0
    if not host or not 1 <= number <= 65535:
        raise UserError(f"--iperf-server {spec!r}: give host or host:port, e.g. 10.0.0.5:5201")
    return host, number


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_listening(proc: subprocess.Popen, port: int, timeout_s: float = 5.0) -> bool:
    """Wait until ``proc`` listens on ``port`` (read from the kernel's socket table: a probe
    connection would count as iperf3's one test)."""
    deadline = time.monotonic() + timeout_s
    p = psutil.Process(proc.pid)
    while time.monotonic() < deadline and poll(proc) is None:
        try:
            if any(c.status == psutil.CONN_LISTEN and c.laddr.port == port for c in p.net_connections("tcp")):
                return True
        except psutil.Error:
            return False
        time.sleep(0.02)
    return False


def run_client(host: str, port: int, duration_s: float) -> NetworkBaseline:
    """``iperf3 -c host -p port -t duration -J``; a failure gives a baseline with ``gbit_s`` None."""
    server = f"{host}:{port}"
    cmd = ["iperf3", "-c", host, "-p", str(port), "-t", str(max(1, round(duration_s))), "-J"]
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=duration_s + 20)
        doc = json.loads(out.stdout or "{}")
    except (subprocess.TimeoutExpired, json.JSONDecodeError, OSError) as exc:
        return NetworkBaseline(None, f"iperf3 against {server} failed: {exc}", server, duration_s)
    if doc.get("error") or out.returncode != 0:
        why = doc.get("error") or out.stderr.strip() or f"exit {out.returncode}"
        return NetworkBaseline(None, f"iperf3 against {server} failed: {why}", server, duration_s)
    end = doc.get("end", {})
    bps = (end.get("sum_received") or end.get("sum") or {}).get("bits_per_second")
    retr = (end.get("sum_sent") or {}).get("retransmits")
    if not bps:
        return NetworkBaseline(None, f"iperf3 against {server} reported no throughput", server, duration_s)
    return NetworkBaseline(bps / 1e9, "", server, duration_s, retr)


def loopback_baseline(duration_s: float | None = None) -> NetworkBaseline:
    """Start ``iperf3 -s`` on a free loopback port (one test, then it exits), measure for ``duration_s``
    (default :func:`baseline_seconds`), stop it."""
    duration_s = duration_s or baseline_seconds()
    port = _free_port()
    server: subprocess.Popen | None = None
    try:
        with deferred_signals():  # started and kept for the finally below, or not started (a Ctrl-C waits for it)
            server = subprocess.Popen(["iperf3", "-s", "-1", "-B", "127.0.0.1", "-p", str(port)],
                                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if not _wait_listening(server, port):
            return NetworkBaseline(None, f"iperf3 -s did not listen on 127.0.0.1:{port}", f"127.0.0.1:{port}")
        return run_client("127.0.0.1", port, duration_s)
    finally:
        if server is not None:
            with deferred_signals():
                stop_process(server, 5)


def boot_id() -> str:
    """This boot of the host (the kernel's random boot id): a kept baseline is of one boot."""
    try:
        with open(BOOT_ID) as f:
            return f.read().strip()
    except OSError:
        return ""


def kept_loopback_baseline() -> NetworkBaseline | None:
    """The loopback baseline kept in ``$YCSBCTL_BASELINE_MEMO`` by an earlier run since this host booted, its
    note saying when it was measured; None when the variable is unset or the file holds none of this boot."""
    path = os.environ.get(MEMO_ENV)
    if not path:
        return None
    try:
        with open(path) as f:
            kept = json.load(f)
        if kept.pop("boot_id") != boot_id() or not kept.get("gbit_s"):
            return None
        at = float(kept.pop("measured_at"))
        b = NetworkBaseline(**kept)
    except (OSError, ValueError, KeyError, TypeError):
        return None
    when = time.strftime("%H:%M:%S", time.localtime(at))
    b.note = f"measured at {when} by an earlier run and kept in {path} ({MEMO_ENV}), not measured again"
    return b


def keep_loopback_baseline(b: NetworkBaseline) -> None:
    """Keep a measured loopback baseline in ``$YCSBCTL_BASELINE_MEMO`` (if set) for later runs; written
    whole or not at all."""
    path = os.environ.get(MEMO_ENV)
    if not path or b.gbit_s is None:
        return
    tmp = f"{path}.{os.getpid()}.tmp"
    try:
        with open(tmp, "w") as f:
            json.dump(b.to_dict() | {"boot_id": boot_id(), "measured_at": time.time()}, f)
        os.replace(tmp, path)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(tmp)


def is_loopback_path(endpoint: Endpoint) -> bool:
    """The baseline of ``endpoint`` (with no ``--iperf-server``) is this host's loopback: a local or docker
    server on this host, or a URL naming a loopback address. The same figure for every such target."""
    host = (host_of(endpoint.url) if endpoint.url else None) or "127.0.0.1"
    return endpoint.host is None and (endpoint.backend in ("local", "docker") or is_loopback(host))


def iperf_baseline(endpoint: Endpoint, duration_s: float | None = None,
                   iperf_server: str | None = None, reuse: bool = False) -> NetworkBaseline | None:
    """The network baseline between this client and ``endpoint``'s host, in Gbit/s.

    Local and docker servers on this host: an ``iperf3 -s`` of our own on loopback (docker containers
    use host networking in our set-up). Other hosts (URLs, or containers on a remote engine:
    ``endpoint.host``): skipped with a note unless ``iperf_server``
    (``host[:port]``) names an iperf3 server next to the database. iperf3 missing or failing:
    ``gbit_s`` None with a note; the run goes on. None for a store without a server (``basic://``: no network).
    ``reuse``: a loopback figure kept by an earlier run (:func:`kept_loopback_baseline`) is taken, if any.
    """
    if not registry.get(endpoint.protocol).has_server:
        return None
    duration_s = duration_s or baseline_seconds()
    if shutil.which("iperf3") is None:
        return NetworkBaseline(None, f"iperf3 is not installed: network baseline skipped ({INSTALL_HINT})")
    if iperf_server:
        host, port = parse_server(iperf_server)
        b = run_client(host, port, duration_s)
        b.note = b.note or f"measured against the iperf3 server you named ({host}:{port})"
        return b
    if is_loopback_path(endpoint):
        kept = kept_loopback_baseline() if reuse else None
        if kept is None:
            b = loopback_baseline(duration_s)
            keep_loopback_baseline(b)
        else:
            b = kept
        if b.gbit_s is not None:
            b.note = LOOPBACK_NOTE + (DOCKER_NOTE if endpoint.backend == "docker" else "") + (b.note and f"; {b.note}")
        return b
    host = (host_of(endpoint.url) if endpoint.url else None) or "127.0.0.1"
    return NetworkBaseline(None, f"the server {host} is another host: network baseline skipped; name an iperf3 "
                                 f"server next to it with --iperf-server host[:port] (iperf3 -s runs there)")


def endpoint_for(target_or_url: str) -> Endpoint:
    """A minimal Endpoint for the baseline alone: a URL as given, or a catalogue name (a server
    ycsbctl provisions, on this host)."""
    if "://" in target_or_url:
        protocol = registry.for_url(target_or_url).name
        return Endpoint(target=target_or_url, protocol=protocol, url=target_or_url, backend="external")
    from ycsbctl.provision.catalog import get_target

    return Endpoint(target=target_or_url, protocol=get_target(target_or_url).protocol, url="", backend="local")


def iperf_baseline_for(target_or_url: str, duration_s: float | None = None,
                       iperf_server: str | None = None) -> NetworkBaseline:
    """:func:`iperf_baseline` for a URL or target name; a store without a server (``basic://``) has
    no network to measure."""
    b = iperf_baseline(endpoint_for(target_or_url), duration_s, iperf_server)
    return b or NetworkBaseline(None, f"{redact_url(target_or_url)} has no server and no network to measure")


class InterfaceNetSampler(Sampler):
    """Bytes per second through one interface (``lo`` by default): the fallback when the DB reports
    no network counters. On ``lo`` every byte is counted once as sent and once as received, so
    ``net_bytes_per_s`` (sent) is the traffic of both directions together, every process included."""

    def __init__(self, nic: str = "lo", interval_s: float = 1.0) -> None:
        super().__init__(interval_s)
        self.nic = nic
        self.source = f"net-{nic}"
        self._prev: tuple[float, int, int] | None = None

    def _read(self) -> tuple[float, int, int]:
        c = psutil.net_io_counters(pernic=True).get(self.nic)
        if c is None:
            raise RuntimeError(f"no network interface {self.nic!r}")
        return time.monotonic(), c.bytes_recv, c.bytes_sent

    def prime(self) -> None:
        self._prev = self._read()

    def sample(self) -> dict[str, Any]:
        cur = self._read()
        assert self._prev is not None, "prime() first"
        t0, r0, s0 = self._prev
        dt = cur[0] - t0
        self._prev = cur
        if dt <= 0:
            return {"net_bytes_per_s": None, "net_recv_bytes_per_s": None}
        return {"net_bytes_per_s": (cur[2] - s0) / dt, "net_recv_bytes_per_s": (cur[1] - r0) / dt}

"""Bytes and packets on the wire for OUR connections to the server: the kernel's per-connection TCP
counters (``ss -tinH``, iproute2: ``bytes_sent``/``bytes_received`` payload bytes, ``segs_out``/
``segs_in`` segments) of the sockets whose remote port is the server's, summed on the client's side —
never the host's interface totals, which carry every other process's traffic too.

A connection is followed by its address pair: one born between two readings counts from zero, one
that closed loses its last interval. ``ss`` is a process of its own (a few ms of CPU), so this
sampler reads every :data:`WIRE_INTERVAL_S` and counts the child's CPU in its ``cpu_s``
(``python -m bench telemetry_cost``).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import time
from typing import Any

from ycsbctl.stores.sampler import Sampler

WIRE_INTERVAL_S = 3.0
_COUNTER = re.compile(rb"\b(bytes_sent|bytes_received|segs_out|segs_in):(\d+)")
_MINRTT = re.compile(rb"\bminrtt:([0-9.]+)")
Counters = dict[tuple[bytes, bytes], tuple[int, int, int, int]]  # (local, peer) -> sent, received, segs out, in


def min_rtts_ms(text: bytes) -> list[float]:
    """Each connection's smallest round trip the kernel saw (``minrtt``, ms): the path's own delay,
    not the time a slow server took to reply."""
    return [float(m) for m in _MINRTT.findall(text)]


def parse_ss(text: bytes) -> Counters:
    """``ss -tinH`` output (a line with the addresses, then an indented line of TCP_INFO) as counters
    per connection: bytes sent, bytes received, segments out, segments in."""
    out: Counters = {}
    key: tuple[bytes, bytes] | None = None
    for line in text.splitlines():
        if not line[:1].isspace():  # a connection's line: its last two fields are its address and its peer's
            parts = line.split()
            key = None
            if len(parts) >= 2:
                key = (parts[-2], parts[-1])
            continue
        if key is None:
            continue
        c = {k: int(v) for k, v in _COUNTER.findall(line)}
        out[key] = (c.get(b"bytes_sent", 0), c.get(b"bytes_received", 0), c.get(b"segs_out", 0), c.get(b"segs_in", 0))
        key = None
    return out


def grown(before: Counters, now: Counters) -> list[int]:
    """What the connections of ``now`` added to each counter since ``before`` (bytes sent, received,
    segments out, in): one born since counts from zero, one that closed adds nothing. A connection's
    counters never go back, so one that did is a new connection on the address pair of one that closed
    since: it counts from zero too (one whose counters all passed the old one's cannot be told apart)."""
    zero = (0, 0, 0, 0)
    sums = [0, 0, 0, 0]
    for key, c in now.items():
        b = before.get(key, zero)
        if any(x < y for x, y in zip(c, b)):
            b = zero
        for i in range(4):
            sums[i] += c[i] - b[i]
    return sums


def wire_row(sums: list[int], elapsed_s: float, connections: int, minrtt_ms: float | None) -> dict[str, Any]:
    """The sampler's row from :func:`grown`'s sums over ``elapsed_s``: bytes (sent and received) and
    segments (out and in) per second, the connections open and their mean smallest round trip (ms)."""
    return {"wire_bytes_per_s": (sums[0] + sums[1]) / elapsed_s, "wire_packets_per_s": (sums[2] + sums[3]) / elapsed_s,
            "wire_connections": connections, "wire_minrtt_ms": minrtt_ms}


class WireSampler(Sampler):
    """Per-second bytes and packets (both directions) on the client's connections to ``ports``, and
    their mean smallest round trip (``wire_minrtt_ms``)."""

    source = "wire"

    def __init__(self, ports: list[int], interval_s: float = WIRE_INTERVAL_S) -> None:
        super().__init__(interval_s)
        self.ports = sorted(set(ports))
        self._ss = shutil.which("ss")
        self._last: Counters = {}
        self._t_last = 0.0
        self._minrtt_ms: float | None = None

    def _read(self) -> Counters:
        if self._ss is None:
            raise RuntimeError("ss (iproute2) is not installed: no per-connection counts (apt-get install iproute2)")
        filt = " or ".join(f"dport = :{p}" for p in self.ports)
        proc = subprocess.Popen([self._ss, "-tinH", "state", "established", f"( {filt} )"],
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        out = proc.stdout.read() if proc.stdout is not None else b""
        _, _, usage = os.wait4(proc.pid, 0)
        proc.returncode = 0  # reaped above
        self.child_cpu_s += usage.ru_utime + usage.ru_stime
        rtts = min_rtts_ms(out)
        self._minrtt_ms = sum(rtts) / len(rtts) if rtts else None
        return parse_ss(out)

    def prime(self) -> None:
        self._last = self._read()
        self._t_last = time.monotonic()

    def sample(self) -> dict[str, Any]:
        now = self._read()
        t = time.monotonic()
        elapsed = t - self._t_last
        sums = grown(self._last, now)
        self._last, self._t_last = now, t
        if elapsed <= 0:
            return {}
        return wire_row(sums, elapsed, len(now), self._minrtt_ms)

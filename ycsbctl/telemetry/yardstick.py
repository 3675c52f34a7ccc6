"""Timing the host yardstick (:mod:`ycsbctl.results.yardstick` says what it is and how it is used).

:func:`measure` starts, all at once, one CPU process per CPU this process may use (at most
:data:`MAX_CPUS`, each pinned to its CPU), a loopback echo server pinned to the second CPU and a
round-trip client pinned to the first, with a few connections each keeping one round trip outstanding
(:mod:`ycsbctl.telemetry.yardstick_child`); when every one is ready it lets the CPU processes hash
together, then the client make its round trips. Pinning makes the
placement the same in every round: a round trip between two CPUs and one within one differ several-fold
on a virtual machine, and an unpinned pair lands on either. The processes are stopped whatever happens.
"""

from __future__ import annotations

import json
import select
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from ycsbctl.cpus import usable_cpus
from ycsbctl.processes import deferred_signals
from ycsbctl.results.yardstick import Reading

CHILD = Path(__file__).with_name("yardstick_child.py")
MAX_CPUS = 8  # CPU processes at most: a bigger host's yardstick costs no more to start
TRIPS = 1200  # round trips per reading (300 read a busy host as hardly slower: `python -m bench yardstick --redis`)
TIMEOUT_S = 30.0  # a reading that takes longer (a host frozen meanwhile) is given up: TimeoutError


def measure(trips: int = TRIPS, timeout_s: float = TIMEOUT_S) -> Reading:
    """One reading of the yardstick (longer on a busy host: the work is fixed; ``python -m bench yardstick``
    measures it). OSError or TimeoutError when its processes cannot run."""
    t0 = time.perf_counter()
    deadline = t0 + timeout_s
    mine = usable_cpus()[:MAX_CPUS]
    procs: list[subprocess.Popen[str]] = []
    try:
        server = _start(procs, "echo", mine[1] if len(mine) > 1 else mine[0])
        workers = [_start(procs, "cpu", c) for c in mine]
        client = _start(procs, "rtt", mine[0])
        port = int(_line(server, deadline))
        for p in (*workers, client):
            if _line(p, deadline) != "ready":
                raise OSError("a yardstick process did not start")
        for p in workers:
            _send(p, "go")
        done = [json.loads(_line(p, deadline)) for p in workers]
        _send(client, f"go {port} {trips}")
        rtt = json.loads(_line(client, deadline))
    finally:
        _stop(procs)
    if len({d["hash"] for d in done}) != 1:
        raise OSError("the yardstick's CPU processes computed different hashes")
    return reading_of(done, rtt, time.perf_counter() - t0)


def reading_of(done: list[dict[str, Any]], rtt: dict[str, Any], seconds: float) -> Reading:
    """The :class:`Reading` of the CPU processes' lines ``done`` and the round-trip client's ``rtt``
    (:mod:`ycsbctl.telemetry.yardstick_child`), the whole reading having taken ``seconds`` s."""
    return Reading(cpu_ops_per_s=sum(d["bytes"] / d["elapsed_s"] for d in done),
                   # with one round trip outstanding on each connection throughout, each took connections ÷ rate
                   rtt_us=1e6 * rtt["elapsed_s"] * rtt["connections"] / rtt["trips"],
                   rtt_median_us=float(rtt["median_us"]),
                   cpu_share=sum(min(1.0, d["cpu_s"] / d["elapsed_s"]) for d in done) / len(done),
                   cpus=len(done), seconds=seconds)


def _start(procs: list[subprocess.Popen[str]], mode: str, cpu: int) -> subprocess.Popen[str]:
    """Start one yardstick process and keep it in ``procs`` (which ``measure`` stops) in one step: a Ctrl-C waits."""
    with deferred_signals():
        p = subprocess.Popen([sys.executable, "-I", "-S", str(CHILD), mode, str(cpu)], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        procs.append(p)
    return p


def _line(p: subprocess.Popen[str], deadline: float) -> str:
    """The next line ``p`` prints, waiting until ``deadline`` (perf_counter seconds)."""
    assert p.stdout is not None
    left = deadline - time.perf_counter()
    if left <= 0 or not select.select([p.stdout], [], [], left)[0]:
        raise TimeoutError("the yardstick took too long")
    line = p.stdout.readline()
    if not line:
        raise OSError(f"a yardstick process ended early (exit {p.wait()})")
    return line.strip()


def _send(p: subprocess.Popen[str], line: str) -> None:
    assert p.stdin is not None
    p.stdin.write(line + "\n")
    p.stdin.flush()


def _stop(procs: list[subprocess.Popen[Any]]) -> None:
    """Close every process's stdin (each ends), kill one still running shortly after, reap all."""
    for p in procs:
        try:
            if p.stdin is not None:
                p.stdin.close()
        except OSError:
            pass
    for p in procs:
        try:
            p.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()
        if p.stdout is not None:
            p.stdout.close()

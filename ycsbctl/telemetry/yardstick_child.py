"""The yardstick's child processes (:mod:`ycsbctl.telemetry.yardstick`): run as a script
(``python -I -S yardstick_child.py MODE CPU``), standard library only, so each starts in milliseconds.

Modes, each pinned to one CPU (``CPU``, -1: not pinned) before anything else:

- ``cpu``: prints ``ready``, waits for ``go`` on stdin, hashes :data:`BUFFER` :data:`PASSES` times with
  FNV-1a 64 (pure Python: the interpreter's own speed), prints one JSON line ``{"bytes", "hash",
  "elapsed_s", "cpu_s"}`` (wall time by ``perf_counter``, the process's CPU time by ``process_time``).
- ``echo``: listens on 127.0.0.1 (a port the kernel picks, printed first) and echoes every connection in
  one loop until the last closes.

Every mode ends when its stdin (the pipe from ycsbctl) closes: ``cpu`` and ``rtt`` read their ``go`` there, and
``echo`` watches it in its loop, so a ycsbctl killed (``kill -9`` included, before any round trip) leaves none.
- ``rtt``: prints ``ready``, waits for ``go PORT TRIPS``, makes ``TRIPS`` round trips of :data:`MESSAGE`
  to the echo server over :data:`CONNECTIONS` connections (TCP_NODELAY, one outstanding on each) and prints
  ``{"trips", "elapsed_s", "median_us", "connections"}``.
"""

from __future__ import annotations

import json
import os
import selectors
import socket
import sys
import time

FNV_OFFSET = 0xCBF29CE484222325  # FNV-1a 64: offset basis and prime (IETF draft-eastlake-fnv)
FNV_PRIME = 0x100000001B3
MASK = (1 << 64) - 1
BUFFER = bytes(range(256)) * 256  # 64 KiB, the same in every experiment
PASSES = 16  # BUFFER hashed this many times per CPU process: 1 MiB of byte steps, ~0.2 s: long enough for a CPU
# shared with another busy process to show its fair share (a 50 ms burst ran as if alone: `python -m bench yardstick`)
MESSAGE = b"ycsbctl-yardstick-round-trip-32b"  # 32 bytes
CONNECTIONS = 4  # round trips outstanding at once, one per connection: the server loop stays busy, as a benchmarked one


def fnv1a_64(data: bytes, h: int = FNV_OFFSET) -> int:
    """FNV-1a 64 of ``data``, continuing from ``h`` (the offset basis: a fresh hash)."""
    for b in data:
        h = ((h ^ b) * FNV_PRIME) & MASK
    return h


def cpu_work(passes: int = PASSES) -> dict[str, float | int]:
    """Hash :data:`BUFFER` ``passes`` times: bytes hashed, the hash, wall and CPU seconds it took."""
    t0, c0 = time.perf_counter(), time.process_time()
    h = FNV_OFFSET
    for _ in range(passes):
        h = fnv1a_64(BUFFER, h)
    return {"bytes": passes * len(BUFFER), "hash": h, "elapsed_s": time.perf_counter() - t0,
            "cpu_s": time.process_time() - c0}


def round_trips(port: int, trips: int, connections: int = CONNECTIONS, limit_s: float = 10.0) -> dict[str, float | int]:
    """``trips`` round trips of :data:`MESSAGE` to the echo server on ``port`` over ``connections`` connections,
    each with one outstanding (a closed loop, as a benchmark's client threads are), fewer when ``limit_s``
    seconds pass first: how many, the wall seconds they took together, the median one (µs) and the
    connections."""
    socks = [socket.create_connection(("127.0.0.1", port), timeout=limit_s) for _ in range(connections)]
    sel = selectors.DefaultSelector()
    sent_at: dict[socket.socket, int] = {}
    got = dict.fromkeys(socks, 0)
    each: list[int] = []
    try:
        start = time.perf_counter_ns()
        deadline = start + int(limit_s * 1e9)
        for c in socks[:trips]:
            c.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            sel.register(c, selectors.EVENT_READ)
            sent_at[c] = time.perf_counter_ns()
            c.sendall(MESSAGE)
        sent = len(sent_at)
        while len(each) < sent:
            ready = sel.select(timeout=limit_s)
            if not ready:
                raise TimeoutError("the echo server did not answer")
            for key, _ in ready:
                c = key.fileobj  # type: ignore[assignment]
                chunk = c.recv(len(MESSAGE))
                if not chunk:
                    raise ConnectionError("the echo server closed the connection")
                got[c] += len(chunk)
                if got[c] < len(MESSAGE):
                    continue
                got[c] = 0
                now = time.perf_counter_ns()
                each.append(now - sent_at[c])
                if sent < trips and now < deadline:
                    sent_at[c] = now
                    c.sendall(MESSAGE)
                    sent += 1
        end = time.perf_counter_ns()
    finally:
        sel.close()
        for c in socks:
            c.close()
    each.sort()
    return {"trips": len(each), "elapsed_s": (end - start) / 1e9, "median_us": each[len(each) // 2] / 1e3,
            "connections": min(connections, trips)}


def echo(parent: int = 0) -> None:
    """Serve on 127.0.0.1, one loop over every connection (as a single-threaded server does): every byte
    back, until the last connection closes, or the ``parent`` pipe (a file descriptor: stdin) does."""
    with socket.socket() as s, selectors.DefaultSelector() as sel:
        s.bind(("127.0.0.1", 0))
        s.listen(CONNECTIONS)
        sel.register(s, selectors.EVENT_READ)
        sel.register(parent, selectors.EVENT_READ)
        _say(str(s.getsockname()[1]))
        open_ = 0
        served = False
        while open_ or not served:
            for key, _ in sel.select():
                if key.fileobj == parent:
                    if not os.read(parent, 4096):  # its end: ycsbctl closed it, or is gone
                        return
                    continue
                if key.fileobj is s:
                    c, _ = s.accept()
                    c.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                    sel.register(c, selectors.EVENT_READ)
                    open_, served = open_ + 1, True
                    continue
                c = key.fileobj  # type: ignore[assignment]
                data = c.recv(4096)
                if data:
                    c.sendall(data)
                    continue
                sel.unregister(c)
                c.close()
                open_ -= 1


def _say(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def main(argv: list[str]) -> int:
    mode, cpu = argv[0], int(argv[1])
    if cpu >= 0 and hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {cpu})
    if mode == "echo":
        echo()
        return 0
    _say("ready")
    words = sys.stdin.readline().split()
    if not words or words[0] != "go":
        return 1
    result = cpu_work() if mode == "cpu" else round_trips(int(words[1]), int(words[2]))
    _say(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

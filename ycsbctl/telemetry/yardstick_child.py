"""The yardstick's child processes (:mod:`ycsbctl.telemetry.yardstick`): run as a script
(``python -I -S yardstick_child.py MODE CPU``), standard library only, so each starts in milliseconds.

Modes, each pinned to one CPU (``CPU``, -1: not pinned) before anything else:

- ``cpu``: prints ``ready``, waits for ``go`` on stdin, hashes :data:`BUFFER` :data:`PASSES` times with
  FNV-1a 64 (pure Python: the interpreter's own speed), prints one JSON line ``{"bytes", "hash",
  "elapsed_s", "cpu_s"}`` (wall time by ``perf_counter``, the process's CPU time by ``process_time``).
- ``echo``: listens on 127.0.0.1 (a port the kernel picks, printed first), echoes one connection until
  it closes.
- ``rtt``: prints ``ready``, waits for ``go PORT TRIPS``, makes ``TRIPS`` round trips of :data:`MESSAGE`
  to the echo server (TCP_NODELAY) and prints ``{"trips", "elapsed_s", "median_us"}``.
"""

from __future__ import annotations

import json
import os
import socket
import sys
import time

FNV_OFFSET = 0xCBF29CE484222325  # FNV-1a 64: offset basis and prime (IETF draft-eastlake-fnv)
FNV_PRIME = 0x100000001B3
MASK = (1 << 64) - 1
BUFFER = bytes(range(256)) * 256  # 64 KiB, the same in every experiment
PASSES = 4  # BUFFER hashed this many times per CPU process: 256 KiB of byte steps
MESSAGE = b"ycsbctl-yardstick-round-trip-32b"  # 32 bytes


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


def round_trips(port: int, trips: int, limit_s: float = 10.0) -> dict[str, float | int]:
    """``trips`` round trips to the echo server on ``port`` (fewer when ``limit_s`` seconds pass first): how
    many, the wall seconds they took together and the median one (µs)."""
    with socket.create_connection(("127.0.0.1", port), timeout=limit_s) as c:
        c.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        each: list[int] = []
        start = time.perf_counter_ns()
        deadline = start + int(limit_s * 1e9)
        for _ in range(trips):
            t = time.perf_counter_ns()
            c.sendall(MESSAGE)
            got = 0
            while got < len(MESSAGE):
                chunk = c.recv(len(MESSAGE) - got)
                if not chunk:
                    raise ConnectionError("the echo server closed the connection")
                got += len(chunk)
            end = time.perf_counter_ns()
            each.append(end - t)
            if end > deadline:
                break
    each.sort()
    return {"trips": len(each), "elapsed_s": (end - start) / 1e9, "median_us": each[len(each) // 2] / 1e3}


def echo() -> None:
    """Serve one connection on 127.0.0.1: every byte back, until the client closes."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen(1)
        _say(str(s.getsockname()[1]))
        c, _ = s.accept()
        with c:
            c.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            while True:
                data = c.recv(4096)
                if not data:
                    return
                c.sendall(data)


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

"""The reference side of ``bench engine``: a ``redis-server`` of our own on loopback (``--save ""
--appendonly no``), ``redis-benchmark`` run against it with its own summary and percentiles read
(:class:`Reference`, latencies in µs), and the parallel hashes of YCSB's shape it reads
(``h:000000000000``…: 10 fields × 100 bytes)."""

from __future__ import annotations

import re
import resource
import shutil
import socket
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import psutil
import redis

from bench import _servers as servers
from ycsbctl.workload.values import random_bytes

FIELDS, FIELD_BYTES = 10, 100


@dataclass
class Reference:
    """What one redis-benchmark invocation measured (latencies in µs)."""

    ops_s: float
    p50_us: float
    p99_us: float
    p999_us: float
    max_us: float
    client_us_op: float
    requests: int
    avg_us: float = float("nan")


# -- the server ---------------------------------------------------------------------------------


class RedisServer:
    """A redis-server of our own on a free loopback port, stopped on exit."""

    def __init__(self, workdir: Path) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            raise SystemExit("redis-server is not installed (apt-get install redis-server)")
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.proc = subprocess.Popen(
            [binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
             "--dir", str(workdir)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.ps = psutil.Process(self.proc.pid)
        client = redis.Redis(port=self.port)
        deadline = time.monotonic() + 30
        while True:
            try:
                client.ping()
                break
            except redis.ConnectionError:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    raise SystemExit(f"redis-server did not start on port {self.port}") from None
                time.sleep(0.05)
        self.client = client
        self.version = client.info("server")["redis_version"]

    def cpu_s(self) -> float:
        return servers.cpu_s(self.ps)

    def stop(self) -> None:
        self.client.close()
        servers.stop(self.proc)


# -- redis-benchmark ----------------------------------------------------------------------------


def redis_benchmark(port: int, clients: int, requests: int, keyspace: int, command: list[str]) -> Reference:
    """Run ``redis-benchmark`` with a custom command and read its own summary and percentile
    distribution (p99.9 = the first distribution line at or above 99.9 %); its CPU time is the
    children's rusage delta."""
    args = ["redis-benchmark", "-h", "127.0.0.1", "-p", str(port), "-c", str(clients), "-n", str(requests),
            "-r", str(keyspace), *command]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.run(args, capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    text = proc.stdout.rsplit("======", 1)[-1]
    summary = re.search(r"throughput summary: ([\d.]+) requests per second.*?max\s*\n\s*([\d.\s]+)\n", text, re.S)
    dist = [(float(p), float(ms)) for p, ms in re.findall(r"^([\d.]+)% <= ([\d.]+) milliseconds", text.split(
        "Cumulative distribution", 1)[0], re.M)]
    if proc.returncode != 0 or summary is None or not dist:
        raise SystemExit(f"redis-benchmark failed: {(proc.stderr or proc.stdout).strip()[-300:]}")
    avg, lo, p50, p95, p99, mx = (float(x) for x in summary[2].split())
    p999 = next(ms for p, ms in dist if p >= 99.9)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return Reference(ops_s=float(summary[1]), p50_us=1000 * p50, p99_us=1000 * p99, p999_us=1000 * p999,
                     max_us=1000 * mx, client_us_op=1e6 * cpu / requests, requests=requests, avg_us=1000 * avg)


def ten_field_args(rng: np.random.Generator) -> list[str]:
    """``field0 <100 bytes> … field9 <100 bytes>`` in YCSB's alphabet, for redis-benchmark's argv."""
    out: list[str] = []
    for i in range(FIELDS):
        value = random_bytes(FIELD_BYTES, rng).decode("ascii")
        out += [f"field{i}", value]
    return out


def make_parallel_hashes(client: redis.Redis, count: int, rng: np.random.Generator) -> None:
    """``h:000000000000`` … hashes of 10 × 100 printable bytes: what redis-benchmark reads."""
    pool = random_bytes(1 << 20, rng)
    offsets = rng.integers(0, len(pool) - FIELD_BYTES, size=(count, FIELDS)).tolist()
    pipe = client.pipeline(transaction=False)
    for n in range(count):
        pipe.hset(f"h:{n:012d}", mapping={f"field{i}": pool[o : o + FIELD_BYTES] for i, o in enumerate(offsets[n])})
        if n % 2000 == 1999:
            pipe.execute()
    pipe.execute()

"""Client CPU per operation over TLS ÷ in plain, against Redis on this machine, side by side.

Starts two redis-servers on loopback (``ycsbctl``'s local backend): ``redis`` (plain) and ``redis-tls``
(TLS only, a certificate from ycsbctl's own CA), loads ``--records`` YCSB records into each with the
engine, then runs workload B (95% READ, 5% UPDATE) for ``--duration`` s per point against each in
turn (TLS, plain, TLS, plain … : ``--rounds`` pairs, so that this shared machine's drift falls on
both) at each thread count, one engine process. It prints ops/s and client CPU µs/op (all engine
processes' CPU ÷ operations) of each, their ratio, and the 1-minute load average; the goal (issue
47): TLS costs the client at most 1.5× the plain path's CPU per operation at every thread count
(medians of the rounds). Exit status 1 when not.

Beside it, the same ratio for Redis's own C client: ``redis-benchmark`` (hiredis over OpenSSL, one
thread) sends ``HGETALL`` of one loaded record (the reply workload B's reads get) over as many connections
as the engine has threads, in pairs TLS, plain, …; its CPU (user + system, from ``getrusage`` of the child)
÷ requests. It says how much of the ratio is OpenSSL's and the kernel's own on this machine, whatever the client.

    .venv/bin/python -m bench tls [--records 20000] [--duration 3] [--threads 16,64] [--rounds 2]
"""

from __future__ import annotations

import resource
import shutil
import statistics
import subprocess
import sys
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench._side_by_side import compare  # noqa: E402

MAX_CPU_RATIO = 1.5  # TLS client µs/op ÷ plain client µs/op
REQUESTS = 100_000  # per redis-benchmark run: ~1 s at this machine's rates, long next to its start


def _children_cpu_s() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def _one_key(url: str) -> bytes:
    import redis

    with redis.Redis.from_url(url) as c:
        _, keys = c.scan(0, count=10)
        if not keys:
            raise SystemExit(f"no record loaded at {urlsplit(url).netloc}")
        return keys[0]


def redis_benchmark(urls: dict[str, str], threads: list[int], rounds: int) -> list[str]:
    """redis-benchmark's client CPU µs/request over TLS and in plain at each thread count (medians of
    ``rounds`` pairs) and their ratio: lines to print."""
    exe = shutil.which("redis-benchmark")
    if exe is None:
        return ["  redis-benchmark: not installed (Debian's redis-tools), no reference"]
    key = _one_key(urls["redis"])
    lines = ["", "Redis's own C client (redis-benchmark, hiredis + OpenSSL, HGETALL of one record, 1 thread):"]
    for t in threads:
        got: dict[str, list[float]] = {"redis-tls": [], "redis": []}
        for _ in range(rounds):
            for name in got:
                u = urlsplit(urls[name])
                cmd = [exe, "-h", u.hostname or "127.0.0.1", "-p", str(u.port), "-c", str(t), "-n", str(REQUESTS),
                       "--threads", "1", "-q"]
                ca = parse_qs(u.query).get("ssl_ca_certs")
                if u.scheme == "rediss":
                    cmd += ["--tls"] + (["--cacert", ca[0]] if ca else [])
                before = _children_cpu_s()
                subprocess.run([*cmd, "HGETALL", key], check=True, capture_output=True)
                got[name].append((_children_cpu_s() - before) / REQUESTS * 1e6)
        tls, plain = statistics.median(got["redis-tls"]), statistics.median(got["redis"])
        lines.append(f"  {t:3d} connections: TLS {tls:.1f} µs/request, plain {plain:.1f}: {tls / plain:.2f}×")
    return lines


def main() -> int:
    return compare(__doc__ or "", ("redis-tls", "redis"), ("TLS", "plain"), MAX_CPU_RATIO, "TLS client CPU per op ÷ the plain path's", "bench-tls",
                   reference=redis_benchmark)


if __name__ == "__main__":
    sys.exit(main())

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
thread: ``ycsbctl calibrate``'s reference client) sends ``HGETALL`` of random loaded records (the reads workload
B sends; the records named as it names them, ``user000000000042``) over as many connections as the engine has
threads, in pairs TLS, plain, …; its CPU (user + system, from ``getrusage`` of the child) ÷ requests. It says
how much of the ratio is OpenSSL's and the kernel's own on this machine, whatever the client.

    .venv/bin/python -m bench tls [--records 20000] [--duration 3] [--threads 16,64] [--rounds 2]
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench._side_by_side import compare  # noqa: E402
from ycsbctl.stores.redis.benchmark import RedisBenchmark  # noqa: E402

MAX_CPU_RATIO = 1.5  # TLS client µs/op ÷ plain client µs/op
REQUESTS = 100_000  # per redis-benchmark run: ~1 s at this machine's rates, long next to its start


class RedisBenchmarkBeside:
    """redis-benchmark's client CPU µs/request over TLS and in plain at each thread count (medians of ``rounds``
    pairs, TLS first) and their ratio."""

    def __init__(self) -> None:
        self.client = RedisBenchmark()
        self.keys = self.client.key_properties()

    def lines(self, urls: dict[str, str], threads: list[int], rounds: int, records: int) -> list[str]:
        out = ["",
               "Redis's own C client (redis-benchmark: hiredis + OpenSSL, HGETALL of the loaded records, 1 thread):"]
        for t in threads:
            got: dict[str, list[float]] = {"redis-tls": [], "redis": []}
            for _ in range(rounds):
                for name, runs in got.items():
                    runs.append(self.client.read(urls[name], t, REQUESTS, records).client_us_per_op)
            tls, plain = statistics.median(got["redis-tls"]), statistics.median(got["redis"])
            out.append(f"  {t:3d} connections: TLS {tls:.1f} µs/request, plain {plain:.1f}: {tls / plain:.2f}×")
        return out


def main() -> int:
    return compare(__doc__ or "", ("redis-tls", "redis"), ("TLS", "plain"), MAX_CPU_RATIO,
                   "TLS client CPU per op ÷ the plain path's", "bench-tls",
                   reference=RedisBenchmarkBeside())


if __name__ == "__main__":
    sys.exit(main())

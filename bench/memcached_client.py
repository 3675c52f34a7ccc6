"""Client CPU per operation against memcached ÷ against Redis, on this machine, side by side.

Starts a redis-server and a memcached on loopback (``ycsbctl``'s local backend), loads ``--records``
YCSB records into each with the engine, then runs workload B (95% READ, 5% UPDATE) for ``--duration``
s per point against each in turn (memcached, Redis, memcached, Redis … : ``--rounds`` pairs, so that
this shared machine's drift falls on both) at each thread count, one engine process. It prints
ops/s and client CPU µs/op (all engine processes' CPU ÷ operations) of each, their ratio, and the
1-minute load average; the requirement (issue 36): the memcached path's client CPU per operation is at
most 1.25× the Redis path's at every thread count (medians of the rounds). Exit status 1 when not.

    .venv/bin/python -m bench.memcached_client [--records 20000] [--duration 3] [--threads 16,64] [--rounds 2]
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench._side_by_side import compare  # noqa: E402

MAX_CPU_RATIO = 1.25  # memcached client µs/op ÷ Redis client µs/op


def main() -> int:
    return compare(__doc__ or "", ("memcached", "redis"), ("mc", "redis"), MAX_CPU_RATIO,
                   "memcached client CPU per op ÷ Redis's", "bench-memcached")


if __name__ == "__main__":
    sys.exit(main())

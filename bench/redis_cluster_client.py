"""Client CPU per operation against a 3-shard Redis Cluster ÷ against one Redis server, side by side.

Starts ``redis`` and ``redis-cluster`` (3 shard processes) on loopback with ``ycsbctl``'s local backend,
loads ``--records`` YCSB records into each with the engine, then runs workload B (95% READ, 5% UPDATE)
for ``--duration`` s per point against each in turn (``--rounds`` pairs, so that a shared machine's
drift falls on both) at each thread count, one engine process. It prints ops/s and client CPU µs/op
(all engine processes' CPU ÷ operations) of each, their ratio and the 1-minute load average. The goal
(issue 47): a cluster point costs the client at most 1.25× one server's CPU per operation (the same
chained fast path, one connection per shard per client; medians of the rounds). Exit status 1 when not.

    .venv/bin/python -m bench redis_cluster_client [--records 20000] [--duration 3] [--threads 16,64] [--rounds 2]
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench._side_by_side import compare  # noqa: E402

MAX_CPU_RATIO = 1.25  # cluster client µs/op ÷ one server's


def main() -> int:
    return compare(__doc__ or "", ("redis-cluster", "redis"), ("cluster", "single"), MAX_CPU_RATIO,
                   "cluster client CPU per op ÷ one server's", "bench-cluster-client")


if __name__ == "__main__":
    sys.exit(main())

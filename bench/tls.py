"""Client CPU per operation over TLS ÷ in plain, against Redis on this machine, side by side.

Starts two redis-servers on loopback (``ycsbctl``'s local backend): ``redis`` (plain) and ``redis-tls``
(TLS only, a certificate from ycsbctl's own CA), loads ``--records`` YCSB records into each with the
engine, then runs workload B (95% READ, 5% UPDATE) for ``--duration`` s per point against each in
turn (TLS, plain, TLS, plain … : ``--rounds`` pairs, so that this shared machine's drift falls on
both) at each thread count, one engine process. It prints ops/s and client CPU µs/op (all engine
processes' CPU ÷ operations) of each, their ratio, and the 1-minute load average; the goal (issue
47): TLS costs the client at most 1.5× the plain path's CPU per operation at every thread count
(medians of the rounds). Exit status 1 when not.

    .venv/bin/python -m bench tls [--records 20000] [--duration 3] [--threads 16,64] [--rounds 2]
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench._side_by_side import compare  # noqa: E402

MAX_CPU_RATIO = 1.5  # TLS client µs/op ÷ plain client µs/op


def main() -> int:
    return compare(__doc__ or "", ("redis-tls", "redis"), ("TLS", "plain"), MAX_CPU_RATIO, "TLS client CPU per op ÷ the plain path's", "bench-tls")


if __name__ == "__main__":
    sys.exit(main())

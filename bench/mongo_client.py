"""The MongoDB client path: the wire-protocol binding against pymongo, side by side, on the same server.

Starts the mongo-wire server (FerretDB 1.24 over SQLite: the MongoDB-protocol server this machine
can run; slow, so the server is the limit and the client's CPU per operation is what to read),
loads ``--records`` YCSB records, then for each thread count runs workload B (95% reads by
``_id``, 5% ``$set`` updates) for ``--duration`` s with ``mongodb.driver=wire`` and with
``mongodb.driver=pymongo``, alternately, and prints ops/s, client CPU µs per operation and their
ratios. Requirement: the wire path costs at most half of pymongo's client CPU per operation.

    .venv/bin/python -m bench mongo_client [--records 2000] [--duration 5] [--threads 8,32]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from ycsbctl.engine.runner import run_phase  # noqa: E402
from ycsbctl.engine.spec import PhaseSpec  # noqa: E402
from ycsbctl.provision import provision, teardown  # noqa: E402
from ycsbctl.workload.properties import load_properties  # noqa: E402

MAX_CPU_RATIO = 0.5  # wire µs/op ÷ pymongo µs/op


def _props(records: int, driver: str) -> dict[str, str]:
    return {**load_properties(ROOT / "workloads" / "workloadb"), "recordcount": str(records),
            "operationcount": "0", "mongodb.driver": driver}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--records", type=int, default=2000)
    ap.add_argument("--duration", type=float, default=5.0)
    ap.add_argument("--threads", default="8,32")
    args = ap.parse_args()
    ep = provision("ferretdb", "local", experiment_id="bench-mongo-client", say=lambda _m: None)
    rows = []
    try:
        load = run_phase(PhaseSpec("load", ep.url, _props(args.records, "wire"), threads=8))
        print(f"{ep.server_name}: loaded {load.operations:,} records")
        for threads in (int(t) for t in args.threads.split(",")):
            for driver in ("wire", "pymongo"):
                r = run_phase(PhaseSpec("run", ep.url, _props(args.records, driver), threads=threads,
                                        duration_s=args.duration, warmup_s=1.0))
                bad = sum(n for s in r.ops.values() for st, n in s.returns.items() if st not in ("OK", "NOT_FOUND"))
                rows.append((threads, driver, r.throughput_ops, r.client_us_per_op(), bad))
    finally:
        teardown(ep)
    print(f"\n{'threads':>7} {'driver':8} {'ops/s':>9} {'client µs/op':>13} {'errors':>7}")
    for threads, driver, ops, us, bad in rows:
        print(f"{threads:7d} {driver:8} {ops:9,.0f} {us:13.1f} {bad:7d}")
    worst = 0.0
    print(f"\n{'threads':>7} {'wire/pymongo ops/s':>19} {'wire/pymongo µs/op':>19}")
    for i in range(0, len(rows), 2):
        (t, _, ops_w, us_w, _), (_, _, ops_p, us_p, _) = rows[i], rows[i + 1]
        worst = max(worst, us_w / us_p)
        print(f"{t:7d} {ops_w / ops_p:19.2f} {us_w / us_p:19.2f}")
    met = bool(rows) and worst <= MAX_CPU_RATIO and not any(r[4] for r in rows)
    print(f"\n  [{'met' if met else 'NOT met'}] wire client CPU ≤ {MAX_CPU_RATIO:g}× pymongo's, no errors: "
          f"worst {worst:.2f}×")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())

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

import argparse
import os
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from ycsbctl.engine.runner import run_phase  # noqa: E402
from ycsbctl.engine.spec import PhaseSpec  # noqa: E402
from ycsbctl.provision import provisioned  # noqa: E402
from ycsbctl.workload.properties import load_properties  # noqa: E402

MAX_CPU_RATIO = 1.25  # memcached client µs/op ÷ Redis client µs/op


def _props(records: int) -> dict[str, str]:
    p = dict(load_properties("workload-b"))
    p.update(recordcount=str(records), operationcount="0")
    return p


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--records", type=int, default=20000)
    ap.add_argument("--duration", type=float, default=3.0, help="seconds per point, after 1 s of warm-up")
    ap.add_argument("--threads", default="16,64")
    ap.add_argument("--rounds", type=int, default=2, help="memcached/Redis pairs per thread count")
    args = ap.parse_args()
    threads = [int(t) for t in args.threads.split(",")]
    with provisioned(["memcached", "redis"], "local", experiment_id="bench-memcached", say=lambda _m: None) as eps:
        urls = {ep.target: ep.url for ep in eps}
        for name, url in urls.items():
            load = run_phase(PhaseSpec("load", url, _props(args.records), threads=8, processes=1))
            print(f"{name}: loaded {load.operations:,} records, {load.throughput_ops:,.0f} ops/s, "
                  f"{load.client_us_per_op():.1f} client µs/op", flush=True)
        rows = []
        for t in threads:
            got: dict[str, list[tuple[float, float]]] = {"memcached": [], "redis": []}
            for _ in range(args.rounds):
                for name in ("memcached", "redis"):
                    r = run_phase(PhaseSpec("run", urls[name], _props(args.records), threads=t, processes=1,
                                            duration_s=args.duration, warmup_s=1.0))
                    bad = r.returns("ERROR") + r.returns("TIMEOUT")
                    if bad:
                        print(f"  {name} at {t} threads: {bad} operations failed ({r.errors})", flush=True)
                    got[name].append((r.throughput_ops, r.client_us_per_op()))
            med = {n: (statistics.median(o for o, _ in v), statistics.median(u for _, u in v)) for n, v in got.items()}
            rows.append((t, med["memcached"], med["redis"], os.getloadavg()[0]))
            print(f"  {t} threads: memcached {med['memcached'][0]:,.0f} ops/s {med['memcached'][1]:.1f} µs/op; "
                  f"redis {med['redis'][0]:,.0f} ops/s {med['redis'][1]:.1f} µs/op", flush=True)
    print(f"\n{'threads':>7} {'mc ops/s':>10} {'redis ops/s':>12} {'mc µs/op':>9} {'redis µs/op':>12} {'ratio':>6} "
          f"{'load1':>6}")
    met = True
    for t, (mo, mu), (ro, ru), load1 in rows:
        ratio = mu / ru
        met &= ratio <= MAX_CPU_RATIO
        print(f"{t:7d} {mo:10,.0f} {ro:12,.0f} {mu:9.1f} {ru:12.1f} {ratio:6.2f} {load1:6.2f}")
    worst = max(mu / ru for _, (_, mu), (_, ru), _ in rows)
    print(f"\n  [{'met' if met else 'NOT met'}] memcached client CPU per op ≤ {MAX_CPU_RATIO:g}× Redis's at every "
          f"thread count: worst {worst:.2f}×")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())

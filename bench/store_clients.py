"""Client CPU per operation against the many-store study's stores ÷ against Redis, on this machine, side by side.

Starts redis-server and each store named in ``--stores`` on loopback (``ycsbctl``'s local backend), loads
``--records`` YCSB records into each with the engine, then runs workload C (100 % READ: CoreWorkload READ,
the operation the requirement names) for ``--duration`` s per point against each in turn (store, Redis,
store, Redis … : ``--rounds`` pairs, so that this shared machine's drift falls on both) at each thread count,
one engine process, and against Redis once more paced at the rate the store reached. It prints ops/s and
client CPU µs/op (all engine processes' CPU ÷ operations) of each, the ratios and the 1-minute load average;
and the user part of each µs/op (the client's own work: the system part is the kernel's, and on loopback a
write's system time includes the server's side of the TCP stack and waking the server's thread, which costs
more when the server sleeps between requests, as a slow one does).
The requirement (issue 48): each store's client CPU per READ is at most 1.5× the Redis path's at every thread
count (medians of the rounds), against Redis unpaced or at the store's own rate: a store whose server answers
a few hundred reads a second (ClickHouse) leaves the client a loop turn per reply, whose cost an unpaced
Redis run spreads over many replies. Exit status 1 when neither ratio meets it. The paced figure
leaves out of the client CPU only the loop's empty turning towards due times (``Alarm.idle_total_ns``);
until 2026-11-25 it left out the turning's whole wall time, replies handled meanwhile included, and read
near 0 µs/op at 16k reads/s. The test is still against the larger of the two Redis figures.

    .venv/bin/python -m bench store_clients [--stores tarantool] [--records 20000] [--duration 3]
        [--threads 16,64] [--rounds 2]
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

import psutil  # noqa: E402

from ycsbctl.engine.runner import PhaseRunner, run_phase  # noqa: E402
from ycsbctl.engine.spec import PhaseSpec, Tick  # noqa: E402
from ycsbctl.provision import provisioned  # noqa: E402
from ycsbctl.results.model import PhaseResult  # noqa: E402
from ycsbctl.workload.properties import load_properties  # noqa: E402

MAX_CPU_RATIO = 1.5  # store client µs/op ÷ Redis client µs/op, CoreWorkload READ


def _props(records: int) -> dict[str, str]:
    p = dict(load_properties("workload-c"))
    p.update(recordcount=str(records), operationcount="0")
    return p


def _cpu(pids: list[int]) -> tuple[float, float]:
    """User and system CPU seconds of the live processes ``pids``."""
    user = system = 0.0
    for pid in pids:
        try:
            t = psutil.Process(pid).cpu_times()
        except psutil.Error:
            continue
        user, system = user + t.user, system + t.system
    return user, system


def measured(spec: PhaseSpec) -> tuple[PhaseResult, float]:
    """The phase's result and the user share (0–1) of its engine processes' CPU over its measured seconds,
    read at its first and last progress ticks after the warm-up (psutil; NaN when fewer than two)."""
    runner = PhaseRunner(spec)
    marks: list[tuple[float, float]] = []

    def tick(t: Tick) -> None:
        if not (t.warmup or t.starting):
            marks.append(_cpu(runner.pids()))

    result = runner.run(tick)
    if len(marks) < 2:
        return result, float("nan")
    user, system = marks[-1][0] - marks[0][0], marks[-1][1] - marks[0][1]
    return result, user / (user + system) if user + system > 0 else float("nan")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--stores", default="tarantool", help="catalogue names, comma-separated")
    ap.add_argument("--records", type=int, default=20000)
    ap.add_argument("--duration", type=float, default=3.0, help="seconds per point, after 1 s of warm-up")
    ap.add_argument("--threads", default="16,64")
    ap.add_argument("--rounds", type=int, default=2, help="store/Redis pairs per thread count")
    args = ap.parse_args()
    threads = [int(t) for t in args.threads.split(",")]
    stores = [s for s in args.stores.split(",") if s]
    rows = []
    with provisioned([*stores, "redis"], "local", experiment_id="bench-stores", say=lambda _m: None) as eps:
        urls = {ep.target: ep.url for ep in eps}
        for name, url in urls.items():
            load = run_phase(PhaseSpec("load", url, _props(args.records), threads=8, processes=1))
            print(f"{name}: loaded {load.operations:,} records, {load.throughput_ops:,.0f} ops/s, "
                  f"{load.client_us_per_op():.1f} client µs/op", flush=True)
        for store in stores:
            for t in threads:
                got: dict[str, list[tuple[float, float, float]]] = {store: [], "redis": [], "paced": []}
                for _ in range(args.rounds):
                    rate = None
                    for name, url in ((store, urls[store]), ("redis", urls["redis"]), ("paced", urls["redis"])):
                        r, user_share = measured(PhaseSpec("run", url, _props(args.records), threads=t, processes=1,
                                                           duration_s=args.duration, warmup_s=1.0,
                                                           target_rate=rate if name == "paced" else None))
                        bad = r.returns("ERROR") + r.returns("TIMEOUT") + r.returns("NOT_FOUND")
                        if bad:
                            print(f"  {name} at {t} threads: {bad} reads failed or missed ({r.errors})", flush=True)
                        got[name].append((r.throughput_ops, r.client_us_per_op(), user_share))
                        rate = rate or r.throughput_ops  # Redis paced at the store's own rate
                med = {n: (statistics.median(o for o, _, _ in v), statistics.median(u for _, u, _ in v))
                       for n, v in got.items()}
                user = {n: statistics.median(u * f for _, u, f in v) for n, v in got.items()}
                rows.append((store, t, med[store], med["redis"], med["paced"], os.getloadavg()[0]))
                print(f"  {t} threads: {store} {med[store][0]:,.0f} ops/s {med[store][1]:.1f} µs/op "
                      f"({user[store]:.1f} user); redis {med['redis'][0]:,.0f} ops/s {med['redis'][1]:.1f} µs/op "
                      f"({user['redis']:.1f} user); redis at {store}'s rate {med['paced'][0]:,.0f} ops/s "
                      f"{med['paced'][1]:.1f} µs/op ({user['paced']:.1f} user)", flush=True)
    print(f"\n{'store':>12} {'threads':>7} {'ops/s':>9} {'µs/op':>7} {'redis ops/s':>11} {'µs/op':>7} {'ratio':>6} "
          f"{'paced ops/s':>11} {'µs/op':>7} {'ratio':>6} {'load1':>6}")
    met = True
    for store, t, (so, su), (ro, ru), (po, pu), load1 in rows:
        met &= min(su / ru, su / pu) <= MAX_CPU_RATIO
        print(f"{store:>12} {t:7d} {so:9,.0f} {su:7.1f} {ro:11,.0f} {ru:7.1f} {su / ru:6.2f} {po:11,.0f} {pu:7.1f} "
              f"{su / pu:6.2f} {load1:6.2f}")
    for store in stores:
        worst = max(min(su / ru, su / pu) for s, _, (_, su), (_, ru), (_, pu), _ in rows if s == store)
        print(f"  [{'met' if worst <= MAX_CPU_RATIO else 'NOT met'}] {store} client CPU per READ ≤ {MAX_CPU_RATIO:g}× "
              f"Redis's (unpaced, or paced at the store's own rate) at every thread count: worst {worst:.2f}×")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())

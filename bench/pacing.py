"""Pacing accuracy of ycsbctl's native engine against the real YCSB, side by side.

At each offered rate (8 threads, ``-target``), one paced run per engine against the same null
database — ``basic://`` for ycsbctl, YCSB's own ``BasicDB`` (core jar) — and one of ycsbctl against
a redis-server of its own. With ``measurement.interval=both`` each engine reports the actual
latency from the operation's start and the intended latency from its due time, so
``Intended-READ p50 − READ p50`` is how late the engine wakes up to start an operation: its
pacing error, which a paced run would otherwise report as server latency. ycsbctl also prints its
own SCHEDULE-LAG (measured per operation) and the achieved rate ÷ the target.

Then the unpaced maximum of ycsbctl against that redis-server (8 threads), and paced runs at 50 % and
80 % of it: the achieved rate must stay within 1 % of the target up to there.

Goals (issue 18): the native engine's wake-up lateness ≤ 30 µs at 1,000 and 5,000 ops/s, and the
achieved rate within 1 % of the target at every rate up to 80 % of the unpaced maximum. This
machine's cores are shared: read the ratios between the engines measured in the same run, not the
absolute figures.

    .venv/bin/python -m bench pacing      # or: .venv/bin/python -m bench.pacing [--rates 1000,5000]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench._redis_reference import RedisServer  # noqa: E402
from ycsbctl.engine.runner import run_phase  # noqa: E402
from ycsbctl.engine.spec import PhaseSpec  # noqa: E402
from ycsbctl.engine.ycsb_java import find_ycsb, run_phase_java  # noqa: E402
from ycsbctl.errors import UserError  # noqa: E402
from ycsbctl.results.model import PhaseResult  # noqa: E402
from ycsbctl.workload.properties import load_properties  # noqa: E402

MAX_LATENESS_US = 30.0  # intended p50 − actual p50, at rates up to LATENESS_RATES_UP_TO
LATENESS_RATES_UP_TO = 5000.0
HIGH_SHARES = (0.5, 0.8)  # paced runs at these shares of the unpaced maximum
MAX_RATE_ERROR = 0.01  # |achieved ÷ target − 1|


def _props(records: int) -> dict[str, str]:
    props = dict(load_properties("workload-b"))
    props.update(recordcount=str(records), operationcount="0")
    return props


def lateness_us(r: PhaseResult) -> float:
    """Intended-READ p50 − READ p50 (µs): how late the engine started its operations."""
    return r.ops["Intended-READ"].percentile(50) - r.ops["READ"].percentile(50)


def measure(rate: float, duration_s: float, records: int, redis_url: str) -> list[tuple[str, PhaseResult]]:
    """One paced run per engine and database at ``rate`` ops/s."""
    def spec(url: str) -> PhaseSpec:
        return PhaseSpec("run", url, _props(records), threads=8, duration_s=duration_s, target_rate=rate,
                         measurement="both", warmup_s=0.0)

    out = [("ycsbctl basic://", run_phase(spec("basic://")))]
    try:
        out.append(("YCSB BasicDB", run_phase_java(spec("basic://"), find_ycsb())))
    except UserError as exc:  # no jar or no java: say so in the table
        print(f"  YCSB not run: {exc}")
    out.append(("ycsbctl redis", run_phase(spec(redis_url))))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="bench.pacing", description=__doc__.splitlines()[0])
    ap.add_argument("--rates", default="1000,5000", help="offered ops/s, comma-separated")
    ap.add_argument("--duration", type=float, default=5.0, help="seconds per run")
    ap.add_argument("--records", type=int, default=5000, help="records loaded into redis")
    args = ap.parse_args(sys.argv[1:] if argv is None else argv)
    rates = [float(r) for r in args.rates.split(",") if r.strip()]
    print(f"pacing benchmark: {os.cpu_count()} cores, load avg {os.getloadavg()}")
    rows = []
    with tempfile.TemporaryDirectory(prefix="ycsbctl-bench-") as tmp:
        server = RedisServer(Path(tmp))
        try:
            load = run_phase(PhaseSpec("load", server.url, _props(args.records), threads=4))
            if load.status != "ok":
                print(f"load failed: {load.errors}", file=sys.stderr)
                return 1
            for rate in rates:
                for name, r in measure(rate, args.duration, args.records, server.url):
                    rows.append((rate, name, r, os.getloadavg()[0]))
            unpaced = run_phase(PhaseSpec("run", server.url, _props(args.records), threads=8,
                                          duration_s=args.duration, warmup_s=1.0))
            top = unpaced.throughput_ops
            print(f"unpaced maximum (ycsbctl, redis, 8 threads): {top:,.0f} ops/s")
            for share in HIGH_SHARES:
                rate = round(top * share, -2)
                r = run_phase(PhaseSpec("run", server.url, _props(args.records), threads=8, duration_s=args.duration,
                                        target_rate=rate, measurement="both", warmup_s=0.0))
                rows.append((rate, f"ycsbctl redis {share:.0%}", r, os.getloadavg()[0]))
        finally:
            server.stop()
    print(f"\n{'target':>8} {'engine':<18} {'achieved':>9} {'READ p50':>9} {'Intended p50':>13} "
          f"{'lateness':>9} {'sched. lag p50/p99':>19} {'load':>5}")
    ok = True
    for rate, name, r, load_avg in rows:
        if r.status != "ok" or "Intended-READ" not in r.ops:
            print(f"{rate:>8,.0f} {name:<18} {r.status}: {'; '.join(r.errors)[:80]}")
            ok = ok and not name.startswith("ycsbctl")
            continue
        achieved = r.throughput_ops / rate
        late = lateness_us(r)
        lag = r.schedule_lag
        lag_text = f"{lag.percentile(50):,.0f}/{lag.percentile(99):,.0f} µs" if lag is not None else "—"
        print(f"{rate:>8,.0f} {name:<18} {achieved:>8.3f}× {r.ops['READ'].percentile(50):>7,.0f} µs "
              f"{r.ops['Intended-READ'].percentile(50):>10,.0f} µs {late:>6,.0f} µs {lag_text:>19} {load_avg:>5.2f}")
        if name.startswith("ycsbctl"):
            ok = ok and abs(achieved - 1) <= MAX_RATE_ERROR and (rate > LATENESS_RATES_UP_TO or late <= MAX_LATENESS_US)
    by = {(rate, name): r for rate, name, r, _ in rows if r.status == "ok" and "Intended-READ" in r.ops}
    for rate in rates:
        ours, theirs = by.get((rate, "ycsbctl basic://")), by.get((rate, "YCSB BasicDB"))
        if ours is not None and theirs is not None and lateness_us(theirs) > 0:
            print(f"{rate:,.0f} ops/s: ycsbctl's lateness ÷ YCSB's = {lateness_us(ours) / lateness_us(theirs):.2f}")
    print(f"\ngoal: lateness ≤ {MAX_LATENESS_US:.0f} µs up to {LATENESS_RATES_UP_TO:,.0f} ops/s, and achieved rate "
          f"within {MAX_RATE_ERROR:.0%} up to {HIGH_SHARES[-1]:.0%} of the unpaced maximum, for ycsbctl: "
          f"{'met' if ok else 'NOT met'} (load avg at the end {os.getloadavg()})")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

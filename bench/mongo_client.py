"""The MongoDB client path: the wire-protocol binding against pymongo, side by side.

Two cases (``--case echo,ferretdb``, both by default):

``echo``
    Against ``infra/bin/mongo-echo`` (an in-memory OP_MSG responder that does almost nothing
    per command, so the client is the limit): loads ``--records`` records, then for each of
    ``--threads`` (8–128) runs workload B (95% reads by ``_id``, 5% ``$set`` updates) for
    ``--duration`` s, in ONE engine process (``processes=1``: one core of client), with
    ``mongodb.driver=wire`` and ``mongodb.driver=pymongo`` alternately. Goals (issue 13): the
    wire path costs ≤ 20 µs of client CPU per op at its highest rate, and its throughput is
    ≥ 3× pymongo's at every thread count.
``ferretdb``
    Against the mongo-wire server (FerretDB 1.24 over SQLite: slow, so the server is the limit
    and the client's CPU per operation is what to read), at ``--ferretdb-threads``.
    Requirement: the wire path costs at most half of pymongo's client CPU per operation.

It prints ops/s, client CPU µs per operation, the server's CPU µs per operation (echo) and
their ratios, with the 1-minute load average beside each row (the cores may be shared: read
ratios, not absolute rates). Exit status 1 when a goal is not met.

    .venv/bin/python -m bench mongo_client
    .venv/bin/python bench/mongo_client.py [--case echo] [--records 10000] [--duration 5] [--threads 8,16,32,64,128]
"""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import psutil  # noqa: E402

from bench import _servers as servers  # noqa: E402
from ycsbctl.engine.runner import run_phase  # noqa: E402
from ycsbctl.engine.spec import PhaseSpec  # noqa: E402
from ycsbctl.provision import provision, teardown  # noqa: E402
from ycsbctl.results.model import PhaseResult  # noqa: E402
from ycsbctl.workload.properties import load_properties  # noqa: E402

MAX_CPU_RATIO = 0.5  # FerretDB case: wire µs/op ÷ pymongo µs/op
MAX_ECHO_US_PER_OP = 20.0  # echo case: wire client CPU µs per op at its highest rate
MIN_ECHO_THROUGHPUT_RATIO = 3.0  # echo case: wire ops/s ÷ pymongo ops/s, one engine process


def _props(records: int, driver: str) -> dict[str, str]:
    return {**load_properties(ROOT / "workloads" / "workloadb"), "recordcount": str(records),
            "operationcount": "0", "mongodb.driver": driver}


def _errors(r: PhaseResult) -> int:
    return sum(n for s in r.ops.values() for st, n in s.returns.items() if st not in ("OK", "NOT_FOUND"))


class EchoServer:
    """infra/bin/mongo-echo on a free loopback port, stopped on exit."""

    def __init__(self) -> None:
        from ycsbctl.provision.catalog import find_tool

        echo = find_tool("mongo-echo")  # $YCSBCTL_BIN_DIR, the user data folder, infra/bin, PATH
        if echo is None:
            raise SystemExit("mongo-echo is not built: run bash infra/build-mongo-echo.sh (or scripts/setup.sh)")
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        # One core for the server (Go's idle threads spin for work), the other for the client.
        self.proc = subprocess.Popen([echo, "--listen", f"127.0.0.1:{self.port}"], env={**os.environ,
                                                                                        "GOMAXPROCS": "1"},
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        line = self.proc.stdout.readline() if self.proc.stdout else ""  # "mongo-echo listening on …"
        if "listening" not in line:
            self.stop()
            raise SystemExit(f"mongo-echo did not start on port {self.port}")
        self.url = f"mongodb://127.0.0.1:{self.port}/ycsb"
        self.ps = psutil.Process(self.proc.pid)

    def cpu_s(self) -> float:
        return servers.cpu_s(self.ps)

    def stop(self) -> None:
        servers.stop(self.proc)


def echo_case(records: int, duration_s: float, threads: list[int]) -> bool:
    """The wire binding against pymongo on mongo-echo, one engine process; whether the goals are met."""
    server = EchoServer()
    rows = []
    try:
        load = run_phase(PhaseSpec("load", server.url, _props(records, "wire"), threads=8, processes=1))
        print(f"mongo-echo: loaded {load.operations:,} records ({load.throughput_ops:,.0f} ops/s, "
              f"{load.client_us_per_op():.1f} client µs/op)", flush=True)
        for t in threads:
            row = [t]
            for driver in ("wire", "pymongo"):
                cpu0 = server.cpu_s()
                r = run_phase(PhaseSpec("run", server.url, _props(records, driver), threads=t, processes=1,
                                        duration_s=duration_s, warmup_s=1.0))
                server_us = 1e6 * (server.cpu_s() - cpu0) / r.operations if r.operations else float("nan")
                row += [r.throughput_ops, r.client_us_per_op(), server_us, _errors(r)]
            row.append(os.getloadavg()[0])
            rows.append(row)
            print(f"  {t} threads: wire {row[1]:,.0f} ops/s {row[2]:.1f} µs/op; pymongo {row[5]:,.0f} ops/s "
                  f"{row[6]:.1f} µs/op", flush=True)
    finally:
        server.stop()
    print(f"\n{'threads':>7} {'wire ops/s':>11} {'pymongo ops/s':>14} {'ratio':>6} {'wire µs/op':>11} "
          f"{'pymongo µs/op':>14} {'ratio':>6} {'server µs/op w/p':>17} {'errors':>7} {'load1':>6}")
    for t, ow, uw, sw, ew, op, up, sp, ep, load1 in rows:
        print(f"{t:7d} {ow:11,.0f} {op:14,.0f} {ow / op:6.2f} {uw:11.1f} {up:14.1f} {uw / up:6.2f} "
              f"{sw:8.1f}/{sp:<8.1f} {ew + ep:7d} {load1:6.2f}")
    if not rows:
        return False
    best = max(rows, key=lambda row: row[1])
    worst_ratio = min(row[1] / row[5] for row in rows)
    errors = sum(row[4] + row[8] for row in rows)
    cpu_met = best[2] <= MAX_ECHO_US_PER_OP
    ratio_met = worst_ratio >= MIN_ECHO_THROUGHPUT_RATIO
    print(f"\n  [{'met' if cpu_met else 'NOT met'}] wire client CPU at its highest rate ({best[1]:,.0f} ops/s, "
          f"{best[0]} threads) ≤ {MAX_ECHO_US_PER_OP:g} µs/op: {best[2]:.1f}")
    print(f"  [{'met' if ratio_met else 'NOT met'}] wire ops/s ≥ {MIN_ECHO_THROUGHPUT_RATIO:g}× pymongo's on one "
          f"core at every thread count: worst {worst_ratio:.2f}× (best-to-best "
          f"{best[1] / max(row[5] for row in rows):.2f}×)")
    print(f"  [{'met' if not errors else 'NOT met'}] no errors: {errors}")
    return cpu_met and ratio_met and not errors


def ferretdb_case(records: int, duration_s: float, threads: list[int]) -> bool:
    """The wire binding against pymongo on FerretDB (the server is the limit); whether the requirement is met."""
    ep = provision("ferretdb", "local", experiment_id="bench-mongo-client", say=lambda _m: None)
    rows = []
    try:
        load = run_phase(PhaseSpec("load", ep.url, _props(records, "wire"), threads=8))
        print(f"{ep.server_name}: loaded {load.operations:,} records")
        for t in threads:
            for driver in ("wire", "pymongo"):
                r = run_phase(PhaseSpec("run", ep.url, _props(records, driver), threads=t,
                                        duration_s=duration_s, warmup_s=1.0))
                rows.append((t, driver, r.throughput_ops, r.client_us_per_op(), _errors(r)))
    finally:
        teardown(ep)
    print(f"\n{'threads':>7} {'driver':8} {'ops/s':>9} {'client µs/op':>13} {'errors':>7}")
    for t, driver, ops, us, bad in rows:
        print(f"{t:7d} {driver:8} {ops:9,.0f} {us:13.1f} {bad:7d}")
    worst = 0.0
    print(f"\n{'threads':>7} {'wire/pymongo ops/s':>19} {'wire/pymongo µs/op':>19}")
    for i in range(0, len(rows), 2):
        (t, _, ops_w, us_w, _), (_, _, ops_p, us_p, _) = rows[i], rows[i + 1]
        worst = max(worst, us_w / us_p)
        print(f"{t:7d} {ops_w / ops_p:19.2f} {us_w / us_p:19.2f}")
    met = bool(rows) and worst <= MAX_CPU_RATIO and not any(r[4] for r in rows)
    print(f"\n  [{'met' if met else 'NOT met'}] wire client CPU ≤ {MAX_CPU_RATIO:g}× pymongo's, no errors: "
          f"worst {worst:.2f}×")
    return met


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--case", default="echo,ferretdb", help="echo, ferretdb or both (comma-separated)")
    ap.add_argument("--records", type=int, default=10000, help="records loaded into mongo-echo")
    ap.add_argument("--duration", type=float, default=5.0, help="seconds per measurement (after 1 s of warm-up)")
    ap.add_argument("--threads", default="8,16,32,64,128", help="thread counts of the echo case")
    ap.add_argument("--ferretdb-records", type=int, default=2000)
    ap.add_argument("--ferretdb-threads", default="8,32")
    args = ap.parse_args()
    cases = [c.strip() for c in args.case.split(",") if c.strip()]
    unknown = set(cases) - {"echo", "ferretdb"}
    if unknown:
        ap.error(f"unknown case {', '.join(sorted(unknown))}: use echo, ferretdb or both")
    met = True
    if "echo" in cases:
        print("-- echo: the client alone (mongo-echo), one engine process", flush=True)
        met &= echo_case(args.records, args.duration, [int(t) for t in args.threads.split(",")])
    if "ferretdb" in cases:
        print("\n-- ferretdb: the client on a real server (FerretDB over SQLite)", flush=True)
        met &= ferretdb_case(args.ferretdb_records, args.duration, [int(t) for t in args.ferretdb_threads.split(",")])
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())

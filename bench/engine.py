"""The native engine against ``redis-benchmark`` (C) on the same redis-server, side by side.

Starts its own ``redis-server`` on loopback (``--save "" --appendonly no``), then:

1. load: ``redis-benchmark -c 8 hset`` of a 10-field × 100-byte hash, against our engine loading
   ``--records`` YCSB records (HMSET + ZADD each) with 8 threads;
2. run: for each thread count, ``redis-benchmark -c N -r <records> hgetall h:__rand_int__`` on a
   parallel set of hashes of the same shape (``h:000000000000``…: redis-benchmark puts a 12-digit
   number in place of ``__rand_int__``), against our engine on workload B (95% HGETALL, 5% HMSET)
   for ``--duration`` s after ``--warmup`` s;
3. ``basic://``: the engine alone (no server), 1,000,000 operations with 8 threads.

Each of these runs once per per-operation path (``--paths``: the compiled core, then the
pure-Python twin forced with ``YCSBCTL_PURE_PYTHON=1`` in the worker processes), each beside a
redis-benchmark run of its own, and the same requirements are judged on both; a last table puts
the two paths' client CPU per op side by side.

It prints the tables, the 1-minute load average beside every measurement (this machine's cores
are shared: read ratios, not absolute rates), the CPU time the VM's host stole during each run (a
stall with none beside it happened inside the VM), and whether each requirement is met. Exit status 1
when one is not met on the first path measured (the compiled one, the default after set-up).

    .venv/bin/python -m bench.engine [--records 100000] [--duration 5] [--threads 8,16,32,64,128] [--paths
    compiled,pure]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from bench._engine_report import (  # noqa: E402
    MAX_CLIENT_CPU_RATIO,
    MAX_COMPILED_CPU_RATIO,
    MIN_BASIC_SPEEDUP,
    Row,
    fig,
    print_paths,
    print_report,
)
from bench._redis_reference import RedisServer, make_parallel_hashes, redis_benchmark, ten_field_args  # noqa: E402
from ycsbctl.engine.runner import run_phase  # noqa: E402
from ycsbctl.engine.spec import PhaseSpec  # noqa: E402
from ycsbctl.native import FORCE_PURE_ENV, core  # noqa: E402
from ycsbctl.results import histogram as hdr  # noqa: E402
from ycsbctl.results.model import OpSummary, PhaseResult  # noqa: E402
from ycsbctl.workload.properties import load_properties  # noqa: E402

THREADS = (8, 16, 32, 64, 128)
# -- our engine ---------------------------------------------------------------------------------


def workload_b(records: int, **extra: object) -> dict[str, str]:
    props = dict(load_properties("workload-b"))
    props.update(recordcount=str(records), operationcount="0")
    props.update({k: str(v) for k, v in extra.items()})
    return props


def all_ops_histogram(r: PhaseResult):
    """Every operation's latency (READ and UPDATE merged exactly), µs."""
    return hdr.merge(s.histogram for n, s in r.ops.items() if not n.startswith("Intended-") and s.histogram is not None)


def all_ops_percentiles(r: PhaseResult) -> tuple[float, float]:
    """p50 and p99 (µs) over every operation."""
    h = all_ops_histogram(r)
    if not h.get_total_count():
        return float("nan"), float("nan")
    return float(h.get_value_at_percentile(50)), float(h.get_value_at_percentile(99))


def tail(s: OpSummary | None) -> tuple[float, float, float, float]:
    """p50, p99, p99.9 and max (µs) of one measurement (NaN when absent)."""
    if s is None or not s.operations:
        return (float("nan"),) * 4
    return s.percentile(50), s.percentile(99), s.percentile(99.9), s.max_us


def total_ops(r: PhaseResult) -> int:
    """Operations over the whole phase, warm-up included (for server CPU per op)."""
    s = r.series
    return int(s[s.op == "OVERALL"].operations.sum())


def steal_ms() -> float:
    """CPU time stolen from this VM by its host so far, all cores (``/proc/stat``, 10 ms steps):
    a stall our client's lag shows with no steal beside it happened inside the VM."""
    try:
        with open("/proc/stat") as f:
            fields = f.readline().split()
        return float(fields[8]) * 1000 / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return float("nan")


def loadavg() -> float:
    return os.getloadavg()[0]


# -- the benchmark ------------------------------------------------------------------------------


def measure_load(server: RedisServer, records: int, rng: np.random.Generator, processes: int | None = None) -> dict:
    """redis-benchmark HSET (8 clients) against our load of ``records`` records (8 threads)."""
    cpu0 = server.cpu_s()
    ref = redis_benchmark(server.port, 8, records, records, ["hset", "bench:__rand_int__", *ten_field_args(rng)])
    ref_server = 1e6 * (server.cpu_s() - cpu0) / records
    server.client.flushall()
    la = loadavg()
    cpu0 = server.cpu_s()
    r = run_phase(PhaseSpec("load", server.url, workload_b(records), threads=8, processes=processes))
    if r.status != "ok":
        raise SystemExit(f"our load failed: {r.errors}")
    stored = server.client.dbsize() - 1
    p50, p99 = all_ops_percentiles(r)
    return {
        "records": records, "stored": stored, "ours_ops_s": r.throughput_ops, "ref_ops_s": ref.ops_s,
        "ratio": r.throughput_ops / ref.ops_s, "ours_p50_us": p50, "ours_p99_us": p99,
        "ref_p50_us": ref.p50_us, "ref_p99_us": ref.p99_us, "ours_client_us_op": r.client_us_per_op(),
        "ref_client_us_op": ref.client_us_op, "server_us_op_ours": 1e6 * (server.cpu_s() - cpu0) / records,
        "server_us_op_ref": ref_server, "load_avg_1m": la,
    }


def measure_run(server: RedisServer, threads: int, records: int, duration_s: float, warmup_s: float,
                ref_rate_guess: float, processes: int | None = None) -> Row:
    """redis-benchmark HGETALL with ``threads`` clients, then our engine on workload B, same length."""
    requests = max(20_000, int(ref_rate_guess * duration_s))
    cpu0, stolen = server.cpu_s(), steal_ms()
    ref = redis_benchmark(server.port, threads, requests, records, ["hgetall", "h:__rand_int__"])
    ref_server = 1e6 * (server.cpu_s() - cpu0) / requests
    ref_steal = steal_ms() - stolen
    la = loadavg()
    cpu0, stolen = server.cpu_s(), steal_ms()
    r = run_phase(PhaseSpec("run", server.url, workload_b(records), threads=threads, duration_s=duration_s,
                            warmup_s=warmup_s, processes=processes))
    steal = steal_ms() - stolen
    if r.status != "ok" or r.error_rate > 0:
        raise SystemExit(f"our run at {threads} threads failed: {r.status} {r.errors}")
    server_us = 1e6 * (server.cpu_s() - cpu0) / max(1, total_ops(r))
    p50, p99, p999, mx = tail(r.ops.get("READ"))
    _, lag99, lag999, lagmax = tail(r.client_lag)
    every = all_ops_histogram(r)
    mean = float(every.get_mean_value()) if every.get_total_count() else float("nan")
    return Row(threads, r.throughput_ops, ref.ops_s, p50, p99, p999, mx, ref.p50_us, ref.p99_us, ref.p999_us,
               ref.max_us, lag99, lag999, lagmax, r.client_us_per_op(), ref.client_us_op, server_us, ref_server, la,
               steal, ref_steal, mean, ref.avg_us)


def measure_basic(operations: int, threads: int, processes: int | None = None) -> dict:
    la = loadavg()
    r = run_phase(PhaseSpec("run", "basic://", workload_b(1000, operationcount=operations), threads=threads,
                            processes=processes))
    return {"operations": r.operations, "threads": threads, "ops_s": r.throughput_ops,
            "client_us_op": r.client_us_per_op(), "processes": r.processes, "load_avg_1m": la}


PATHS = ("compiled", "pure")


@contextmanager
def per_operation_path(path: str) -> Iterator[None]:
    """The engine's worker processes (spawned: they read the switch at import) on ``path``."""
    saved = os.environ.get(FORCE_PURE_ENV)
    if path == "pure":
        os.environ[FORCE_PURE_ENV] = "1"
    else:
        os.environ.pop(FORCE_PURE_ENV, None)
    try:
        yield
    finally:
        if saved is None:
            os.environ.pop(FORCE_PURE_ENV, None)
        else:
            os.environ[FORCE_PURE_ENV] = saved


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="bench.engine", description=__doc__.splitlines()[0])
    ap.add_argument("--records", type=int, default=100_000, help="records loaded (and redis-benchmark's keyspace)")
    ap.add_argument("--duration", type=float, default=5.0, help="seconds per run point, after the warm-up")
    ap.add_argument("--warmup", type=float, default=1.0, help="warm-up seconds of our run points")
    ap.add_argument("--threads", default=",".join(map(str, THREADS)), help="thread counts, comma-separated")
    ap.add_argument("--basic-ops", type=int, default=1_000_000, help="operations of the basic:// run")
    ap.add_argument("--processes", type=int, default=None, help="engine worker processes [default: one per core]")
    ap.add_argument("--json", type=Path, default=None, help="also write the measurements to this file")
    ap.add_argument("--paths", default=",".join(PATHS),
                    help="per-operation paths to measure, comma-separated: compiled, pure [default: both]")
    args = ap.parse_args(sys.argv[1:] if argv is None else argv)
    if shutil.which("redis-benchmark") is None:
        print("redis-benchmark is not installed (apt-get install redis-tools)", file=sys.stderr)
        return 2
    paths = [p.strip() for p in args.paths.split(",") if p.strip()]
    if not paths or any(p not in PATHS for p in paths):
        print(f"--paths {args.paths!r}: use compiled, pure or both", file=sys.stderr)
        return 2
    if "compiled" in paths and core is None:
        print("the compiled core (ycsbctl._native) is not built here: run scripts/setup.sh, or pass --paths pure",
              file=sys.stderr)
        return 2
    thread_counts = [int(t) for t in args.threads.split(",") if t.strip()]
    rng = np.random.default_rng(1)
    print(f"engine benchmark: {os.cpu_count()} cores shared by client and server; load avg {os.getloadavg()}; "
          f"paths {', '.join(paths)}")
    loads: dict[str, dict] = {}
    rows: dict[str, list[Row]] = {p: [] for p in paths}
    basics: dict[str, dict] = {}
    with tempfile.TemporaryDirectory(prefix="ycsbctl-bench-") as tmp:
        server = RedisServer(Path(tmp))
        try:
            print(f"redis-server {server.version} on 127.0.0.1:{server.port} (save \"\", appendonly no)")
            for path in paths:
                with per_operation_path(path):
                    loads[path] = load = measure_load(server, args.records, rng, args.processes)
                print(f"  load done ({path}): ours {fig(load['ours_ops_s'])} ops/s, redis-benchmark hset "
                      f"{fig(load['ref_ops_s'])} ops/s")
            make_parallel_hashes(server.client, args.records, rng)
            guess = redis_benchmark(server.port, 8, 20_000, args.records, ["hgetall", "h:__rand_int__"]).ops_s
            for t in thread_counts:
                for path in paths:  # side by side: the paths alternate at each thread count
                    with per_operation_path(path):
                        row = measure_run(server, t, args.records, args.duration, args.warmup, guess, args.processes)
                    guess = row.ref_ops_s
                    rows[path].append(row)
                    print(f"  {t} threads ({path}): ours {fig(row.ours_ops_s)} ops/s, redis-benchmark "
                          f"{fig(row.ref_ops_s)} ops/s ({row.ratio:.2f}), client CPU {fig(row.ours_client_us_op, 2)} "
                          "µs/op "
                          f"(r-b {fig(row.ref_client_us_op, 2)}), load avg {row.load_avg_1m:.2f}", flush=True)
        finally:
            server.stop()
    for path in paths:
        with per_operation_path(path):
            basics[path] = measure_basic(args.basic_ops, 8, args.processes)
    verdicts = {}
    for path in paths:
        print(f"\n==== the {path} per-operation path ====")
        verdicts[path] = print_report(loads[path], rows[path], basics[path],
                                      MAX_COMPILED_CPU_RATIO if path == "compiled" else MAX_CLIENT_CPU_RATIO)
    print_paths(loads, rows, basics)
    if len(basics) == 2:
        speedup = basics["compiled"]["ops_s"] / basics["pure"]["ops_s"]
        ok = speedup >= MIN_BASIC_SPEEDUP
        verdicts[paths[0]] = verdicts[paths[0]] and ok
        print(f"  [{'met' if ok else 'NOT MET'}] basic:// compiled ≥ {MIN_BASIC_SPEEDUP:.0f}× the pure path's ops/s: "
              f"{speedup:.2f}×")
    print(f"\nload avg at the end: {os.getloadavg()}")
    if args.json:
        args.json.write_text(json.dumps({path: {
            "load": loads[path], "basic": basics[path], "all_met": verdicts[path],
            "run": [asdict(r) | {"ratio": r.ratio, "cpu_ratio": r.cpu_ratio} for r in rows[path]]} for path in paths},
            indent=2))
    return 0 if verdicts[paths[0]] else 1


if __name__ == "__main__":
    sys.exit(main())

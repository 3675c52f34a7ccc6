"""The big-key study's goals, measured: DEL vs UNLINK of a 2M-member set, and what the 100 ms series costs.

1. ``ycsbctl run workload-b --targets redis,redis-lazyfree --server-config
   redis-lazyfree:lazyfree-lazy-user-del=yes --disturb del:set:2M@5s --disturb unlink:set:2M@12s``
   (local servers): the events table's stall against the DEL's own SLOWLOG duration, per target.
   Goals: DEL stalls ≥ 0.2 s, UNLINK < 0.1 s, the stall within 100 ms of SLOWLOG.
2. What one more report a 100 ms series costs, measured in process (steady, unlike a shared host):
   a worker's compacting and pickling of one interval's counts, the controller's unpickling and
   merging of it; a 100 ms series sends 9 more a second per worker process.
3. The client CPU of a ``--seconds`` point of workload B against a local redis-server, paced at
   ``--rate`` ops/s (the same work either way, on a shared host), with the series every 100 ms (a
   disturbed point) and every second, alternated ``--pairs`` times: the engine's workers' CPU and the
   controller's, in % of one core. Goal: ≤ 1 % more.

    .venv/bin/python -m bench disturbance [--seconds 20] [--pairs 2] [--rate 10000] [--size 2M] [--skip-study]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from ycsbctl.engine.runner import PhaseRunner  # noqa: E402
from ycsbctl.engine.spec import PhaseSpec  # noqa: E402
from ycsbctl.provision import provision, teardown  # noqa: E402
from ycsbctl.workload.properties import load_properties  # noqa: E402

CPU_BUDGET_PCT = 1.0  # of one core (issue 34)


def study(size: str, seconds: int) -> None:
    out = Path(tempfile.mkdtemp(prefix="ycsbctl-bench-disturb-")) / "study"
    cmd = [str(ROOT / ".venv" / "bin" / "ycsbctl"), "run", "workload-b", "--targets", "redis,redis-lazyfree",
           "--server-config", "redis-lazyfree:lazyfree-lazy-user-del=yes", "--backend", "local", "--threads", "16",
           "--records", "10000", "--duration", str(seconds), "--warmup", "2", "--allow-concurrent",
           "--disturb", f"del:set:{size}@5s", "--disturb", f"unlink:set:{size}@12s", "--out", str(out)]
    print("$", " ".join(cmd[1:]))
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
    if proc.returncode not in (0, 1, 3):  # 3: every point measured, some degraded (a busy host)
        print(proc.stderr[-3000:])
        return
    from ycsbctl.results import load
    from ycsbctl.results.events import is_open

    exp = load(out)
    ev = exp.events
    print(f"{'target':<16}{'event':<20}{'build s':>8}{'DEL/UNLINK ms':>14}{'SLOWLOG ms':>11}{'stall ms':>9}"
          f"{'est ms':>8}{'<50% run':>9}{'window s':>9}{'bg s':>6}{'ops lost':>10}{'max lat ms':>11}")
    for _, e in ev.iterrows():
        print(f"{e['target']:<16}{e['event']:<20}{e['build_s']:>8.2f}{e['command_s'] * 1e3:>14.1f}"
              f"{e['server_s'] * 1e3:>11.1f}{e['stall_s'] * 1e3:>9.0f}{e['stall_est_s'] * 1e3:>8.0f}"
              f"{e['slow_run_s'] * 1e3:>9.0f}{e['during_s']:>8.1f}{'+' if is_open(e['window_open']) else ' '}"
              f"{e['background_s']:>6.2f}{e['ops_lost']:>10,.0f}{e['max_latency_us'] / 1e3:>11.1f}")
    from ycsbctl.report.study_headlines import disturbance_headlines

    for line in disturbance_headlines(exp):  # the first screen's answer ("+" above: a window still open)
        print(line)
    print(f"(folder: {out})")


def report_cost(ops_per_interval: int = 3_000, repeats: int = 200) -> None:
    import pickle

    import numpy as np

    from ycsbctl.engine.measurements import Recorder
    from ycsbctl.engine.messages import SecondReport, dispatch
    from ycsbctl.engine.runner import Collector
    from ycsbctl.workload.core import READ, UPDATE

    rng = np.random.default_rng(34)
    rec = Recorder("op", [READ, UPDATE])
    for i, v in enumerate(rng.lognormal(5.5, 1.2, ops_per_interval).astype(np.int64)):
        rec.record(UPDATE if i % 20 == 0 else READ, 0, 0, int(v) * 1000, 0)
    counts = rec.roll()
    t = time.perf_counter()
    for _ in range(repeats):
        blob = pickle.dumps(SecondReport(0, 0, counts.compact()), protocol=pickle.HIGHEST_PROTOCOL)
    worker_us = (time.perf_counter() - t) / repeats * 1e6
    c = Collector(1, "op", 0, None)
    t = time.perf_counter()
    for k in range(repeats):
        msg = pickle.loads(blob)
        msg.second, msg.tenth = k // 10, k % 10
        dispatch(msg, c)
    controller_us = (time.perf_counter() - t) / repeats * 1e6
    extra = 9 * (worker_us + controller_us) / 1e6 * 100
    print(f"one report ({ops_per_interval:,} operations in it, {len(blob):,} bytes): worker {worker_us:.0f} µs "
          f"(compact + pickle), controller {controller_us:.0f} µs (unpickle + merge); 9 more a second: "
          f"{extra:.2f} % of a core per worker process (budget {CPU_BUDGET_PCT} %)")


def cpu_cost(seconds: float, pairs: int, rate: float) -> None:
    ep = provision("redis", "local", experiment_id="bench-disturb", say=lambda _m: None)
    try:
        props = {**load_properties(ROOT / "workloads" / "workloadb"), "recordcount": "10000", "operationcount": "0"}
        PhaseRunner(PhaseSpec("load", ep.url, props, threads=8)).run()
        rows: dict[int, list[tuple[float, float, float]]] = {1000: [], 100: []}
        for _ in range(pairs):
            for interval in (1000, 100):
                spec = PhaseSpec("run", ep.url, props, threads=16, duration_s=seconds, series_interval_ms=interval,
                                 target_rate=rate)
                c0, t0 = time.process_time(), time.perf_counter()
                r = PhaseRunner(spec).run()
                controller = time.process_time() - c0
                wall = time.perf_counter() - t0
                rows[interval].append((100 * r.client_cpu_s / seconds, 100 * controller / wall, r.throughput_ops))
        print(f"{'series':<10}{'workers % core':>16}{'controller % core':>19}{'ops/s':>10}")
        for interval, rs in rows.items():
            for w, c, ops in rs:
                print(f"{interval:>5} ms  {w:>16.1f}{c:>19.2f}{ops:>10,.0f}")
        mean = {i: sum(w + c for w, c, _ in rs) / len(rs) for i, rs in rows.items()}
        per_op = {i: sum((w + c) / ops for w, c, ops in rs) / len(rs) for i, rs in rows.items()}
        print(f"100 ms series: {mean[100] - mean[1000]:+.2f} % of a core over the per-second series "
              f"(budget {CPU_BUDGET_PCT} %); per operation {100 * (per_op[100] / per_op[1000] - 1):+.1f} %")
    finally:
        teardown(ep)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=20.0)
    ap.add_argument("--pairs", type=int, default=2)
    ap.add_argument("--size", default="2M")
    ap.add_argument("--rate", type=float, default=10_000.0)
    ap.add_argument("--skip-study", action="store_true")
    ap.add_argument("--skip-cpu", action="store_true")
    a = ap.parse_args()
    if not a.skip_study:
        study(a.size, int(a.seconds))
    report_cost()
    if not a.skip_cpu:
        cpu_cost(a.seconds, a.pairs, a.rate)
    return 0


if __name__ == "__main__":
    sys.exit(main())

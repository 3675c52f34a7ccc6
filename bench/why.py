"""The goals of issue 46: planted bottlenecks named right by the point's why line, no healthy point
blamed on a cause it did not have, the profile's kernel share against /proc's, and what
``--cpu-profile`` costs the profiled point.

    .venv/bin/python -m bench why [--reps 2] [--seconds 3] [--pairs 5] [--only planted|kernel|cost]

- **planted** (each ``--reps`` times): a Redis held to 0.15 of a core by a cgroup (→ ``server-cpu``); the
  client's worker sharing its CPU with a spinning process (→ ``cpu wait`` of the client, or
  ``client-cpu``); a Redis made to sleep by ``DEBUG SLEEP 0.05`` in a loop (→ ``off-CPU wait``); FerretDB
  (mongo-wire, SQLite) under workload A, whose writes queue on SQLite's single writer (→ an
  ``off-CPU wait``); and the same Redis free (healthy: its line must not say ``off-CPU wait`` or
  ``network``). Goal: ≥ 9 of 10 planted named right, no healthy point blamed.
- **kernel**: Redis at 32 threads profiled (perf cpu-clock): the share of its stack samples in the kernel
  against its system-time share from /proc over the same point. Goal: within 10 points.
- **cost**: the same Redis point, ``--pairs`` times profiled and unprofiled in alternation: the ratio of
  the throughputs with its 95 % interval (paired t on the log ratios). Goal: ≤ 3 % lower.
"""

from __future__ import annotations

import argparse
import math
import os
import shutil
import subprocess
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.fixtures.cgroups import cpu_quota  # noqa: E402
from tests.fixtures.servers import Server, start_redis  # noqa: E402
from ycsbctl.engine.runner import PhaseRunner  # noqa: E402
from ycsbctl.engine.spec import PhaseSpec  # noqa: E402
from ycsbctl.provision import provision, teardown  # noqa: E402
from ycsbctl.provision.base import Endpoint  # noqa: E402
from ycsbctl.telemetry.capture import sampling  # noqa: E402
from ycsbctl.telemetry.profiler import profiling  # noqa: E402
from ycsbctl.telemetry.why import explain  # noqa: E402
from ycsbctl.workload.properties import load_properties  # noqa: E402


def _props(workload: str, records: int) -> dict[str, str]:
    return {**load_properties(ROOT / "workloads" / workload), "recordcount": str(records), "operationcount": "0"}


def point(ep: Endpoint, props: dict[str, str], threads: int, seconds: float, cpus: tuple[int, ...] = (),
          profile_dir: Path | None = None, warmup_s: float = 0.0) -> dict[str, Any]:
    """One measured point: its why line, evidence, throughput (ops/s) and profile."""
    runner = PhaseRunner(PhaseSpec("run", ep.url, props, threads=threads, duration_s=seconds, cpus=cpus,
                                   processes=1 if cpus else None, warmup_s=warmup_s))
    with sampling(ep, client_pids=runner.pids) as cap, \
            profiling(profile_dir, [ep.pid] if ep.pid else [], runner.pids) as prof:
        result = runner.run()
    cap.align(result)
    b = cap.bottleneck().to_dict()
    mean_us = sum(s.mean_us * s.operations for s in result.ops.values()) / max(1, result.operations)
    return {"why": explain(b, ep.target, threads, mean_us) or "", "evidence": b["evidence"],
            "throughput": result.throughput_ops, "profile": prof.value}


def _redis(tmp: Path) -> tuple[Server, Endpoint]:
    s = start_redis(tmp, extra=("--enable-debug-command", "yes"))
    PhaseRunner(PhaseSpec("load", s.url, _props("workloadb", 2000), threads=8)).run()
    return s, Endpoint(target="redis", protocol="redis", url=s.url, backend="external", pid=s.proc.pid)


def _sleeper(url: str, stop: threading.Event) -> None:
    """Keep Redis's main thread asleep: ``DEBUG SLEEP 0.05`` again and again until ``stop``."""
    import redis

    c = redis.Redis.from_url(url)
    while not stop.is_set():
        c.execute_command("DEBUG", "SLEEP", "0.05")


def planted(reps: int, seconds: float) -> tuple[int, int, int, int]:
    """(planted right, planted, healthy blamed, healthy)."""
    props = _props("workloadb", 2000)
    right = planted_n = blamed = healthy = 0

    def judge(name: str, why: str, ok: bool, plant: bool = True) -> None:
        nonlocal right, planted_n, blamed, healthy
        if plant:
            planted_n += 1
            right += ok
        else:
            healthy += 1
            blamed += not ok
        print(f"  [{'right' if ok else 'WRONG'}] {name}: {why}")

    with tempfile.TemporaryDirectory() as tmp:
        server, ep = _redis(Path(tmp) / "redis")
        cpus = sorted(os.sched_getaffinity(0))
        try:
            for rep in range(reps):
                r = point(ep, props, 8, seconds)
                judge(f"healthy redis #{rep + 1}", r["why"], not r["why"].startswith(("off-CPU wait", "network")),
                      plant=False)
                with cpu_quota(0.15) as group:  # its own server: the group kills what is left in it
                    held, held_ep = _redis(Path(tmp) / f"held{rep}")
                    try:
                        group.add(held.proc.pid)
                        r = point(held_ep, props, 64, seconds)
                    finally:
                        held.stop()
                judge(f"server quota 0.15 #{rep + 1}", r["why"], r["why"].startswith("server-cpu"))
                if len(cpus) > 1:
                    os.sched_setaffinity(server.proc.pid, {cpus[0]})
                    hog = subprocess.Popen([sys.executable, "-c", "while True: pass"])
                    os.sched_setaffinity(hog.pid, {cpus[-1]})
                    try:
                        r = point(ep, props, 8, seconds, cpus=(cpus[-1],))
                    finally:
                        hog.kill()
                        hog.wait()
                        os.sched_setaffinity(server.proc.pid, set(cpus))
                    # the goal's "client/host": the client's wait, the client's CPU, or the host's cores
                    judge(f"client beside a hog #{rep + 1}", r["why"],
                          r["why"].startswith(("cpu wait: ", "client-cpu", "host-cpu")))
                stop = threading.Event()
                t = threading.Thread(target=_sleeper, args=(server.url, stop), daemon=True)
                t.start()
                try:
                    r = point(ep, props, 8, seconds)
                finally:
                    stop.set()
                    t.join(5)
                judge(f"server made to sleep #{rep + 1}", r["why"], r["why"].startswith("off-CPU wait"))
        finally:
            server.stop()
    try:
        fe = provision("ferretdb", "local", experiment_id="bench-why", say=lambda _m: None)
    except Exception as exc:  # noqa: BLE001 - a target this machine cannot start is said, not fatal
        print(f"  ferretdb: not measured ({exc})")
        return right, planted_n, blamed, healthy
    try:
        pa = _props("workloada", 1000)
        PhaseRunner(PhaseSpec("load", fe.url, pa, threads=8)).run()
        for rep in range(reps):
            r = point(fe, pa, 32, seconds)
            judge(f"ferretdb workload A #{rep + 1}", r["why"], r["why"].startswith("off-CPU wait"))
    finally:
        teardown(fe)
    return right, planted_n, blamed, healthy


def kernel(reps: int, seconds: float) -> list[tuple[float, float]]:
    """(perf's kernel share, /proc's system share) of Redis at 32 threads, ``reps`` times."""
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        server, ep = _redis(Path(tmp) / "redis")
        try:
            for rep in range(reps):
                r = point(ep, _props("workloadb", 2000), 32, seconds, profile_dir=Path(tmp) / f"p{rep}")
                perf_k = r["profile"].server_kernel_share if r["profile"] else None
                proc_k = (r["evidence"].get("server") or {}).get("kernel_share")
                print(f"  rep {rep + 1}: perf {perf_k}, /proc {proc_k} ({r['profile'].notes if r['profile'] else ''})")
                if perf_k is not None and proc_k is not None:
                    out.append((perf_k, proc_k))
        finally:
            server.stop()
    return out


def cost(pairs: int, seconds: float) -> tuple[float, float, float] | None:
    """The profiled ÷ unprofiled throughput ratio (geometric mean) and its 95 % interval."""
    from scipy import stats

    logs = []
    with tempfile.TemporaryDirectory() as tmp:
        server, ep = _redis(Path(tmp) / "redis")
        try:
            for i in range(pairs):
                order = (False, True) if i % 2 == 0 else (True, False)
                tp = {}
                for profiled in order:
                    # with the warm-up a sweep's points have (--profile default: 2 s), in which py-spy attaches
                    r = point(ep, _props("workloadb", 2000), 16, seconds,
                              profile_dir=Path(tmp) / f"c{i}" if profiled else None, warmup_s=2.0)
                    tp[profiled] = r["throughput"]
                print(f"  pair {i + 1}: unprofiled {tp[False]:,.0f} ops/s, profiled {tp[True]:,.0f} ops/s")
                logs.append(math.log(tp[True] / tp[False]))
        finally:
            server.stop()
    if len(logs) < 2:
        return None
    m = sum(logs) / len(logs)
    half = stats.t.ppf(0.975, len(logs) - 1) * stats.sem(logs)
    return math.exp(m), math.exp(m - half), math.exp(m + half)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=2)
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--pairs", type=int, default=5)
    ap.add_argument("--only", choices=["planted", "kernel", "cost"], default=None)
    args = ap.parse_args()
    os.environ.setdefault("YCSBCTL_HOST_BUSY_SHARE", "off")
    # ahead of the host's other work (nice -10, inherited by the servers and workers started from here): a
    # shared host must not starve the side a case does not plant a limit on (as tests/telemetry/test_cpu_points_truth)
    try:
        os.setpriority(os.PRIO_PROCESS, 0, -10)
    except OSError:
        print("note: not allowed to raise this process's priority; a busy host may starve the unplanted side")
    met = True
    if args.only in (None, "planted"):
        print("planted bottlenecks:")
        right, n, blamed, healthy = planted(args.reps, args.seconds)
        ok = n > 0 and right >= 0.9 * n and blamed == 0
        met &= ok
        print(f"  [{'met' if ok else 'NOT met'}] {right} of {n} planted named right (goal ≥ 90 %), "
              f"{blamed} of {healthy} healthy points blamed (goal 0)")
    if args.only in (None, "kernel"):
        if shutil.which("perf") is None:
            print("kernel share: perf is not installed")
        else:
            print("kernel share, perf against /proc:")
            pairs = kernel(max(args.reps, 3), args.seconds)
            worst = max((abs(a - b) for a, b in pairs), default=float("nan"))
            ok = bool(pairs) and worst <= 0.10
            met &= ok
            print(f"  [{'met' if ok else 'NOT met'}] worst difference {100 * worst:.1f} points (goal ≤ 10)")
    if args.only in (None, "cost"):
        print("--cpu-profile cost (profiled ÷ unprofiled throughput, alternating):")
        ratio = cost(args.pairs, args.seconds)
        if ratio is not None:
            ok = ratio[1] >= 0.97  # the interval's low end: a loss of more than 3 % is excluded
            met &= ok
            print(f"  [{'met' if ok else 'NOT met'}] {ratio[0]:.3f} [{ratio[1]:.3f}, {ratio[2]:.3f}] (goal: ≥ 0.97)")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())

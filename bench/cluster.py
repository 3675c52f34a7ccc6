"""The cluster engine (``--cluster``) against the local engine, side by side on one server.

Starts its own ``redis-server`` on loopback and a Dask scheduler with one ``dask worker`` (under its
nanny, as Dask's docs start it) on this host, loads ``--records`` records, then for each thread
count runs workload B for ``--duration`` s after ``--warmup`` s with the local engine and through the
one Dask worker, alternately, ``--repeat`` times. Then a second worker joins and one point runs on
both, for the start skew between two shards. For every point Redis's own ``INFO commandstats``
(after ``CONFIG RESETSTAT``) is compared with the counts the engine merged, warm-up included.

Goals (issue 14): cluster ÷ local throughput ≥ 0.95 at each thread count (median of the repeats);
start skew ≤ 5 ms between shards; server-counted = reported for every point. This machine's cores
are shared with other work: read the ratios, not the rates. Exit status 1 when a goal is missed.

    .venv/bin/python -m bench cluster
    .venv/bin/python -m bench.cluster [--records 20000] [--duration 5] [--threads 8,32] [--repeat 2]
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench import _servers as servers  # noqa: E402
from bench._redis_reference import RedisServer  # noqa: E402
from ycsbctl.engine.cluster import ClusterRunner  # noqa: E402
from ycsbctl.engine.dask_client import close_clients  # noqa: E402
from ycsbctl.engine.runner import run_phase  # noqa: E402
from ycsbctl.engine.spec import PhaseSpec  # noqa: E402
from ycsbctl.results.model import PhaseResult  # noqa: E402
from ycsbctl.workload.properties import load_properties  # noqa: E402

MIN_RATIO = 0.95
MAX_SKEW_MS = 5.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class DaskCluster:
    """``dask scheduler`` and ``dask worker`` processes on loopback, stopped on exit."""

    def __init__(self, logs: Path) -> None:
        self.logs = logs
        self.address = f"tcp://127.0.0.1:{free_port()}"
        self.procs: list[subprocess.Popen] = []
        self._start("scheduler", ["distributed.cli.dask_scheduler", "--host", "127.0.0.1", "--port",
                                  self.address.rsplit(":", 1)[1], "--no-dashboard"])

    def _start(self, name: str, args: list[str]) -> None:
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        with open(self.logs / f"{name}.log", "ab") as log:
            self.procs.append(subprocess.Popen([sys.executable, "-m", *args], stdout=log, stderr=subprocess.STDOUT,
                                               env=env))

    def add_worker(self, name: str) -> None:
        self._start(name, ["distributed.cli.dask_worker", self.address, "--name", name, "--nthreads", "2",
                           "--no-dashboard"])

    def wait_workers(self, n: int) -> None:
        from distributed import Client

        with Client(self.address, timeout="30s") as c:
            c.wait_for_workers(n, timeout=60)

    def stop(self) -> None:
        for p in reversed(self.procs):
            servers.stop(p)


def counted(server: RedisServer) -> int:
    """HGETALL + HMSET calls since the last CONFIG RESETSTAT (workload B's reads and updates)."""
    stats = server.client.info("commandstats")
    return sum(int(stats.get(f"cmdstat_{c}", {}).get("calls", 0)) for c in ("hgetall", "hmset"))


def reported(r: PhaseResult) -> int:
    """READ + UPDATE operations the engine merged over every second, warm-up included."""
    s = r.series
    return int(s[s.op.isin(["READ", "UPDATE"])].operations.sum())


def measure(server: RedisServer, spec: PhaseSpec, cluster: str | None) -> tuple[PhaseResult, int, list[float]]:
    """One point and, with ``cluster``, how long (ms) after the end of each second its merged progress
    tick reached the controller (per-second counts relayed through the Dask Queue)."""
    server.client.config_resetstat()
    arrivals: list[tuple[int, float]] = []
    tick = (lambda t: t.starting or arrivals.append((t.second, time.perf_counter()))) if cluster else None
    r = ClusterRunner(spec, cluster).run(tick) if cluster else run_phase(spec)
    if r.status != "ok":
        raise SystemExit(f"a point failed: {r.errors[:1]}")
    t0 = r.t_start_mono or 0.0
    return r, counted(server), [1000 * (at - (t0 + s + 1)) for s, at in arrivals]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--records", type=int, default=20_000)
    ap.add_argument("--duration", type=float, default=4.0)
    ap.add_argument("--warmup", type=float, default=1.0)
    ap.add_argument("--threads", default="8,32")
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    threads = [int(t) for t in a.threads.split(",")]
    props = {k: str(v) for k, v in load_properties("workload-b").items()}
    props.update(recordcount=str(a.records), operationcount="0")
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        server = RedisServer(Path(tmp))
        dask = DaskCluster(Path(tmp))
        try:
            dask.add_worker("c1")
            load = run_phase(PhaseSpec("load", server.url, props, threads=8))
            assert load.status == "ok", load.errors
            dask.wait_workers(1)
            print(f"redis-server {server.version} on {server.url}; Dask {dask.address}, one worker on this host")
            print(f"workload B, {a.records:,} records, {a.duration:g} s + {a.warmup:g} s warm-up per point, "
                  f"{a.repeat} alternating repeats (median ratio); ratios measured side by side: absolute rates "
                  f"depend on what else runs here (1-min load average now {os.getloadavg()[0]:.1f} on "
                  f"{os.cpu_count()} cores)\n")
            print(f"{'threads':>7}  {'local ops/s':>11}  {'cluster ops/s':>13}  {'ratio':>5}  "
                  f"{'server counted = reported (local | cluster)':<46}")
            for i, t in enumerate(threads):
                spec = PhaseSpec("run", server.url, props, threads=t, duration_s=a.duration, warmup_s=a.warmup)
                local, clustered, counts, delays = [], [], [], []
                for rep in range(a.repeat):
                    order = (None, dask.address) if (i + rep) % 2 == 0 else (dask.address, None)
                    for where in order:
                        r, n, tick_delays = measure(server, spec, where)
                        (clustered if where else local).append(r.throughput_ops)
                        delays += tick_delays
                        counts.append((where is not None, n, reported(r)))
                ratio = statistics.median(c / loc for c, loc in zip(clustered, local))
                same = all(n == m for _, n, m in counts)
                shown = " | ".join(f"{n:,}={m:,}" if n == m else f"{n:,}≠{m:,}" for _, n, m in counts[:2])
                print(f"{t:>7}  {statistics.median(local):>11,.0f}  {statistics.median(clustered):>13,.0f}  "
                      f"{ratio:>5.2f}  {shown}{'' if same else '  MISMATCH'}")
                print(f"{'':>7}  progress ticks through Dask reached the controller {statistics.median(delays):.0f} ms "
                      f"(median; max {max(delays):.0f} ms) after their second ended")
                ok &= ratio >= MIN_RATIO and same
            dask.add_worker("c2")
            dask.wait_workers(2)
            skews = []
            for _ in range(5):
                spec = PhaseSpec("run", server.url, props, threads=threads[0], duration_s=2.0)
                r, n, _ = measure(server, spec, dask.address)
                skews.append((r.cluster or {})["start_skew_ms"])
                ok &= n == reported(r)
            typical = statistics.median(skews)
            print(f"\nstart skew between two shards (5 points): {', '.join(f'{s:.2f}' for s in skews)} ms; median "
                  f"{typical:.2f} ms (goal ≤ {MAX_SKEW_MS:g} ms; on a shared 2-core host, how late each shard's "
                  "thread wakes at the start time depends on what else is runnable then)")
            ok &= typical <= MAX_SKEW_MS
            print(f"goals: ratio ≥ {MIN_RATIO} at every thread count, skew ≤ {MAX_SKEW_MS:g} ms, counts equal: "
                  f"{'met' if ok else 'NOT met'}")
        finally:
            close_clients()  # before the scheduler goes: a client left open would try to reconnect
            dask.stop()
            server.stop()
            time.sleep(0.1)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

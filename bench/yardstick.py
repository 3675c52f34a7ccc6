"""What the host yardstick costs a round, how steady it reads, and whether it follows a server's throughput
when the host gets busier.

``ycsbctl run`` times the yardstick (ycsbctl.telemetry.yardstick) once at the start of every round, with
nothing else of ycsbctl running: the wall time of a reading, plus keeping it in the folder (yardstick.parquet
rewritten and the manifest's summary), is what a round gains. This takes ``--readings`` readings in each of
three conditions — the host as it is, one spinning process pinned to the last CPU ("one core busy"), one
pinned to every CPU ("all busy") — visited in an order reversed every other pass, so that the host's own
drift meanwhile falls on all three. With ``--redis`` each reading is followed by a 2 s run of workload B at
8 threads against a local redis-server in the same condition: the busy conditions' median throughput over
the quiet one's, beside the yardstick's speed over its quiet one's, says whether dividing by the yardstick
takes a busier host out of a cell.

    .venv/bin/python -m bench yardstick [--readings 6] [--redis]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from ycsbctl.results.folder import ResultFolder  # noqa: E402
from ycsbctl.results.schema import Manifest  # noqa: E402
from ycsbctl.results.yardstick import Reading  # noqa: E402
from ycsbctl.telemetry.yardstick import cpus, measure  # noqa: E402

SPIN = "while True:\n    pass"
CONDITIONS = ("quiet", "one core busy", "all busy")


def _busy(condition: str) -> list[subprocess.Popen[bytes]]:
    on = {"quiet": [], "one core busy": cpus()[-1:], "all busy": cpus()}[condition]
    procs = []
    for cpu in on:
        p = subprocess.Popen([sys.executable, "-c", SPIN])
        os.sched_setaffinity(p.pid, {cpu})
        procs.append(p)
    time.sleep(0.2 if on else 0.0)
    return procs


def _cv(values: list[float]) -> float:
    return 100 * statistics.stdev(values) / statistics.mean(values) if len(values) > 1 else float("nan")


class _Redis:
    """A local redis-server with workload B's records loaded; :meth:`throughput` runs 2 s at 8 threads."""

    def __init__(self) -> None:
        from ycsbctl.provision import provision
        from ycsbctl.workload.properties import load_properties

        self.props = {**load_properties(ROOT / "workloads" / "workloadb"), "recordcount": "5000", "operationcount": "0"}
        self.ep = provision("redis", "local", experiment_id="bench-yardstick", say=lambda _m: None)
        self._run("load", None)

    def _run(self, phase: str, seconds: float | None) -> float:
        from ycsbctl.engine.runner import PhaseRunner
        from ycsbctl.engine.spec import PhaseSpec

        return PhaseRunner(PhaseSpec(phase, self.ep.url, self.props, threads=8,
                                     duration_s=seconds)).run().throughput_ops

    def throughput(self) -> float:
        return self._run("run", 2.0)

    def close(self) -> None:
        from ycsbctl.provision import teardown

        teardown(self.ep)


def _take(readings: int,
          redis: _Redis | None) -> tuple[dict[str, list[Reading]], dict[str, list[float]], dict[str, list[float]]]:
    """Per condition: the readings, the seconds keeping each took, the redis throughput after each (ops/s)."""
    taken: dict[str, list[Reading]] = {c: [] for c in CONDITIONS}
    keep: dict[str, list[float]] = {c: [] for c in CONDITIONS}
    ops: dict[str, list[float]] = {c: [] for c in CONDITIONS}
    with tempfile.TemporaryDirectory() as tmp:
        folder = ResultFolder.create(Path(tmp), "bench-yardstick", Manifest(experiment_id="bench-yardstick"))
        for i in range(readings):
            for name in CONDITIONS if i % 2 == 0 else CONDITIONS[::-1]:
                hogs = _busy(name)
                try:
                    r = measure()
                    if redis is not None:
                        ops[name].append(redis.throughput())
                finally:
                    for p in hogs:
                        p.kill()
                        p.wait()
                t0 = time.perf_counter()
                folder.add_yardstick(r.row(i + 1, "run", name, ""))
                keep[name].append(time.perf_counter() - t0)
                taken[name].append(r)
        folder.close()
    return taken, keep, ops


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--readings", type=int, default=6, help="readings per condition (default 6)")
    ap.add_argument("--redis", action="store_true", help="a 2 s redis run after each reading, for its throughput")
    args = ap.parse_args()
    redis = _Redis() if args.redis else None
    try:
        taken, keep, ops = _take(args.readings, redis)
    finally:
        if redis is not None:
            redis.close()
    print(f"host yardstick on {len(cpus())} CPU(s), {args.readings} readings per condition")
    print(
        f"{'condition':<14} {'median s':>8} {'max s':>6} {'keep ms':>7} {'CV speed':>8} {'CV cpu':>6} {'CV rtt':>6} "
        f"{'speed ÷ quiet':>13} {'cpu':>5} {'rtt':>5} {'share':>5}" + (f" {'redis ÷ quiet':>13}" if args.redis else "")
    )
    q_speed = statistics.median(r.speed for r in taken["quiet"])
    q_cpu = statistics.median(r.cpu_ops_per_s for r in taken["quiet"])
    q_rtt = statistics.median(r.rtt_us for r in taken["quiet"])
    q_share = statistics.median(r.cpu_share for r in taken["quiet"])
    q_ops = statistics.median(ops["quiet"]) if args.redis else 1.0
    for name in CONDITIONS:
        rs = taken[name]
        secs = [r.seconds for r in rs]
        print(f"{name:<14} {statistics.median(secs):8.3f} {max(secs):6.3f} {1e3 * statistics.median(keep[name]):7.1f} "
              f"{_cv([r.speed for r in rs]):7.1f}% {_cv([r.cpu_ops_per_s for r in rs]):5.1f}% "
              f"{_cv([r.rtt_us for r in rs]):5.1f}% {statistics.median(r.speed for r in rs) / q_speed:13.2f} "
              f"{statistics.median(r.cpu_ops_per_s for r in rs) / q_cpu:5.2f} "
              f"{q_rtt / statistics.median(r.rtt_us for r in rs):5.2f} "
              f"{statistics.median(r.cpu_share for r in rs) / q_share:5.2f}"
              + (f" {statistics.median(ops[name]) / q_ops:13.2f}" if args.redis else ""))
    print("a round gains a reading's wall time ('median s') plus keeping it ('keep ms'); cpu, rtt (as a rate) and\n"
          "share: each part's median over the quiet one's")
    return 0


if __name__ == "__main__":
    sys.exit(main())

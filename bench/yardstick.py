"""What the host yardstick costs a round, how steady it reads, and how far a busy host moves it.

``ycsbctl run`` times the yardstick (ycsbctl.telemetry.yardstick) once at the start of every round, with
nothing else of ycsbctl running: the wall time of a reading, plus keeping it in the folder (yardstick.parquet
rewritten and the manifest's summary), is what a round gains. This takes ``--readings`` readings on the host as
it is, then as many with one spinning process pinned to each CPU (a host as busy again), alternating in pairs so
that the host's own drift meanwhile falls on both; it prints the cost per round, the spread of each figure
(coefficient of variation over the readings) and the busy readings' speed over the quiet ones.

    .venv/bin/python -m bench yardstick [--readings 10]
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


def _busy(on: bool) -> list[subprocess.Popen[bytes]]:
    procs = []
    for cpu in cpus() if on else []:
        p = subprocess.Popen([sys.executable, "-c", SPIN])
        os.sched_setaffinity(p.pid, {cpu})
        procs.append(p)
    time.sleep(0.2 if on else 0.0)
    return procs


def _cv(values: list[float]) -> float:
    return 100 * statistics.stdev(values) / statistics.mean(values) if len(values) > 1 else float("nan")


def _line(name: str, readings: list[Reading], keep_s: list[float]) -> str:
    secs = sorted(r.seconds for r in readings)
    return (f"{name:<6} {len(readings):>3}  {statistics.median(secs):6.3f} s  {secs[-1]:6.3f} s  "
            f"{1e3 * statistics.median(keep_s):6.1f} ms  {_cv([r.speed for r in readings]):6.1f} %  "
            f"{_cv([r.cpu_ops_per_s for r in readings]):6.1f} %  {_cv([r.rtt_us for r in readings]):6.1f} %  "
            f"{statistics.median(r.cpu_share for r in readings):5.2f}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--readings", type=int, default=10, help="readings per condition (default 10)")
    args = ap.parse_args()
    taken: dict[str, list[Reading]] = {"quiet": [], "busy": []}
    keep: dict[str, list[float]] = {"quiet": [], "busy": []}
    with tempfile.TemporaryDirectory() as tmp:
        folder = ResultFolder.create(Path(tmp), "bench-yardstick", Manifest(experiment_id="bench-yardstick"))
        for i in range(args.readings):
            for name in ("quiet", "busy") if i % 2 == 0 else ("busy", "quiet"):
                hogs = _busy(name == "busy")
                try:
                    r = measure()
                finally:
                    for p in hogs:
                        p.kill()
                        p.wait()
                t0 = time.perf_counter()
                folder.add_yardstick(r.row(i + 1, "run", name, ""))
                keep[name].append(time.perf_counter() - t0)
                taken[name].append(r)
        folder.close()
    print(f"host yardstick on {len(cpus())} CPU(s), {args.readings} readings per condition (busy: one spinning "
          "process pinned to each CPU)")
    print("cond     n  median    max     keep     CV speed  CV cpu  CV rtt  cpu share")
    for name in ("quiet", "busy"):
        print(_line(name, taken[name], keep[name]))
    q, b = (statistics.median(r.speed for r in taken[n]) for n in ("quiet", "busy"))
    print(f"busy ÷ quiet median speed: {b / q:.2f}  (cpu {statistics.median(r.cpu_ops_per_s for r in taken['busy']) / statistics.median(r.cpu_ops_per_s for r in taken['quiet']):.2f}, "
          f"round-trip rate {statistics.median(r.rtt_us for r in taken['quiet']) / statistics.median(r.rtt_us for r in taken['busy']):.2f})")
    print("a round gains a reading's wall time plus keeping it (the 'median' and 'keep' columns)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

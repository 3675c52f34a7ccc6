"""The engine's worker start, side by side: workers forked from the engine's fork server (the default,
``ycsbctl.engine.launch``) against spawned ones (``YCSBCTL_WORKER_START=spawn``), in turn, so that what
the host does meanwhile falls on both.

Each point is a phase of a handful of operations on the ``basic://`` store (no server, no network), so
its wall time is the engine's own cost of a point: starting its workers, their connecting and the
start signal, the merge of their reports. Prints the median wall ms per point of each way, their ratio
with its paired 95 % interval, and the load average.

    .venv/bin/python -m bench engine_start [--rounds 10] [--processes 1,2]
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

from ycsbctl.engine.launch import START_ENV
from ycsbctl.engine.runner import run_phase
from ycsbctl.engine.spec import PhaseSpec
from ycsbctl.results.stats import compare
from ycsbctl.workload.properties import load_properties


def _point_s(processes: int, spawn: bool) -> float:
    """Wall seconds of one tiny run phase, its workers started one way or the other."""
    props = dict(load_properties("workload-b")) | {"recordcount": "100", "operationcount": str(20 * processes)}
    if spawn:
        os.environ[START_ENV] = "spawn"
    try:
        t = time.perf_counter()
        r = run_phase(PhaseSpec("run", "basic://", props, threads=2 * processes, processes=processes, seed=1))
        took = time.perf_counter() - t
    finally:
        os.environ.pop(START_ENV, None)
    if r.status != "ok":
        raise SystemExit(f"a point failed: {r.errors}")
    return took


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("--processes", default="1,2", help="worker processes per point, comma-separated")
    args = ap.parse_args()
    _point_s(1, spawn=False)  # the fork server's own start: once per ycsbctl process, not per point
    print(f"{'workers':>7}  {'forked ms':>9}  {'spawned ms':>10}  forked ÷ spawned [95 %]")
    for n in (int(x) for x in args.processes.split(",")):
        forked, spawned = {}, {}
        for i in range(args.rounds):
            forked[i], spawned[i] = _point_s(n, spawn=False), _point_s(n, spawn=True)
        c = compare(spawned, forked, paired=True)
        print(f"{n:>7}  {1000 * statistics.median(forked.values()):>9.0f}  "
              f"{1000 * statistics.median(spawned.values()):>10.0f}  {c.ratio:.2f} [{c.low:.2f}, {c.high:.2f}]")
    print(f"load average {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

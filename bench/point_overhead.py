"""What a point costs beyond its own duration: the wall time from one point's start to the next one's, less
the point's planned seconds, for one plan run by the ``ycsbctl`` command line (engine workers' start and
connect, telemetry's samplers, the host scan, the dataset checks, the judging and the writing of the point).

The plan (by default ``run workload-b --target redis --threads 8,32 --duration 2 --repeat 2 --records
5000``; ``--target default`` leaves the targets to the default plan, Redis and the MongoDB stand-in) is run as a whole
command, its progress read line by line as it comes: each ``[k/N] …`` line is a point's start, timed on this process's
monotonic clock. A point's overhead is the time to the next point's start less ``--duration`` (no warm-up is given, so a
point measures for exactly that long); the dataset's load is left out. Printed: the median over the run-phase points of
every run, and the whole command's wall time. With ``--against CHECKOUT`` (another ycsbctl source tree, e.g. ``git
worktree add /tmp/old 47f9307``) the same plan is run from that tree in turn with this one (A B A B …: what the host
does meanwhile falls on both), and the ratio this ÷ that of the median overheads is printed with its paired 95 %
interval over the rounds.

    .venv/bin/python -m bench point_overhead [--target basic://|default|redis,ferretdb] [--rounds 3] [--against
    /tmp/old]
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from bench._against import checkouts, ratio_line

ROOT = Path(__file__).resolve().parents[1]
POINT_LINE = re.compile(r"^\[(\d+)/(\d+)\] (.*)$")  # the plain console's line at a point's start


@dataclass(frozen=True)
class PlanRun:
    """One whole run of the plan: each run-phase point's overhead (s beyond its duration), its wall time (s)."""

    overheads_s: list[float]
    wall_s: float

    @property
    def median_s(self) -> float:
        return statistics.median(self.overheads_s) if self.overheads_s else float("nan")


def plan_args(args: argparse.Namespace, out: Path) -> list[str]:
    """The ``ycsbctl run`` command line of the plan (the same for both checkouts)."""
    targets = [a for t in args.target.split(",") if t and t != "default" for a in ("--target", t)]
    plan = ["run", "workload-b", *targets, "--threads", args.threads, "--duration", f"{args.duration:g}",
            "--repeat", str(args.repeat), "--out", str(out), "--allow-concurrent"]  # another bench may share the host
    return plan + (["--records", str(args.records)] if not args.target.startswith("basic:") else [])


def run_plan(checkout: Path, args: argparse.Namespace) -> PlanRun:
    """Run the plan from ``checkout``'s sources; the point starts as its progress lines arrive."""
    with tempfile.TemporaryDirectory(prefix="bench-overhead-") as tmp:
        cmd = [sys.executable, "-m", "ycsbctl", *plan_args(args, Path(tmp) / "out")]
        env = {**os.environ, "PYTHONPATH": str(checkout)}
        starts: list[tuple[float, str]] = []
        t0 = time.monotonic()
        with subprocess.Popen(cmd, cwd=checkout, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                              text=True, bufsize=1) as proc:
            assert proc.stderr is not None
            tail: list[str] = []
            for line in proc.stderr:
                now = time.monotonic()
                m = POINT_LINE.match(line.rstrip("\n"))
                if m and int(m.group(1)) > len(starts):  # a point's status line repeats its [k/N]
                    starts.append((now, m.group(3)))
                tail = (tail + [line])[-5:]
            code = proc.wait()
        wall = time.monotonic() - t0
    if code not in (0, 1) or len(starts) < 2:  # 1: a point was degraded (another program used the host), kept
        raise RuntimeError(f"ycsbctl from {checkout} exited {code}: {''.join(tail).strip()}")
    # each point but the last: to the next one's start; a dataset's load ("… load of N records") is not counted
    overheads = [b - a - args.duration for (a, label), (b, _) in zip(starts, starts[1:]) if " load of " not in label]
    return PlanRun(overheads, wall)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--target", default="redis",
                    help="catalogue names or URLs (basic://), comma-separated; 'default': the default plan's targets")
    ap.add_argument("--threads", default="8,32")
    ap.add_argument("--duration", type=float, default=2.0, help="seconds per point")
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--records", type=int, default=5000)
    ap.add_argument("--rounds", type=int, default=2, help="runs of the plan per checkout")
    ap.add_argument("--against", type=Path, help="another checkout of ycsbctl, run in turn with this one")
    args = ap.parse_args()
    trees = checkouts(ROOT, args.against)
    if trees is None:
        return 2
    print(f"plan: ycsbctl {' '.join(plan_args(args, Path('…')))}", flush=True)
    got: dict[str, dict[int, PlanRun]] = {n: {} for n in trees}
    for i in range(args.rounds):
        for name, tree in trees.items():
            r = got[name][i] = run_plan(tree, args)
            print(f"  round {i + 1} {name:>7}: {len(r.overheads_s)} points, overhead median {r.median_s:.2f} s "
                  f"(min {min(r.overheads_s):.2f}, max {max(r.overheads_s):.2f}), command {r.wall_s:.1f} s", flush=True)
    print(f"\n{'checkout':>8}  {'overhead s/point':>16}  {'command s':>9}")
    for name in trees:
        runs = got[name].values()
        print(f"{name:>8}  {statistics.median(r.median_s for r in runs):16.2f}  "
              f"{statistics.median(r.wall_s for r in runs):9.1f}")
    if args.against:
        print("\n" + ratio_line({i: r.median_s for i, r in got["against"].items()},
                                {i: r.median_s for i, r in got["this"].items()}, "overhead per point"))
    print(f"load average {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

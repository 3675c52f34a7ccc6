"""Placement, side by side: the noise between repetitions and the client's loop lag, split against off.

The same experiment — Redis provisioned by ycsbctl (local backend), workload B, a thread ladder,
``--repeat`` rounds — runs with ``--placement split`` (the server on one CPU set, the client's
workers on the other) and with ``--placement off`` (both float), alternately (split, off, split,
off …), so that whatever the host does meanwhile lands on both. Per thread count it prints the
coefficient of variation of throughput between the repetitions (median over the pairs), the client's
event-loop lag p99.9 (median over runs) and the throughput of split over off (geometric mean over
pairs), and then the same pooled over thread counts. docs/studies/comparison.md ("How sure is this?") quotes it and
the default of ``--placement`` follows from it.

    .venv/bin/python -m bench placement [--pairs 2] [--threads 8,32,128] [--repeat 5] [--duration 2]
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from ycsbctl.experiment.placement import CONTROLLER_ENV  # noqa: E402

YCSBCTL = str(ROOT / ".venv" / "bin" / "ycsbctl")
MODES = ("split", "off")
# split-float: split, but ycsbctl's controller (progress, telemetry, merging) left floating during a point
# instead of waiting on the servers' CPUs (YCSBCTL_PLACE_CONTROLLER=float)
FLOATING = "split-float"


def experiment(mode: str, out: Path, threads: str, repeat: int, duration: float, records: int) -> pd.DataFrame:
    """The run-phase rows of one experiment with ``--placement mode``."""
    env = dict(os.environ)
    if mode == FLOATING:
        env[CONTROLLER_ENV], mode = "float", "split"
    cmd = [YCSBCTL, "run", "workload-b", "--targets", "redis", "--backend", "local", "--threads", threads,
           "--repeat", str(repeat), "--duration", str(duration), "--warmup", "2", "--records", str(records),
           "--placement", mode,
           "--quiet", "--out", str(out)]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=1800, env=env)
    if proc.returncode not in (0, 1, 3):  # 3: every point measured, some degraded (a busy host)
        raise RuntimeError(f"{' '.join(cmd)}: exit {proc.returncode}: {proc.stderr[-2000:]}")
    runs = pd.read_parquet(out / "runs.parquet")
    return runs[(runs["phase"] == "run") & (runs["status"] == "ok")]


def cv(values: pd.Series) -> float:
    return float(values.std(ddof=1) / values.mean()) if len(values) > 1 else math.nan


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pairs", type=int, default=2)
    ap.add_argument("--threads", default="8,32,128")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--duration", type=float, default=2.0)
    ap.add_argument("--records", type=int, default=20000)
    ap.add_argument("--modes", default=",".join(MODES), help=f"placements compared, the first against each other "
                    f"(split, off, {FLOATING})")
    ap.add_argument("--busy", action="store_true", help="one core held busy by a spinning process meanwhile")
    args = ap.parse_args()
    modes = args.modes.split(",")
    rows: list[dict] = []
    with tempfile.TemporaryDirectory(prefix="bench-placement-") as tmp:
        hog = subprocess.Popen([sys.executable, "-c", "while True: pass"]) if args.busy else None
        try:
            rows += run_pairs(args, modes, Path(tmp))
        finally:
            if hog is not None:
                hog.kill()
                hog.wait()
    report(pd.DataFrame(rows), args, modes)
    return 0


def run_pairs(args: argparse.Namespace, modes: list[str], tmp: Path) -> list[dict]:
    """Per pair and placement, one experiment: a row per thread count (CV, lag p99.9 µs, mean ops/s)."""
    rows = []
    for pair in range(args.pairs):
        for mode in modes:
            runs = experiment(mode, tmp / f"{mode}-{pair}", args.threads, args.repeat, args.duration, args.records)
            for threads, g in runs.groupby("threads"):
                rows.append({"pair": pair, "mode": mode, "threads": int(threads), "cv": cv(g["throughput_ops"]),
                             "lag_p999_us": float(g["client_lag_p999_us"].median()),
                             "ops": float(g["throughput_ops"].mean())})
            print(f"pair {pair + 1}/{args.pairs}, {mode}: done", flush=True)
    return rows


def report(df: pd.DataFrame, args: argparse.Namespace, modes: list[str]) -> None:
    print(f"\nRedis, workload B, {args.repeat} repetitions of {args.duration:g} s per cell, {args.pairs} pair(s) "
          f"of experiments run alternately ({', '.join(modes)}){', one core held busy' if args.busy else ''}")
    first = modes[0]
    for other in modes[1:]:
        print(f"\n{first} against {other}")
        print(f"{'threads':>8} {'CV ' + first:>22} {'CV ' + other:>22} {'ratio':>6}  {'lag p99.9':>10} {'':>8} "
              f"{'ratio':>6}"
              f"  {'ops/s ratio':>11}")
        for threads, g in [*df.groupby("threads"), ("all", df)]:
            s, o = g[g["mode"] == first], g[g["mode"] == other]
            cs, co = statistics.median(s["cv"]), statistics.median(o["cv"])
            ls, lo = statistics.median(s["lag_p999_us"]), statistics.median(o["lag_p999_us"])
            line = (f"{threads:>8} {cs:>22.1%} {co:>22.1%} {cs / co:>6.2f}  {ls:>7.0f} µs {lo:>5.0f} µs "
                    f"{ls / lo:>6.2f}")
            if threads != "all":
                line += f"  {math.exp(statistics.mean(math.log(a / b) for a, b in zip(s['ops'], o['ops']))):>11.2f}"
            print(line)


if __name__ == "__main__":
    sys.exit(main())

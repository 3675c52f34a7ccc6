"""How long ``ycsbctl report`` takes on a full-size experiment (budget: 30 s on this machine).

Builds a synthetic result folder of 2 targets × 3 workloads × 5 thread counts × 3 repetitions
(90 sweep runs, real HDR histograms, per-second series and telemetry, 10 s per point) in a fresh
temporary directory, then times ``ycsbctl report`` as a user runs it (a new process, nothing
cached), and prints the time against the budget.

    .venv/bin/python bench/report_bench.py [--keep]
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.fixtures.experiments import build_experiment  # noqa: E402

BUDGET_S = 30.0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--keep", action="store_true", help="keep the generated folder and print its path")
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="ycsbctl-report-bench-"))
    try:
        t0 = time.perf_counter()
        path = build_experiment(tmp, "bench", workloads=("workloada", "workloadb", "insert"),
                                threads=(8, 16, 32, 64, 128), repetitions=3, duration_s=10)
        build_s = time.perf_counter() - t0
        runs = len(list((path / "runs").glob("*.json")))
        t0 = time.perf_counter()
        cli = [sys.executable, "-c", "from ycsbctl.cli import main; main()"]  # what the ycsbctl script runs
        subprocess.run([*cli, "report", str(path)], check=True, stdout=subprocess.DEVNULL, cwd=ROOT)
        report_s = time.perf_counter() - t0
        size = (path / "report.html").stat().st_size
        plots = len(list((path / "plots").glob("*.png")))
        print(f"built {runs} runs (90 sweep points + load phases + a skipped target) in {build_s:.1f} s")
        print(f"ycsbctl report: {report_s:.1f} s for {plots} figures (PNG+SVG), report.html {size / 1e6:.1f} MB")
        print(f"budget {BUDGET_S:.0f} s: {report_s / BUDGET_S:.2f} of it -> "
              f"{'ok' if report_s < BUDGET_S else 'TOO SLOW'}")
        if args.keep:
            print(f"kept: {path}")
        return 0 if report_s < BUDGET_S else 1
    finally:
        if not args.keep:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())

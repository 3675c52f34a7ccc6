"""The engine's own throughput, this checkout against another, side by side: ``basic://`` (no server, the engine
alone), one worker process, 8 client threads, the whole run pinned to one CPU (``taskset``), the two checkouts in
turn in A B B A order, each run a process of its own. Prints each pair's ratio and, over the pairs, the geometric
mean of this ÷ base with its 95 % t interval (ops/s, and the worker's client CPU µs per operation).

On a shared 2-core VM one pair's ratio spreads ±15–25 %: about 80 pairs (~8 min) bring the interval to ±3–4 %.
Without ``--base`` the checkout is compared with itself: that A/A interval is what this host can resolve.

    .venv/bin/python -m bench engine_ab --base /path/to/older/checkout [--pairs 80] [--ops 2000000] [--cpu 1]

``--base`` is another checkout of ycsbctl (``git worktree add /tmp/base <rev>``) with its compiled core built or
copied (``ycsbctl/_native*.so``); both run on this checkout's Python environment.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from ycsbctl.results import stats  # noqa: E402

# one run in a process of its own; the engine it imports is the checkout's (PYTHONPATH and sys.path)
RUN = """
import json, sys
sys.path.insert(0, {root!r})
from ycsbctl.engine.runner import run_phase
from ycsbctl.engine.spec import PhaseSpec
from ycsbctl.workload.properties import load_properties
p = dict(load_properties("workload-b"))
p.update(recordcount="1000", operationcount=str({ops}))
r = run_phase(PhaseSpec("run", "basic://", p, threads=8, processes=1))
print(json.dumps({{"ops_s": r.throughput_ops, "us_op": r.client_us_per_op()}}))
"""


def one_run(root: Path, ops: int, cpu: int) -> dict[str, float]:
    """One basic:// run of ``ops`` operations with the engine of checkout ``root``: ops/s and client µs/op."""
    env = dict(os.environ, PYTHONPATH=str(root))
    out = subprocess.run(["taskset", "-c", str(cpu), sys.executable, "-c", RUN.format(root=str(root), ops=ops)],
                         cwd=root, env=env, capture_output=True, text=True, timeout=600)
    if out.returncode:
        raise SystemExit(f"a run of {root} failed: {out.stderr.strip().splitlines()[-1:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--base", type=Path, default=ROOT, help="the other checkout [default: this one, an A/A check]")
    ap.add_argument("--pairs", type=int, default=20, help="pairs of runs (A B, then B A, ...)")
    ap.add_argument("--ops", type=int, default=2_000_000, help="operations per run")
    ap.add_argument("--cpu", type=int, default=1, help="the CPU every run is pinned to")
    args = ap.parse_args()
    base = args.base.resolve()
    if shutil.which("taskset") is None:
        print("taskset is not installed (util-linux)", file=sys.stderr)
        return 2
    if not (base / "ycsbctl" / "engine" / "runner.py").exists():
        print(f"--base {base}: not a ycsbctl checkout (no ycsbctl/engine/runner.py)", file=sys.stderr)
        return 2
    print(f"engine A/B: this checkout {ROOT} ÷ base {base}; basic://, 8 threads, 1 worker, "
          f"{args.ops:,} operations a run, pinned to CPU {args.cpu}; load avg {os.getloadavg()[0]:.2f}")
    pairs: list[tuple[dict[str, float], dict[str, float]]] = []
    for i in range(args.pairs):
        first_base = i % 4 in (0, 3)  # A B B A: a drift linear in time lands on both alike
        runs = {}
        for root in ((base, ROOT) if first_base else (ROOT, base)):
            runs[root] = one_run(root, args.ops, args.cpu)
        a, b = runs[base], runs[ROOT]
        pairs.append((a, b))
        order = "base first" if first_base else "this first"
        print(f"  pair {i + 1:>3} ({order}): ops/s {b['ops_s'] / a['ops_s']:.3f}, client µs/op "
              f"{b['us_op'] / a['us_op']:.3f} (base {a['ops_s']:,.0f} ops/s)", flush=True)
    print(f"\nthis ÷ base over {len(pairs)} pairs: geometric mean [95 % t interval]")
    for key, name in (("ops_s", "ops/s"), ("us_op", "client CPU µs per operation")):
        c = stats.compare({i: a[key] for i, (a, _) in enumerate(pairs)}, {i: b[key] for i, (_, b) in enumerate(pairs)},
                          paired=True)  # the paired t test of the log ratios, as a study's rounds are compared
        print(f"  {name:<28} {c.ratio:.3f} [{c.low:.3f}, {c.high:.3f}]")
    print(f"load avg at the end: {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""What telemetry costs: CPU of the 1 Hz samplers around a run, against the 1 %-of-a-core budget.

For a local ``redis-server`` and the ``mongo-wire`` server (both provisioned as ``ycsbctl run`` does
it), the samplers of a run (server process, DB counters — INFO / serverStatus —, loopback bytes, the
client's processes) run for ``--seconds`` around an engine run of workload B, and again with the
server idle. Each sampler's thread CPU time is divided by the wall time: % of one core, the
budget being 1 %. The engine's own client CPU over the same run is printed beside it, so the ratio
says how much of the client side telemetry takes.

    .venv/bin/python -m bench telemetry_cost [--seconds 10]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from ycsbctl.engine.runner import PhaseRunner  # noqa: E402
from ycsbctl.engine.spec import PhaseSpec  # noqa: E402
from ycsbctl.provision import provision, teardown  # noqa: E402
from ycsbctl.telemetry.capture import sampling  # noqa: E402
from ycsbctl.workload.properties import load_properties  # noqa: E402

BUDGET_PCT = 1.0  # of one core, all samplers of a run together (issue 5)


def _props(records: int) -> dict[str, str]:
    # operationcount 0: run phases last --seconds (the file's 1,000 operations would end them at once)
    return {**load_properties(ROOT / "workloads" / "workloadb"), "recordcount": str(records), "operationcount": "0"}


def measure(target: str, records: int, seconds: float, threads: int) -> list[tuple[str, str, float, float]]:
    """Rows (target, condition, samplers' CPU % of one core, client CPU % of one core); each condition with
    and without the evidence samplers (threads, wire, host: ycsbctl.telemetry.evidence)."""
    ep = provision(target, "local", experiment_id="bench-telemetry", say=lambda _m: None)
    rows = []
    try:
        PhaseRunner(PhaseSpec("load", ep.url, _props(records), threads=8)).run()
        for condition, evidence in (("idle", True), ("under load", True), ("idle", False), ("under load", False)):
            condition += "" if evidence else " (no evidence)"
            runner = PhaseRunner(PhaseSpec("run", ep.url, _props(records), threads=threads, duration_s=seconds))
            t0 = time.monotonic()
            with sampling(ep, client_pids=runner.pids, evidence=evidence) as cap:
                if condition.startswith("idle"):
                    time.sleep(seconds)
                    client_pct = float("nan")
                else:
                    r = runner.run()
                    client_pct = 100.0 * r.client_cpu_s / (r.runtime_ms / 1000)
            wall = time.monotonic() - t0
            if wall < 0.9 * seconds:
                raise RuntimeError(f"the {condition} window lasted {wall:.1f} s of {seconds:g} s")
            rows.append((target, condition, 100.0 * sum(s.cpu_s for s in cap.samplers) / wall, client_pct))
            if evidence:
                for s in cap.samplers:
                    print(f"  {target} {condition}: {s.source} {100.0 * s.cpu_s / wall:.3f} % of a core")
    finally:
        teardown(ep)
    return rows


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=10.0, help="seconds per condition")
    ap.add_argument("--threads", type=int, default=16, help="engine client threads under load")
    args = ap.parse_args()
    rows = []
    for target, records in (("redis", 20_000), ("ferretdb", 1_000)):
        try:
            rows += measure(target, records, args.seconds, args.threads)
        except Exception as exc:  # noqa: BLE001 - a target this machine cannot start is reported, not fatal
            print(f"{target}: not measured ({exc})")
    print(f"\nsamplers' CPU (% of one core; budget {BUDGET_PCT:g} %) beside the engine's client CPU")
    print(f"{'target':10} {'condition':26} {'samplers %':>10} {'client %':>9} {'samplers/client':>16}")
    for target, cond, pct, client in rows:
        ratio = pct / client if client == client and client else float("nan")
        print(f"{target:10} {cond:26} {pct:10.3f} {client:9.1f} {ratio:16.4f}")
    worst = max((r[2] for r in rows), default=float("nan"))
    met = rows and worst < BUDGET_PCT
    print(f"\n  [{'met' if met else 'NOT met'}] telemetry < {BUDGET_PCT:g} % of a core: worst {worst:.3f} %")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())

"""What alternating costs a measurement: the same workload-b point against one local redis-server, measured solo
(``--duration`` s) and alternated against a second identical redis-server in one engine session (each target
``--duration`` s of slices), in A B B A pairs of such runs. Prints, over the pairs, the alternated ÷ solo
throughput and p99 ratios (geometric mean [95 % paired t interval], ycsbctl.results.stats.compare) and the
switch-over's cost (mean ``switch_s`` ÷ slice length: the slices' tails, operations in flight at a switch), and
the twin ÷ target ratio inside each alternated session (the A/A comparison alternation is for) and the sd of its
block log ratios (``ycsbctl.results.slice_pairs.block_pairs``: what an A/A verdict's interval is made of); with
``--sweep``, one alternated session per slice length and its switch cost.

Each run's steal (the hypervisor's: ``/proc/stat``, in % of the host's cores over the run) is printed beside its
pair, and the ratios are given again over the *quiet* pairs only: those neither of whose runs had steal at or above
the share that makes a ``ycsbctl run`` point host-busy (``ycsbctl.telemetry.host.host_busy_share``; a VM that stalls
for seconds does it as steal, and lands on one run of a pair only), with the medians and their 95 % bootstrap
intervals (scipy), which a stall the threshold misses moves less than the geometric mean. Over all pairs it also
gives the ratio adjusted for each pair's steal difference, as a verdict adjusts for the host's share each side had.

    .venv/bin/python -m bench alternation [--pairs 4] [--duration 2] [--slice 0.2] [--threads 8] [--settle 0.02]
        [--sweep 0.1,0.5,2] [--pin]
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import numpy as np
from scipy import stats as scipy_stats

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench._servers import stop  # noqa: E402
from tests.fixtures.servers import Server, start_redis  # noqa: E402
from ycsbctl.engine.alternation import Alternation, schedule  # noqa: E402
from ycsbctl.engine.runner import PhaseRunner, run_phase  # noqa: E402
from ycsbctl.engine.spec import PhaseSpec  # noqa: E402
from ycsbctl.results import stats  # noqa: E402
from ycsbctl.results.model import PhaseResult, overall_summary  # noqa: E402
from ycsbctl.results.slice_pairs import RATE, block_pairs  # noqa: E402
from ycsbctl.telemetry.host import cpu_times, host_busy_share  # noqa: E402
from ycsbctl.workload.properties import load_properties  # noqa: E402

T = TypeVar("T")
WARMUP_S = 1.0  # both ways: with two targets any whole number of half-blocks keeps the measured slices balanced


def _props(records: int) -> dict[str, str]:
    p = dict(load_properties("workload-b"))
    p.update(recordcount=str(records), operationcount="0")  # each run bounded by its duration alone
    return p


def _figures(r: PhaseResult) -> dict[str, float]:
    assert r.status == "ok", r.errors
    o = overall_summary(r)
    return {"ops_s": r.throughput_ops, "p99_us": o.percentile(99.0) if o is not None else float("nan")}


def _steal_pct(run: Callable[..., T], *args: Any) -> tuple[T, float]:
    """What ``run(*args)`` returns, and the host's steal while it ran, in % of the host's cores."""
    before, start = cpu_times()["steal"], time.monotonic()
    out = run(*args)
    wall = time.monotonic() - start
    return out, 100.0 * (cpu_times()["steal"] - before) / (wall * (os.cpu_count() or 1))


def _ratios(pairs: list[tuple[dict[str, float], dict[str, float]]], label: str,
            steal: list[float] | None = None) -> None:
    """Alternated ÷ solo over ``pairs``: the geometric mean [95 % paired t] and the median [95 % bootstrap]; with
    ``steal`` (each pair's alternated minus solo steal, a share of the host's cores), also the paired ratio adjusted
    for it (``ycsbctl.results.stats.adjusted``, as a verdict adjusts for the host's share each side had:
    the ratio at equal steal)."""
    print(f"\nalternated ÷ solo over {label}: geometric mean [95 % paired t interval]; median [95 % bootstrap]"
          f"{'; adjusted for the steal each side had [95 % t]' if steal else ''}")
    for key, name in (("ops_s", "ops/s"), ("p99_us", "p99 µs")):
        solo_side, alt_side = ({i: pair[k][key] for i, pair in enumerate(pairs)} for k in (0, 1))
        c = stats.compare(solo_side, alt_side, paired=True)
        ratios = np.array([a[key] / b[key] for b, a in pairs])
        more = ""
        if len(ratios) >= 3:
            boot = scipy_stats.bootstrap((ratios,), np.median, confidence_level=0.95, method="percentile",
                                         random_state=np.random.default_rng(0))
            ci = boot.confidence_interval
            more = f"; median {np.median(ratios):.3f} [{ci.low:.3f}, {ci.high:.3f}]"
        if steal:
            adj = stats.adjusted(solo_side, alt_side, dict(enumerate(steal)))
            more += (f"; adjusted {adj.ratio:.3f} [{adj.low:.3f}, {adj.high:.3f}]" if adj is not None
                     else "; adjusted: the steal did not vary enough")
        print(f"  {name:<8} {c.ratio:.3f} [{c.low:.3f}, {c.high:.3f}]{more}")


def solo(server: Server, props: dict[str, str], threads: int, duration_s: float) -> dict[str, float]:
    """The point against ``server`` alone: ops/s and p99 (µs)."""
    return _figures(run_phase(PhaseSpec("run", server.url, props, threads=threads, warmup_s=WARMUP_S,
                                        duration_s=duration_s)))


def alternated(servers: list[Server], props: dict[str, str], threads: int, duration_s: float, slice_s: float,
               seed: int, settle_s: float = 0.0) -> tuple[dict[str, float], float, dict[str, float]]:
    """The point against ``servers[0]`` alternated with ``servers[1]`` (each ``duration_s`` s of slices, the first
    ``settle_s`` of each counted apart): its ops/s and p99 (µs) and, with a settle window, the share of its
    measured slices' operations started in the window and their p99 (``settle_share``, ``settle_p99_us``); the
    switch cost (mean switch_s ÷ slice_s over both targets' slices); and the twin's ops/s and p99."""
    alt = Alternation(tuple(s.url for s in servers), slice_s=slice_s, seed=seed, settle_s=settle_s)
    spec = PhaseSpec("run", servers[0].url, props, threads=threads, warmup_s=WARMUP_S,
                     duration_s=len(servers) * duration_s, seed=seed, alternation=alt)
    results = PhaseRunner(spec).run_alternated()
    switch = [s for r in results if r.slices is not None for s in r.slices.switch_s.dropna()]
    cost = sum(switch) / len(switch) / slice_s if switch else float("nan")
    figs = _figures(results[0])
    slices = results[0].slices
    if settle_s and slices is not None:
        kept = slices[~slices.warmup]
        settled = int(kept.settle_operations.sum())
        figs["settle_share"] = settled / max(1, settled + int(kept.operations.sum()))
        figs["settle_p99_us"] = float(kept.settle_p99_us.median())  # (the slices' own p99s: a typical slice's)
        figs["rest_p99_us"] = float(kept.p99_us.median())  # the same slices after their settle window
        # a slice after one of the same target (the second B of A B B A: no switch, the server and connections
        # busy until then) against one after the other target's: what the switch adds, apart from the slice's close
        order = schedule(len(servers), seed, int(kept.slice.max()) + 1)
        after_same = kept.slice.map(lambda k: order[k - 1] == order[k])
        for name, part in (("same", kept[after_same]), ("other", kept[~after_same])):
            figs[f"settle_p99_us_{name}"] = float(part.settle_p99_us.median())
            figs[f"settle_share_{name}"] = float((part.settle_operations / (part.settle_operations
                                                                             + part.operations)).median())
    twin = _figures(results[1])
    twin["block_log_sd"] = _block_log_sd(results[0], results[1])
    return figs, cost, twin


def _block_log_sd(target: PhaseResult, twin: PhaseResult) -> float:
    """The sd of the twin ÷ target log ratios (throughput) of the session's whole measured blocks."""
    assert target.slices is not None and twin.slices is not None
    a, b = target.slices.assign(session="s", run_id="a"), twin.slices.assign(session="s", run_id="b")
    logs = block_pairs(a, b, RATE, {"s": 2}).log_ratios
    return float(np.std(logs, ddof=1)) if len(logs) > 1 else float("nan")


def _settled(figs: dict[str, float]) -> str:
    """What the settle window left out of an alternated point, or nothing without one."""
    if "settle_share" not in figs:
        return ""
    return (f"; settle window {figs['settle_share']:.1%} of ops; a slice's p99 in it {figs['settle_p99_us']:.0f} µs, "
            f"after it {figs['rest_p99_us']:.0f} µs (medians); after the same target {figs['settle_p99_us_same']:.0f} "
            f"µs ({figs['settle_share_same']:.1%} of its ops), after the other {figs['settle_p99_us_other']:.0f} µs "
            f"({figs['settle_share_other']:.1%})")


def _pair(servers: list[Server], props: dict[str, str], args: argparse.Namespace, i: int, solo_first: bool
          ) -> tuple[dict[str, dict[str, float]], dict[str, float], float, dict[str, float]]:
    """Pair ``i``: the solo and the alternated run's figures and steal (% of the host's cores), in the order
    ``solo_first`` says, the alternated session's switch cost and its twin's figures."""
    runs: dict[str, dict[str, float]] = {}
    steal: dict[str, float] = {}
    sw = math.nan
    twin: dict[str, float] = {}
    for kind in (("solo", "alt") if solo_first else ("alt", "solo")):
        if kind == "solo":
            runs[kind], steal[kind] = _steal_pct(solo, servers[0], props, args.threads, args.duration)
        else:
            (runs[kind], sw, twin), steal[kind] = _steal_pct(
                alternated, servers, props, args.threads, args.duration, args.slice, i, args.settle)
    return runs, steal, sw, twin


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pairs", type=int, default=4, help="pairs of runs (solo then alternated, then the reverse …)")
    ap.add_argument("--duration", type=float, default=2.0, help="s measured per target and run")
    ap.add_argument("--slice", type=float, default=0.2, help="s per slice")
    ap.add_argument("--threads", type=int, default=8)
    ap.add_argument("--records", type=int, default=10_000)
    ap.add_argument("--settle", type=float, default=0.0,
                    help="s at each slice's start counted apart (Alternation.settle_s; 0: none)")
    ap.add_argument("--sweep", default="", help="slice lengths (s, comma-separated) to time the switch-over at")
    ap.add_argument("--pin", action="store_true",
                    help="the servers on the first CPU, this process and the engine's workers on the others: the "
                         "scheduler's placement (a server beside or apart from its client) out of the ratios")
    args = ap.parse_args()
    props = _props(args.records)
    cpus = sorted(os.sched_getaffinity(0))
    if args.pin:
        if len(cpus) < 2:
            ap.error("--pin needs two CPUs or more")
        os.sched_setaffinity(0, cpus[1:])  # before the engine's fork server starts: its workers inherit it
    with tempfile.TemporaryDirectory(prefix="bench-alternation-") as tmp:
        servers = [start_redis(Path(tmp) / name) for name in ("a", "b")]
        try:
            if args.pin:
                for s in servers:
                    os.sched_setaffinity(s.proc.pid, cpus[:1])
            for s in servers:
                r = run_phase(PhaseSpec("load", s.url, props, threads=8))
                assert r.status == "ok", r.errors
            print(f"alternation ÷ solo: workload-b, {args.threads} threads, {args.duration:g} s per target, "
                  f"{args.slice:g} s slices (settle {args.settle:g} s), {args.records:,} records"
                  f"{f'; servers on CPU {cpus[0]}, the client on {cpus[1:]}' if args.pin else ''}; "
                  f"load avg {os.getloadavg()[0]:.2f}")
            pairs: list[tuple[dict[str, float], dict[str, float]]] = []
            quiet: list[tuple[dict[str, float], dict[str, float]]] = []  # neither run's steal host-busy
            steal_diff: list[float] = []  # each pair's alternated minus solo steal, a share of the host's cores
            busy_pct = 100.0 * (host_busy_share() or 1.0)
            switches: list[float] = []
            twins: list[dict[str, float]] = []  # the twin's figures in each alternated session
            for i in range(args.pairs):
                solo_first = i % 4 in (0, 3)  # A B B A: a drift linear in time lands on both alike
                runs, steal, sw, twin = _pair(servers, props, args, i, solo_first)
                switches.append(sw)
                twins.append(twin)
                pairs.append((runs["solo"], runs["alt"]))
                steal_diff.append((steal["alt"] - steal["solo"]) / 100.0)
                stalled = max(steal.values()) >= busy_pct
                if not stalled:
                    quiet.append(pairs[-1])
                print(f"  pair {i + 1:>3} ({'solo' if solo_first else 'alternated'} first): ops/s "
                      f"{runs['alt']['ops_s'] / runs['solo']['ops_s']:.3f}, p99 "
                      f"{runs['alt']['p99_us'] / runs['solo']['p99_us']:.3f} (solo {runs['solo']['ops_s']:,.0f} "
                      f"ops/s, p99 {runs['solo']['p99_us']:.0f} µs; switch {switches[-1]:.2%} of a slice; steal "
                      f"solo {steal['solo']:.1f} %, alternated {steal['alt']:.1f} %{' (host-busy)' if stalled else ''}"
                      f"{_settled(runs['alt'])})", flush=True)
            _ratios(pairs, f"{len(pairs)} pairs", steal_diff)
            if len(quiet) < len(pairs):
                _ratios(quiet, f"the {len(quiet)} quiet pairs (steal below {busy_pct:g} % of the host's cores in "
                               f"both runs; {len(pairs) - len(quiet)} left out)")
            print(f"  switch-over: mean switch_s ÷ slice_s {sum(switches) / len(switches):.3%}")
            print("twin ÷ target inside each alternated session (an A/A comparison the alternation pairs):")
            for key, name in (("ops_s", "ops/s"), ("p99_us", "p99 µs")):
                c = stats.compare({i: b[key] for i, (_, b) in enumerate(pairs)},
                                  {i: t[key] for i, t in enumerate(twins)}, paired=True)
                print(f"  {name:<8} {c.ratio:.3f} [{c.low:.3f}, {c.high:.3f}]")
            sds = [t["block_log_sd"] for t in twins]
            print(f"  the sd of its block log ratios (ops/s) by session: {', '.join(f'{x:.3f}' for x in sds)}; "
                  f"pooled {float(np.sqrt(np.nanmean(np.square(sds)))):.3f}")
            for slice_s in (float(x) for x in args.sweep.split(",") if x.strip()):
                figs, sw, _ = alternated(servers, props, args.threads, args.duration, slice_s, 0)
                print(f"  slices of {slice_s:g} s: {figs['ops_s']:,.0f} ops/s, p99 {figs['p99_us']:.0f} µs, "
                      f"switch {sw:.3%} of a slice", flush=True)
        finally:
            for s in servers:
                stop(s.proc)
    print(f"load avg at the end: {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

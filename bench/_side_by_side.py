"""Two client paths measured side by side: load each server, then pairs of points (one on each, in
turn, so that a shared machine's drift falls on both) at each thread count, one engine process; the
medians of ops/s and client CPU µs/op per path (``bench memcached_client``, ``bench tls``)."""

from __future__ import annotations

import statistics
from typing import Protocol

from ycsbctl.engine.runner import run_phase
from ycsbctl.engine.spec import PhaseSpec
from ycsbctl.workload.properties import load_properties

Medians = dict[str, tuple[float, float]]  # path -> (ops/s, client µs/op)


class Reference(Protocol):
    """Another client measured on the same two servers (``bench tls``: redis-benchmark)."""

    keys: dict[str, str]  # the YCSB properties that name the records as this client names them

    def lines(self, urls: dict[str, str], threads: list[int], rounds: int, records: int) -> list[str]:
        """Its measurement at each thread count, as lines to print."""
        ...


def workload_b(records: int, keys: dict[str, str] | None = None) -> dict[str, str]:
    """Workload B's properties for ``records`` records, with ``keys`` (how records are named) over them."""
    p = dict(load_properties("workload-b"))
    p.update(recordcount=str(records), operationcount="0", **(keys or {}))
    return p


def load_each(urls: dict[str, str], records: int, keys: dict[str, str] | None = None) -> None:
    """Load ``records`` records into each server, one line each."""
    for name, url in urls.items():
        load = run_phase(PhaseSpec("load", url, workload_b(records, keys), threads=8, processes=1))
        print(f"{name}: loaded {load.operations:,} records, {load.throughput_ops:,.0f} ops/s, "
              f"{load.client_us_per_op():.1f} client µs/op", flush=True)


def pairs(urls: dict[str, str], names: tuple[str, ...], records: int, threads: int, rounds: int,
          duration_s: float, keys: dict[str, str] | None = None) -> tuple[Medians, dict[str, list[float]]]:
    """``rounds`` points on each of ``names`` in turn at ``threads``: medians per name, and each
    round's client µs/op per name (for the paired interval of the ratio)."""
    got: dict[str, list[tuple[float, float]]] = {n: [] for n in names}
    for _ in range(rounds):
        for name in names:
            r = run_phase(PhaseSpec("run", urls[name], workload_b(records, keys), threads=threads, processes=1,
                                    duration_s=duration_s, warmup_s=1.0))
            bad = r.returns("ERROR") + r.returns("TIMEOUT")
            if bad:
                print(f"  {name} at {threads} threads: {bad} operations failed ({r.errors})", flush=True)
            got[name].append((r.throughput_ops, r.client_us_per_op()))
    return ({n: (statistics.median(o for o, _ in v), statistics.median(u for _, u in v)) for n, v in got.items()},
            {n: [u for _, u in v] for n, v in got.items()})


def compare(doc: str, names: tuple[str, str], labels: tuple[str, str], max_ratio: float, goal: str,
            experiment_id: str, reference: Reference | None = None) -> int:
    """A whole side-by-side bench: its options (``--records``, ``--duration``, ``--threads``, ``--rounds``),
    the two catalogue targets ``names`` started on loopback and loaded, pairs of points at each thread
    count, then a table of ops/s and client µs/op per path (``labels``), their ratio (of the medians;
    in brackets the paired 95 % interval of the per-round ratios, from 2 rounds on) and the load
    average; exit status 1 unless ``names[0]``'s µs/op ÷ ``names[1]``'s ≤ ``max_ratio`` at every thread
    count (``goal`` says it in words). A ``reference``, when given, measures the same two servers with another
    client while they run (the records named as it names them), and its lines are printed under the table."""
    import argparse
    import os

    from ycsbctl.provision import provisioned
    from ycsbctl.results.stats import compare as paired

    ap = argparse.ArgumentParser(description=doc.splitlines()[0])
    ap.add_argument("--records", type=int, default=20000)
    ap.add_argument("--duration", type=float, default=3.0, help="seconds per point, after 1 s of warm-up")
    ap.add_argument("--threads", default="16,64")
    ap.add_argument("--rounds", type=int, default=2, help="pairs of points per thread count")
    args = ap.parse_args()
    threads = [int(t) for t in args.threads.split(",")]
    a, b = names
    with provisioned(list(names), "local", experiment_id=experiment_id, say=lambda _m: None) as eps:
        urls = {ep.target: ep.url for ep in eps}
        keys = reference.keys if reference else None
        load_each(urls, args.records, keys)
        rows = []
        for t in threads:
            med, per_round = pairs(urls, names, args.records, t, args.rounds, args.duration, keys)
            c = paired(dict(enumerate(per_round[b])), dict(enumerate(per_round[a])), paired=True)
            rows.append((t, med[a], med[b], os.getloadavg()[0], c.low, c.high))
            print(f"  {t} threads: {labels[0]} {med[a][0]:,.0f} ops/s {med[a][1]:.1f} µs/op; "
                  f"{labels[1]} {med[b][0]:,.0f} ops/s {med[b][1]:.1f} µs/op", flush=True)
        beside = reference.lines(urls, threads, args.rounds, args.records) if reference else []
    heads = [f"{labels[0]} ops/s", f"{labels[1]} ops/s", f"{labels[0]} µs/op", f"{labels[1]} µs/op"]
    widths = [max(10, len(h)) for h in heads]
    print(f"\n{'threads':>7} " + " ".join(f"{h:>{w}}" for h, w in zip(heads, widths))
          + f" {'ratio':>6} {'95 % interval':>14} {'load1':>6}")
    for t, (ao, au), (bo, bu), load1, low, high in rows:
        cells = [f"{ao:,.0f}", f"{bo:,.0f}", f"{au:.1f}", f"{bu:.1f}"]
        span = f"[{low:.2f}, {high:.2f}]" if low == low else "—"  # NaN below 2 rounds
        print(f"{t:7d} " + " ".join(f"{c:>{w}}" for c, w in zip(cells,
                                                                widths)) + f" {au / bu:6.2f} {span:>14} {load1:6.2f}")
    worst = max(au / bu for _, (_, au), (_, bu), *_ in rows)
    met = worst <= max_ratio
    for line in beside:
        print(line)
    print(f"\n  [{'met' if met else 'NOT met'}] {goal} ≤ {max_ratio:g}× at every thread count: worst {worst:.2f}×")
    return 0 if met else 1

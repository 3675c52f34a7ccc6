"""The console summary at the end of ``ycsbctl run``: one table per workload."""

from __future__ import annotations

import math
from pathlib import Path

from rich.console import Console
from rich.table import Table

MAIN_OPS = ("read", "update", "insert", "scan")


def _num(x: object, fmt: str = "{:,.0f}") -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "—"
    return fmt.format(x)


def print_summary(folder: Path, console: Console | None = None) -> None:
    """Rows = thread counts; per target: ops/s, p50/p99 (ms) of the main operations, server
    CPU (% of one core), bottleneck and status. Repetitions show their mean throughput."""
    from ycsbctl.results import load

    exp = load(folder)
    console = console or Console(stderr=True)
    runs = exp.runs
    if runs.empty:
        console.print("no finished points")
        return
    for workload, wdf in runs.groupby("workload", sort=False):
        table = Table(title=f"{workload} — {exp.manifest.get('plan', {}).get('records') or ''}".rstrip(" —"), show_lines=False)
        table.add_column("threads", justify="right")
        targets = list(dict.fromkeys(wdf["target"]))
        ops = [op for op in MAIN_OPS if f"{op}_p99_us" in wdf and wdf[f"{op}_p99_us"].notna().any()]
        for t in targets:
            table.add_column(f"{t}\nops/s", justify="right")
            for op in ops:
                table.add_column(f"{t}\n{op} p50/p99 ms", justify="right")
            table.add_column(f"{t}\nserver CPU", justify="right")
            table.add_column(f"{t}\nbottleneck / status")
        for threads, tdf in wdf.groupby("threads"):
            row = [str(threads)]
            for t in targets:
                pts = tdf[tdf["target"] == t]
                if pts.empty:
                    row += ["—"] * (3 + len(ops))
                    continue
                row.append(_num(pts["throughput_ops"].mean()))
                for op in ops:
                    p50, p99 = pts[f"{op}_p50_us"].mean() / 1000, pts[f"{op}_p99_us"].mean() / 1000
                    row.append(f"{_num(p50, '{:.2f}')}/{_num(p99, '{:.2f}')}")
                cpu = pts["server_cpu_pct_mean"].mean() if "server_cpu_pct_mean" in pts else math.nan
                row.append(_num(cpu, "{:.0f}%"))
                statuses = ",".join(sorted(set(pts["status"])))
                bn = ",".join(sorted({b for b in pts.get("bottleneck", []) if isinstance(b, str)}))
                row.append(f"{bn or '—'} / {statuses}")
            table.add_row(*row)
        console.print(table)

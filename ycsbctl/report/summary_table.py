"""The console summary at the end of ``ycsbctl run``: one table per workload."""

from __future__ import annotations

import math
from pathlib import Path

import pandas as pd
from rich.console import Console
from rich.table import Table

MAIN_OPS = ("read", "update", "insert", "scan")


def _num(x: object, fmt: str = "{:,.0f}") -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "—"
    return fmt.format(x)


def wide_console(stderr: bool = False) -> Console:
    """A rich console that keeps wide tables readable when output goes to a file or pipe
    (rich would fold them to 80 columns there)."""
    probe = Console(stderr=stderr)
    return probe if probe.is_terminal else Console(stderr=stderr, width=200)


def print_line(console: Console, text: str) -> None:
    """One line of prose as it is (no markup, no highlighting): folded at words in a terminal, whole into a file or
    pipe, where a fold at the console's 200 columns would break a sentence a reader or ``grep`` follows."""
    console.print(text, markup=False, highlight=False, soft_wrap=not console.is_terminal)


def print_summary(folder: Path, console: Console | None = None) -> None:
    """Rows = thread count × target of each workload's sweep: ops/s, p50/p99 (ms) of the main
    operations, server and client CPU (% of one core), bottleneck and status. Repetitions show
    their mean."""
    from ycsbctl.results import load

    exp = load(folder)
    console = console or wide_console(stderr=True)
    runs = exp.runs
    if runs.empty:
        console.print("no finished points")
        return
    records = exp.manifest.record_count
    from ycsbctl.report.host_busy import host_busy_findings, host_busy_runs
    from ycsbctl.report.verdict_table import cells_by_point, noise_text
    from ycsbctl.results.frames import sweep_phase

    cells = exp.cells()

    for workload, wdf in runs.groupby("workload", sort=False):
        # the sweep only: a workload's dataset load is a point of its own, not one of the ladder's
        wdf = wdf[wdf["phase"] == sweep_phase(runs, str(workload))]
        by_point = cells_by_point(cells, str(workload))  # (target, threads, rate) -> its cell, once per workload
        title = f"{workload}" + (f" — {records:,} records" if records else "")
        table = Table(title=title, title_justify="left")
        ops = [op for op in MAIN_OPS if f"{op}_p99_us" in wdf and wdf[f"{op}_p99_us"].notna().any()]
        wdf = wdf.assign(target_rate=pd.to_numeric(wdf["target_rate"], errors="coerce").fillna(0.0))
        paced = bool((wdf["target_rate"] > 0).any())  # a rate ladder or an SLO search: one row per offered rate
        for name, justify in [("threads", "right")] + ([("offered ops/s", "right")] if paced else []) + [
                ("target", "left"), ("ops/s", "right"), ("95 %", "right")] + [
            (f"{op} p50/p99 ms", "right") for op in ops
        ] + [("NOT_FOUND", "right"), ("timeouts", "right"), ("server CPU", "right"), ("client CPU", "right"),
             ("bottleneck", "left"), ("status", "left")]:
            table.add_column(name, justify=justify)  # type: ignore[arg-type]
        for (threads, rate, target), pts in wdf.groupby(["threads", "target_rate", "target"], sort=True):
            interval, noise = noise_text(by_point.get((target, int(threads), rate or None)))
            row = [str(threads)] + ([_num(rate) if rate else "unpaced"] if paced else []) + [
                str(target), _num(pts["throughput_ops"].mean()), interval + (" ⚠" if noise else "")]
            for op in ops:
                p50, p99 = pts[f"{op}_p50_us"].mean() / 1000, pts[f"{op}_p99_us"].mean() / 1000
                row.append(f"{_num(p50, '{:.2f}')}/{_num(p99, '{:.2f}')}")
            for col in ("not_found", "timeouts"):
                row.append(_num(pts[col].sum() if col in pts and pts[col].notna().any() else math.nan))
            for col in ("server_cpu_pct_mean", "client_cpu_pct_mean"):
                row.append(_num(pts[col].mean() if col in pts else math.nan, "{:.0f}%"))
            row.append(",".join(sorted({b for b in pts.get("bottleneck", []) if isinstance(b, str)})) or "—")
            statuses = sorted(set(pts["status"]))
            row.append(",".join(statuses) if statuses != ["ok"] else "ok")
            table.add_row(*row)
        console.print(table)
        warned = {(t, th): noise_text(c)[1] for (t, th, _), c in by_point.items()}
        for (t, th), note in warned.items():  # what the ⚠ of the 95 % column means, once per point
            if note:
                print_line(console, f"  ⚠ {t} {th} threads: {note}")
        said = wdf[wdf["error"].notna() & (wdf["error"] != "")] if "error" in wdf else wdf.iloc[:0]
        said = said[~host_busy_runs(said)]  # a busy host's points are said once, below, with how busy it was
        for _, p in said.iterrows():  # why a point is not ok, or the errors an ok one saw, in the server's words
            print_line(console, f"  {p['target']} {p['threads']} threads: {p['status']} — {p['error']}")
        for search in (s for s in exp.manifest.slo_searches if s.get("workload") == workload):
            from ycsbctl.results.slo import summary_line

            print_line(console, f"  SLO {search['target']} {search['threads']} threads: {summary_line(search)}")
    from ycsbctl.report.folder_status import status_findings

    cores = exp.manifest.host.get("cores")
    said_first = status_findings(str(exp.status), runs, [s.target for s in exp.manifest.skipped_targets], cores)
    for line in [*said_first, *host_busy_findings(runs)]:
        print_line(console, f"  {line}")
    from ycsbctl.report.server_traits import differences

    for line in differences(exp):  # version, allocator, io-threads, settings: what the table's targets differ in
        print_line(console, f"  {line}")
    from ycsbctl.report.study_headlines import study_headlines

    for line in study_headlines(exp, exp.verdicts()):  # the answer, as the report's first screen gives it
        print_line(console, line)

"""The first finding of a folder: what of its plan was measured, in the folder's own numbers.

A ``complete`` folder whose points are all ok says nothing here. One with degraded points (measured, marked, each
with its why) says how many, and how busy the host was during the busy-host ones (:func:`~ycsbctl.report.host_busy.
how_busy`: the foreign CPU runs.parquet holds for them, % of one core, its mean and largest) — never "partial" and
never "0 runs ok" beside decided verdicts. A ``partial`` folder says what failed or was skipped; an interrupted or
running one, that it stopped before its plan was done. The same sentence closes ``ycsbctl run``'s summary
(:mod:`ycsbctl.report.summary_table`) and opens report.html's findings (:func:`ycsbctl.report.summary.findings`)."""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from ycsbctl.report.host_busy import host_busy_runs, how_busy
from ycsbctl.results.causes import counts_text


def _points(n: int) -> str:
    return f"{n} point{'s' if n != 1 else ''}"


def status_findings(status: str, runs: pd.DataFrame, skipped: Sequence[str] = (),
                    cores: float | None = None) -> list[str]:
    """The folder's status in words (empty for a complete folder of ok points). ``status``: the manifest's;
    ``runs``: the runs table (one row per point: target × workload × phase × threads × repetition, a dataset load
    included, as the progress line counts them); ``skipped``: the targets the sweep skipped; ``cores``: the host's.
    A ``partial`` folder where nothing failed and nothing was skipped stopped early, or an older ycsbctl called it
    so for a degraded point: both are said, with what it holds."""
    if status not in ("complete", "partial", "interrupted", "running"):
        return []
    rows = runs[runs["status"].astype(str) != "skipped"] if len(runs) and "status" in runs else runs.iloc[:0]
    statuses = rows["status"].astype(str) if len(rows) else pd.Series(dtype=str)
    n, degraded = len(rows), int((statuses == "degraded").sum())
    failed = int(statuses.isin(["failed", "interrupted"]).sum())
    busy = rows[host_busy_runs(rows)] if len(rows) else rows
    said = how_busy(busy, cores)
    during = f"; the host was busy during {len(busy)} of them: {said}" if said else ""
    held = f" ({counts_text(rows)}{during})" if n else ""
    if status in ("interrupted", "running"):
        return [f"This experiment is {status}: it stopped before the plan was done; its {_points(n)} measured so "
                f"far are shown{held}."]
    if status == "partial" and (failed or skipped or not degraded):
        what = [f"{_points(failed)} failed" if failed else "",
                f"{', '.join(skipped)} {'was' if len(skipped) == 1 else 'were'} skipped" if skipped else "",
                "the sweep stopped before its plan was done" if not failed and not skipped else ""]
        return [f"This experiment is partial: {'; '.join(w for w in what if w)} (below). Of its {_points(n)}: "
                f"{counts_text(rows) or 'none'}{during}."]
    if not degraded:
        return []
    which = ("it" if degraded == 1 else "them") if len(busy) == degraded else f"{len(busy)} of them"
    measured = (("it is degraded" if n == 1 else f"{degraded} degraded")
                + (f" — the host was busy during {which} ({said})" if said else "")
                + (". Its numbers are kept and marked, with its why (below)." if degraded == 1 else
                   ". Their numbers are kept and marked, each with its why (below)."))
    if status == "partial":  # nothing failed, nothing skipped: stopped early, or an older ycsbctl's word for degraded
        return [f"This experiment is marked partial though no point failed and no target was skipped: the sweep "
                f"stopped before its plan was done, or an older ycsbctl marked degraded points so. Its {_points(n)} "
                f"were all measured; {measured}"]
    return [f"{'The point was' if n == 1 else f'All {_points(n)}'} measured; {measured}"]

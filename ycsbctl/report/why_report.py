"""The findings' "why" lines: for each target and workload, why its best point measured what it did
(the point's ``why``, :mod:`ycsbctl.telemetry.why`), with the figures behind it."""

from __future__ import annotations

import pandas as pd


def why_findings(points: pd.DataFrame, targets: list[str]) -> list[str]:
    """``workload: target at its peak (N threads): why …`` for each ladder whose best point has a why
    line, targets in the order given."""
    if "why" not in points or not len(points):
        return []
    out = []
    for w in dict.fromkeys(points["workload"]):
        pts = points[(points["workload"] == w) & points["throughput_mean"].notna() & points["why"].notna()]
        for t in targets:
            g = pts[pts["target"] == t]
            if not len(g):
                continue
            p = g.loc[g["throughput_mean"].idxmax()]
            where = "at its peak" if len(g) > 1 else "at"
            out.append(f"{w}: {t} {where} ({int(p['threads'])} threads): {p['why']}.")
    return out

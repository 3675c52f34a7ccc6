"""What ``compare --format json`` says of a cell it could not compare, so that a script reading the array
learns why instead of getting ``[]``: one object per such cell × metric with the same keys as a compared
one (figures null), ``compared: false`` and ``why`` — the points' statuses and causes
(:func:`ycsbctl.results.causes.cause`: ``redis 8 threads: degraded (host busy: other programs used CPU)``)
— and one stderr line that counts them."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

import pandas as pd

from ycsbctl.results.causes import cause

if TYPE_CHECKING:
    from ycsbctl.report.compare import Comparison

NOT_COMPARED = "not compared"
RULE = "only ok points (and host-busy ones of rounds that interleave the targets) are compared"


def _one(p: pd.Series) -> str:
    """``degraded (host busy: other programs used CPU)`` for one point; empty when it is ok."""
    if p["status"] == "ok":
        return ""
    why = cause(str(p["status"]), p.get("bottleneck"), p.get("error"))
    return f"{p['status']}" + (f" ({why})" if why else "")


def why_not_compared(base: pd.Series, other: pd.Series, base_name: str, other_name: str) -> str:
    """Why the cell of ``base`` and ``other`` (two points, rows of :func:`ycsbctl.results.frames.points`) has no
    verdict: each side that is not ok with its status and cause, by name; when both are ok, that no test ran."""
    said = [f"{name}: {_one(p)}" for name, p in ((base_name, base), (other_name, other)) if _one(p)]
    return "; ".join([*said, RULE]) if said else "no test of this cell"


def not_compared_cells(c: Comparison, fields: tuple[str, ...]) -> list[dict[str, Any]]:
    """One object per metric of each row of ``c.table`` without a verdict: ``fields`` (null where no figure),
    ``compared`` false and ``why``."""
    out = []
    table = c.table if len(c.table) else pd.DataFrame(columns=["ops_verdict"])
    base = c.experiments[0].baseline if c.within else ""
    for r in table[table["ops_verdict"] == NOT_COMPARED].to_dict("records"):
        for metric, prefix in (("throughput", "ops"), (c.latency, "latency")):
            known = {"experiment": r["experiment"], "workload": r["workload"], "target": r["target"],
                     "threads": r["threads"], "metric": metric, "baseline": base,
                     "base_value": r.get(f"base_{prefix}" if prefix == "ops" else "base_latency_us"),
                     "value": r.get(prefix if prefix == "ops" else "latency_us")}
            row = {k: known.get(k) for k in fields}
            out.append({k: (None if isinstance(v, float) and v != v else v) for k, v in row.items()}
                       | {"verdict": None, "compared": False, "why": r.get("why") or NOT_COMPARED})
    return out


def not_compared_note(cells: list[dict[str, Any]]) -> str | None:
    """``note: 4 of 4 cells were not compared: 4 × basic: degraded (host busy: …) …`` (stderr); None when every
    cell was."""
    left = [c for c in cells if not c.get("compared", True)]
    if not left:
        return None
    keys = {(c["experiment"], c["workload"], c["target"], c["threads"]) for c in left}
    total = {(c["experiment"], c["workload"], c["target"], c["threads"]) for c in cells if not c.get("at_peak")}
    whys = Counter(_causes(c["why"]) for c in left if c["metric"] == "throughput")
    counted = ", ".join(f"{n} with {w}" for w, n in whys.most_common())
    return (f"note: {len(keys)} of {len(total)} cells were not compared (their objects say compared: false and why): "
            f"{counted}; {RULE}")


def _causes(why: str) -> str:
    """The causes of a ``why`` without the points' names: ``degraded (host busy: other programs used CPU)``."""
    parts = [p.split(": ", 1)[-1] for p in why.removesuffix(f"; {RULE}").split("; ")]
    return " and ".join(dict.fromkeys(parts))

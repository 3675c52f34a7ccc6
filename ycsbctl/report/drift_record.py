"""``compare A B --calibrate``: an A/A pair of folders (one plan run twice on this host, nothing changed but
time) recorded as this host's drift between experiments (:mod:`ycsbctl.results.host_drift`), the margin that later
comparisons without a control target test against. Folders that differ in plan, host or versions are no pair."""

from __future__ import annotations

from pathlib import Path

from ycsbctl.errors import UserError
from ycsbctl.report.compare import Comparison
from ycsbctl.results import host_drift
from ycsbctl.results.reference_pairs import METRIC, TEST


def calibrate(c: Comparison) -> tuple[Path, list[str]]:
    """Record the folders of ``c`` as A/A pairs (nothing changed between them but time): each compared
    cell's ratio of geometric means (other ÷ first folder, every metric) goes into this host's drift
    record (:func:`ycsbctl.results.host_drift.record`), and each cell read against the folders' reference servers
    its reference-paired ratio too (:data:`~ycsbctl.results.reference_pairs.METRIC`: the between-run bound such
    cells are tested beyond). Returns its path and one line per metric."""
    if c.within:
        raise UserError("--calibrate records the host's drift between experiments: give two folders of one plan, "
                        "run minutes apart with nothing changed")
    if c.differences:  # their cells differ by more than the host's drift: recording it would widen every margin
        shown = "; ".join(c.differences[:3]) + (
            f"; and {len(c.differences) - 3} more" if len(c.differences) > 3 else ""
        )
        raise UserError(f"--calibrate: the experiments differ ({shown}), so they are no A/A pair; nothing was recorded",
                        fix="give two runs of one plan on this host, minutes apart, with nothing changed")
    v = c.verdicts[~c.verdicts["at_peak"].astype(bool)] if len(c.verdicts) else c.verdicts
    pairs = [(str(r["metric"]), float(r["value"]) / float(r["base_value"])) for r in v.to_dict("records")
             if r["base_value"] == r["base_value"] and r["base_value"] > 0 and r["value"] == r["value"]]
    # a cell read against the references: its reference-paired ratio, the between-run bound of such cells
    pairs += [(METRIC, float(r["ratio"])) for r in v.to_dict("records")
              if r.get("test") == TEST and r["ratio"] == r["ratio"] and r["ratio"] > 0]
    if not pairs:
        raise UserError("--calibrate: the folders share no measured cell")
    damaged = host_drift.read().warning
    path = host_drift.record(pairs, f"ycsbctl compare --calibrate {' '.join(e.id for e in c.experiments)}")
    lines = [f"a new record (the unusable one is kept as {path}.damaged)"] if damaged else []
    for metric in dict.fromkeys(m for m, _ in pairs):
        d = [host_drift.drift(r) for m, r in pairs if m == metric]
        lines.append(f"{metric}: {len(d)} cells drifted up to {100 * max(d):.1f} % (median "
                     f"{100 * sorted(d)[len(d) // 2]:.1f} %)")
    return path, lines

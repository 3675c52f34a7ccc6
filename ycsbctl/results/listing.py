"""The experiments under a reports folder, newest first, each read as far as it can be: a finished
folder from its manifest, a ``.<id>.partial`` one (being written, or left by a crash) from its runs,
a damaged one with what is wrong. Reading never raises on a folder's content."""

from __future__ import annotations

import fcntl
import json
import os
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from ycsbctl.errors import first_line
from ycsbctl.results.names import FolderStatus, RunStatus
from ycsbctl.results.schema import Manifest


@dataclass
class ExperimentEntry:
    """One row of ``ycsbctl list``. ``state``: the manifest's status (complete, partial, interrupted),
    ``running`` (a ycsbctl writes it now), ``abandoned`` (its writer is gone: resume it) or ``damaged``;
    ``note`` says why when it is not plain. ``points`` counts the points on disk by RunStatus."""

    experiment_id: str
    path: Path
    state: str
    started_at: str = ""
    workloads: list[str] = field(default_factory=list)
    targets: list[str] = field(default_factory=list)
    points: dict[str, int] = field(default_factory=dict)
    note: str = ""

    @property
    def ok(self) -> int:
        return self.points.get(RunStatus.OK, 0)

    @property
    def not_ok(self) -> int:
        """Points measured but not ``ok``: degraded, failed, interrupted, skipped."""
        return sum(n for s, n in self.points.items() if s != RunStatus.OK)


def _being_written(folder: Path) -> bool:
    """A ycsbctl holds the folder's ``.lock`` (see ResultFolder): it is writing it now."""
    try:
        with open(folder / ".lock", "rb") as f:
            try:
                fcntl.flock(f, fcntl.LOCK_SH | fcntl.LOCK_NB)
            except BlockingIOError:
                return True
            return False
    except OSError:
        return False


def _run_statuses(folder: Path) -> tuple[dict[str, int], int]:
    """Points on disk by status, and how many run files could not be read."""
    counts: dict[str, int] = {}
    bad = 0
    for p in sorted((folder / "runs").glob("*.json")):
        try:
            status = str(RunStatus(json.loads(p.read_text(encoding="utf-8"))["status"]))
        except (OSError, ValueError, KeyError, TypeError):
            bad += 1
            continue
        counts[status] = counts.get(status, 0) + 1
    return counts, bad


def read_entry(folder: Path) -> ExperimentEntry:
    """What ``folder`` holds, never raising on its content."""
    partial = folder.name.startswith(".") and folder.name.endswith(".partial")
    exp_id = folder.name[1:-len(".partial")] if partial else folder.name
    entry = ExperimentEntry(exp_id, folder, "damaged")
    points, bad_runs = _run_statuses(folder)
    entry.points = points
    try:
        m = Manifest.from_dict(json.loads((folder / "manifest.json").read_text(encoding="utf-8")))
    except FileNotFoundError:
        entry.note = "no manifest.json"
    except (OSError, ValueError) as exc:  # SchemaError and JSONDecodeError are ValueErrors
        entry.note = f"manifest.json unreadable ({first_line(exc)[:80]})"
    else:
        entry.started_at = m.started_at
        entry.workloads = [Path(w).name for w in m.workloads]
        entry.targets = m.targets
        if m.status is FolderStatus.RUNNING or partial:
            if _being_written(folder):
                entry.state = "running"
            else:
                entry.state = "abandoned"
                entry.note = f"its ycsbctl stopped before the end: ycsbctl run --resume {folder}"
        else:
            entry.state = str(m.status)
    if bad_runs:
        entry.note = "; ".join(filter(None, [entry.note, f"{bad_runs} unreadable run file(s)"]))
    return entry


def _sort_key(e: ExperimentEntry) -> tuple[float, str]:
    try:
        started = datetime.fromisoformat(e.started_at).timestamp()
    except ValueError:
        started = 0.0
    try:
        mtime = os.stat(e.path).st_mtime
    except OSError:
        mtime = 0.0
    return (started or mtime, e.experiment_id)


def list_experiments(reports: Path) -> list[ExperimentEntry]:
    """Every experiment folder under ``reports`` (a folder with a manifest or runs), newest first."""
    if not reports.is_dir():
        return []
    folders = [p for p in reports.iterdir()
               if p.is_dir() and ((p / "manifest.json").exists() or (p / "runs").is_dir())]
    return sorted((read_entry(p) for p in folders), key=_sort_key, reverse=True)

"""The result folder: written run by run (crash-safe), combined into tables at the end.

Layout while running (``<root>/.<id>.partial/``) and after :meth:`ResultFolder.finalize`
(``<root>/<id>/``)::

    manifest.json                 plan, versions, servers, host, status … (schema.Manifest)
    runs/<run-id>.json            one per finished run: the record and PhaseResult.to_dict() (the commit mark)
    parts/series/<run-id>.parquet per-run per-second series;  parts/telemetry/<run-id>.parquet
    histograms/<run-id>.<op>.hdr  base64 HDR (µs), mergeable
    histograms/<run-id>.<op>.hlog HdrHistogram interval log, one histogram per measured second (hdr_log)
    ycsb/<run-id>.txt             YCSB's own text output
    yardstick.parquet             the host yardstick, one row per round (ycsbctl.results.yardstick), rewritten whole
    parts/reference/<session>.parquet  the reference server's slices of one alternated session (slice_table, role
                                  ``reference``): joined to slices.parquet, never a run
    runs.parquet ops.parquet series.parquet telemetry.parquet   built by finalize, each with
                                  its .csv beside it (runs: exactly run_columns.RUN_COLUMNS)

Every per-run file is written to a temporary name, fsynced and renamed, and the run's JSON is
written last (its folder fsynced too), so a crash — or a power cut — leaves either the whole run
or none of it, and a point is on disk before the next one begins.
"""

from __future__ import annotations

import fcntl
import json
import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pandas as pd

from ycsbctl.errors import UserError
from ycsbctl.results import histogram as hdr
from ycsbctl.results import slice_table, yardstick
from ycsbctl.results.durable import arrow_safe, fsync_path, json_text, write_arrow, write_atomic, write_table
from ycsbctl.results.hdr_log import write_log_file
from ycsbctl.results.model import PhaseResult, overall_summary
from ycsbctl.results.names import ALL_OPS, FolderStatus, RunStatus
from ycsbctl.results.run_columns import LATENCY_STATS, op_key, runs_table
from ycsbctl.results.schema import Manifest, TelemetrySummary
from ycsbctl.results.tables import PART_KINDS, TABLES, build_tables, file_stem, read_run_docs
from ycsbctl.results.ycsb_format import format_phase

RUN_PARTS = ("histograms", "ycsb", *(f"parts/{kind}" for kind in PART_KINDS))  # folders a run writes into

__all__ = ["ALL_OPS", "LATENCY_STATS", "TABLES", "ResultFolder", "RunRecord", "build_tables", "file_stem", "op_key",
           "read_run_docs"]


@dataclass
class RunRecord:
    """One point of the sweep: target × workload × phase × threads × offered rate × repetition."""

    run_id: str  # f"{target}.{workload}.{phase}.t{threads}[.rate{ops/s}].r{repetition}"
    target: str
    workload: str
    phase: str  # "load" | "run"
    threads: int
    repetition: int
    status: RunStatus
    result: PhaseResult | None = None
    telemetry: pd.DataFrame | None = None  # t_mono, t_wall, source, metric columns
    telemetry_summary: TelemetrySummary = field(default_factory=TelemetrySummary)
    bottleneck: dict | None = None  # {"label": "server-cpu", "text": "...", "evidence": {...}}
    endpoint: dict | None = None  # Endpoint.to_dict(), url redacted
    error: str | None = None
    started_at: str = ""
    ended_at: str = ""
    target_rate: float | None = None  # the offered ops/s of a paced point (also when it measured nothing)
    events: pd.DataFrame | None = None  # its disturbances' events (ycsbctl.results.events), when it had any
    order_index: int | None = None  # its place in the sweep's order (1 = first measured); None for a dataset load
    compared: bool | None = None  # verdicts compare it (ok, or degraded only by a busy host); None: its status says
    session: str | None = None  # the alternated session it was measured in (one id for its targets); None: apart

    @staticmethod
    def make_id(target: str, workload: str, phase: str, threads: int, repetition: int,
                target_rate: float | None = None) -> str:
        """``redis.workloadb.run.t8.r1``; a paced point names its offered rate: ``….t8.rate20000.r1``."""
        rate = f".rate{rate_token(target_rate)}" if target_rate else ""
        return f"{target}.{workload}.{phase}.t{threads}{rate}.r{repetition}"


def run_doc(run: RunRecord, result_doc: dict | None = None, overall: dict | None = None) -> dict[str, Any]:
    """The JSON document of one run (``runs/<stem>.json`` without its file names): what its row of the runs
    table is made of (:func:`ycsbctl.results.tables.run_row`). ``result_doc`` and ``overall``: its result's
    (computed here when not given)."""
    status = RunStatus(run.status)
    if run.result is not None and result_doc is None:
        result_doc = run.result.to_dict()
        o = overall_summary(run.result)
        overall = o.to_dict() if o else None
    return {
        "run_id": run.run_id, "target": run.target, "workload": run.workload, "phase": run.phase,
        "threads": int(run.threads), "repetition": int(run.repetition), "status": str(status),
        "target_rate": run.target_rate, "order_index": run.order_index, "session": run.session,
        "compared": run.compared if run.compared is not None else status == RunStatus.OK,
        "telemetry_summary": run.telemetry_summary.to_dict(), "bottleneck": run.bottleneck,
        "endpoint": run.endpoint, "error": run.error, "started_at": run.started_at, "ended_at": run.ended_at,
        "result": result_doc, "overall": overall,
    }


def slice_rows(run: RunRecord, slices: pd.DataFrame) -> pd.DataFrame:
    """``slices`` (its result's) keyed by ``run``'s point, as rows of slices.parquet (:mod:`slice_table`)."""
    return slice_table.keyed(slices, {k: getattr(run, k) for k in slice_table.KEY_COLUMNS})


def rate_token(rate: float) -> str:
    """An offered rate as a run id says it: ``20000``, ``2500``, ``0_5`` (no dot: ids are dotted)."""
    return str(int(rate)) if float(rate).is_integer() else f"{rate:.6g}".replace(".", "_")


def now_iso() -> str:
    return datetime.now(timezone.utc).astimezone().isoformat(timespec="seconds")


def partial_path(root: Path, experiment_id: str) -> Path:
    return root / f".{experiment_id}.partial"



def _resume_paths(path: Path) -> tuple[Path, Path, Path]:
    """The ``.partial`` and final paths of a folder to resume, and the one that holds it now."""
    path = Path(path)
    if path.name.startswith(".") and path.name.endswith(".partial"):
        part, final = path, path.with_name(path.name[1:-len(".partial")])
    else:
        final, part = path, partial_path(path.parent, path.name)
    src = part if part.exists() else final
    if not src.exists():
        raise UserError(f"no result folder at {path}: give the path of an experiment under reports/")
    if not (src / "manifest.json").exists():
        raise UserError(f"{src} is not a result folder (no manifest.json)")
    return part, final, src


def _being_written(where: Path, who: str) -> UserError:
    return UserError(f"{where} is being written by another ycsbctl ({who or 'running'}): one folder has one "
                     "writer; wait for it to end, then run the command again", exit_code=1)


class ResultFolder:
    """Writes one experiment's result folder; see the module docstring for the layout."""

    durable = True  # on disk: a sweep measures the facts it keeps in the manifest

    def __init__(self, path: Path, final_path: Path) -> None:
        self.path = path  # where files go now (the .partial folder until finalize)
        self.final_path = final_path
        self._runs: dict[str, str] = {}  # run_id -> status
        self._finalized = False
        self._lock: Any = None

    def _take_lock(self, where: Path) -> None:
        """One writer per folder: an exclusive ``flock`` on ``<folder>/.lock``, held until
        :meth:`close` or the end of the process (it follows the folder through its renames)."""
        f = open(where / ".lock", "a+")  # noqa: SIM115 - held open while we write the folder
        try:
            fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            f.seek(0)
            who = f.read().strip()
            f.close()
            raise _being_written(where, who) from None
        f.truncate(0)
        f.write(f"pid {os.getpid()}\n")
        f.flush()
        self._lock = f

    def close(self) -> None:
        """Release the folder's lock (the end of the process does too)."""
        if self._lock is not None:
            self._lock.close()
            self._lock = None

    # -- life cycle -------------------------------------------------------------------------
    @classmethod
    def create(cls, root: Path, experiment_id: str, manifest: Manifest, unique: bool = False) -> ResultFolder:
        """Start ``<root>/.<id>.partial/`` with ``manifest`` (status ``running``). With ``unique``
        (an id we made, not one the user chose) a taken id gets a suffix (``-2``, ``-3`` …) instead
        of an error: two runs started in the same second each get a folder of their own."""
        if not experiment_id or "/" in experiment_id or experiment_id.startswith("."):
            raise UserError(f"invalid experiment id {experiment_id!r}: use letters, digits, '-', '_' or '.'")
        root = Path(root)
        root.mkdir(parents=True, exist_ok=True)
        base = experiment_id
        for n in range(1, 1000):
            experiment_id = base if n == 1 else f"{base}-{n}"
            final, part = root / experiment_id, partial_path(root, experiment_id)
            taken = next((p for p in (final, part) if p.exists()), None)
            if taken is None:
                try:
                    part.mkdir()  # atomic: of two runs racing for one id, one gets it
                    break
                except FileExistsError:
                    taken = part
            if not unique:
                raise UserError(f"result folder {taken} already exists: pick another experiment id "
                                "or resume it with --resume")
        else:
            raise UserError(f"result folders {base} to {base}-999 all exist under {root}: pick another experiment id")
        for sub in ("runs", *RUN_PARTS):
            (part / sub).mkdir(parents=True, exist_ok=True)
        folder = cls(part, final)
        folder._take_lock(part)
        folder._write_manifest(replace(manifest, experiment_id=experiment_id,
                                       started_at=manifest.started_at or now_iso(),
                                       status=FolderStatus.RUNNING))
        return folder

    @classmethod
    def reopen(cls, path: Path, check: Callable[[Manifest], None] | None = None) -> ResultFolder:
        """Continue an experiment (``--resume``): a finished folder moves back to its ``.partial`` name.
        ``check`` may refuse the stored manifest (a :class:`UserError`) before anything is changed."""
        part, final, src = _resume_paths(path)
        folder = cls(part, final)
        folder._take_lock(src)  # before anything is changed: a second --resume of this folder stops here
        try:
            stored = Manifest.from_dict(json.loads((src / "manifest.json").read_text(encoding="utf-8")))
        except (OSError, ValueError) as exc:  # validated before it is renamed or touched
            folder.close()
            raise UserError(f"{src / 'manifest.json'} is damaged ({exc}): the runs are in {src / 'runs'}; restore "
                            "the manifest from a copy to resume this folder", exit_code=1) from None
        if check is not None:
            try:
                check(stored)
            except BaseException:
                folder.close()
                raise
        if src is final:
            os.replace(final, part)
        for tmp in part.rglob("*.tmp"):  # half-written files of a crash
            tmp.unlink()
        for sub in ("runs", *RUN_PARTS):
            (part / sub).mkdir(parents=True, exist_ok=True)
        for doc in read_run_docs(part):
            folder._runs[doc["run_id"]] = doc["status"]
        m = folder.manifest
        folder._write_manifest(replace(m, resumed_at=[*m.resumed_at, now_iso()], status=FolderStatus.RUNNING,
                                       ended_at=None))
        return folder

    @staticmethod
    def check_free(path: Path) -> None:
        """Refuse (as :meth:`reopen` would) a folder to resume that another ycsbctl is writing, or
        that is no result folder, without taking it: for a check before the host is claimed. The
        lock is only read (no lock file, or one that cannot be read: :meth:`reopen` says why)."""
        src = _resume_paths(path)[2]
        writer = None
        try:
            with open(src / ".lock") as f:
                try:
                    fcntl.flock(f, fcntl.LOCK_SH | fcntl.LOCK_NB)
                except BlockingIOError:
                    writer = f.read().strip()
        except OSError:
            return
        if writer is not None:
            raise _being_written(src, writer)

    @property
    def manifest(self) -> Manifest:
        return Manifest.from_dict(json.loads((self.path / "manifest.json").read_text(encoding="utf-8")))

    def _write_manifest(self, m: Manifest) -> None:
        """The one place a manifest is written: checked against its declaration first."""
        doc = m.to_dict()
        Manifest.from_dict(doc)  # a field set to the wrong type stops here, not in a reader later
        write_atomic(self.path / "manifest.json", json_text(doc))

    def update_manifest(self, **fields: Any) -> None:
        """Set manifest fields (``servers``, ``footprints``, ``network``, ``ended_at`` …)."""
        self._check_open()
        self._write_manifest(replace(self.manifest, **fields))

    def run_ids(self, status: str | None = None) -> set[str]:
        """Runs on disk, optionally only those with ``status``."""
        return {r for r, s in self._runs.items() if status is None or s == status}

    # -- runs -------------------------------------------------------------------------------
    def add_run(self, run: RunRecord) -> None:
        """Persist one run now (histograms, YCSB text, series, telemetry, then its JSON)."""
        self._check_open()
        status = RunStatus(run.status)  # ValueError for a status that is not one
        stem = file_stem(run.run_id)
        self._remove_run_files(stem)
        hist_files: dict[str, str] = {}
        result_doc = None
        overall = None
        if run.result is not None:
            r = run.result
            measured = dict(r.ops) | r.own_measures()
            for op, s in measured.items():
                if s.histogram is not None and s.histogram.get_total_count():
                    name = f"{stem}.{file_stem(op)}.hdr"
                    write_atomic(self.path / "histograms" / name, hdr.encode(s.histogram), redact=False)
                    hist_files[op] = name
            if r.intervals is not None:  # per-second HdrHistogram logs, one per measurement
                for op in r.intervals.names():
                    write_log_file(self.path / "histograms" / f"{stem}.{file_stem(op)}.hlog", op, r.intervals)
            write_atomic(self.path / "ycsb" / f"{stem}.txt", format_phase(r))
            if r.series is not None and len(r.series):
                write_table(arrow_safe(r.series.assign(run_id=run.run_id)),
                               self.path / "parts" / "series" / f"{stem}.parquet")
            if r.slices is not None and len(r.slices):
                write_table(arrow_safe(slice_rows(run, r.slices)), self.path / "parts" / "slices" / f"{stem}.parquet")
            if r.fine is not None:
                write_table(arrow_safe(r.fine.frame().assign(run_id=run.run_id)),
                             self.path / "parts" / "series_100ms" / f"{stem}.parquet")
            result_doc = r.to_dict()
            o = overall_summary(r)
            overall = o.to_dict() if o else None
        if run.telemetry is not None and len(run.telemetry):
            write_table(arrow_safe(run.telemetry.assign(run_id=run.run_id)),
                           self.path / "parts" / "telemetry" / f"{stem}.parquet")
        if run.events is not None and len(run.events):
            write_table(arrow_safe(run.events.assign(run_id=run.run_id, target=run.target)),
                         self.path / "parts" / "events" / f"{stem}.parquet")
        doc = run_doc(run, result_doc, overall) | {"histograms": hist_files, "file_stem": stem}
        for sub in RUN_PARTS:  # the renames above, on disk
            fsync_path(self.path / sub)
        write_atomic(self.path / "runs" / f"{stem}.json", json_text(doc))  # the commit mark, last
        fsync_path(self.path / "runs")
        self._runs[run.run_id] = status

    def add_yardstick(self, row: dict[str, Any]) -> None:
        """Keep one reading of the host yardstick: a row of ``yardstick.parquet`` and the manifest's summary."""
        self._check_open()
        self.update_manifest(yardstick=yardstick.summary(yardstick.append(self.path, row)))

    def add_reference_slices(self, session: str, rows: pd.DataFrame) -> None:
        """Keep the reference server's slices of alternated session ``session`` (rows of the slices table,
        :func:`slice_table.keyed` with role ``reference``): one file per session, replaced when the session is
        measured again (``--resume``); finalize joins them to slices.parquet beside their session's targets."""
        self._check_open()
        folder = self.path / "parts" / "reference"
        folder.mkdir(parents=True, exist_ok=True)
        write_table(arrow_safe(slice_table.conform(rows)), folder / f"{file_stem(session)}.parquet")
        fsync_path(folder)

    def _remove_run_files(self, stem: str) -> None:
        """A run written again (resume retried it) replaces every file of the earlier attempt."""
        for p in [*(self.path / "histograms").glob(f"{glob_escape(stem)}.*.hdr"),
                  *(self.path / "histograms").glob(f"{glob_escape(stem)}.*.hlog"),
                  self.path / "ycsb" / f"{stem}.txt",
                  *(self.path / "parts" / kind / f"{stem}.parquet" for kind in PART_KINDS)]:
            if p.exists():
                p.unlink()

    def finalize(self, status: FolderStatus | str = FolderStatus.COMPLETE) -> Path:
        """Build the combined tables, set the manifest status and rename to the final name."""
        self._check_open()
        final = FolderStatus(status)
        if final is FolderStatus.RUNNING:
            raise ValueError("a finished folder's status is complete, partial or interrupted, not running")
        tables = build_tables(self.path)  # its runs table conformed to RUN_COLUMNS
        write_arrow(runs_table(tables["runs"]), self.path / "runs.parquet")
        for name, df in tables.items():
            if name != "runs":
                tables[name] = df = arrow_safe(df)
                write_table(df, self.path / f"{name}.parquet")
        from ycsbctl.results.verdicts import verdict_tables

        derived = verdict_tables(self.manifest.plan, tables["runs"], tables["series"], tables["slices"])
        tables.update(derived)
        for name, df in tables.items():
            if name in derived:
                tables[name] = df = arrow_safe(df)
                write_table(df, self.path / f"{name}.parquet")
        for name, df in tables.items():  # each table as CSV too, the same columns
            write_table(df, self.path / f"{name}.csv", csv=True)
        m = self.manifest
        counts: dict[str, int] = {}
        for s in self._runs.values():
            counts[s] = counts.get(s, 0) + 1
        self._write_manifest(replace(m, ended_at=m.ended_at or now_iso(), run_counts=counts, status=final))
        if self.final_path.exists():
            raise UserError(f"{self.final_path} already exists: move it away; the finished results are in {self.path}")
        os.replace(self.path, self.final_path)
        self.path = self.final_path
        self._finalized = True
        self.close()  # written: the folder may be reopened (--resume), in this process too
        return self.final_path

    def _check_open(self) -> None:
        if self._finalized:
            raise RuntimeError("result folder already finalized; reopen() it to add runs")


def glob_escape(s: str) -> str:
    return re.sub(r"([*?\[])", r"[\1]", s)

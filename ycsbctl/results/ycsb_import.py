"""Turn existing YCSB logs into a result folder that ``ycsbctl report`` and ``compare`` read."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from ycsbctl import __version__
from ycsbctl.errors import UserError
from ycsbctl.results.folder import ResultFolder, RunRecord
from ycsbctl.results.names import FolderStatus, RunStatus
from ycsbctl.results.schema import Manifest
from ycsbctl.results.ycsb_text import ParsedYcsb, parse_output
from ycsbctl.user_input import writable_folder

DEFAULT_DB = "BasicDB"  # YCSB's Client runs BasicDB when its command line has no -db


@dataclass
class ImportedRun:
    """One log and the run it became."""

    log: Path
    run_id: str
    status: str
    operations: int
    throughput_ops: float


def _target_of(parsed: ParsedYcsb, db_targets: Mapping[str, str]) -> str | None:
    """The target a log ran against: its ``-db`` class's store (``db_targets``), else the class's own
    simple name; None when the log has no command line."""
    if parsed.command_line is None:
        return None
    args = parsed.command_line.split()
    cls = args[args.index("-db") + 1].rsplit(".", 1)[-1] if "-db" in args[:-1] else DEFAULT_DB
    return db_targets.get(cls, cls)


def import_logs(
    logs: Sequence[str | Path],
    out: str | Path,
    target: str | None = None,
    workload: str | None = None,
    threads: int | None = None,
    db_targets: Mapping[str, str] | None = None,
) -> tuple[Path, list[ImportedRun]]:
    """Parse each YCSB log (one run per file) and write them as one result folder at ``out``, or
    add them to the result folder already there (so they show next to its native runs).

    Target, workload and thread count come from each log's ``Command line:`` unless given; a log
    that does not say them needs the option (UserError naming it). Logs of the same point become
    repetitions 0, 1, 2…. ``db_targets``: YCSB ``-db`` class (simple name) → the store that
    class measures (:func:`ycsbctl.stores.registry.ycsb_log_targets`, which the CLI passes).
    """
    if not logs:
        raise UserError("give at least one YCSB log file")
    out = writable_folder(out, "the result folder")
    records: list[tuple[Path, RunRecord, ParsedYcsb]] = []
    repetitions: dict[tuple, int] = {}
    for log in map(Path, logs):
        try:
            text = log.read_text(encoding="utf-8", errors="replace")
        except OSError as exc:
            raise UserError(f"cannot read {log}: {exc.strerror}") from None
        parsed = parse_output(text)
        if not parsed.result.ops and parsed.result.status != "ok" and parsed.status.empty:
            raise UserError(f"{log} holds no YCSB output (no [OVERALL] block and no status lines)")
        r = parsed.result
        name = target or _target_of(parsed, db_targets or {})
        wl = workload or parsed.workload
        n = threads or parsed.threads
        for value, option, what in ((name, "--target NAME", "target"), (wl, "--workload NAME", "workload"),
                                    (n, "--threads N", "thread count")):
            if not value:
                raise UserError(f"cannot tell the {what} of {log} (no Command line: line): pass {option}")
        assert name and wl and n  # checked above
        r.threads = int(n)
        key = (name, wl, r.phase, r.threads)
        rep = repetitions[key] = repetitions.get(key, -1) + 1
        run_id = RunRecord.make_id(name, wl, r.phase, r.threads, rep)
        times = parsed.status["timestamp"] if len(parsed.status) else None
        records.append((log, RunRecord(
            run_id=run_id, target=name, workload=wl, phase=r.phase, threads=r.threads, repetition=rep,
            status=RunStatus.OK if r.status == RunStatus.OK else RunStatus.FAILED, result=r,
            error=r.errors[0] if r.errors else None,
            started_at=times.iloc[0].isoformat() if times is not None else "",
            ended_at=times.iloc[-1].isoformat() if times is not None else "",
        ), parsed))

    imported = [{"log": str(log.resolve()), "run_id": rec.run_id, "ycsb_version": p.version,
                 "command_line": p.command_line, "gc": p.gc} for log, rec, p in records]
    status: FolderStatus
    if (out / "manifest.json").is_file():
        # Into an existing result folder (e.g. a native run): the imported runs sit next to its own,
        # under the target name given (use another name than the native target's, e.g. redis-ycsb).
        was = Manifest.from_dict(json.loads((out / "manifest.json").read_text())).status
        status = was if was != FolderStatus.RUNNING else FolderStatus.PARTIAL
        folder = ResultFolder.reopen(out)  # marks it running until finalize
        known = folder.run_ids()
        clash = [rec.run_id for _, rec, _ in records if rec.run_id in known]
        if clash:
            folder.finalize(status)
            raise UserError(f"{out} already has run {clash[0]}: import under another --target name")
        folder.update_manifest(imported_logs=folder.manifest.imported_logs + imported)
    else:
        manifest = Manifest(experiment_id=out.name, source="import-ycsb", versions={"ycsbctl": __version__},
                            imported_logs=imported,
                            plan={"targets": list(dict.fromkeys(rec.target for _, rec, _ in records)),
                                  "workloads": list(dict.fromkeys(rec.workload for _, rec, _ in records)),
                                  "threads": sorted({rec.threads for _, rec, _ in records})})
        folder = ResultFolder.create(out.parent, out.name, manifest)
        status = FolderStatus.COMPLETE
    for _, rec, _ in records:
        folder.add_run(rec)
    path = folder.finalize(status)
    runs = [ImportedRun(log, rec.run_id, rec.status, p.result.operations, p.result.throughput_ops)
            for log, rec, p in records]
    return path, runs

"""The combined tables of a result folder, built from its per-run JSONs and parquet parts.

Columns of runs.parquet: :data:`ycsbctl.results.run_columns.RUN_COLUMNS` (filled by :func:`run_row`);
ops.parquet: :func:`op_rows`. Latencies in µs, throughput in ops/s, CPU in % of one core. Used by
``store.finalize`` and by ``frames.load`` on folders that are still running or were left by a crash.
"""

from __future__ import annotations

import json
import math
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pandas as pd

from ycsbctl.errors import first_line
from ycsbctl.results import slice_table
from ycsbctl.results.client_lag import client_lag_warning, schedule_lag_warning
from ycsbctl.results.events import EVENT_COLUMNS
from ycsbctl.results.fine import FINE_COLUMNS
from ycsbctl.results.model import SERIES_COLUMNS, PhaseResult, cut_short
from ycsbctl.results.names import ALL_OPS, OPERATIONS
from ycsbctl.results.run_columns import LATENCY_STATS, RUN_COLUMNS, conform_runs, op_key
from ycsbctl.results.schema import TelemetrySummary

__all__ = ["ALL_OPS", "LATENCY_STATS", "OPTIONAL_TABLES", "PART_KINDS", "TABLES", "build_tables", "damaged",
           "file_stem", "op_key", "op_rows",
           "read_run_docs", "run_row"]

# series_100ms and events (points with disturbances) and slices (alternated sessions) are absent from folders of
# older versions
OPTIONAL_TABLES = ("series_100ms", "events", "slices")
TABLES = ("runs", "ops", "series", "telemetry", *OPTIONAL_TABLES)
PART_KINDS = ("series", "telemetry", *OPTIONAL_TABLES)  # parts/<kind>/<run>.parquet


def file_stem(run_id: str) -> str:
    """``run_id`` made safe as a file name (URL labels may hold ``/`` or ``:``: ``redis-::1-6379.…`` is stored as
    ``redis-__1-6379.…``): the one name of a run's files — ``runs/``, ``parts/``, ``histograms/``, ``ycsb/``,
    ``profiles/`` — and of what a message says of them."""
    return re.sub(r"[^A-Za-z0-9._@+=-]", "_", run_id)


def _latency_columns(prefix: str, s: dict | None) -> dict[str, float]:
    """``<prefix>_p99_us`` … ``<prefix>_mean_us`` of a run JSON's summary (µs); NaN where it has none."""
    out = {}
    for suffix, p in LATENCY_STATS.items():
        v = math.nan if s is None else s["mean_us"] if p is None else s["percentiles_us"].get(str(p), math.nan)
        out[f"{prefix}_{suffix}_us"] = float(v) if v is not None else math.nan
    return out


# -- reading the per-run parts (used by finalize and by ycsbctl.results.load on partial folders) ---
def damaged(path: Path, exc: BaseException, consequence: str) -> None:
    """Name a damaged file of a result folder on one line (stderr) and go on without it."""
    why = first_line(exc)[:160]
    sys.stderr.write(f"warning: {path} is damaged ({type(exc).__name__}: {why}); {consequence}\n")


# Counts, times and rates that cannot be negative: a run row with one below zero was edited or damaged.
_NEVER_NEGATIVE = ("throughput_ops", "operations", "runtime_ms", "errors", "not_found", "timeouts")
_AT_LEAST_ONE = ("threads",)  # a point has one client thread or more


def _impossible(values: pd.DataFrame) -> pd.DataFrame:
    """Where each figure cannot be: below zero, infinite (no count, time or rate is), or a thread count
    below one. NaN (a figure not measured) is possible."""
    out = (values < 0) | values.isin([math.inf, -math.inf])
    for c in _AT_LEAST_ONE:
        if c in values:
            out[c] = out[c] | (values[c] < 1)
    return out


def flag_impossible(runs: pd.DataFrame, path: Path) -> pd.DataFrame:
    """``runs`` with each row that holds a negative or infinite count, time, rate or latency (µs), or
    fewer than one thread, made ``failed`` with that figure as its reason (one warning line each): it
    takes no part in peaks, findings or verdicts ("peaks at -5 ops/s", "inf ops/s" are no answers)."""
    cols = [c for c in runs.columns if c in _NEVER_NEGATIVE or c in _AT_LEAST_ONE or c.endswith("_us")]
    if not len(runs) or not cols:
        return runs
    values = runs[cols].apply(pd.to_numeric, errors="coerce")
    wrong = _impossible(values)
    bad = wrong.any(axis=1)
    if not bad.any():
        return runs
    runs = runs.copy()
    for i in runs.index[bad]:
        figures = ", ".join(f"{c} = {values.at[i, c]:g}" for c in cols if wrong.at[i, c])
        why = f"impossible figures in its run file ({figures}): edited or damaged"
        sys.stderr.write(f"warning: {Path(path) / 'runs' / file_stem(str(runs.at[i, 'run_id']))}.json: {why}; "
                         "the point is shown as failed and left out of peaks and verdicts\n")
        runs.at[i, "status"] = "failed"
        runs.at[i, "error"] = why
    return runs


def _numbers_where_numbers(row: dict[str, Any]) -> None:
    """ValueError naming the first column of :data:`RUN_COLUMNS` declared a number whose value in ``row`` is
    none (``"throughput_ops": "fast"``, edited by hand): that run file is damaged, not the whole folder."""
    for c in RUN_COLUMNS:
        v = row.get(c.name)
        if c.dtype == "string" or v is None or (isinstance(v, int | float) and not isinstance(v, bool)):
            continue
        try:
            float(v)
        except (TypeError, ValueError):
            raise ValueError(f"{c.name} = {str(v)[:40]!r} is not a number") from None


def read_run_docs(path: Path) -> list[dict]:
    """Every committed run JSON of a folder, in run order (target, workload, phase, threads,
    repetition); a damaged one is named and left out (``--resume`` measures that point again)."""
    docs = []
    for p in sorted((Path(path) / "runs").glob("*.json")):
        try:
            doc = json.loads(p.read_text(encoding="utf-8"))
            for k in ("run_id", "target", "workload", "phase", "threads", "repetition", "status"):
                doc[k]  # noqa: B018 - a run JSON without these is not one
            _numbers_where_numbers(run_row(doc))
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
            damaged(p, exc, "that run is left out")
            continue
        docs.append(doc)
    docs.sort(key=lambda d: (d["target"], d["workload"], d["phase"] != "load", d["threads"], d["repetition"]))
    return docs


def _server(ep: dict) -> str:
    name, version = str(ep.get("server_name") or ""), str(ep.get("server_version") or "")
    return name if version and version in name else f"{name} {version}".strip()


def run_row(doc: dict) -> dict[str, Any]:
    """One row of runs.parquet from a run JSON (this version's or an older one)."""
    r = doc.get("result") or {}
    ops = r.get("ops", {})
    ep = doc.get("endpoint") or {}
    returns = {st: sum(o.get("returns",
                             {}).get(st, 0) for o in ops.values()) for st in ("ERROR", "TIMEOUT", "NOT_FOUND")}
    operations = r.get("operations", math.nan)
    errors = returns["ERROR"] + returns["TIMEOUT"] if r else math.nan
    bn = doc.get("bottleneck") or {}
    first_error = doc.get("error") or (r.get("errors") or [None])[0]
    runtime_ms = r.get("runtime_ms", math.nan)
    client_cpu_s = r.get("client_cpu_s", math.nan)
    row: dict[str, Any] = {
        "run_id": doc["run_id"],
        "target": doc["target"],
        "server": _server(ep),
        "workload": doc["workload"],
        "phase": doc["phase"],
        "threads": doc["threads"],
        "repetition": doc["repetition"],
        "status": doc["status"],
        # a point cut short (its clients stopped: the engine's own "failed") has no rate of its own: its
        # operations and runtime_ms say what it measured, the run JSON keeps the rest
        "throughput_ops": math.nan if cut_short(r.get("status")) else r.get("throughput_ops", math.nan),
        "runtime_ms": runtime_ms,
        "operations": operations,
        "errors": errors,
        "not_found": returns["NOT_FOUND"] if r else math.nan,
        "timeouts": returns["TIMEOUT"] if r else math.nan,
        "error_rate": (errors / operations) if r and operations else (0.0 if r else math.nan),
        "client_cpu_s": client_cpu_s,
        "client_us_per_op": 1e6 * client_cpu_s / operations
        if r and operations and client_cpu_s is not None
        else math.nan,
        "warmup_s": r.get("warmup_s", math.nan),
        "target_rate": _first_set(doc.get("target_rate"), r.get("target_rate")),
        "engine": r.get("engine"),
        "bottleneck": bn.get("label"),
        "bottleneck_text": bn.get("text"),
        "why": bn.get("why"),
        # share of the cores the server may use (1.0 = all of them), as the label was decided
        "server_cpu_share": (bn.get("evidence") or {}).get("server_share"),
        # Redis Cluster: requests the cluster redirected (MOVED, ASK); null for other targets
        "redirections": (r.get("binding_counts") or {}).get("redirections"),
    }
    known = TelemetrySummary.__dataclass_fields__
    summary = TelemetrySummary.from_dict({k: v for k, v in (doc.get("telemetry_summary") or {}).items() if k in known})
    row.update(summary.to_dict())
    row.update({"error": first_error, "started_at": doc.get("started_at", ""), "ended_at": doc.get("ended_at", ""),
                "order_index": doc.get("order_index"), "session": doc.get("session"),
                "compared": bool(doc["compared"]) if doc.get("compared") is not None else doc["status"] == "ok",
                "host_other_share": other_share(row, (bn.get("evidence") or {}).get("host_cores"))})
    row.update(_latency_columns("all", doc.get("overall")))
    lag = r.get("client_lag")  # the engine's own event-loop lag (µs): the tail it could add to every op
    row.update(_latency_columns("client_lag", lag))
    row["client_lag_max_us"] = float(lag["max_us"]) if lag else math.nan
    # a store that runs inside the client (its endpoint says it has no server) has its own wording
    in_client = not ep.get("has_server", True)
    row["client_lag_warning"] = client_lag_warning(PhaseResult.from_dict(r), in_client) if lag else None
    sched = r.get("schedule_lag")  # paced points: how late the client started operations (µs)
    row.update(_latency_columns("schedule_lag", sched))
    row["schedule_lag_max_us"] = float(sched["max_us"]) if sched else math.nan
    row["schedule_lag_warning"] = schedule_lag_warning(PhaseResult.from_dict(r)) if sched else None
    for op in OPERATIONS:
        if op in ops:
            row.update(_latency_columns(op_key(op), ops[op]))
    return row


def other_share(row: dict[str, Any], cores: Any) -> float:
    """The share of the host's ``cores`` that other programs and the hypervisor's steal took during a point
    (its ``host_foreign_pct`` + ``host_steal_pct``, % of one core); NaN where either figure is unknown."""
    try:
        n = float(cores)
        foreign = float(row.get("host_foreign_pct"))  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return math.nan
    steal = row.get("host_steal_pct")
    steal = float(steal) if isinstance(steal, (int, float)) and steal == steal else 0.0
    if not n > 0 or foreign != foreign:
        return math.nan
    return (foreign + steal) / (100 * n)


def _first_set(*values: Any) -> Any:
    return next((v for v in values if v is not None), None)


def op_rows(doc: dict) -> list[dict[str, Any]]:
    """Rows of ops.parquet: one per measurement of the run."""
    r = doc.get("result") or {}
    rows = []
    for name, o in r.get("ops", {}).items():
        row = {"run_id": doc["run_id"], "target": doc["target"], "workload": doc["workload"], "phase": doc["phase"],
               "threads": doc["threads"], "repetition": doc["repetition"], "op": name,
               "operations": o["operations"], "mean_us": o["mean_us"], "min_us": o["min_us"], "max_us": o["max_us"]}
        for suffix, p in LATENCY_STATS.items():
            if p is not None:
                row[f"{suffix}_us"] = o["percentiles_us"].get(str(p), math.nan)
        for st, n in o.get("returns", {}).items():
            row[f"return_{st}"] = n
        rows.append(row)
    return rows


def _concat(frames: list[pd.DataFrame], columns: list[str]) -> pd.DataFrame:
    frames = [f for f in frames if len(f)]
    if not frames:
        return pd.DataFrame(columns=columns)
    return pd.concat(frames, ignore_index=True)


def build_tables(path: Path, docs: list[dict] | None = None) -> dict[str, pd.DataFrame]:
    """runs, ops, series and telemetry frames from the per-run parts of a folder."""
    path = Path(path)
    docs = read_run_docs(path) if docs is None else docs
    runs = conform_runs(pd.DataFrame([run_row(d) for d in docs]))
    ops = pd.DataFrame([row for d in docs for row in op_rows(d)])
    if ops.empty:
        ops = pd.DataFrame(columns=["run_id", "target", "workload", "phase", "threads", "repetition", "op",
                                    "operations"])
    series = _concat(_read_parts(_part_files(path, "series", docs)), [*SERIES_COLUMNS, "run_id"])
    telemetry = _concat(_read_parts(_part_files(path, "telemetry", docs)), ["t_mono", "t_wall", "source", "run_id"])
    fine = _concat(_read_parts(_part_files(path, "series_100ms", docs)), [*FINE_COLUMNS, "run_id"])
    events = _concat(_read_parts(_part_files(path, "events", docs)), [*EVENT_COLUMNS, "run_id", "target"])
    slices = read_slices(path, docs)
    return {"runs": runs, "ops": ops, "series": series, "telemetry": telemetry, "series_100ms": fine, "events": events,
            "slices": slices}


def read_slices(path: Path, docs: list[dict]) -> pd.DataFrame:
    """The slices table (:mod:`ycsbctl.results.slice_table`) of the runs ``docs`` of the folder at ``path``, from
    their parts (a running folder's too), with the reference server's rows of their sessions (``role``)."""
    path = Path(path)
    return _with_reference(path, slice_table.conform(_concat(_read_parts(_part_files(path, "slices", docs), _strict),
                                                             list(slice_table.COLUMNS))))


def _strict(frame: pd.DataFrame) -> pd.DataFrame:
    return slice_table.conform(frame, strict=True)


def _read_parts(files: list[Path], check: Callable[[pd.DataFrame], pd.DataFrame] | None = None) -> list[pd.DataFrame]:
    """Each of ``files`` read (and passed through ``check``, which raises ValueError for a table it refuses); a file
    that cannot be read, or is refused, is named as damaged and left out."""
    frames = []
    for f in files:
        try:
            frame = pd.read_parquet(f)
            frames.append(check(frame) if check is not None else frame)
        except Exception as exc:  # noqa: BLE001 - pyarrow raises several types for a damaged file
            damaged(f, exc, "its rows are left out")
    return frames


def _with_reference(path: Path, slices: pd.DataFrame) -> pd.DataFrame:
    """``slices`` (the targets') with the reference server's slices of the same sessions
    (``parts/reference/<session>.parquet``, :meth:`ycsbctl.results.folder.ResultFolder.add_reference_slices`): a
    session none of whose targets' points is kept (a run measured again under --resume) leaves its reference out."""
    folder = path / "parts" / "reference"
    files = sorted(folder.glob("*.parquet")) if folder.is_dir() else []
    if not files or not len(slices):
        return slices
    ref = slice_table.conform(_concat(_read_parts(files, _strict), list(slice_table.COLUMNS)))
    ref = ref[ref["session"].isin(set(slices["session"].dropna()))]
    return slice_table.conform(pd.concat([slices, ref], ignore_index=True)) if len(ref) else slices


def _part_files(path: Path, kind: str, docs: list[dict]) -> list[Path]:
    files = [path / "parts" / kind / f"{d.get('file_stem', file_stem(d['run_id']))}.parquet" for d in docs]
    return [f for f in files if f.exists()]



def gone_tables(path: Path, plan: dict[str, Any]) -> None:
    """Warn (one line each, stderr) of a table the folder's plan made that is gone, whole file and parts alike: the
    events of planned disturbances (no disturbance can be shown), the slices of alternated sessions (each cell is
    judged point against point, without the slices' pairing; compare reads no reference)."""
    gone = [kind for kind in ("events", "slices") if not (path / f"{kind}.parquet").exists()
            and not any((path / "parts" / kind).glob("*.parquet"))]
    if plan.get("disturb") and "events" in gone:
        sys.stderr.write(f"warning: {path} planned disturbances ({', '.join(map(str, plan['disturb']))}) but its "
                         "events (events.parquet, parts/events/) are gone: no disturbance can be shown\n")
    if plan.get("run_order") == "alternate" and "slices" in gone:
        sys.stderr.write(f"warning: {path} alternated its targets but the sessions' slices (slices.parquet, "
                         "parts/slices/) are gone: its cells are read point against point, without the slices' "
                         "pairing or the reference server\n")

"""Reading a result folder into pandas: :func:`load` gives an :class:`Experiment`.

Works on finished folders (reads the combined parquet tables) and on running or crashed
``.partial`` folders (rebuilds the tables from the per-run parts).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd
from hdrh.histogram import HdrHistogram

from ycsbctl.errors import UserError
from ycsbctl.results import histogram as hdr
from ycsbctl.results.documents import SchemaError
from ycsbctl.results.events import EVENT_COLUMNS
from ycsbctl.results.fine import FINE_COLUMNS
from ycsbctl.results.folder import partial_path
from ycsbctl.results.model import PhaseResult
from ycsbctl.results.names import ALL_OPS, BOTTLENECK_SEVERITY, FAULT_LABELS, FolderStatus, RunStatus, is_base_operation
from ycsbctl.results.run_columns import conform_runs, op_key
from ycsbctl.results.schema import Manifest
from ycsbctl.results.slice_table import conform as conform_slices
from ycsbctl.results.slice_table import empty as no_slices
from ycsbctl.results.stats import interval
from ycsbctl.results.tables import OPTIONAL_TABLES, TABLES, build_tables, damaged, flag_impossible, read_run_docs
from ycsbctl.results.tables import gone_tables as warn_gone_tables
from ycsbctl.results.yardstick import COLUMNS as YARDSTICK_COLUMNS
from ycsbctl.results.yardstick import read_table as read_yardstick

LATENCY_CHOICES = ("avg", "p50", "p95", "p99", "p999")
_STAT = {"avg": "mean", "mean": "mean", "p50": "p50", "p95": "p95", "p99": "p99", "p999": "p999", "p99.9": "p999",
         "p9999": "p9999", "p99.99": "p9999"}
# A status this version does not know (a folder of another version) ranks _UNKNOWN_STATUS: above ok, below the rest.
_STATUS_RANK = {RunStatus.FAILED: 5, RunStatus.INTERRUPTED: 4, RunStatus.DEGRADED: 3, RunStatus.SKIPPED: 2,
                RunStatus.OK: 0}
_UNKNOWN_STATUS = 1
_LABEL_RANK = {label: i for i, label in enumerate(BOTTLENECK_SEVERITY)}  # lowest: most severe


def latency_column(latency: str = "p99", op: str = ALL_OPS) -> str:
    """Column of runs.parquet for a latency statistic of an operation, e.g. ``read_p99_us``."""
    try:
        stat = _STAT[latency.lower()]
    except KeyError:
        raise UserError(f"unknown latency statistic {latency!r}: use one of {', '.join(LATENCY_CHOICES)}") from None
    return f"{op_key(op)}_{stat}_us"


def latency_label(latency: str) -> str:
    """Human name: ``p999`` -> ``p99.9``, ``avg`` -> ``mean``."""
    stat = _STAT.get(latency.lower(), latency)
    return {"mean": "mean", "p999": "p99.9", "p9999": "p99.99"}.get(stat, stat)


@dataclass
class Experiment:
    """One result folder: the manifest and four tables (runs: :data:`~ycsbctl.results.run_columns.RUN_COLUMNS`)."""

    path: Path
    manifest: Manifest
    runs: pd.DataFrame
    ops: pd.DataFrame
    series: pd.DataFrame
    telemetry: pd.DataFrame
    docs: dict[str, dict] = field(default_factory=dict, repr=False)  # run_id -> run JSON
    _damaged: set = field(default_factory=set, repr=False)  # damaged files already named
    # points with disturbances: their 100 ms series (ycsbctl.results.fine) and events (ycsbctl.results.events)
    series_100ms: pd.DataFrame = field(default_factory=lambda: pd.DataFrame(columns=[*FINE_COLUMNS, "run_id"]))
    events: pd.DataFrame = field(default_factory=lambda: pd.DataFrame(columns=[*EVENT_COLUMNS, "run_id", "target"]))
    # the host yardstick, one row per round (ycsbctl.results.yardstick); empty in a folder of an older version
    yardstick: pd.DataFrame = field(default_factory=lambda: pd.DataFrame(columns=YARDSTICK_COLUMNS))
    slice_rows: pd.DataFrame = field(default_factory=no_slices, repr=False)  # slices.parquet: see slices()

    def slices(self) -> pd.DataFrame:
        """The slices of its alternated sessions (slices.parquet; columns: :mod:`ycsbctl.results.slice_table`),
        one row per slice of each point measured in one; empty, with those columns, in a folder without any."""
        return self.slice_rows

    @property
    def id(self) -> str:
        return self.manifest.experiment_id or self.path.name

    @property
    def status(self) -> FolderStatus:
        return self.manifest.status

    @property
    def targets(self) -> list[str]:
        """Targets in plan order, then any others that have runs."""
        plan = self.manifest.targets
        seen = list(dict.fromkeys(self.runs["target"].tolist())) if len(self.runs) else []
        return [t for t in plan if t in seen] + [t for t in seen if t not in plan]

    @property
    def workloads(self) -> list[str]:
        plan = self.manifest.workloads
        seen = list(dict.fromkeys(self.runs["workload"].tolist())) if len(self.runs) else []
        return [w for w in plan if w in seen] + [w for w in seen if w not in plan]

    def run_doc(self, run_id: str) -> dict:
        try:
            return self.docs[run_id]
        except KeyError:
            row = self.runs[self.runs["run_id"] == run_id] if len(self.runs) else self.runs
            if not len(row):
                raise UserError(f"no run {run_id!r} in {self.path}") from None
            # its JSON is damaged (named when the folder was read): what runs.parquet holds, no histograms
            r = row.iloc[0]
            return {"run_id": run_id, "target": r["target"], "workload": r["workload"], "phase": r["phase"],
                    "threads": int(r["threads"]), "repetition": int(r["repetition"]), "status": r["status"],
                    "error": r.get("error"), "result": None, "histograms": {}}

    def histogram(self, run_id: str, op: str) -> HdrHistogram:
        """The latency histogram (µs) of one measurement; ``op="ALL"`` merges the base operations."""
        files = self.run_doc(run_id).get("histograms", {})
        if op == ALL_OPS:
            names = [n for n in files if is_base_operation(n)]
            return hdr.merge(self.histogram(run_id, n) for n in names)
        if op not in files:
            raise UserError(f"run {run_id} has no histogram for {op!r} (has: {', '.join(files) or 'none'})")
        f = self.path / "histograms" / files[op]
        try:
            return hdr.decode(f.read_text(encoding="ascii"))
        except Exception as exc:  # noqa: BLE001 - garbage in the file: name it, go on without its counts
            if f not in self._damaged:
                self._damaged.add(f)
                damaged(f, exc, "that histogram is read as empty (the run's summary percentiles stay)")
            return hdr.new_histogram()

    def merged_histogram(self, run_ids: list[str], op: str) -> HdrHistogram:
        """Exact merge over runs (e.g. the repetitions of one point); runs without ``op`` are left out."""
        hists = [self.histogram(r, op) for r in run_ids if op == ALL_OPS or op in self.run_doc(r).get("histograms", {})]
        return hdr.merge(hists)

    def phase_result(self, run_id: str) -> PhaseResult:
        """The run's :class:`PhaseResult` with histograms and series, as the engine produced it."""
        doc = self.run_doc(run_id)
        if not doc.get("result"):
            raise UserError(f"run {run_id} has no result (status {doc['status']}: "
                            f"{doc.get('error') or 'no error recorded'})")
        hists = {op: self.histogram(run_id, op) for op in doc.get("histograms", {})}
        series = self.series_of(run_id)
        return PhaseResult.from_dict(doc["result"], hists, series.drop(columns=["run_id"]))

    def series_of(self, run_id: str) -> pd.DataFrame:
        """Per-second rows of one run (``second`` counts from the run's start)."""
        if not len(self.series):
            return self.series.copy()
        return self.series[self.series["run_id"] == run_id].reset_index(drop=True)

    def fine_series_of(self, run_id: str) -> pd.DataFrame:
        """The 100 ms rows of one run (a point with disturbances; empty otherwise), ``t_s`` since its start."""
        return self.series_100ms[self.series_100ms["run_id"] == run_id].reset_index(drop=True)

    def events_of(self, run_id: str) -> pd.DataFrame:
        """The disturbance events of one run (empty when it had none)."""
        return self.events[self.events["run_id"] == run_id].reset_index(drop=True)

    def telemetry_of(self, run_id: str) -> pd.DataFrame:
        """Telemetry rows of one run with ``t_s``: seconds since the engine started (its ``t_start_mono``),
        or since the first sample when the engine did not record its start."""
        if not len(self.telemetry):
            return self.telemetry.assign(t_s=pd.Series(dtype=float))
        t = self.telemetry[self.telemetry["run_id"] == run_id].reset_index(drop=True)
        t0 = PhaseResult.doc_fact((self.docs.get(run_id) or {}).get("result"), "t_start_mono")
        if t0 is None and len(t):
            t0 = float(t["t_mono"].min())
        return t.assign(t_s=t["t_mono"].astype(float) - float(t0 or 0.0))

    def points(self, latency: str = "p99", op: str = ALL_OPS, phase: str | None = None) -> pd.DataFrame:
        """One row per target × workload × threads × offered rate over repetitions (see :func:`points`)."""
        return points(self.runs, latency, op, phase)

    @property
    def baseline(self) -> str | None:
        """The target the others are compared with (``--baseline``, else the first that has runs)."""
        from ycsbctl.results.verdicts import baseline_of

        return baseline_of(self.manifest.plan, self.runs)

    @property
    def interleaved(self) -> bool:
        """Whether each repetition was a round over every cell, interleaved or in alternating target blocks
        (so repetitions pair by round)."""
        return self.manifest.plan.get("run_order") in ("alternate", "interleaved", "blocks")

    def cells(self, latency: str = "p99") -> pd.DataFrame:
        """Each cell's centre, 95 % interval, CV and drift (:func:`ycsbctl.results.cells.cell_table`)."""
        from ycsbctl.results.cells import cell_table

        return cell_table(self.runs, latency, self.series)

    def verdicts(self, latency: str = "p99", alpha: float | None = None) -> pd.DataFrame:
        """Every target against the baseline (:func:`ycsbctl.results.verdicts.plan_verdicts`) at the plan's
        significance level, or ``alpha``."""
        from ycsbctl.results.verdicts import plan_verdicts

        plan = self.manifest.plan if alpha is None else {**self.manifest.plan, "alpha": alpha}
        return plan_verdicts(plan, self.runs, latency, self.slices())


def sweep_phase(runs: pd.DataFrame, workload: str) -> str:
    """The phase a workload's thread sweep ran in: ``run``, or ``load`` for insert-only workloads."""
    w = runs[runs["workload"] == workload]
    return "run" if (w["phase"] == "run").any() or not len(w) else "load"


def points(runs: pd.DataFrame, latency: str = "p99", op: str = ALL_OPS, phase: str | None = None) -> pd.DataFrame:
    """Aggregate repetitions (a point: target × workload × threads × offered rate, NaN when unpaced): throughput and
    latency mean/min/max over the ``ok`` runs of each point, and the 95 % interval of each (``*_ci_low``/``*_ci_high``,
    :func:`ycsbctl.results.stats.interval`: NaN with one run).

    ``phase`` None takes each workload's :func:`sweep_phase` (the run phase; the load phase of insert-only
    workloads such as ``insert``).

    ``status`` is ``ok`` when every repetition is, else the worst (failed > interrupted > degraded > skipped >
    a status of another version); ``throughput_seen``/``latency_seen``/``server_cpu_seen``/``client_cpu_seen``: the
    mean over every run that measured operations, whatever its status (where a degraded or failed point sits on a
    curve, marked as such);
    ``bottleneck`` is the most common label; CPU is in % of one core (``client_cpu_pct`` falls back
    to client CPU seconds / runtime when telemetry has no client sample).
    """
    col = latency_column(latency, op)
    cols = ["target", "workload", "threads", "target_rate", "reps", "ok", "status", "throughput_mean", "throughput_min",
            "throughput_max", "throughput_ci_low", "throughput_ci_high", "throughput_cv", "latency_mean", "latency_min",
            "latency_max", "latency_ci_low", "latency_ci_high", "server_cpu_pct", "client_cpu_pct",
            "server_cpu_share", "bottleneck", "bottleneck_text", "why", "error", "server", "run_ids", "throughput_seen",
            "latency_seen", "server_cpu_seen", "client_cpu_seen"]
    if not len(runs):
        return pd.DataFrame(columns=cols)
    if phase is None:
        phases = {w: sweep_phase(runs, w) for w in runs["workload"].unique()}
        sel = runs[runs["phase"] == runs["workload"].map(phases)]
    else:
        sel = runs[runs["phase"] == phase]
    rows = []
    sel = sel.assign(target_rate=pd.to_numeric(sel["target_rate"], errors="coerce")) if "target_rate" in sel \
        else sel.assign(target_rate=math.nan)
    for (target, workload, threads, rate), g in sel.groupby(["target", "workload", "threads", "target_rate"],
                                                            sort=False, dropna=False):
        ok = g[g["status"] == "ok"]
        worst = max(g["status"], key=lambda s: _STATUS_RANK.get(s, _UNKNOWN_STATUS))
        tp = pd.to_numeric(ok["throughput_ops"], errors="coerce")
        lat = pd.to_numeric(ok[col], errors="coerce") if col in ok else pd.Series(dtype=float)
        # a failed repetition explains nothing: only its fault label counts, never its why (a folder of an older
        # version may still hold both)
        failed = g["status"] == RunStatus.FAILED
        labelled, named = g[~failed | g["bottleneck"].isin(FAULT_LABELS)], g[~failed]
        labels = labelled["bottleneck"].dropna()
        # a tie: the most severe (an unknown label, from another version, last)
        label = min(labels.mode(), key=lambda x: _LABEL_RANK.get(x, len(_LABEL_RANK))) if len(labels) else None
        texts = (labelled.loc[labelled["bottleneck"] == label, "bottleneck_text"].dropna() if label
                 else pd.Series(dtype=object))
        whys = (named.loc[named["bottleneck"] == label, "why"].dropna() if label and "why" in named
                else pd.Series(dtype=object))
        errors = g["error"].dropna() if "error" in g else pd.Series(dtype=object)
        servers = g["server"].dropna()
        tpi, lati = interval(list(tp)), interval(list(lat))
        seen = g[pd.to_numeric(g["throughput_ops"], errors="coerce") > 0]
        rows.append({
            "target": target, "workload": workload, "threads": int(threads), "target_rate": float(rate),
            "reps": len(g), "ok": len(ok),
            "status": "ok" if len(ok) == len(g) else worst,
            "throughput_mean": tp.mean(), "throughput_min": tp.min(), "throughput_max": tp.max(),
            "throughput_ci_low": tpi.low, "throughput_ci_high": tpi.high, "throughput_cv": tpi.cv,
            "latency_mean": lat.mean(), "latency_min": lat.min(), "latency_max": lat.max(),
            "latency_ci_low": lati.low, "latency_ci_high": lati.high,
            "server_cpu_pct": _mean(ok, "server_cpu_pct_mean"), "client_cpu_pct": _client_cpu(ok),
            "server_cpu_share": _mean(ok, "server_cpu_share"), "bottleneck": label,
            "bottleneck_text": texts.iloc[0] if len(texts) else None,
            "why": whys.iloc[0] if len(whys) else None,
            "error": errors.iloc[0] if len(errors) else None,
            "server": servers.iloc[0] if len(servers) else "", "run_ids": list(g["run_id"]),
            "throughput_seen": _mean(seen, "throughput_ops"), "latency_seen": _mean(seen, col),
            "server_cpu_seen": _mean(seen, "server_cpu_pct_mean"), "client_cpu_seen": _client_cpu(seen),
        })
    df = pd.DataFrame(rows, columns=cols).sort_values(["workload", "target", "threads", "target_rate"], kind="stable",
                                                       ignore_index=True, na_position="first")
    # None (not NaN) when absent, so `if p["error"]` reads true
    for c in ("bottleneck", "bottleneck_text", "why", "error"):
        df[c] = pd.Series([v if isinstance(v, str) and v else None for v in df[c]], dtype=object)
    return df


def _mean(df: pd.DataFrame, col: str) -> float:
    return float(pd.to_numeric(df[col], errors="coerce").mean()) if col in df and len(df) else math.nan


def _client_cpu(ok: pd.DataFrame) -> float:
    v = _mean(ok, "client_cpu_pct_mean")
    if math.isnan(v) and len(ok):
        secs = pd.to_numeric(ok["client_cpu_s"], errors="coerce") / (pd.to_numeric(ok["runtime_ms"],
                                                                                   errors="coerce") / 1e3)
        v = float((100.0 * secs).mean())
    return v


def resolve(path: Path) -> Path:
    """The folder holding an experiment: ``path`` itself, or its ``.partial`` twin while it runs."""
    path = Path(path)
    if (path / "manifest.json").exists():
        return path
    part = partial_path(path.parent, path.name)
    if (part / "manifest.json").exists():
        return part
    if not path.exists():
        raise UserError(f"no result folder at {path}: give a folder under reports/ (ls reports/)")
    raise UserError(f"{path} is not a result folder (no manifest.json)")


def load(path: Path) -> Experiment:
    """Read a result folder (finished, running or crashed) into an :class:`Experiment`."""
    path = resolve(Path(path))
    try:
        manifest = Manifest.from_dict(json.loads((path / "manifest.json").read_text(encoding="utf-8")))
    except (OSError, ValueError) as exc:  # SchemaError is a ValueError
        damaged(path / "manifest.json", exc, "plan and versions unknown; the runs are read from runs/*.json")
        manifest = Manifest(experiment_id=path.name.strip(".").removesuffix(".partial"), status=FolderStatus.PARTIAL,
                            damaged=["manifest.json"])
    docs = read_run_docs(path)
    core = [t for t in TABLES if t not in OPTIONAL_TABLES]
    if (manifest.plan or {}).get("disturb"):  # a plan of disturbances has their tables: one gone was read as none
        core = list(TABLES)  # (the report dropped its disturbance screen, silently): rebuilt from parts/ instead
    if (manifest.plan or {}).get("run_order") == "alternate":  # its sessions' slices: gone, the verdicts and compare
        core.append("slices")  # fell back to whole points silently; rebuilt from parts/slices/ instead
    finished = manifest.status != FolderStatus.RUNNING and all((path / f"{t}.parquet").exists() for t in core)
    tables = None
    tables_there: list[str] = []
    if finished:
        try:
            tables_there = [t for t in TABLES if t in core or (path / f"{t}.parquet").exists()]
            tables = {t: pd.read_parquet(path / f"{t}.parquet") for t in tables_there}
        except Exception as exc:  # noqa: BLE001 - pyarrow raises several types for a damaged file
            bad = next((path / f"{t}.parquet" for t in tables_there if not _readable(path / f"{t}.parquet")), path)
            damaged(bad, exc, "the tables are rebuilt from runs/*.json")
    if tables is not None:
        try:
            tables["runs"] = _conformed(tables["runs"])
        except ValueError as exc:  # SchemaError is a ValueError
            damaged(path / "runs.parquet", exc, "the tables are rebuilt from runs/*.json")
            tables = None
    if tables is not None and "slices" in tables:
        try:
            tables["slices"] = conform_slices(tables["slices"], strict=True)
        except ValueError as exc:
            damaged(path / "slices.parquet", exc, "the tables are rebuilt from runs/*.json")
            tables = None
    if tables is None:
        tables = build_tables(path, docs)
        tables["runs"] = conform_runs(tables["runs"], strict=False)
    tables["runs"] = flag_impossible(tables["runs"], path)
    tables["slice_rows"] = conform_slices(tables.pop("slices", None))
    if manifest.status != FolderStatus.RUNNING:
        warn_gone_tables(path, manifest.plan or {})
    return Experiment(path=path, manifest=manifest, docs={d["run_id"]: d for d in docs}, yardstick=read_yardstick(path),
                      **tables)


# What names a run: a runs table without one of these, or with one empty, cannot say which point a row is
_RUN_KEYS = ("run_id", "target", "workload", "phase", "threads", "repetition", "status")


def _conformed(runs: pd.DataFrame) -> pd.DataFrame:
    """runs.parquet with every column of this version (a folder of an older version gets the ones it lacks,
    empty); SchemaError when a column that names the run is missing or empty (the file was edited or
    damaged) or a column holds what its type cannot."""
    lost = [c for c in _RUN_KEYS if c not in runs or runs[c].isna().any()]
    if lost:
        raise SchemaError(f"column(s) {', '.join(lost)} missing or empty")
    return conform_runs(runs, strict=False)


def _readable(f: Path) -> bool:
    try:
        pd.read_parquet(f)
        return True
    except Exception:  # noqa: BLE001
        return False


def latest(root: Path = Path("reports")) -> Path:
    """The most recently modified result folder under ``root`` (finished ones first)."""
    root = Path(root)
    found = sorted((p for p in root.glob("*") if (p / "manifest.json").exists() and not p.name.startswith(".")),
                   key=lambda p: (p / "manifest.json").stat().st_mtime)
    if not found:
        raise UserError(f"no result folder under {root}: run an experiment first (ycsbctl run workload-b)")
    return found[-1]

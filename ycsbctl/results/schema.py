"""The declared shape of a result folder: the manifest, the telemetry summary and runs.parquet.

Every writer builds these types and every reader (report, compare, console,
:func:`ycsbctl.results.load`) reads through them. :data:`SCHEMA_VERSION` is written into each
manifest; a folder without one was written before the schema was declared (version 0) and is
read as it is: its plan, its run JSONs (an ``extra`` dict in each result) and its runs.parquet
(columns it lacks are added empty).

The columns of runs.parquet are :data:`RUN_COLUMNS`: one row per point, always the same columns
in the same order, checked when the table is written (:func:`runs_table`).
:func:`run_columns_markdown` renders them for the README.
"""

from __future__ import annotations

import dataclasses
import math
import types
import typing
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, TypeVar

import pandas as pd

from ycsbctl.results.names import OPERATIONS, FolderStatus

SCHEMA_VERSION = 1

T = TypeVar("T")


# -- validation: the few shapes these dataclasses use --------------------------------------------------
class SchemaError(ValueError):
    """A document does not have the declared shape (names the field and what it holds)."""


def _coerce(value: Any, hint: Any, where: str) -> Any:
    """``value`` as the type ``hint`` (int, float, str, bool, None, enums, dataclasses, list[X],
    dict[str, X], unions of those, Any), or :class:`SchemaError`."""
    origin = typing.get_origin(hint)
    if hint is Any:
        return value
    if origin in (typing.Union, types.UnionType):
        if value is None and type(None) in typing.get_args(hint):
            return None
        errors = []
        for option in typing.get_args(hint):
            if option is type(None):
                continue
            try:
                return _coerce(value, option, where)
            except SchemaError as exc:
                errors.append(str(exc))
        raise SchemaError(errors[0] if errors else f"{where}: {value!r} does not fit {hint}")
    if origin is list:
        if not isinstance(value, (list, tuple)):
            raise SchemaError(f"{where}: expected a list, got {type(value).__name__}")
        (item,) = typing.get_args(hint) or (Any,)
        return [_coerce(v, item, f"{where}[{i}]") for i, v in enumerate(value)]
    if origin is dict:
        if not isinstance(value, dict):
            raise SchemaError(f"{where}: expected an object, got {type(value).__name__}")
        _, item = typing.get_args(hint) or (str, Any)
        return {str(k): _coerce(v, item, f"{where}.{k}") for k, v in value.items()}
    if isinstance(hint, type) and issubclass(hint, Enum):
        try:
            return hint(value)
        except ValueError:
            raise SchemaError(f"{where}: {value!r} is not one of {', '.join(str(m.value) for m in hint)}") from None
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        if isinstance(value, hint):
            return value
        if not isinstance(value, dict):
            raise SchemaError(f"{where}: expected an object, got {type(value).__name__}")
        return from_doc(hint, value, where)
    if hint is float:
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return float(value)
    elif hint is int:
        if isinstance(value, bool):
            pass
        elif isinstance(value, int):
            return value
        elif isinstance(value, float) and value.is_integer():
            return int(value)
    elif hint in (str, bool) and isinstance(value, hint):
        return value
    raise SchemaError(f"{where}: expected {getattr(hint, '__name__', hint)}, got {value!r}")


def from_doc(cls: type[T], doc: dict[str, Any], where: str = "") -> T:
    """A dataclass from its JSON object: every value checked against the declared type; unknown
    keys are refused, missing ones take their defaults."""
    hints = typing.get_type_hints(cls)
    names = {f.name for f in dataclasses.fields(cls) if f.init}  # type: ignore[arg-type]
    unknown = sorted(set(doc) - names)
    if unknown:
        raise SchemaError(f"{where or cls.__name__}: unknown field(s) {', '.join(unknown)}")
    values = {k: _coerce(v, hints[k], f"{where + '.' if where else ''}{k}") for k, v in doc.items()}
    try:
        return cls(**values)
    except TypeError as exc:  # a required field is missing
        raise SchemaError(f"{where or cls.__name__}: {exc}") from None


def to_doc(obj: Any) -> Any:
    """A dataclass (and what it holds) as JSON-ready values; enums become their strings."""
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {f.name: to_doc(getattr(obj, f.name)) for f in dataclasses.fields(obj)}
    if isinstance(obj, Enum):
        return obj.value
    if isinstance(obj, dict):
        return {k: to_doc(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [to_doc(v) for v in obj]
    return obj


# -- the manifest ---------------------------------------------------------------------------------------
@dataclass
class SkippedTarget:
    """A target that could not be measured: why, and what the user can do about it."""

    target: str
    reason: str
    fix: str = ""


@dataclass
class Substitution:
    """A target measured in place of a wanted one (the default plan's MongoDB stand-in)."""

    wanted: str
    used: str
    note: str


@dataclass
class Manifest:
    """``manifest.json``: what was planned, on what, with which versions, and how it ended.

    ``plan`` is :meth:`ycsbctl.plan.Plan.to_dict` (passwords redacted; ``--resume`` rebuilds the plan
    from it) with the resolved scale (``record_count``, ``point_duration_s`` …); read the scale through
    :attr:`record_count` and friends. ``servers`` maps a target label to its endpoint
    (:meth:`~ycsbctl.provision.base.Endpoint.to_dict`, URL redacted); ``footprints`` to the dataset's
    memory (bytes, bytes per record); ``network`` to its iperf3 baseline (Gbit/s). Times are ISO 8601.
    """

    experiment_id: str
    schema_version: int = SCHEMA_VERSION
    source: str = "run"  # "run" (ycsbctl run/load) | "import-ycsb" (YCSB logs turned into a folder)
    command_line: str = ""
    plan: dict[str, Any] = field(default_factory=dict)
    versions: dict[str, str] = field(default_factory=dict)
    host: dict[str, Any] = field(default_factory=dict)
    servers: dict[str, dict[str, Any]] = field(default_factory=dict)
    footprints: dict[str, dict[str, Any]] = field(default_factory=dict)
    network: dict[str, dict[str, Any]] = field(default_factory=dict)
    skipped_targets: list[SkippedTarget] = field(default_factory=list)
    substitutions: list[Substitution] = field(default_factory=list)
    imported_logs: list[dict[str, Any]] = field(default_factory=list)  # import-ycsb: one entry per log
    # --slo: one search per target × workload × threads, each tried rate in order (ycsbctl.experiment.slo)
    slo_searches: list[dict[str, Any]] = field(default_factory=list)
    started_at: str = ""
    ended_at: str | None = None
    resumed_at: list[str] = field(default_factory=list)
    status: FolderStatus = FolderStatus.RUNNING
    run_counts: dict[str, int] = field(default_factory=dict)  # points per run status, set when finished
    damaged: list[str] = field(default_factory=list)  # files found damaged when read (never written)

    # -- the plan's resolved scale (older plans held only the user's choices) --------------------------
    @property
    def record_count(self) -> int | None:
        """Records loaded and read (``recordcount``)."""
        v = self.plan.get("record_count", self.plan.get("records"))
        return int(v) if v else None

    @property
    def point_duration_s(self) -> float | None:
        """Measured seconds per point after the warm-up; None when points run an operation count."""
        v = self.plan.get("point_duration_s", self.plan.get("duration_s"))
        return float(v) if v else None

    @property
    def point_operations(self) -> int | None:
        """Operations per point when points run a count instead of a duration."""
        v = self.plan.get("point_operations", self.plan.get("operations"))
        return int(v) if v else None

    @property
    def repeat(self) -> int:
        return int(self.plan.get("repeat") or 1)

    @property
    def targets(self) -> list[str]:
        return [str(t) for t in self.plan.get("targets") or []]

    @property
    def workloads(self) -> list[str]:
        return [str(w) for w in self.plan.get("workloads") or []]

    def to_dict(self) -> dict[str, Any]:
        d = to_doc(self)
        d.pop("damaged")
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Manifest:
        """Read a manifest of this or an older version (:class:`SchemaError` names a bad field)."""
        if not isinstance(d, dict):
            raise SchemaError("the manifest is not a JSON object")
        version = d.get("schema_version", 0)
        if not isinstance(version, int) or version > SCHEMA_VERSION:
            raise SchemaError(f"schema_version {version!r} is newer than this ycsbctl reads ({SCHEMA_VERSION}): "
                              "upgrade ycsbctl")
        d = dict(d)
        if version == 0:
            d = _from_version_0(d)
        d["schema_version"] = SCHEMA_VERSION
        return from_doc(cls, d, "manifest")


def _from_version_0(d: dict[str, Any]) -> dict[str, Any]:
    """A manifest written before the schema: ``ycsbctl import-ycsb`` kept its version as ``tool``."""
    if "tool" in d:
        d["versions"] = {**d.pop("tool"), **d.get("versions", {})}
    if d.get("source") == "import-ycsb" and "experiment_id" not in d:
        d["experiment_id"] = ""
    return d


# -- `ycsbctl run/load --format json`: the one document on stdout ---------------------------------------
@dataclass
class LatencySummary:
    """One measurement of a point (``READ``, ``READ-FAILED``, ``Intended-READ``, ``CLIENT-LAG`` …):
    latencies in µs (None: nothing measured), ``returns`` = operations by YCSB return status
    (``{"OK": 503, "NOT_FOUND": 2}``, on the base operation only, as YCSB prints it)."""

    operations: int
    mean_us: float | None = None
    p50_us: float | None = None
    p95_us: float | None = None
    p99_us: float | None = None
    p999_us: float | None = None
    max_us: float | None = None
    returns: dict[str, int] = field(default_factory=dict)


@dataclass
class PointSummary:
    """One point measured by the command: what ran, how it ended, and its numbers (ops/s, µs).
    ``ops`` holds every measurement YCSB's block prints; ``client_lag``/``schedule_lag`` the engine's
    own measures when it took them; ``error`` why the point is not ``ok`` (or the server's first error)."""

    run_id: str
    target: str
    workload: str
    phase: str
    threads: int
    repetition: int
    status: str  # RunStatus
    target_rate_ops: float | None = None
    throughput_ops: float | None = None
    runtime_ms: float | None = None
    operations: int = 0
    ops: dict[str, LatencySummary] = field(default_factory=dict)
    client_lag: LatencySummary | None = None
    schedule_lag: LatencySummary | None = None
    bottleneck: str | None = None
    error: str | None = None


@dataclass
class RunSummary:
    """``ycsbctl run|load --format json``: the experiment, its folder (None when no folder was kept)
    and the points this command measured (a ``--resume`` lists the points it ran)."""

    experiment_id: str
    folder: str | None
    exit_code: int
    points: list[PointSummary] = field(default_factory=list)
    skipped_targets: list[SkippedTarget] = field(default_factory=list)
    schema_version: int = SCHEMA_VERSION


# -- the telemetry summary of one point ---------------------------------------------------------------
@dataclass
class TelemetrySummary:
    """What the samplers saw over a point's measured window (warm-up and start-up left out).

    CPU in % of one core, memory in bytes, network in bytes/s and Gbit/s; ``*_source`` names the
    sampler a figure came from (``server-process``, ``redis-info``, ``engine`` …). None: not sampled.
    """

    server_cpu_pct_mean: float | None = None
    server_cpu_pct_max: float | None = None
    server_cpu_source: str | None = None
    server_rss_bytes_max: float | None = None
    client_cpu_pct_mean: float | None = None
    client_cpu_pct_max: float | None = None
    client_rss_bytes_max: float | None = None
    client_processes: float | None = None
    client_cpu_source: str | None = None
    db_used_memory_bytes_max: float | None = None
    db_rss_bytes_max: float | None = None
    connections_max: float | None = None
    db_ops_per_s_mean: float | None = None
    net_in_bytes_per_s_mean: float | None = None
    net_out_bytes_per_s_mean: float | None = None
    net_gbit_s_mean: float | None = None
    net_gbit_s_max: float | None = None
    net_source: str | None = None
    baseline_gbit_s: float | None = None
    net_share_of_baseline: float | None = None
    samples: int | None = None
    sampler_cpu_s: float | None = None
    client_hosts: float | None = None  # --cluster: client hosts (Dask workers) that ran shards
    client_host_busiest: str | None = None
    client_host_busiest_share: float | None = None
    start_skew_ms: float | None = None

    def to_dict(self) -> dict[str, Any]:
        return to_doc(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any] | None) -> TelemetrySummary:
        """NaN reads as None (not sampled)."""
        clean = {k: (None if isinstance(v, float) and math.isnan(v) else v) for k, v in (d or {}).items()}
        return from_doc(cls, clean, "telemetry_summary")


# -- runs.parquet ----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Column:
    """One column of runs.parquet: its name, its arrow type (``string``, ``int64``, ``float64``),
    its unit and what it holds. A null is "not measured" (an int64 column with nulls reads as float)."""

    name: str
    dtype: str
    unit: str
    doc: str


LATENCY_STATS = {"p50": 50.0, "p95": 95.0, "p99": 99.0, "p999": 99.9, "p9999": 99.99, "mean": None}
ALL_OPS = "ALL"  # merged histogram of every base operation except READ-MODIFY-WRITE (counted in READ+UPDATE)


def op_key(op: str) -> str:
    """Column prefix of an operation: ``READ-MODIFY-WRITE`` -> ``read_modify_write``."""
    return op.lower().replace("-", "_")


def _latency(prefix: str, what: str) -> list[Column]:
    return [Column(f"{prefix}_{stat}_us", "float64", "µs", f"{'mean' if p is None else f'p{p:g}'} latency of {what}")
            for stat, p in LATENCY_STATS.items()]


_TELEMETRY_DOCS = {
    "server_cpu_pct_mean": ("% of one core", "server CPU, mean over the measured window"),
    "server_cpu_pct_max": ("% of one core", "server CPU, highest sample"),
    "server_cpu_source": ("", "sampler of the server CPU: server-process, server-container, or the DB's own"),
    "server_rss_bytes_max": ("bytes", "server resident memory, highest sample"),
    "client_cpu_pct_mean": ("% of one core", "engine CPU (all its processes), mean"),
    "client_cpu_pct_max": ("% of one core", "engine CPU, highest sample"),
    "client_rss_bytes_max": ("bytes", "engine resident memory, highest sample"),
    "client_processes": ("processes", "engine processes sampled"),
    "client_cpu_source": ("", "client (process sampler) or engine (its own CPU accounting)"),
    "db_used_memory_bytes_max": ("bytes", "memory the database reports in use, highest sample"),
    "db_rss_bytes_max": ("bytes", "resident memory the database reports, highest sample"),
    "connections_max": ("connections", "client connections the database reports, highest sample"),
    "db_ops_per_s_mean": ("ops/s", "operations per second the database counted, mean"),
    "net_in_bytes_per_s_mean": ("bytes/s", "bytes into the server per second (its counters), mean"),
    "net_out_bytes_per_s_mean": ("bytes/s", "bytes out of the server per second (its counters), mean"),
    "net_gbit_s_mean": ("Gbit/s", "traffic in the busier direction, mean"),
    "net_gbit_s_max": ("Gbit/s", "traffic in the busier direction, highest sample"),
    "net_source": ("", "where the traffic was read: the DB's counters or net-lo"),
    "baseline_gbit_s": ("Gbit/s", "iperf3 baseline of the path to the server"),
    "net_share_of_baseline": ("fraction", "net_gbit_s_mean over baseline_gbit_s"),
    "samples": ("samples", "telemetry samples in the measured window"),
    "sampler_cpu_s": ("s", "CPU the samplers themselves used"),
    "client_hosts": ("hosts", "--cluster: client hosts (Dask workers) that ran a shard"),
    "client_host_busiest": ("", "--cluster: the client host that used the largest share of its cores"),
    "client_host_busiest_share": ("fraction", "--cluster: that host's CPU over its cores"),
    "start_skew_ms": ("ms", "--cluster: spread of the shards' start times"),
}


def _telemetry_columns() -> list[Column]:
    hints = typing.get_type_hints(TelemetrySummary)
    out = []
    for f in dataclasses.fields(TelemetrySummary):
        unit, doc = _TELEMETRY_DOCS[f.name]
        dtype = {str: "string", int: "int64", float: "float64"}[typing.get_args(hints[f.name])[0]]
        out.append(Column(f.name, dtype, unit, doc))
    return out


RUN_COLUMNS: tuple[Column, ...] = (
    Column("run_id", "string", "", "target.workload.phase.t<threads>.r<repetition>"),
    Column("target", "string", "", "target label: a catalogue name or a credential-free URL label"),
    Column("server", "string", "", "the server that answered, with its version (FerretDB stands in for MongoDB)"),
    Column("workload", "string", "", "workload file name (workloadb, insert …)"),
    Column("phase", "string", "", "load or run"),
    Column("threads", "int64", "threads", "YCSB client threads (one connection, one request in flight each)"),
    Column("repetition", "int64", "", "repetition of the point"),
    Column("status", "string", "", "ok, degraded, failed, interrupted or skipped (see RunStatus)"),
    Column("throughput_ops", "float64", "ops/s", "operations per second after the warm-up, YCSB's [OVERALL]"),
    Column("runtime_ms", "float64", "ms", "measured time after the warm-up"),
    Column("operations", "int64", "operations", "operations issued, failed ones included"),
    Column("errors", "int64", "operations", "operations that returned ERROR or TIMEOUT"),
    Column("not_found", "int64", "operations", "operations that returned NOT_FOUND"),
    Column("timeouts", "int64", "operations", "operations that returned TIMEOUT"),
    Column("error_rate", "float64", "fraction", "errors over operations"),
    Column("client_cpu_s", "float64", "s", "CPU the engine used (all processes)"),
    Column("client_us_per_op", "float64", "µs", "engine CPU per operation"),
    Column("warmup_s", "float64", "s", "warm-up before the measured window"),
    Column("target_rate", "float64", "ops/s", "the -target rate, when one was set"),
    Column("engine", "string", "", "native or ycsb (the Java YCSB)"),
    Column("bottleneck", "string", "", "what limited the point: server-cpu, client-cpu, host-cpu, network, latency, "
                                       "stall, client-stall or host-busy"),
    Column("bottleneck_text", "string", "", "the figures behind the bottleneck label, in one sentence"),
    Column("server_cpu_share", "float64", "fraction", "share of the cores the server may use (1.0 = all)"),
    *_telemetry_columns(),
    Column("error", "string", "", "why the point is not ok, or the first error the server sent"),
    Column("started_at", "string", "ISO 8601", "when the point began"),
    Column("ended_at", "string", "ISO 8601", "when the point ended"),
    *_latency("all", "every base operation (histograms merged)"),
    *_latency("client_lag", "the engine's own event loop (how late it ran)"),
    Column("client_lag_max_us", "float64", "µs", "largest event-loop lag"),
    Column("client_lag_warning", "string", "", "set when the engine's lag could have added to the latencies"),
    *_latency("schedule_lag", "the client's late starts of paced operations (-target)"),
    Column("schedule_lag_max_us", "float64", "µs", "latest start of a paced operation"),
    Column("schedule_lag_warning", "string", "", "set when late starts are a sizeable share of the tail (client-pacing)"),
    *(c for op in OPERATIONS for c in _latency(op_key(op), op)),
)
RUN_COLUMN_NAMES = tuple(c.name for c in RUN_COLUMNS)


def runs_arrow_schema() -> Any:
    """runs.parquet's :data:`RUN_COLUMNS` as a pyarrow schema."""
    import pyarrow as pa

    types_ = {"string": pa.string(), "int64": pa.int64(), "float64": pa.float64()}
    return pa.schema([pa.field(c.name, types_[c.dtype]) for c in RUN_COLUMNS])


def conform_runs(df: pd.DataFrame, strict: bool = True) -> pd.DataFrame:
    """``df`` with exactly :data:`RUN_COLUMNS`, in order, each of its declared type (missing columns
    come in empty). ``strict`` (writing) refuses a column that is not declared; reading an older
    folder keeps such columns after the declared ones."""
    extra = [c for c in df.columns if c not in RUN_COLUMN_NAMES]
    if strict and extra:
        raise SchemaError(f"runs table: undeclared column(s) {', '.join(map(str, extra))} (declare them in "
                          "ycsbctl/results/schema.py RUN_COLUMNS)")
    columns = {c.name: _as_dtype(df[c.name] if c.name in df else pd.Series([None] * len(df), index=df.index,
                                                                          dtype=object), c)
               for c in RUN_COLUMNS}
    columns.update({name: df[name] for name in extra})
    return pd.DataFrame(columns, index=df.index).reset_index(drop=True)


def _as_dtype(s: pd.Series, c: Column) -> pd.Series:
    if c.dtype == "string":
        return pd.Series([None if v is None or (isinstance(v, float) and math.isnan(v)) else str(v) for v in s],
                         index=s.index, dtype=object)
    num = pd.to_numeric(s, errors="raise")
    if c.dtype == "int64":
        if num.isna().any():
            bad = num.dropna()
            if not (bad == bad.round()).all():
                raise SchemaError(f"runs table: column {c.name} holds fractions, declared int64")
            return num.astype(float)  # nulls: read as float, as pandas reads an int64 column with nulls
        return num.astype("int64")
    return num.astype(float)


def runs_table(df: pd.DataFrame) -> Any:
    """runs.parquet as a pyarrow table of :data:`RUN_COLUMNS` (SchemaError for any other shape)."""
    import pyarrow as pa

    try:
        return pa.Table.from_pandas(conform_runs(df), schema=runs_arrow_schema(), preserve_index=False)
    except (pa.ArrowInvalid, pa.ArrowTypeError) as exc:
        raise SchemaError(f"runs table does not fit its declared columns: {exc}") from None


def run_columns_markdown() -> str:
    """:data:`RUN_COLUMNS` as a Markdown table, one row per latency family (the README's copy is
    checked against it)."""
    stats = ",".join(LATENCY_STATS)
    lines = ["| column | type | unit | meaning |", "|---|---|---|---|"]
    for c in RUN_COLUMNS:
        prefix, _, stat = c.name.removesuffix("_us").rpartition("_")
        if c.name.endswith("_us") and stat in LATENCY_STATS:
            if stat == next(iter(LATENCY_STATS)):
                what = c.doc.split(" latency of ", 1)[1]
                lines.append(f"| `{prefix}_{{{stats}}}_us` | {c.dtype} | {c.unit} | latency of {what} |")
            continue
        lines.append(f"| `{c.name}` | {c.dtype} | {c.unit or '—'} | {c.doc} |")
    return "\n".join(lines)

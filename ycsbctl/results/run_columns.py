"""The columns of runs.parquet (:data:`RUN_COLUMNS`): one row per point, always the same columns in
the same order, each with its type, unit and meaning, checked when the table is written
(:func:`runs_table`). :func:`run_columns_markdown` renders them for the docs (docs/guide/result-folder.md)."""

from __future__ import annotations

import dataclasses
import math
import typing
from dataclasses import dataclass
from typing import Any

import pandas as pd

from ycsbctl.results.documents import SchemaError
from ycsbctl.results.names import OPERATIONS
from ycsbctl.results.schema import TelemetrySummary


@dataclass(frozen=True)
class Column:
    """One column of runs.parquet: its name, its arrow type (``string``, ``int64``, ``float64``),
    its unit and what it holds. A null is "not measured" (an int64 column with nulls reads as float)."""

    name: str
    dtype: str
    unit: str
    doc: str


LATENCY_STATS = {"p50": 50.0, "p95": 95.0, "p99": 99.0, "p999": 99.9, "p9999": 99.99, "mean": None}


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
    "server_user_pct": ("% of one core", "server threads' user CPU, mean (/proc/<pid>/task/*/stat)"),
    "server_system_pct": ("% of one core", "server threads' system (kernel) CPU, mean"),
    "server_runq_pct": ("% of one core", "time the server's threads were runnable but waiting for a CPU (schedstat)"),
    "server_vcsw_per_s": ("1/s", "the server threads' voluntary context switches (they blocked) per second"),
    "server_ivcsw_per_s": ("1/s", "the server threads' involuntary context switches (preempted) per second"),
    "server_kernel_share": ("fraction", "server system CPU over its user + system CPU"),
    "server_throttled_pct": ("% of periods", "quota periods in which the server's CPU quota held it back (its "
                             "cgroup's cpu.stat nr_throttled over nr_periods, measured window); empty: no quota"),
    "server_throttled_s": ("s", "time the server's CPU quota held it back in the measured window (cpu.stat "
                           "throttled_usec, v1 throttled_time; summed over CPUs)"),
    "server_cpu_us_per_op": ("µs", "server CPU per operation (server CPU over throughput)"),
    "client_user_pct": ("% of one core", "the engine's threads' user CPU, mean"),
    "client_system_pct": ("% of one core", "the engine's threads' system CPU, mean"),
    "client_runq_pct": ("% of one core", "time the engine's threads were runnable but waiting for a CPU"),
    "client_ivcsw_per_s": ("1/s", "the engine threads' involuntary context switches per second"),
    "wire_bytes_per_op": ("bytes", "payload bytes both ways per operation, on our own connections (ss)"),
    "wire_packets_per_op": ("packets", "TCP segments both ways per operation, on our own connections (ss)"),
    "host_user_pct": ("% of one core", "the whole host's user CPU, mean (/proc/stat)"),
    "host_system_pct": ("% of one core", "the whole host's system CPU (with irq, softirq), mean"),
    "host_iowait_pct": ("% of one core", "the whole host's iowait, mean"),
    "host_steal_pct": ("% of one core", "CPU the hypervisor gave to others (steal), mean"),
    "host_foreign_pct": ("% of one core", "CPU of processes that are neither ours nor the kernel's, mean"),
    "host_foreign_top": ("", "the foreign programs that used the most CPU: name (% of one core), …"),
    "server_forks": ("forks", "forks of the server (RDB snapshots, AOF rewrites) in the measured window"),
    "server_fork_pause_us_max": ("µs", "the longest pause a fork caused (INFO latest_fork_usec)"),
    "aof_delayed_fsyncs": ("fsyncs", "writes that waited for an AOF fsync (appendfsync everysec)"),
    "shards": ("shards", "Redis Cluster: primaries sampled"),
    "shard_ops_share_max": ("fraction", "Redis Cluster: the busiest shard's share of the commands (1/shards: even)"),
    "repl_lag_bytes_max": ("bytes", "replicas: how far the slowest one was behind its primary, highest sample "
                           "(PostgreSQL: WAL sent and not replayed)"),
    "repl_lag_ms_max": ("ms", "PostgreSQL standbys: the largest replay_lag of pg_stat_replication, highest sample"),
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
    Column("throughput_ops", "float64", "ops/s", "operations per second after the warm-up, YCSB's [OVERALL]; "
                                             "empty for a point cut short (its clients stopped before its end)"),
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
    Column("why", "string", "", "why the point measured what it did, from its evidence (threads, waits, host), "
                                "with the figures; 'cause unknown' when nothing measured shows one"),
    Column("server_cpu_share", "float64", "fraction", "share of the cores the server may use (1.0 = all)"),
    Column("redirections", "int64", "requests", "Redis Cluster: requests redirected (MOVED, ASK) and sent again"),
    *_telemetry_columns(),
    Column("error", "string", "", "why the point is not ok, or the first error the server sent"),
    Column("started_at", "string", "ISO 8601", "when the point began"),
    Column("ended_at", "string", "ISO 8601", "when the point ended"),
    Column("order_index", "int64", "position",
           "its place in the sweep's order, 1 = measured first (repetition = round)"),
    Column("compared", "bool", "", "verdicts compare it: ok, or degraded only because the host was busy"),
    Column("session", "string", "", "the alternated engine session it was measured in, one id for the targets "
                                    "of a cell's round (their slices: slices.parquet); empty: measured apart"),
    Column("host_other_share", "float64", "fraction", "share of the host's cores other programs (or the hypervisor's "
                                                      "steal) took during the point"),
    *_latency("all", "every base operation (histograms merged)"),
    *_latency("client_lag", "the engine's own event loop (how late it ran)"),
    Column("client_lag_max_us", "float64", "µs", "largest event-loop lag"),
    Column("client_lag_warning", "string", "", "set when the engine's lag could have added to the latencies"),
    *_latency("schedule_lag", "the client's late starts of paced operations (-target)"),
    Column("schedule_lag_max_us", "float64", "µs", "latest start of a paced operation"),
    Column("schedule_lag_warning", "string", "",
           "set when late starts are a sizeable share of the tail (client-pacing)"),
    *(c for op in OPERATIONS for c in _latency(op_key(op), op)),
)
RUN_COLUMN_NAMES = tuple(c.name for c in RUN_COLUMNS)


def runs_arrow_schema() -> Any:
    """runs.parquet's :data:`RUN_COLUMNS` as a pyarrow schema."""
    import pyarrow as pa

    types_ = {"string": pa.string(), "int64": pa.int64(), "float64": pa.float64(), "bool": pa.bool_()}
    return pa.schema([pa.field(c.name, types_[c.dtype]) for c in RUN_COLUMNS])


def conform_runs(df: pd.DataFrame, strict: bool = True) -> pd.DataFrame:
    """``df`` with exactly :data:`RUN_COLUMNS`, in order, each of its declared type (missing columns
    come in empty). ``strict`` (writing) refuses a column that is not declared; reading an older
    folder keeps such columns after the declared ones."""
    if list(df.columns) == list(RUN_COLUMN_NAMES) and all(_conformed(df[c.name], c) for c in RUN_COLUMNS):
        return df.reset_index(drop=True)  # conformed already (a folder's finalize meets it three times): as it is
    extra = [c for c in df.columns if c not in RUN_COLUMN_NAMES]
    if strict and extra:
        raise SchemaError(f"runs table: undeclared column(s) {', '.join(map(str, extra))} (declare them in "
                          "ycsbctl/results/run_columns.py RUN_COLUMNS)")
    columns = {c.name: _as_dtype(df[c.name] if c.name in df else pd.Series([None] * len(df), index=df.index,
                                                                          dtype=object), c)
               for c in RUN_COLUMNS}
    columns.update({name: df[name] for name in extra})
    return pd.DataFrame(columns, index=df.index).reset_index(drop=True)


def _conformed(s: pd.Series, c: Column) -> bool:
    """Whether ``s`` is already what :func:`_as_dtype` makes of it: str or None (``string``), True, False or None
    (``bool``), whole numbers (``int64``; float where a null is), floats."""
    if c.dtype == "string":
        return s.dtype == object and all(v is None or type(v) is str for v in s)
    if c.dtype == "bool":
        return s.dtype == object and all(v is None or type(v) is bool for v in s)
    if c.dtype == "int64":
        if s.dtype == "int64":
            return True
        known = s.dropna()
        return s.dtype == "float64" and len(known) < len(s) and bool((known == known.round()).all())
    return s.dtype == "float64"


def _as_dtype(s: pd.Series, c: Column) -> pd.Series:
    if c.dtype == "string":
        return pd.Series([None if v is None or (isinstance(v, float) and math.isnan(v)) else str(v) for v in s],
                         index=s.index, dtype=object)
    if c.dtype == "bool":
        return pd.Series([None if v is None or (isinstance(v, float) and math.isnan(v)) else bool(v) for v in s],
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
    """:data:`RUN_COLUMNS` as a Markdown table, one row per latency family (the copy in
    docs/guide/result-folder.md is checked against it)."""
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

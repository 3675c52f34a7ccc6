"""The declared shape of a result folder's documents: the manifest, the telemetry summary of a point and
the ``--format json`` summary, read and written through :mod:`ycsbctl.results.documents`
(the validation every reader goes through).

Every writer builds these types and every reader (report, compare, console,
:func:`ycsbctl.results.load`) reads through them. :data:`SCHEMA_VERSION` is written into each
manifest; a folder without one was written before the schema was declared (version 0) and is
read as it is: its plan, its run JSONs (an ``extra`` dict in each result) and its runs.parquet
(columns it lacks are added empty).

The columns of runs.parquet are declared beside these, in :mod:`ycsbctl.results.run_columns`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from ycsbctl.results.documents import SchemaError, from_doc, to_doc
from ycsbctl.results.names import FolderStatus

SCHEMA_VERSION = 1


# -- the manifest ---------------------------------------------------------------------------------------
@dataclass
class SkippedTarget:
    """A target that could not be measured: why, and what the user can do about it."""

    target: str
    reason: str
    fix: str = ""


@dataclass
class CannotCell:
    """A target × workload cell its store cannot do (a workload plug-in's refusal: media-items' FULLTEXT on
    Redis), refused before anything started: shown as "cannot" with the reason, never as zero."""

    target: str
    workload: str  # as run ids name it (media-items-text)
    reason: str


@dataclass
class Substitution:
    """A target measured in place of a wanted one (the default plan's MongoDB stand-in)."""

    wanted: str
    used: str
    note: str


@dataclass
class Manifest:
    """``manifest.json``: what was planned, on what, with which versions, and how it ended.

    ``plan`` is :meth:`ycsbctl.experiment.plan.Plan.to_dict` (passwords redacted; ``--resume`` rebuilds the plan
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
    # a sweep axis's variants (online-status-hash …) each load their own dataset: workload -> label -> footprint
    workload_footprints: dict[str, dict[str, dict[str, Any]]] = field(default_factory=dict)
    # workload (run ids' name) -> {"unit": "users", "per_op": {op: records one OK operation stores}}, for
    # the workloads whose operations do not each store one record (ycsbctl.workload.plugin.Workload)
    record_units: dict[str, dict[str, Any]] = field(default_factory=dict)
    network: dict[str, dict[str, Any]] = field(default_factory=dict)
    skipped_targets: list[SkippedTarget] = field(default_factory=list)
    cannot: list[CannotCell] = field(default_factory=list)  # cells a target's store cannot do
    substitutions: list[Substitution] = field(default_factory=list)
    imported_logs: list[dict[str, Any]] = field(default_factory=list)  # import-ycsb: one entry per log
    # --slo: one search per target × workload × threads, each tried rate in order (ycsbctl.experiment.rate_search)
    slo_searches: list[dict[str, Any]] = field(default_factory=list)
    # --cpu-profile: run id -> what its profile holds (ycsbctl.experiment.profiled): files under profiles/<run id>/
    profiles: dict[str, dict[str, Any]] = field(default_factory=dict)
    # the host yardstick's readings, one per round (yardstick.parquet), summed up (ycsbctl.results.yardstick.summary)
    yardstick: dict[str, Any] = field(default_factory=dict)
    # the reference server measured in every alternated session (ycsbctl.experiment.reference): on, why not,
    # its server, version and settings, the CPUs this run could use ({} in a folder of an older version)
    reference: dict[str, Any] = field(default_factory=dict)
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
        check_plan(d.get("plan") or {})
        return from_doc(cls, d, "manifest")


_NUMBER, _WHOLE, _TEXT, _FLAG = "a number", "a whole number", "text", "true or false"
_LIST, _MAP = "a list", "an object"
# The plan's keys that readers (report, compare, verdicts) compute with, and the JSON each must hold (None allowed
# where the key is optional): an edited or hostile manifest (``"alpha": "x"``) is refused where it is read
# (SchemaError: the folder's manifest named as damaged and left out), not met as a traceback by whichever reader
# reaches the key first.
PLAN_FIELDS: dict[str, tuple[str, bool]] = {
    "alpha": (_NUMBER, False), "margin": (_NUMBER, True), "precision": (_NUMBER, True), "budget_s": (_NUMBER, True),
    "repeat": (_WHOLE, False), "max_repeat": (_WHOLE, False), "planned_rounds": (_WHOLE, True),
    "round_s": (_NUMBER, True), "sequential": (_FLAG, False), "spending": (_TEXT, True), "run_order": (_TEXT, True),
    "baseline_target": (_TEXT, True), "targets": (_LIST, False), "workloads": (_LIST, False),
    "properties": (_LIST, False), "threads": (_LIST, False), "record_count": (_WHOLE, True),
    "records": (_WHOLE, True), "operations": (_WHOLE, True), "point_operations": (_WHOLE, True),
    "duration_s": (_NUMBER, True), "point_duration_s": (_NUMBER, True), "warmup_s": (_NUMBER, True),
    "placement_resolved": (_MAP, True), "disturb": (_LIST, True),
}


# What each item of a list key must be: an item of another type (``"properties": [5]``) broke ``rerun`` and
# ``--resume`` with a traceback; a thread count below 1 ran no client at all.
PLAN_ITEMS: dict[str, str] = {"targets": _TEXT, "workloads": _TEXT, "properties": _TEXT, "threads": _WHOLE}


def _is(value: Any, kind: str) -> bool:
    if kind == _NUMBER:
        return isinstance(value, int | float) and not isinstance(value, bool)
    if kind == _WHOLE:
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, {_TEXT: str, _FLAG: bool, _LIST: list, _MAP: dict}[kind])


def check_plan(plan: Any) -> None:
    """:class:`SchemaError` naming the first key of :data:`PLAN_FIELDS` whose value is not the JSON it must be
    (``manifest.plan.alpha: 'x' is not a number``), or an alpha outside (0, 1); nothing for a plan that holds
    them right (or leaves them out)."""
    if not isinstance(plan, dict):
        raise SchemaError("manifest.plan: not a JSON object")
    for key, (kind, optional) in PLAN_FIELDS.items():
        value = plan.get(key)
        if key in plan and not (value is None and optional) and not _is(value, kind):
            raise SchemaError(f"manifest.plan.{key}: {str(value)[:40]!r} is not {kind}")
    for key, kind in PLAN_ITEMS.items():
        bad = [v for v in plan.get(key) or [] if not _is(v, kind) or (key == "threads" and v < 1)]
        if bad:
            raise SchemaError(f"manifest.plan.{key}: an item {str(bad[0])[:40]!r} is not "
                              f"{'a thread count (a whole number, at least 1)' if key == 'threads' else kind}")
    alpha = plan.get("alpha")
    if alpha is not None and not 0 < alpha < 1:
        raise SchemaError(f"manifest.plan.alpha: {alpha!r} is no significance level (between 0 and 1)")


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
    why: str | None = None  # why it measured what it did, from its evidence (ycsbctl.telemetry.why)
    # where the time went: the server's and client's threads, per-operation costs, the host (ycsbctl.telemetry.evidence)
    evidence: dict[str, Any] | None = None
    error: str | None = None
    events: list[dict[str, Any]] = field(default_factory=list)  # --disturb: its rows of events.parquet


@dataclass
class RunSummary:
    """``ycsbctl run|load --format json``: the experiment, its folder (None when no folder was kept)
    and the points this command measured (a ``--resume`` lists the points it ran)."""

    experiment_id: str
    folder: str | None
    exit_code: int
    points: list[PointSummary] = field(default_factory=list)
    skipped_targets: list[SkippedTarget] = field(default_factory=list)
    # each target against the baseline, cell × metric (ycsbctl.results.verdicts.VERDICT_COLUMNS)
    verdicts: list[dict] = field(default_factory=list)
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
    # where the time went (ycsbctl.telemetry.evidence): per-thread sums, per-operation costs, the host
    server_user_pct: float | None = None
    server_system_pct: float | None = None
    server_runq_pct: float | None = None
    server_vcsw_per_s: float | None = None
    server_ivcsw_per_s: float | None = None
    server_kernel_share: float | None = None
    # a server under a CPU quota (its cgroup's cpu.stat over the measured window): % of the quota's periods in
    # which the kernel held it back, and the seconds it was held back
    server_throttled_pct: float | None = None
    server_throttled_s: float | None = None
    server_cpu_us_per_op: float | None = None
    client_user_pct: float | None = None
    client_system_pct: float | None = None
    client_runq_pct: float | None = None
    client_ivcsw_per_s: float | None = None
    wire_bytes_per_op: float | None = None
    wire_packets_per_op: float | None = None
    host_user_pct: float | None = None
    host_system_pct: float | None = None
    host_iowait_pct: float | None = None
    host_steal_pct: float | None = None
    host_foreign_pct: float | None = None
    host_foreign_top: str | None = None
    # persistence (Redis INFO): forks (RDB snapshots, AOF rewrites) in the measured window and the
    # longest pause one caused (µs); writes that waited for an fsync (appendfsync everysec)
    server_forks: float | None = None
    server_fork_pause_us_max: float | None = None
    aof_delayed_fsyncs: float | None = None
    # a target of several shards (Redis Cluster): how many, and the busiest one's share of the commands
    shards: float | None = None
    shard_ops_share_max: float | None = None
    # a primary with replicas: the slowest replica's distance behind it (bytes of the replication stream;
    # PostgreSQL: of WAL sent and not replayed), and (PostgreSQL) its replay lag in ms
    repl_lag_bytes_max: float | None = None
    repl_lag_ms_max: float | None = None

    def to_dict(self) -> dict[str, Any]:
        return to_doc(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any] | None) -> TelemetrySummary:
        """NaN reads as None (not sampled)."""
        clean = {k: (None if isinstance(v, float) and math.isnan(v) else v) for k, v in (d or {}).items()}
        return from_doc(cls, clean, "telemetry_summary")

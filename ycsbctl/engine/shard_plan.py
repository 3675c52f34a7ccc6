"""How one phase is split over engine shards on several client hosts, and what shards tell the controller.

A shard is what one separate YCSB client instance would be: some of the client threads, their
share of the operation quota and of the target rate, and in the load phase its own contiguous key
range given as YCSB's ``insertstart``/``insertcount`` — the way YCSB's documentation loads with
several client machines. The split is YCSB's own per-thread split (:func:`split_count`) grouped by
shard, so the union of the shards is the workload one client with all the threads would run.

Run-phase inserts (workloads D and E) need *one* insert counter: YCSB's "latest" counts back from
the highest key every one of whose predecessors is acknowledged, and separate YCSB clients would each
count from ``recordcount`` and insert the same keys. ycsbctl keeps one counter per host (shared by
that host's processes) but none across hosts, so a run phase that inserts runs on one shard only
(:func:`plan_shards` refuses more): read-latest then means exactly what it means locally.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from ycsbctl.engine.spec import PhaseSpec
from ycsbctl.errors import UserError
from ycsbctl.workload.core import INSERT, CoreWorkload, split_count
from ycsbctl.workload.plugin import CORE_PLUGIN, class_path
from ycsbctl.workload.properties import Properties

SHARD_MESSAGE_VERSION = 1


@dataclass
class ShardPlan:
    """One shard's phase: ``spec`` is a complete local phase (its threads, operationcount, target
    rate and, in the load phase, insertstart/insertcount)."""

    index: int
    spec: PhaseSpec


def plan_shards(spec: PhaseSpec, shards: int) -> list[ShardPlan]:
    """Split ``spec`` over at most ``shards`` shards (never more shards than threads)."""
    given = Properties(spec.properties)
    if class_path(given) != CORE_PLUGIN:
        raise UserError(f"workload={class_path(given)} runs on the local engine only (its load splits in its own "
                        "units): drop --cluster")
    w = CoreWorkload.from_properties(given)
    n = max(1, min(shards, spec.threads))
    inserts = dict(w.proportions).get(INSERT, 0.0) > 0
    if n > 1 and spec.phase == "run" and inserts:
        raise UserError(
            "this workload inserts in its run phase, and YCSB's read-latest needs one insert counter: "
            "run it with one Dask worker (or without --cluster), or set insertproportion=0"
        )
    per_shard = split_count(spec.threads, n)
    total = w.load_operations if spec.phase == "load" else (w.operationcount or 0)
    per_thread = split_count(total, spec.threads) if total else [0] * spec.threads
    plans, t, key = [], 0, w.insertstart
    for i, threads in enumerate(per_shard):
        ops = sum(per_thread[t : t + threads])
        props = dict(spec.properties)
        if spec.phase == "load":
            props.update(insertstart=str(key), insertcount=str(ops))
            key += ops
        elif total:
            props["operationcount"] = str(ops)
        rate = spec.target_rate * threads / spec.threads if spec.target_rate else None
        seed = None if spec.seed is None else spec.seed * 1009 + i  # shards draw different streams
        # its own properties: the workload built from the whole spec's is not this shard's
        part = replace(spec, properties=props, threads=threads, target_rate=rate, seed=seed, built_workload=None)
        plans.append(ShardPlan(i, part))
        t += threads
    return plans


# -- what a shard says besides the engine's own messages (which it forwards) ----------------------


@dataclass
class ShardReady:
    """Every client of the shard is connected; it waits for the start time. ``processes`` engine
    worker processes on host ``host`` (``cores`` usable cores)."""

    shard: int
    host: str
    cores: int
    processes: int
    ycsbctl_version: str
    version: int = SHARD_MESSAGE_VERSION


@dataclass
class ShardStarted:
    """How late the shard started after the start time the controller chose (s, by the shard host's
    own clocks): how late the time reached it (0 when before it, as it should) plus how late a
    thread sleeping until it woke (as the shard's workers do)."""

    shard: int
    late_s: float
    version: int = SHARD_MESSAGE_VERSION


@dataclass
class ShardEnded:
    """The shard's engine has returned (every process sent Done or Failed); ``error`` when the
    shard itself failed (it could not start, or crashed)."""

    shard: int
    error: str | None = None
    version: int = SHARD_MESSAGE_VERSION


@dataclass
class ShardInfo:
    """What the controller knows of one shard while a point runs (per-host telemetry comes from it)."""

    index: int
    worker: str  # the Dask worker's address
    name: str  # a short host label for people ("c1")
    threads: int
    host: str = ""
    cores: int = 0
    processes: int = 0
    first_worker: int = 0  # its processes are numbered after the earlier shards' (one merge)
    clock_offset_s: float = 0.0  # the worker's wall clock minus the controller's (± clock_rtt_s / 2)
    clock_rtt_s: float = 0.0
    late_s: float | None = None
    cpu_s: dict[int, float] = field(default_factory=dict)  # CPU seconds per second of the phase
    lost: str | None = None  # why the shard stopped before its end
    ended: bool = False

"""The names every part of ycsbctl shares, defined once (no heavy imports: engine workers use it).

The enums are :class:`~enum.StrEnum`: a member *is* its string (``RunStatus.OK == "ok"``), so JSON,
parquet and older result folders hold the plain words.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum


class Operation(StrEnum):
    """YCSB's operation names, in the order of the workload's op codes and of the reports."""

    READ = "READ"
    UPDATE = "UPDATE"
    INSERT = "INSERT"
    SCAN = "SCAN"
    READ_MODIFY_WRITE = "READ-MODIFY-WRITE"
    DELETE = "DELETE"


class RunStatus(StrEnum):
    """A point's status in the result folder. The engine's own result is ``ok``, ``failed`` or
    ``interrupted``; judging adds ``degraded`` (measured, but not a healthy server's numbers) and a
    target that could not run has ``skipped`` points."""

    OK = "ok"
    DEGRADED = "degraded"
    FAILED = "failed"
    INTERRUPTED = "interrupted"
    SKIPPED = "skipped"


# Bottleneck labels (ycsbctl.telemetry.bottleneck.LABELS), the ones that most say "this number is not
# the server's own" first: when a point's repetitions disagree and tie, the point shows the first.
BOTTLENECK_SEVERITY = ("stall", "client-stall", "host-busy", "client-cpu", "host-cpu", "network", "server-cpu",
                       "latency")
# The labels that say what happened to a point (a fault), not what limited a rate it measured: the only ones a
# failed point keeps (its reason says the same); the others, and every why line, explain a measured point.
FAULT_LABELS = BOTTLENECK_SEVERITY[:3]
# Sources of telemetry.parquet's server rows, in order of preference: the server process or its
# container first, then what the database reports about itself (the stores' samplers).
SERVER_SOURCES = ("server-process", "server-container")
DB_SOURCES = ("redis-info", "mongo-status", "memcached-stats")
# A side (client, server, host, a client host) is CPU-saturated at this share of the cores it may use.
CPU_SATURATED = 0.90


class FolderStatus(StrEnum):
    """A result folder's status: ``running`` while written, then how the plan ended."""

    RUNNING = "running"
    COMPLETE = "complete"  # every planned point measured (ok or degraded), no target skipped
    PARTIAL = "partial"  # finished, but a point failed, a target was skipped or the sweep stopped early
    INTERRUPTED = "interrupted"  # Ctrl-C, SIGTERM or a full disk: the finished points are kept


# Plain strings indexed by the workload's op codes (the engine's hot path indexes this tuple).
OPERATIONS: tuple[str, ...] = tuple(o.value for o in Operation)
# YCSB's Return= values, indexed by ycsbctl.stores.binding.Status.
STATUSES = ("OK", "NOT_FOUND", "ERROR", "TIMEOUT", "UNEXPECTED_STATE")
VERIFY_NAME = "VERIFY"  # dataintegrity=true: YCSB's check of each read (a measurement, not an operation)
CLIENT_LAG = "CLIENT-LAG"  # the engine's event-loop lag (µs): its own measurement, never an operation
# Paced runs: how much later the client started each operation (µs) than an instantaneous client would
# have: at its due time, or when its thread's previous operation would have ended if that is later.
SCHEDULE_LAG = "SCHEDULE-LAG"
OWN_MEASURES = (CLIENT_LAG, SCHEDULE_LAG)  # the engine's measures of itself, never operations
_NOT_BASE = (Operation.READ_MODIFY_WRITE.value, VERIFY_NAME, *OWN_MEASURES, "OVERALL")


ALL_OPS = "ALL"  # merged histogram of every base operation except READ-MODIFY-WRITE (counted in READ+UPDATE)


def main_operation(counts: Mapping[str, float]) -> str | None:
    """The operation whose latency a point's one-line summary names, on the console and in the report
    alike: the one that dominates the mix — the base operation (:func:`is_base_operation`) with the most
    operations (workload E: SCAN, not its 5 % of INSERTs; online-status: its BATCH-STORE or READ-STATUS),
    the first in ``counts``' order on a tie; None without any operation."""
    best, most = None, 0.0
    for name, n in counts.items():
        if is_base_operation(name) and n > most:
            best, most = name, n
    return best


def is_base_operation(name: str) -> bool:
    """Whether measurement ``name`` is an operation of its own that merges into "every operation": a
    YCSB operation (READ … DELETE) or a workload plug-in's (STORE …), OK ones only — not a
    read-modify-write (its halves are counted as READ and UPDATE), VERIFY, the engine's own measures,
    ``-FAILED`` or ``Intended-`` series."""
    return name not in _NOT_BASE and not name.endswith("-FAILED") and not name.startswith("Intended-")

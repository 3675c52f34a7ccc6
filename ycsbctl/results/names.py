"""The measurement names every part of ycsbctl shares (one place; no heavy imports, workers use it)."""

from __future__ import annotations

# YCSB's operation names, indexed by the workload's op codes, in the order reports list them.
OPERATIONS = ("READ", "UPDATE", "INSERT", "SCAN", "READ-MODIFY-WRITE", "DELETE")
# YCSB's Return= values, indexed by ycsbctl.bindings.base.Status.
STATUSES = ("OK", "NOT_FOUND", "ERROR", "TIMEOUT", "UNEXPECTED_STATE")
VERIFY_NAME = "VERIFY"  # dataintegrity=true: YCSB's check of each read (a measurement, not an operation)
CLIENT_LAG = "CLIENT-LAG"  # the engine's event-loop lag (µs): its own measurement, never an operation
# Paced runs: how much later the client started each operation (µs) than an instantaneous client would
# have: at its due time, or when its thread's previous operation would have ended if that is later.
SCHEDULE_LAG = "SCHEDULE-LAG"
OWN_MEASURES = (CLIENT_LAG, SCHEDULE_LAG)  # the engine's measures of itself, never operations

"""events.parquet: one row per disturbance event × run (see :mod:`ycsbctl.results.disturbance`).

Times: ``at_s`` as planned and ``started_s`` as it ran, in s into the measured window; ``t_s`` in s
since the operations began (the clock of series_100ms.parquet); ``command_s`` the command's duration
timed from its own connection (for ``expire``: from the instant the key expired until the server said
it was gone); ``server_s`` the command's duration as the server logged it (Redis SLOWLOG; empty when
not logged); ``stall_s`` in whole 100 ms intervals, ``stall_est_s`` with the deficit of the
intervals at its edges (see :mod:`ycsbctl.results.disturbance`); ``build_s`` how long building the
big key took (before the point). Rates in ops/s, latencies in µs, ``ops_lost`` in operations.
"""

from __future__ import annotations

EVENT_COLUMNS = (
    "event", "action", "type", "size", "occurrence", "command", "at_s", "started_s", "t_s", "command_s", "server_s",
    "build_s", "pre_ops_per_s", "stall_s", "stall_start_s", "stall_est_s", "during_s", "ops_lost", "max_latency_us", "p99_before_us",
    "p99_during_us", "p99_after_us", "client_lag_max_us", "note", "error",
)

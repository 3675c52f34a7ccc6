"""events.parquet: one row per disturbance event × run (see :mod:`ycsbctl.results.disturbance`).

Times: ``at_s`` as planned and ``started_s`` as it ran, in s into the measured window; ``t_s`` in s
since the operations began (the clock of series_100ms.parquet); ``command_s`` the command's duration
timed from its own connection (for ``expire``: from the instant the key expired until the server said
it was gone); ``server_s`` the command's duration as the server logged it (Redis SLOWLOG; empty when
not logged); ``stall_s`` in whole 100 ms intervals, ``stall_est_s`` with the deficit of the
intervals at its edges; ``during_s`` the affected window (to ``affected_end_s``, s since the operations began): from
the event until the 100 ms series is back within the band of the window before it (at or above
``band_low_ops_per_s`` for a few intervals in a row) and the store's own background work for it is done;
``window_open`` true when the point ended first (``ops_lost`` is then a lower bound); ``ops_lost`` the operations short
of the reference rate over that window; ``slow_s`` its 100 ms intervals below half the reference rate and
``slow_run_s`` the longest run of them (see :mod:`ycsbctl.results.disturbance`); ``build_s`` how long building
the big key took (before the point).
``evidence`` what the server's own records say of the event (SLOWLOG, latency monitor, INFO counters),
``evidence_s`` the longest they say it held the server, ``background_s`` how long it went on freeing the key
in the background after the command returned (lazyfree: until INFO ``lazyfree_pending_objects`` was seen back at 0)
and ``background_end_s`` when that was seen (s since the operations began; both empty when nothing was left to the
background, ``background_s`` empty with ``window_open`` when it was still pending when the disturber stopped
asking). Events whose affected windows meet are measured once (:mod:`ycsbctl.results.overlap`): ``overlaps``
names the others, ``charged_to`` the event charged with their stall, slowdown and loss (its own name when alone;
names joined by ``+`` when charged jointly, on the first one's row); the others are charged zero. Rates in ops/s,
latencies in µs, ``ops_lost`` in operations.
"""

from __future__ import annotations

EVENT_COLUMNS = (
    "event", "action", "type", "size", "occurrence", "command", "at_s", "started_s", "t_s", "command_s", "server_s",
    "build_s", "pre_ops_per_s", "band_low_ops_per_s", "stall_s", "stall_start_s", "stall_est_s", "slow_s",
    "slow_run_s", "during_s", "affected_end_s", "window_open", "ops_lost",
    "max_latency_us", "p99_before_us", "p99_during_us", "p99_after_us", "client_lag_max_us", "evidence", "evidence_s",
    "background_s", "background_end_s", "overlaps", "charged_to", "note", "error",
)

SLOW_WORDS = "below 50 %"  # :data:`ycsbctl.results.disturbance.SLOW_FRACTION`, in words


def event_label(event: str, occurrence: int) -> str:
    """An event's name in ``charged_to`` and ``overlaps``: ``expire:hash:1M@2s``, ``hgetall:hash:1k@1s/1s #2``."""
    return event + (f" #{occurrence}" if occurrence > 1 else "")


def seconds_text(s: float) -> str:
    """A stall or slowdown for prose: ``none``, ``300 ms``, ``2.2 s``."""
    if not s > 0:
        return "none"
    return f"{s * 1000:.0f} ms" if s < 1 else f"{s:.1f} s"


def is_open(v: object) -> bool:
    """A row's ``window_open`` read as a flag (an older folder's missing value, None or NaN: not said open)."""
    return v is not None and v == v and bool(v)


def _known(v: float | None) -> bool:
    return v is not None and v == v


def cost_text(stall_s: float, slow_s: float | None, ops_lost: float, extra: str = "", slow_run_s: float | None = None,
              during_s: float | None = None, window_open: bool = False) -> str:
    """What an event cost, for prose: ``stalled 1.6 s; slowed: below 50 % for 1.8 s, 22,640 ops lost over 2.1 s``,
    ``no stall; slowed: below 50 % for 3.2 s (2.9 s in a row), at least 61,000 ops lost over 3.5 s (not back when the
    point ended)``, ``no stall, not slowed (44 ops lost over 300 ms)``. ``slow_run_s`` (the longest run below half) is
    said when shorter than ``slow_s``; ``during_s`` the affected window the loss is counted over; ``window_open``: the
    point ended first, the loss is a lower bound. A folder of an older version (no ``slow_s``: None or NaN) gets
    ``stalled 1.6 s (22,640 ops lost)``. ``extra`` (``median of 3 runs``) goes in the parentheses, or into new
    ones."""
    stall = f"stalled {seconds_text(stall_s)}" if stall_s > 0 else "no stall"
    lost = "" if ops_lost != ops_lost else ("at least " if window_open else "") + f"{ops_lost:,.0f} ops lost"
    if lost and _known(during_s):
        lost += f" over {seconds_text(during_s or 0.0)}" + (" (not back when the point ended)" if window_open else "")
    if _known(slow_s) and (slow_s or 0.0) > 0:
        run = f" ({seconds_text(slow_run_s or 0.0)} in a row)" if _known(slow_run_s) and 0 < (
            slow_run_s or 0.0) < (slow_s or 0.0) else ""
        said = f"{stall}; slowed: {SLOW_WORDS} for {seconds_text(slow_s or 0.0)}{run}" + (f", {lost}" if lost else "")
        return said + (f" ({extra})" if extra else "")
    said = stall if not _known(slow_s) or stall_s > 0 else f"{stall}, not slowed"
    inside = ", ".join(x for x in (lost, extra) if x)
    return said + (f" ({inside})" if inside else "")


def charge_role(label: str, overlaps: object, charged_to: object) -> str:
    """How an event's row is charged (see the module): ``alone``; ``charged`` (the group's cost, the server's
    evidence blaming it); ``joint`` (the group's cost, jointly, on its row); ``shared`` (a member of a jointly
    charged group whose cost is on the first one's row); ``elsewhere`` (the cost went to ``charged_to``)."""
    if not isinstance(overlaps, str) or not overlaps or not isinstance(charged_to, str) or not charged_to:
        return "alone"
    if charged_to == label:
        return "charged"
    if "+" in charged_to and label in charged_to.split("+"):
        return "joint" if charged_to.split("+")[0] == label else "shared"
    return "elsewhere"

"""The host yardstick at the start of every round of a sweep (:mod:`ycsbctl.results.yardstick`): one
reading per round of the ``interleaved`` and ``blocks`` orders, one per target block of the ``target``
order, each kept in the result sink as it is taken.

``--no-yardstick`` (or ``YCSBCTL_YARDSTICK=off``) takes none. Only a sink that outlives the process (a result
folder) gets readings: a single point printed and not kept
has no folder to compare with. A yardstick that cannot run (its processes cannot start, or it times out) is
said once and not tried again; the sweep goes on.
"""

from __future__ import annotations

from ycsbctl.experiment.live_console import Console
from ycsbctl.experiment.result_sink import ResultSink
from ycsbctl.results.folder import now_iso
from ycsbctl.results.yardstick import Reading
from ycsbctl.telemetry.yardstick import measure


class RoundYardstick:
    """Times the yardstick when a round begins and keeps the reading in ``sink``."""

    def __init__(self, sink: ResultSink, console: Console, on: bool = True) -> None:
        self.sink = sink
        self.on = on  # False: --no-yardstick (or YCSBCTL_YARDSTICK=off), no reading is taken
        self.console = console
        self.readings = 0  # taken by this sweep
        self.broken = False  # it failed once: not tried again

    def round_starts(self, round_no: int, phase: str, target: str = "") -> Reading | None:
        """One reading for round ``round_no`` of ``phase`` (``target``: the target of a target block, empty
        for a round over every target); None when the sink keeps none or the yardstick could not run."""
        if not self.sink.durable or self.broken or not self.on:
            return None
        started = now_iso()
        self.console.waiting("timing the host (the yardstick of this round)…")
        try:
            reading = measure()
        except (OSError, ValueError, KeyError) as exc:  # TimeoutError is an OSError; a garbled line a ValueError
            self.broken = True
            self.console.note(f"host yardstick: could not time the host ({type(exc).__name__}: {exc}); this folder "
                              "has no yardstick, so compare divides no host speed out of it")
            return None
        self.sink.add_yardstick(reading.row(round_no, phase, target, started))
        if not self.readings:
            self.console.note(f"host yardstick: {reading.cpu_ops_per_s:,.0f} CPU byte steps/s over {reading.cpus} "
                              "CPU(s), "
                              f"loopback round trip {reading.rtt_us:,.0f} µs (speed {reading.speed:,.0f}); "
                              f"{reading.seconds:.2f} s, timed at the start of every round")
        self.readings += 1
        return reading

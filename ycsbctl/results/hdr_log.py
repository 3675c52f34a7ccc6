"""Per-interval HDR histogram logs: the HdrHistogram log format (``HistogramLogWriter``: format 1.2,
V2-encoded compressed histograms) that YCSB's ``hdrhistogram.fileoutput=true`` writes and
``HistogramLogProcessor`` and every HdrHistogram reader read.

One log per point and measurement (``READ``, ``READ-FAILED``, ``Intended-READ`` …), one interval
histogram per measured second (a second without such operations is an empty interval), values in µs
(the ``Interval_Max`` column too). The warm-up seconds are left out, so the intervals of a log add up
to the point's whole histogram. Timestamps are seconds since the operations began, which the
``#[StartTime]``/``#[BaseTime]`` lines give as seconds since the epoch.

HdrHistogram for Java reads these logs from version 2.1.5 on; YCSB 0.17 bundles 2.1.4, which predates
the V2 encoding and cannot decode them (nor any histogram written by a current HdrHistogram).
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

import numpy as np
from hdrh.histogram import HdrHistogram
from hdrh.log import HistogramLogWriter

from ycsbctl.results import histogram as hdr


@dataclass
class IntervalHistograms:
    """One phase's measured seconds: each measurement's histogram (µs, compressed) per second.

    ``start_epoch_s``: wall-clock time (s since the epoch) of second 0, when the operations began;
    ``seconds``: the measured seconds (after the warm-up), in order; ``end_s``: when the phase ended,
    in seconds since second 0 (the last interval may be shorter than a second)."""

    start_epoch_s: float
    seconds: list[int] = field(default_factory=list)
    end_s: float = 0.0
    encoded: dict[str, dict[int, str]] = field(default_factory=dict)  # name -> second -> base64 HDR

    @classmethod
    def from_counts(cls, seconds: Mapping[int, Mapping[str, np.ndarray]], warmup_seconds: int, start_epoch_s: float,
                    end_s: float) -> IntervalHistograms:
        """From the engine's dense HDR counts per second and measurement name."""
        measured = sorted(k for k in seconds if k >= warmup_seconds)
        out = cls(start_epoch_s=start_epoch_s, seconds=measured, end_s=max(end_s,
                                                                           float(measured[-1]) if measured else 0))
        for k in measured:
            for name, counts in seconds[k].items():
                if counts.any():
                    out.encoded.setdefault(name, {})[k] = hdr.encode(hdr.from_counts(counts))
        return out

    def names(self) -> list[str]:
        return sorted(self.encoded)

    def histogram(self, name: str, second: int) -> HdrHistogram:
        """The interval histogram of ``name`` in ``second`` (empty when none ran), time-stamped (ms since the epoch)."""
        text = self.encoded.get(name, {}).get(second)
        h = hdr.decode(text) if text else hdr.new_histogram()
        h.set_start_time_stamp(int(round((self.start_epoch_s + second) * 1000)))
        h.set_end_time_stamp(int(round((self.start_epoch_s + min(second + 1.0, max(self.end_s, second))) * 1000)))
        return h


def write_log(out: TextIO, name: str, intervals: IntervalHistograms) -> None:
    """The HdrHistogram log of measurement ``name``: header, legend, one interval per measured second."""
    writer = HistogramLogWriter(out)
    writer.output_log_format_version()
    start_ms = int(round(intervals.start_epoch_s * 1000))
    # hdrh's output_start_time() cannot format its date (it calls a missing method): the same line, written here
    when = time.strftime("%a %b %d %H:%M:%S %Z %Y", time.localtime(start_ms / 1000))
    writer.output_comment(f"[StartTime: {start_ms / 1000:.3f} (seconds since epoch), {when}]")
    writer.output_base_time(start_ms)
    writer.base_time = start_ms  # interval timestamps: seconds since the operations began
    writer.output_comment(f"[ycsbctl: {name} latency in µs, one interval per measured second]")
    writer.output_legend()
    for k in intervals.seconds:
        writer.output_interval_histogram(intervals.histogram(name, k), max_value_unit_ratio=1.0)


def write_log_file(path: Path, name: str, intervals: IntervalHistograms) -> None:
    """:func:`write_log` into ``path``, whole or not at all (a temporary name, fsynced, renamed)."""
    import os

    tmp = path.with_name(path.name + ".tmp")
    try:
        with open(tmp, "w", encoding="utf-8") as f:
            write_log(f, name, intervals)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except OSError:
        tmp.unlink(missing_ok=True)
        raise


def write_ycsb_logs(intervals: IntervalHistograms, output_path: str = "", tag: str | None = None) -> list[Path]:
    """What YCSB's ``hdrhistogram.fileoutput=true`` writes: ``<hdrhistogram.output.path><NAME>.hdr`` per
    measurement (the path is a prefix, as in YCSB: ``/tmp/ycsb-`` gives ``/tmp/ycsb-READ.hdr``). ``tag``
    (a run id) goes before the name when one command measures several points, so none overwrites another."""
    written = []
    for name in intervals.names():
        path = Path(output_path + (f"{tag}." if tag else "") + f"{name}.hdr").expanduser()
        write_log_file(path, name, intervals)
        written.append(path)
    return written

"""The host yardstick: a small fixed workload timed once per round (:mod:`ycsbctl.telemetry.yardstick`
measures it), kept in ``yardstick.parquet`` with a summary in the manifest, so that ``compare`` across
folders can divide the host's own change of speed out of every cell.

A reading has two parts, the same in every experiment: a CPU part (pure-Python FNV-1a over a fixed
buffer, one process per CPU: byte steps per second, summed) and a loopback part (a fixed count of round
trips of a 32-byte message over a few connections, one outstanding on each, to a single-loop echo server on
another CPU: the mean round trip, µs, so that the stalls a busy host causes count). The loopback part is a
closed loop kept busy, as a benchmarked server is: a lone idle ping-pong reads *faster* on a busy virtual
machine (its CPUs stop sleeping between messages) while a busy server's throughput falls, and the busy
loop falls with it (``python -m bench yardstick``). Its ``speed`` is the geometric mean of the two rates —
CPU byte steps/s and round trips/s per connection — so each part moves it by the square root of its own
change; only ratios of speeds mean anything (no figure is a reference).

The host factor between two folders is the other folder's median speed over the base folder's: a
throughput of the other folder divided by it, and a latency multiplied by it, is what it would have
measured at the base folder's host speed.
"""

from __future__ import annotations

import math
import os
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import pandas as pd

FILE = "yardstick.parquet"
COLUMNS = ["round", "phase", "target", "started_at", "cpu_ops_per_s", "cpu_share", "rtt_us", "rtt_median_us",
           "speed", "seconds", "cpus"]
NUMBERS = ["round", "cpu_ops_per_s", "cpu_share", "rtt_us", "rtt_median_us", "speed", "seconds", "cpus"]


def speed_of(cpu_ops_per_s: float, rtt_us: float) -> float:
    """The geometric mean of the CPU rate (byte steps/s) and the round-trip rate (1e6 / ``rtt_us`` per s):
    higher is faster; NaN when either is not positive."""
    if not (cpu_ops_per_s > 0 and rtt_us > 0):
        return math.nan
    return math.sqrt(cpu_ops_per_s * 1e6 / rtt_us)


@dataclass(frozen=True)
class Reading:
    """One timing of the yardstick. Rates per second, times in µs and s."""

    cpu_ops_per_s: float  # FNV-1a byte steps per second, summed over one process per CPU
    rtt_us: float  # mean loopback round trip, µs (connections × the round trips' wall time ÷ their count)
    rtt_median_us: float  # median round trip, µs
    cpu_share: float  # mean fraction of a core each CPU process got (its CPU time over its wall time)
    cpus: int  # CPU processes (one per CPU this process may use)
    seconds: float  # wall time the whole yardstick took, s (processes started and stopped included)

    @property
    def speed(self) -> float:
        """:func:`speed_of` this reading."""
        return speed_of(self.cpu_ops_per_s, self.rtt_us)

    def row(self, round_no: int, phase: str, target: str, started_at: str) -> dict[str, Any]:
        """Its row of ``yardstick.parquet`` (:data:`COLUMNS`); ``target`` names a target block's target
        (the ``target`` order), empty for a round over every target."""
        return {"round": int(round_no), "phase": phase, "target": target, "started_at": started_at,
                **asdict(self), "speed": self.speed}

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> Reading:
        """The reading of one row of ``yardstick.parquet`` (its speed is recomputed, never trusted)."""
        return cls(float(row["cpu_ops_per_s"]), float(row["rtt_us"]), float(row["rtt_median_us"]),
                   float(row["cpu_share"]), int(row["cpus"]), float(row["seconds"]))


def read_table(folder: Path) -> pd.DataFrame:
    """A folder's yardstick rows (:data:`COLUMNS`); empty when it has none (an older folder) or the file is
    damaged."""
    path = Path(folder) / FILE
    if not path.exists():
        return pd.DataFrame(columns=COLUMNS)
    try:
        table = pd.read_parquet(path).reindex(columns=COLUMNS)
        for column in NUMBERS:  # validated where read: a figure that is no number ("x") names the file, not a reader
            table[column] = pd.to_numeric(table[column], errors="raise")
        return table
    except Exception as exc:  # noqa: BLE001 - pyarrow raises several types for a damaged file; pandas ValueError
        from ycsbctl.results.tables import damaged

        damaged(path, exc, "read as no yardstick: compare uses no host factor for this folder")
        return pd.DataFrame(columns=COLUMNS)


def append(folder: Path, row: dict[str, Any]) -> pd.DataFrame:
    """Add one row to ``folder``'s ``yardstick.parquet`` (written whole to a temporary name, fsynced and
    renamed: a crash keeps the table as it was); returns the table."""
    path = Path(folder) / FILE
    old = read_table(folder)
    new = pd.DataFrame([row], columns=COLUMNS)
    table = new if not len(old) else pd.concat([old, new], ignore_index=True)
    for target, write in ((path, lambda t: table.to_parquet(t, index=False)),
                          (path.with_suffix(".csv"), lambda t: table.to_csv(t, index=False))):  # as every table has
        tmp = target.with_name(target.name + ".tmp")
        try:
            write(tmp)
            fd = os.open(tmp, os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
            os.replace(tmp, target)
        except OSError:
            tmp.unlink(missing_ok=True)
            raise
    return table


def _speeds(table: pd.DataFrame) -> list[float]:
    """Each row's speed, recomputed from its CPU rate and round trip (never the stored column)."""
    return [speed_of(float(c), float(r)) for c, r in zip(table["cpu_ops_per_s"], table["rtt_us"])]


def median_speed(table: pd.DataFrame) -> float:
    """The median speed of a folder's yardstick rows (recomputed from the CPU rate and round trip); NaN
    without one."""
    if not len(table):
        return math.nan
    speeds = _speeds(table)
    speeds = [s for s in speeds if s == s]
    return float(pd.Series(speeds).median()) if speeds else math.nan


def summary(table: pd.DataFrame) -> dict[str, Any]:
    """The manifest's ``yardstick``: readings, the median of each figure, the spread of the speed over the
    rounds (largest ÷ smallest − 1, %) and the seconds the yardstick cost in all and per reading."""
    if not len(table):
        return {}
    speeds = _speeds(table)
    seconds = pd.to_numeric(table["seconds"], errors="coerce")
    return {"readings": len(table), "speed_median": median_speed(table),
            "cpu_ops_per_s_median": float(pd.to_numeric(table["cpu_ops_per_s"]).median()),
            "rtt_us_median": float(pd.to_numeric(table["rtt_us"]).median()),
            "speed_spread_pct": 100 * (max(speeds) / min(speeds) - 1) if min(speeds) > 0 else math.nan,
            "seconds_total": float(seconds.sum()), "seconds_median": float(seconds.median())}


@dataclass(frozen=True)
class HostFactor:
    """How the host's speed changed from a base folder to another: ``factor`` = other ÷ base median speed
    (above 1: the host was faster for the other folder)."""

    factor: float
    base_speed: float
    other_speed: float
    base_readings: int
    other_readings: int
    # the standard error of log(factor) from the readings' spread in each folder (a median's: √(π/2) × the
    # mean's), and its Welch–Satterthwaite degrees of freedom; NaN with fewer than 2 readings on a side
    log_se: float = math.nan
    df: float = math.nan

    def text(self) -> str:
        """``host speed 1.18× between the folders (yardstick)``."""
        return f"host speed {self.factor:.2f}× between the folders (yardstick)"


def host_factor(base: pd.DataFrame, other: pd.DataFrame) -> HostFactor | None:
    """The :class:`HostFactor` of two folders' yardstick tables; None when either has no usable reading."""
    a, b = median_speed(base), median_speed(other)
    if not (a > 0 and b > 0):
        return None
    la, lb = _log_speeds(base), _log_speeds(other)
    se, df = math.nan, math.nan
    if min(len(la), len(lb)) >= 2:  # a spread needs two readings on each side
        va, vb = float(pd.Series(la).var()) / len(la), float(pd.Series(lb).var()) / len(lb)
        if va + vb > 0:
            se = math.sqrt(math.pi / 2 * (va + vb))
            df = (va + vb) ** 2 / (va ** 2 / (len(la) - 1) + vb ** 2 / (len(lb) - 1))
    return HostFactor(b / a, a, b, len(base), len(other), se, df)


def _log_speeds(table: pd.DataFrame) -> list[float]:
    """The natural logs of a folder's usable reading speeds."""
    return [math.log(s) for s in _speeds(table) if s > 0]


def at_base_speed(values: dict[int, float], factor: float, higher_is_better: bool) -> dict[int, float]:
    """Values of the other folder as the base folder's host speed would have measured them: a rate
    (``higher_is_better``, ops/s) divided by ``factor``, a time (latency, µs) multiplied by it."""
    return {r: (v / factor if higher_is_better else v * factor) for r, v in values.items()}


def untrusted(base: pd.DataFrame, other: pd.DataFrame, labels: tuple[str, str]) -> str | None:
    """Why the yardstick's host factor between two folders cannot be trusted, or None: a folder whose only reading
    is its first (the first reading of a run reads the host about 30 % slow: 15 of 16 folders of an outside
    campaign, issue 71), or readings taken over different numbers of CPUs (a run under ``taskset``)."""
    for table, label in zip((base, other), labels):
        if len(table) == 1:
            return (f"{label}'s only yardstick reading is its first, which reads the host slow (a one-round folder); "
                    "it is not divided out")
    if "cpus" in base and "cpus" in other and len(base) and len(other):
        a = set(pd.to_numeric(base["cpus"], errors="coerce").dropna().astype(int))
        b = set(pd.to_numeric(other["cpus"], errors="coerce").dropna().astype(int))
        if a and b and a != b:
            return (f"the yardstick ran over {'/'.join(map(str, sorted(a)))} CPU(s) in {labels[0]} and "
                    f"{'/'.join(map(str, sorted(b)))} in {labels[1]} (taskset): the host differed")
    return None

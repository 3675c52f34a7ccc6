"""Typed messages between the engine's worker processes (shards) and the controller.

Every message is a small picklable dataclass carrying :data:`MESSAGE_VERSION`, so that a
controller never misreads a shard of another ycsbctl version (the same messages are what will
travel between hosts). A shard sends :class:`Ready` once connected, one :class:`SecondReport` per
second of the phase (and a last one for the part-second at the end), then :class:`Done` — or
:class:`Failed` at any point. A shard of an alternated session (``engine.alternating_worker``) sends one
:class:`SliceReport` per slice instead of the per-second reports. :func:`dispatch` is the one place that reads them.
"""

from __future__ import annotations

from array import array
from collections.abc import Generator
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np

from ycsbctl.slices import drain

MESSAGE_VERSION = 5  # 5: SparseCounts pickled as bytes


@dataclass
class SparseCounts:
    """The non-zero HDR counts of one measurement: ``index`` (int32, HdrHistogram's counts index of
    a latency in µs) and ``count`` (int64) — a few KB where the dense array is 184 KB."""

    index: np.ndarray
    count: np.ndarray

    @classmethod
    def of(cls, dense: array | np.ndarray) -> SparseCounts:
        c = np.frombuffer(dense, dtype=np.int64) if isinstance(dense, array) else dense
        if not np.count_nonzero(c):  # most slots of a slice never count (other statuses): one fast pass
            return cls(_NO_INDEX, _NO_COUNT)
        return cls._of_counted(c)

    @classmethod
    def _of_counted(cls, c: np.ndarray, first: int = 0) -> SparseCounts:
        """The non-zero counts of ``c``, the part of a dense array that starts at index ``first``."""
        nz = np.flatnonzero(c != 0)  # (a bool mask first: flatnonzero on int64 branches per element)
        return cls((nz + first).astype(np.int32), c[nz])

    def __reduce__(self) -> tuple[Any, tuple[bytes, bytes]]:
        # as bytes: a third of pickling the two arrays (a slice report's pickling, in the queue's feeder thread,
        # holds the worker's GIL: `python -m bench alternation`)
        return _sparse_counts, (self.index.tobytes(), self.count.tobytes())

    def total(self) -> int:
        return int(self.count.sum())

    def add_to(self, dense: np.ndarray) -> None:
        """Add these counts into a dense int64 array (indices are distinct)."""
        dense[self.index] += self.count


_NO_INDEX = np.zeros(0, dtype=np.int32)
_NO_COUNT = np.zeros(0, dtype=np.int64)
_NO_INDEX.flags.writeable = _NO_COUNT.flags.writeable = False  # shared by every empty SparseCounts


def _sparse_counts(index: bytes, count: bytes) -> SparseCounts:
    """A :class:`SparseCounts` from its pickled bytes (read-only arrays over them)."""
    return SparseCounts(np.frombuffer(index, dtype=np.int32), np.frombuffer(count, dtype=np.int64))


Slot = tuple[int, int]  # (op code, status)


@dataclass
class SecondCounts:
    """What one shard measured in one second, as HDR counts (see :mod:`ycsbctl.engine.measurements`):
    ``latency`` under each operation's own name (actual latency, or intended with
    ``measurement.interval=intended``), ``intended`` the extra ``Intended-<OP>`` series of
    ``measurement.interval=both``, ``own`` the engine's measures of itself by name (µs: CLIENT-LAG, the
    event-loop lag probe; SCHEDULE-LAG, paced operations' late starts), ``cpu_s`` the
    shard's CPU seconds in that second. The recorder fills dense arrays; :meth:`compact` keeps
    the non-zero counts of the non-empty slots, which is what travels."""

    latency: dict[Slot, array | SparseCounts] = field(default_factory=dict)
    intended: dict[Slot, array | SparseCounts] = field(default_factory=dict)
    own: dict[str, array | SparseCounts] = field(default_factory=dict)
    cpu_s: float = 0.0
    # where a dense slot's counts lie: (part, key) -> (lowest, highest) index counted, part "latency", "intended"
    # or "own" (lowest > highest: none); a slot without one is read whole. Set by Recorder.roll; never travels
    spans: dict[tuple[str, Any], tuple[int, int]] = field(default_factory=dict, repr=False)

    def compact(self) -> SecondCounts:
        return drain(self.compact_steps())

    def compact_steps(self) -> Generator[None, None, SecondCounts]:
        """:meth:`compact`, yielding before each dense slot that counted; of each, only its :attr:`spans` part is
        read (a whole 184 KB slot is ~35 µs of memory reads on a busy host: `python -m bench alternation`)."""
        out: list[dict[Any, array | SparseCounts]] = []
        for part, slots in (("latency", self.latency), ("intended", self.intended), ("own", self.own)):
            kept: dict[Any, array | SparseCounts] = {}
            for key, counts in slots.items():
                if not isinstance(counts, SparseCounts):
                    lo, hi = self.spans.get((part, key), (0, len(counts) - 1))
                    c = np.frombuffer(counts, dtype=np.int64)[lo:hi + 1]
                    if not np.count_nonzero(c):
                        continue
                    yield
                    counts = SparseCounts._of_counted(c, lo)
                if counts.index.size:
                    kept[key] = counts
            out.append(kept)
        latency, intended, own = out
        return SecondCounts(latency, intended, own, self.cpu_s)  # (no spans: every slot compacted)


@dataclass
class Ready:
    worker: int
    pid: int
    version: int = MESSAGE_VERSION


@dataclass
class SecondReport:
    worker: int
    second: int  # seconds since the phase's start (0 = the first)
    counts: SecondCounts
    version: int = MESSAGE_VERSION
    # A phase that records the fine series (PhaseSpec.series_interval_ms = 100) reports every 100 ms:
    # ``tenth`` (0..9) is then the 100 ms interval within ``second``; None: the whole second.
    tenth: int | None = None

    @property
    def closes_second(self) -> bool:
        """Whether this report is the worker's last one of its second (whole seconds: always)."""
        return self.tenth is None or self.tenth == 9


@dataclass
class SliceReport:
    """What one shard measured in one slice of an alternated session (``engine.alternation``): the operations
    its clients STARTED in slice ``slice`` on target ``target`` (an index into the alternation's URLs), whenever
    they ended; ``counts.cpu_s`` and its CLIENT-LAG are the shard's from its previous slice's close to this one's."""

    worker: int
    slice: int  # 0-based, from the session's start (warm-up included)
    target: int
    counts: SecondCounts
    last_end_ns: int  # when the last of the slice's operations ended (perf_counter ns; 0: none ran)
    settle: bool = False  # the operations started in the slice's settle window (Alternation.settle_s), sent first
    version: int = MESSAGE_VERSION


@dataclass
class TargetEnd:
    """One alternated target's part of a shard's :class:`Done` (its errors, its clients' ends, its discards)."""

    errors: list[str] = field(default_factory=list)
    ended: list[str] = field(default_factory=list)
    late: int = 0
    stray: int = 0


@dataclass
class Done:
    worker: int
    end_ns: int = 0  # when the shard's last client stopped (perf_counter ns)
    errors: list[str] = field(default_factory=list)  # distinct error messages (first few)
    ended: list[str] = field(default_factory=list)  # why client threads stopped early, one per thread
    late: int = 0  # replies that came after their operation had timed out (discarded)
    stray: int = 0  # replies to nothing the worker had asked (discarded)
    # what the bindings counted besides operations (Redis Cluster: redirections, moved, ask), summed
    counts: dict[str, int] = field(default_factory=dict)
    version: int = MESSAGE_VERSION
    targets: list[TargetEnd] = field(default_factory=list)  # an alternated session's, by target (else empty)


@dataclass
class Failed:
    worker: int
    message: str  # one line: what went wrong
    version: int = MESSAGE_VERSION


Message = Ready | SecondReport | SliceReport | Done | Failed


class Handler(Protocol):
    """What the controller does with each kind of message."""

    def on_ready(self, msg: Ready) -> None: ...

    def on_second(self, msg: SecondReport) -> None: ...

    def on_slice(self, msg: SliceReport) -> None: ...

    def on_done(self, msg: Done) -> None: ...

    def on_failed(self, msg: Failed) -> None: ...


def dispatch(msg: Message, handler: Handler) -> None:
    """Hand ``msg`` to the matching method of ``handler``; a message of another version is refused."""
    if getattr(msg, "version", None) != MESSAGE_VERSION:
        raise ValueError(f"engine message {type(msg).__name__} of version {getattr(msg, 'version', '?')}; "
                         f"this controller speaks version {MESSAGE_VERSION}: run the same ycsbctl everywhere")
    if isinstance(msg, SecondReport):
        handler.on_second(msg)
    elif isinstance(msg, SliceReport):
        handler.on_slice(msg)
    elif isinstance(msg, Ready):
        handler.on_ready(msg)
    elif isinstance(msg, Done):
        handler.on_done(msg)
    elif isinstance(msg, Failed):
        handler.on_failed(msg)
    else:
        raise TypeError(f"not an engine message: {msg!r}")

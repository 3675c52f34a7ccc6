"""The operation streams of a CoreWorkload: :class:`RunGenerator` (the run phase's operations,
drawn per worker process) and :class:`LoadGenerator` (the load phase's inserts), in
:class:`OpBatch` es of plain Python lists (the engine's hot loop indexes lists faster than numpy
arrays; everything is drawn with numpy first). Key numbers are what YCSB's key choosers return; key
names are built with :func:`ycsbctl.workload.keys.build_key_names`.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ycsbctl.slices import drain
from ycsbctl.workload import distributions as d
from ycsbctl.workload.core import (
    ALL_FIELDS,
    INSERT,
    SCAN,
    CoreWorkload,
    split_count,
)
from ycsbctl.workload.inserts import InsertSequence, InsertState
from ycsbctl.workload.keys import build_key_names, key_name_steps
from ycsbctl.workload.live import IssueTimeKeys, LiveColumn, PendingKeys
from ycsbctl.workload.values import ValuePool


@dataclass
class OpBatch:
    """``n`` operations as parallel lists. ``read_field``/``write_field`` are a field index or
    :data:`ALL_FIELDS`; ``scan_length`` is 0 for non-scans."""

    ops: list[int]
    keynums: Sequence[int]  # a LiveColumn in runs that insert (resolved when issued)
    keys: Sequence[bytes]  # likewise
    read_field: list[int]
    write_field: list[int]
    scan_length: list[int]

    def __len__(self) -> int:
        return len(self.ops)


def _listed(a: np.ndarray) -> Generator[None, None, list]:
    """``a.tolist()`` after a yield: drawing and listing 1,024 ints are ~10 and ~5 µs."""
    yield
    return a.tolist()


class RunGenerator:
    """Run-phase operations for one worker process (all its client threads draw from it).

    In a run that inserts, each batch's keys and key numbers are :class:`LiveColumn` s: an
    operation's key is chosen when the engine first reads ``keys[i]`` (issues it), against the
    acknowledged-insert limit of that moment, as YCSB does (see :mod:`ycsbctl.workload.live`;
    ``acked`` is the :class:`InsertState` shared by the worker processes).
    """

    def __init__(
        self,
        w: CoreWorkload,
        rng: np.random.Generator,
        process: int = 0,
        processes: int = 1,
        acked: InsertState | None = None,
    ) -> None:
        self.w, self.rng = w, rng
        self.inserts = InsertSequence(w.recordcount, acked)
        weights = np.array([p for _, p in w.proportions], dtype=np.float64)
        self.op_codes = np.array([op for op, _ in w.proportions], dtype=np.int64)
        self.op_thresholds = np.cumsum(weights / weights.sum())[:-1]
        lo, hi = w.insertstart, w.insertstart + w.insertcount - 1
        dist = w.requestdistribution
        self.chooser: d.Uniform | d.ScrambledZipfian | d.SkewedLatest | d.Hotspot | d.Sequential | d.Exponential
        if dist == "uniform":
            self.chooser = d.Uniform(lo, hi)
        elif dist == "zipfian":
            self.chooser = d.ScrambledZipfian(lo, w.insertstart + w.insertcount + w.expected_new_keys)
        elif dist == "latest":
            self.chooser = d.SkewedLatest(self.inserts.limit())
        elif dist == "hotspot":
            self.chooser = d.Hotspot(lo, hi, w.hotspotdatafraction, w.hotspotopnfraction)
        elif dist == "sequential":
            self.chooser = d.Sequential(lo, hi, process, processes)
        else:
            self.chooser = d.Exponential(w.exponential_percentile, w.recordcount * w.exponential_frac)
        self.scan_lengths = (
            d.Zipfian(w.minscanlength, w.maxscanlength)
            if w.scanlengthdistribution == "zipfian"
            else d.Uniform(w.minscanlength, w.maxscanlength)
        )
        self.values = ValuePool(rng, w.fieldlength)
        self.lengths = w.field_lengths()
        has_inserts = any(op == INSERT for op, _ in w.proportions)
        self.live = IssueTimeKeys(self.chooser, self.inserts, rng, w.ordered, w.zeropadding) if has_inserts else None

    def choose_keys(self, n: int) -> np.ndarray:
        """Key numbers for reads/updates/scans/RMW, redrawn while beyond the acknowledged limit."""
        limit = self.inserts.limit()
        if isinstance(self.chooser, d.SkewedLatest):
            return self.chooser.draw(n, self.rng, limit)
        if isinstance(self.chooser, d.Exponential):
            keys = limit - self.chooser.draw(n, self.rng)
            bad = keys < 0
            while bad.any():
                keys[bad] = limit - self.chooser.draw(int(bad.sum()), self.rng)
                bad = keys < 0
            return keys
        return self._within_limit(self.chooser.draw(n, self.rng), limit)

    def _within_limit(self, keys: np.ndarray, limit: int) -> np.ndarray:
        """``keys`` with those beyond ``limit`` redrawn from the chooser (uniform, zipfian, hotspot…)."""
        n = len(keys)
        rejected = np.flatnonzero(keys > limit)
        drawn, accepted = n, n - len(rejected)
        while len(rejected):
            # Rejection sampling with candidates sized by the acceptance seen so far (the accepted
            # ones, taken in order, stay i.i.d.). Redrawing only the rejected keys each round cost
            # ~1 µs per candidate when 99.9% of a zipfian key space was not inserted yet
            # (recordcount 100, 10^5 expected new keys); this costs ~0.03 µs.
            m = min(int(len(rejected) * drawn / max(accepted, 1) * 1.25) + 16, 1 << 22)
            chooser = self.chooser
            assert not isinstance(chooser, d.SkewedLatest | d.Exponential)  # choose_keys draws those
            candidates = chooser.draw(m, self.rng)
            good = candidates[candidates <= limit][: len(rejected)]
            drawn, accepted = drawn + m, accepted + len(good)
            keys[rejected[: len(good)]] = good
            rejected = rejected[len(good) :]
        return keys

    def next_batch(self, n: int) -> OpBatch:
        """The next ``n`` operations."""
        return drain(self.batch_steps(n))

    def batch_steps(self, n: int) -> Generator[None, None, OpBatch]:
        """:meth:`next_batch` in slices of ≤ ~10 µs for 1,024 operations (``bench workload_gen``),
        yielding between them: the engine runs a slice or two between operations, so that no
        operation in flight waits for a whole batch (~300 µs). Same draws, in the same order, as
        :meth:`next_batch`."""
        w, rng = self.w, self.rng
        ops = self.op_codes[np.searchsorted(self.op_thresholds, rng.random(n), side="right")]
        yield
        op_list = ops.tolist()
        keynums: Sequence[int]
        keys: Sequence[bytes]
        if self.live is not None:  # keys resolved when issued (see live.py): drawn in one slice
            keynums, keys = self._live_keys(ops, op_list)
        else:
            yield
            if isinstance(self.chooser, d.ScrambledZipfian):  # its draw, then its hash
                z = yield from self.chooser.gen.draw_steps(n, rng)
                yield
                scrambled = yield from self.chooser.scramble_steps(z)
                yield
                nums = self._within_limit(scrambled, self.inserts.limit())
            else:
                nums = self.choose_keys(n)
            yield
            keynums = nums.tolist()
            keys = yield from key_name_steps(nums, w.ordered, w.zeropadding)
        yield
        nf = w.fieldcount
        rf = [ALL_FIELDS] * n if w.readallfields else (yield from _listed(rng.integers(0, nf, size=n)))
        yield
        wf = [ALL_FIELDS] * n if w.writeallfields else (yield from _listed(rng.integers(0, nf, size=n)))
        yield
        is_scan = ops == SCAN
        if is_scan.any():
            scan = np.zeros(n, dtype=np.int64)
            scan[is_scan] = self.scan_lengths.draw(int(is_scan.sum()), rng)
            scan_length = scan.tolist()
        else:
            scan_length = [0] * n
        return OpBatch(
            ops=op_list,
            keynums=keynums,
            keys=keys,
            read_field=rf,
            write_field=wf,
            scan_length=scan_length,
        )

    def _live_keys(self, ops: np.ndarray, op_list: list[int]) -> tuple[Any, Any]:
        """Keys of a run that inserts: what can be drawn now is, the rest waits for issue time."""
        live, n = self.live, len(ops)
        assert live is not None
        is_insert = ops == INSERT
        others = np.flatnonzero(~is_insert)
        names: list = [None] * n
        nums: list = [None] * n
        draws: list = []
        draw_names = None
        if live.mode == "static":
            drawn = self.choose_keys(len(others))
            for i, k, name in zip(others.tolist(), drawn.tolist(), build_key_names(drawn, self.w.ordered,
                                                                                   self.w.zeropadding)):
                nums[i], names[i] = k, name
        else:
            full = np.zeros(n, dtype=np.float64 if live.mode == "latest" else np.int64)
            full[others] = live.draw(len(others))
            draws = full.tolist()
            if live.mode == "zipfian":  # most candidates are taken: name them in bulk (~0.1 µs, not ~1)
                draw_names = build_key_names(full, self.w.ordered, self.w.zeropadding)
        p = PendingKeys(op_list, draws, names, nums, live, draw_names)
        return LiveColumn(p, 0, n, names=False), LiveColumn(p, 0, n, names=True)

    def field_values(self, field: int = ALL_FIELDS) -> list[tuple[bytes, bytes]]:
        """(name, value) pairs for an insert/update: every field, or the one given."""
        names = self.w.field_names if field == ALL_FIELDS else [self.w.field_names[field]]
        return list(zip(names, self.values_only(field)))

    def values_only(self, field: int = ALL_FIELDS) -> list[bytes]:
        """The values of :meth:`field_values` without their names (every field, or the one given)."""
        lengths = self.lengths
        count = self.w.fieldcount if field == ALL_FIELDS else 1
        if isinstance(lengths, d.Constant):
            return self.values.take_many(count, lengths.value)
        return [self.values.take(n) for n in lengths.draw(count, self.rng).tolist()]


class LoadGenerator:
    """Load-phase inserts: key numbers ``first, first+1, …`` handed out in order (a block of
    YCSB's shared insert counter; blocks of all workers cover insertstart.. exactly once)."""

    def __init__(self, w: CoreWorkload, rng: np.random.Generator, first: int, count: int) -> None:
        self.w = w
        self.next, self.end = first, first + count
        self.run = RunGenerator(w, rng)  # for field values only

    def next_batch(self, n: int) -> OpBatch:
        """The next ``n`` inserts (fewer at the end of the block, none after it)."""
        return drain(self.batch_steps(n))

    def batch_steps(self, n: int) -> Generator[None, None, OpBatch]:
        """:meth:`next_batch` in slices, as :meth:`RunGenerator.batch_steps`."""
        n = min(n, self.end - self.next)
        keynums = np.arange(self.next, self.next + n, dtype=np.int64)
        self.next += n
        all_fields = [ALL_FIELDS] * n
        keys = yield from key_name_steps(keynums, self.w.ordered, self.w.zeropadding)
        return OpBatch(
            ops=[INSERT] * n,
            keynums=keynums.tolist(),
            keys=keys,
            read_field=all_fields,
            write_field=all_fields,
            scan_length=[0] * n,
        )

    def field_values(self, field: int = ALL_FIELDS) -> list[tuple[bytes, bytes]]:
        return self.run.field_values(field)

    def values_only(self, field: int = ALL_FIELDS) -> list[bytes]:
        return self.run.values_only(field)


def load_blocks(w: CoreWorkload, threads_per_process: list[int]) -> list[tuple[int, int]]:
    """(first key number, count) of each worker process in the load phase: the YCSB per-thread
    split of the load operations, grouped by the process that runs those threads."""
    per_thread = split_count(w.load_operations, sum(threads_per_process))
    blocks, start, t = [], w.insertstart, 0
    for n in threads_per_process:
        count = sum(per_thread[t : t + n])
        blocks.append((start, count))
        start += count
        t += n
    return blocks

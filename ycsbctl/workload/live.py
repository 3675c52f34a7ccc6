"""Keys chosen when an operation is issued, for runs that insert (YCSB's per-operation view of ``L``).

YCSB picks an operation's key at the moment its thread issues it, against the acknowledged-insert
limit ``L`` of that moment (see :mod:`ycsbctl.workload.inserts`). A batch drawn ahead of time keeps
that: it holds only what does not depend on ``L`` — for ``latest`` the zipfian's uniform draw,
for ``exponential`` the offset back from ``L``, for ``zipfian`` the first candidate key — and
:class:`IssueTimeKeys` turns it into the key (``L_now − offset``, or the candidate redrawn while
above ``L_now``) on the first access to ``batch.keys[i]`` / ``batch.keynums[i]``, which the
engine makes when it issues the operation. Inserts take their number from the counter then too.
Uniform, hotspot and sequential keys never exceed ``recordcount − 1 ≤ L`` and are built with
the batch. Runs without inserts never come here (their ``L`` is fixed).

Cost (generation alone, one core of this machine): workload D 2.9 µs per operation, workload E
2.2 µs (7 µs with 99 % of zipfian candidates above ``L``), against 0.8 µs for workload B, whose
batch path (no inserts) is unchanged.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from ycsbctl.native import core
from ycsbctl.workload import distributions as d
from ycsbctl.workload.inserts import InsertSequence
from ycsbctl.workload.keys import fnvhash64, key_format

INSERT = 2  # = ycsbctl.workload.core.INSERT (core imports this module)
_NAME_CACHE_MAX = 1 << 16
_fnvhash64 = fnvhash64 if core is None else core.fnvhash64  # once per issued key not named yet (~1 µs in Python)


class PendingKeys:
    """One batch's keys and key numbers: ``names[i]``/``nums[i]`` are None until resolved;
    ``draws[i]`` is what the batch drew for operation i (see the module docstring)."""

    __slots__ = ("ops", "draws", "draw_names", "names", "nums", "keys")

    def __init__(self, ops: list[int], draws: list, names: list, nums: list, keys: IssueTimeKeys,
                 draw_names: list | None = None) -> None:
        self.ops, self.draws, self.names, self.nums, self.keys = ops, draws, names, nums, keys
        self.draw_names = draw_names  # zipfian: the names of the candidates, built in bulk


class LiveColumn:
    """``batch.keys`` (``names=True``) or ``batch.keynums`` of a run that inserts: a sequence whose
    item i is resolved (once) when first read. Slices are views."""

    __slots__ = ("p", "lo", "hi", "names")

    def __init__(self, p: PendingKeys, lo: int, hi: int, names: bool) -> None:
        self.p, self.lo, self.hi, self.names = p, lo, hi, names

    def __len__(self) -> int:
        return self.hi - self.lo

    def __getitem__(self, i):
        if i.__class__ is slice:
            start, stop, step = i.indices(self.hi - self.lo)
            if step != 1:
                return [self[k] for k in range(start, stop, step)]
            return LiveColumn(self.p, self.lo + start, self.lo + max(start, stop), self.names)
        if i < 0:
            i += self.hi - self.lo
        if not 0 <= i < self.hi - self.lo:
            raise IndexError(i)
        k = self.lo + i
        p = self.p
        if self.names:
            v = p.names[k]
            return v if v is not None else p.keys.resolve(p, k)
        v = p.nums[k]
        if v is None:
            p.keys.resolve(p, k)
            v = p.nums[k]
        return v

    def __iter__(self) -> Iterator:
        for i in range(self.hi - self.lo):
            yield self[i]

    def __eq__(self, other: object) -> bool:
        return list(self) == list(other)  # type: ignore[call-overload]


class IssueTimeKeys:
    """Resolves the keys of one generator's batches against the current ``L`` (YCSB's
    ``CoreWorkload.nextKeynum`` and ``transactioninsertkeysequence.nextValue``)."""

    def __init__(self, chooser: object, inserts: InsertSequence, rng: np.random.Generator,
                 ordered: bool, zeropadding: int) -> None:
        self.chooser, self.inserts, self.rng = chooser, inserts, rng
        self.ordered = ordered
        self.fmt = key_format(zeropadding)
        self._names: dict[int, bytes] = {}
        self._spare: list = []
        self._pool = np.empty(0, dtype=np.int64)
        self._at = 0
        if isinstance(chooser, d.SkewedLatest):
            self.mode = "latest"
            self.zipf = chooser.zipf
            self.half_pow = 0.5**self.zipf.theta
        elif isinstance(chooser, d.Exponential):
            self.mode = "exponential"
        elif isinstance(chooser, d.ScrambledZipfian):
            self.mode = "zipfian"
        else:
            self.mode = "static"  # uniform, hotspot, sequential: never above recordcount − 1 ≤ L

    def draw(self, n: int) -> np.ndarray:
        """What a batch keeps for ``n`` non-insert operations (resolved by :meth:`pick`)."""
        if self.mode == "latest":
            return self.rng.random(n)
        return self.chooser.draw(n, self.rng)  # type: ignore[attr-defined]

    def _spare_draw(self):
        if not self._spare:
            self._spare = self.chooser.draw(4096, self.rng).tolist()[::-1]
        return self._spare.pop()

    def pick(self, draw) -> int:
        """The key number for one drawn value against the current ``L``."""
        limit = self.inserts.limit()
        mode = self.mode
        if mode == "latest":
            # SkewedLatestGenerator: L − zipfian.nextLong(L), the zipfian resized to L items now.
            z = self.zipf
            items = limit if limit > 1 else 1
            if items != z.items:
                z._set_items(items)
            uz = draw * z.zetan
            if uz < 1.0:
                off = 0
            elif uz < 1.0 + self.half_pow:
                off = 1
            else:
                off = int(items * (z.eta * draw - z.eta + 1.0) ** z.alpha)
            return limit - off
        if mode == "exponential":
            k = limit - draw
            while k < 0:  # YCSB: do { L − next } while (keynum < 0)
                k = limit - self._spare_draw()
            return k
        if mode == "zipfian":
            # YCSB: do { next } while (keynum > L). The batch's candidate first, then a stream.
            return draw if draw <= limit else self._first_at_most(limit)
        return draw

    def _first_at_most(self, limit: int) -> int:
        """The first candidate ≤ ``L`` of a stream drawn in bulk, searched with numpy: with a small
        recordcount and many expected new keys most candidates are above ``L`` (workload E at
        10^6 operations: 99 %), where one candidate at a time cost ~150 µs per operation."""
        while True:
            pool, at = self._pool, self._at
            if at >= len(pool):
                pool = self._pool = self.chooser.draw(1 << 13, self.rng)  # type: ignore[attr-defined]
                at = 0
            seg = pool[at : at + 1024]
            ok = seg <= limit
            i = int(ok.argmax())
            if ok[i]:
                self._at = at + i + 1
                return int(seg[i])
            self._at = at + len(seg)

    def name(self, keynum: int) -> bytes:
        names = self._names
        v = names.get(keynum)
        if v is None:
            if len(names) >= _NAME_CACHE_MAX:
                names.clear()
            v = names[keynum] = self.fmt % (keynum if self.ordered else _fnvhash64(keynum))
        return v

    def resolve(self, p: PendingKeys, i: int) -> bytes:
        """Fix operation ``i`` of batch ``p`` now: its key number and name."""
        if p.ops[i] == INSERT:
            k = self.inserts.next()
            v = self.name(k)
        else:
            draw = p.draws[i]
            k = self.pick(draw)
            v = p.draw_names[i] if k == draw and p.draw_names is not None else self.name(k)
        p.nums[i] = k
        p.names[i] = v
        return v

"""YCSB's number generators, drawn in vectorised batches (numpy int64).

Each generator's ``draw(n, rng)`` returns ``n`` values with the distribution of n calls to the
Java generator's ``nextValue()``. Streams differ from Java's (other RNG); shapes do not.
"""

from __future__ import annotations

import math
from collections.abc import Generator

import numpy as np

from ycsbctl.native import core
from ycsbctl.slices import drain
from ycsbctl.workload.keys import fnvhash64_steps

ZIPFIAN_CONSTANT = 0.99
# ScrambledZipfianGenerator: a zipfian over ITEM_COUNT+1 items with this precomputed zeta.
SCRAMBLED_ITEM_COUNT = 10_000_000_000
SCRAMBLED_ZETAN = 26.46902820178302


def zeta(n: int, theta: float, start: int = 0, initial: float = 0.0) -> float:
    """Σ_{i=start+1}^{n} i^−θ (+ ``initial``), as YCSB's ``zetastatic``; chunked for large n."""
    total = initial
    if n - start <= 32:  # a latest run grows by one item per insert: numpy's set-up would dominate
        for i in range(start + 1, n + 1):
            total += i**-theta
        return total
    chunk = 1 << 22
    for lo in range(start + 1, n + 1, chunk):
        hi = min(n, lo + chunk - 1)
        total += float(np.sum(np.arange(lo, hi + 1, dtype=np.float64) ** -theta))
    return total


class Uniform:
    """``UniformLongGenerator(lb, ub)``: integers in [lb, ub]."""

    def __init__(self, lb: int, ub: int) -> None:
        self.lb, self.ub = int(lb), int(ub)

    def draw(self, n: int, rng: np.random.Generator) -> np.ndarray:
        return rng.integers(self.lb, self.ub + 1, size=n, dtype=np.int64)


class Constant:
    """``ConstantIntegerGenerator``."""

    def __init__(self, value: int) -> None:
        self.value = int(value)

    def draw(self, n: int, rng: np.random.Generator) -> np.ndarray:
        return np.full(n, self.value, dtype=np.int64)


class Zipfian:
    """``ZipfianGenerator(min, max)`` (Gray et al., "Quickly generating billion-record synthetic
    databases"): popular items are the low numbers. ``zetan`` may be given precomputed."""

    def __init__(self, lo: int, hi: int, theta: float = ZIPFIAN_CONSTANT, zetan: float | None = None) -> None:
        self.base = int(lo)
        self.theta = theta
        self.alpha = 1.0 / (1.0 - theta)
        self.zeta2 = zeta(2, theta)
        # YCSB computes η from the item count given at construction, even after nextLong(itemcount)
        # grows the distribution (ZipfianGenerator's ``items`` field is never updated).
        self.eta_items = int(hi) - int(lo) + 1
        self._set_items(self.eta_items, zetan)

    zetan: float

    def _set_items(self, items: int, zetan: float | None = None) -> None:
        if zetan is None:
            prev = getattr(self, "items", 0)
            # Grow incrementally as YCSB does when the item count increases (latest distribution).
            zetan = zeta(items, self.theta, prev, self.zetan) if 0 < prev <= items else zeta(items, self.theta)
        self.items = items
        self.zetan = zetan
        denominator = 1 - self.zeta2 / zetan
        # Two items: ζn = ζ(2) and Java's 0/0 gives NaN; η is then never used (every u < 1 lands
        # on base or base+1), so NaN it is, as in Java, instead of Python's ZeroDivisionError.
        numerator = 1 - (2.0 / self.eta_items) ** (1 - self.theta)
        self.eta = numerator / denominator if denominator != 0 else math.nan

    def draw(self, n: int, rng: np.random.Generator, items: int | None = None) -> np.ndarray:
        """``n`` draws; ``items`` re-sizes the distribution first (``nextLong(itemcount)``)."""
        return drain(self.draw_steps(n, rng, items))

    def draw_steps(self, n: int, rng: np.random.Generator,
                   items: int | None = None) -> Generator[None, None, np.ndarray]:
        """:meth:`draw` in three slices (the uniforms, the power, the two smallest items), yielding
        between them."""
        if items is not None and items != self.items:
            self._set_items(items)
        u = rng.random(n)
        yield
        with np.errstate(invalid="ignore"):
            out = self.base + (self.items * (self.eta * u - self.eta + 1.0) ** self.alpha).astype(np.int64)
        yield
        uz = u * self.zetan
        out[uz < 1.0 + 0.5**self.theta] = self.base + 1
        out[uz < 1.0] = self.base
        return out


class ScrambledZipfian:
    """``ScrambledZipfianGenerator(min, max)``: zipfian popularity spread over the key space by
    hashing: ``min + fnvhash64(z) % itemcount`` with z from a zipfian over 10^10+1 items."""

    def __init__(self, lo: int, hi: int) -> None:
        self.min = int(lo)
        self.itemcount = int(hi) - int(lo) + 1
        self.gen = Zipfian(0, SCRAMBLED_ITEM_COUNT, ZIPFIAN_CONSTANT, SCRAMBLED_ZETAN)

    def draw(self, n: int, rng: np.random.Generator) -> np.ndarray:
        return self.scramble(self.gen.draw(n, rng))

    def scramble(self, z: np.ndarray) -> np.ndarray:
        """Key numbers of zipfian draws ``z`` (over 10^10+1 items): ``min + fnvhash64(z) % itemcount``."""
        return drain(self.scramble_steps(z))

    def scramble_steps(self, z: np.ndarray) -> Generator[None, None, np.ndarray]:
        """:meth:`scramble` in slices (see :func:`~ycsbctl.workload.keys.fnvhash64_steps`); one call of the
        compiled core when it is there."""
        if core is not None:
            src = np.ascontiguousarray(z, dtype=np.int64)
            out = np.empty_like(src)
            core.scramble_into(src, out, self.min, self.itemcount)
            return out
        return self.min + (yield from fnvhash64_steps(z)) % self.itemcount


class SkewedLatest:
    """``SkewedLatestGenerator``: ``L − zipf(L)`` where L is the latest acknowledged insert;
    never returns 0 (zipf ∈ [0, L−1])."""

    def __init__(self, latest: int) -> None:
        self.zipf = Zipfian(0, max(1, latest) - 1)

    def draw(self, n: int, rng: np.random.Generator, latest: int) -> np.ndarray:
        return latest - self.zipf.draw(n, rng, items=max(1, latest))


class Hotspot:
    """``HotspotIntegerGenerator(lb, ub, hotsetfraction, hotopnfraction)``: the first
    ``int(n·hotsetfraction)`` numbers get ``hotopnfraction`` of the draws; uniform inside each set."""

    def __init__(self, lb: int, ub: int, hot_data: float, hot_ops: float) -> None:
        interval = int(ub) - int(lb) + 1
        self.lb = int(lb)
        self.hot = int(interval * hot_data)
        self.cold = interval - self.hot
        self.hot_ops = hot_ops

    def draw(self, n: int, rng: np.random.Generator) -> np.ndarray:
        hot = rng.random(n) < self.hot_ops
        out = np.empty(n, dtype=np.int64)
        nh = int(hot.sum())
        if self.hot > 0:
            out[hot] = self.lb + rng.integers(0, self.hot, size=nh)
        else:
            out[hot] = self.lb
        if self.cold > 0:
            out[~hot] = self.lb + self.hot + rng.integers(0, self.cold, size=n - nh)
        else:
            out[~hot] = self.lb
        return out


class Sequential:
    """``SequentialGenerator(lb, ub)``: lb + counter % interval. With several worker processes,
    process p of P takes counter values p, p+P, p+2P… so together they walk one shared counter."""

    def __init__(self, lb: int, ub: int, process: int = 0, processes: int = 1) -> None:
        self.lb = int(lb)
        self.interval = int(ub) - int(lb) + 1
        self.counter = process
        self.step = processes

    def draw(self, n: int, rng: np.random.Generator) -> np.ndarray:
        c = self.counter + self.step * np.arange(n, dtype=np.int64)
        self.counter += self.step * n
        return self.lb + c % self.interval


class Exponential:
    """``ExponentialGenerator(percentile, range)``: γ = −ln(1 − percentile/100)/range,
    value = int(−ln(U)/γ); CoreWorkload uses ``L − value``."""

    def __init__(self, percentile: float, range_: float) -> None:
        self.gamma = -math.log(1.0 - percentile / 100.0) / range_

    def draw(self, n: int, rng: np.random.Generator) -> np.ndarray:
        u = 1.0 - rng.random(n)  # (0, 1]: avoids ln(0)
        return (-np.log(u) / self.gamma).astype(np.int64)


class Histogram:
    """``HistogramGenerator(file)``: bucket i (count ``buckets[i]``) gives ``(i+1)·blockSize``.

    As YCSB's ``nextValue``: ``number`` uniform in [0, area); walk buckets 0 … len−2 subtracting
    each count and return ``(i+1)·blockSize`` at the first ``number ≤ 0``; past them return
    ``(len−1)·blockSize``. So bucket 0 also takes ``number = 0`` (one extra chance in ``area``) and
    the last bucket's draws land on the same value as the one before it."""

    def __init__(self, block_size: int, buckets: tuple[int, ...]) -> None:
        self.block_size = int(block_size)
        self.buckets = np.asarray(buckets, dtype=np.int64)
        self.area = int(self.buckets.sum())
        self.cum = np.cumsum(self.buckets[:-1])

    def draw(self, n: int, rng: np.random.Generator) -> np.ndarray:
        number = rng.integers(0, self.area, size=n, dtype=np.int64)
        i = np.searchsorted(self.cum, number, side="left")  # first i with cum[i] ≥ number
        last = len(self.buckets) - 1
        return np.where(i < last, i + 1, last) * self.block_size


def read_histogram_file(path: str) -> tuple[int, tuple[int, ...]]:
    """YCSB's field-length histogram file: ``BlockSize<TAB>n`` on the first line, then one
    ``bucket<TAB>count`` per line, buckets 0, 1, 2, … (YCSB inserts each at its index: a bucket
    beyond the ones read so far is an error there, and here). Returns (block size, counts)."""
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except OSError as exc:
        raise ValueError(f"cannot read field length histogram file {path!r}: {exc.strerror}") from None
    if not lines:
        raise ValueError(f"field length histogram file {path!r} is empty")
    head = lines[0].split("\t")
    if head[0] != "BlockSize" or len(head) < 2:
        raise ValueError(f"first line of histogram {path!r} is not 'BlockSize<TAB>n'")
    buckets: list[int] = []
    try:
        block = int(head[1])
        for n, line in enumerate(lines[1:], start=2):
            if not line.strip():
                continue
            bucket, count = (int(x) for x in line.split("\t")[:2])
            if not 0 <= bucket <= len(buckets):
                raise ValueError(f"line {n}: bucket {bucket} comes before buckets 0…{bucket - 1}")
            buckets.insert(bucket, count)
    except ValueError as exc:
        raise ValueError(f"histogram {path!r}: {exc} (expected 'bucket<TAB>count' lines)") from None
    if not buckets or sum(buckets) <= 0:
        raise ValueError(f"histogram {path!r} has no counts")
    return block, tuple(buckets)

"""Field values: fresh random bytes in YCSB's alphabet (0x20–0x7F), generated in bulk with numpy."""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

import numpy as np

from ycsbctl.slices import drain

_SIX = 6  # bytes per 32-bit random int


def random_bytes(n: int, rng: np.random.Generator) -> bytes:
    """``n`` bytes exactly as YCSB's ``RandomByteIterator`` draws them: six per 32-bit random
    int, shifts 0,5,…,25 with masks 31,63,95,31,63,95, each + 0x20 ('space').

    The ints are the bit generator's raw output (measured: 0.6 ns per byte of value with SFC64,
    against 4.7 for ``Generator.bytes``); the six columns cost ~0.5 ns per byte more."""
    return drain(random_bytes_steps(n, rng))


_COLUMNS = ((0, 31), (5, 63), (10, 95), (15, 31), (20, 63), (25, 95))  # (shift, mask) of each byte of an int


def random_bytes_steps(n: int, rng: np.random.Generator) -> Generator[None, None, bytes]:
    """:func:`random_bytes` in four slices (the ints, then two of the six byte columns each), yielding
    between them."""
    k = (n + _SIX - 1) // _SIX
    v = rng.bit_generator.random_raw((k + 1) // 2).view(np.uint32)[:k]
    out = np.empty((k, _SIX), dtype=np.uint8)
    for col, (shift, mask) in enumerate(_COLUMNS):
        if not col % 2:
            yield
        out[:, col] = (v >> shift) & mask
    out += 0x20
    return out.tobytes()[:n]


_BUF_STEP = _SIX  # a buffer of variable-length values is drawn as ints (six bytes each)
PIECE = 64  # values cut per slice of a spare buffer: ~4 µs


class ValuePool:
    """Values for inserts and updates, each one fresh (never handed out twice), as YCSB's: bytes
    drawn with :func:`random_bytes` in a buffer of ``chunk_bytes`` (32 KiB), cut into values.

    Each value starts at a multiple of six bytes of the buffer, so its byte i comes from position
    i mod 6 of a random int as in YCSB (where every value starts a new int): same byte mix, same
    correlations, all values distinct and as incompressible as YCSB's. Memory: two buffers, at most
    ``max(chunk_bytes, one call's values)`` each — never a number of values (a 10 MB ``fieldlength``
    costs one 10 MB value per field, not a pool of them).

    The next buffer is drawn while the current one is used: once half of it is handed out, each
    call draws one slice of the next (two byte columns of it, or :data:`PIECE` values cut, ≤ ~8 µs),
    so that no call pays for a whole buffer. Drawing one at once ran on the engine's loop for
    ~135 µs (measured in a worker at 100k ops/s), a pause for every operation in flight.
    """

    # 32 KiB: the buffer stays in the CPU cache. Measured per buffer of 100-byte values: 32 KiB ~50 µs
    # alone, 128 KiB ~170 µs, at the same cost per record (~2 µs for 10 × 100 B); 1 MiB took 15.7 ms.
    def __init__(self, rng: np.random.Generator, max_length: int, chunk_bytes: int = 1 << 15) -> None:
        self.rng = np.random.Generator(np.random.SFC64(int(rng.integers(1 << 62))))  # the fastest raw bits
        self.max_length = max(1, int(max_length))
        self.chunk_bytes = chunk_bytes
        self.buf = b""
        self.pos = 0
        self.cut: list[bytes] = []  # values of ``cut_length`` cut ahead from one buffer, handed out once
        self.cut_length = -1
        self.cut_next = 0
        self._spare: Generator[None, None, Any] | None = None  # the next buffer (or cut), being drawn
        self._spare_key: int | None = None  # what it is for: a cut's length, or -1 for a buffer
        self._ready: Any = None  # … once drawn

    def _pieces(self, count: int, step: int, length: int | None) -> Generator[None, None, Any]:
        """``count`` values of ``step`` bytes, in slices of ≤ ~8 µs (yielding between them): the bytes
        (when ``length`` is None), or the values cut to ``length``, :data:`PIECE` at a time."""
        buf = yield from random_bytes_steps(count * step, self.rng)
        if length is None:
            return buf
        cut: list[bytes] = []
        for first in range(0, count * step, PIECE * step):
            yield
            cut += [buf[o : o + length] for o in range(first, min(first + PIECE * step, count * step), step)]
        return cut

    def _advance(self, key: int, count: int, step: int, length: int | None) -> None:
        """One piece of the next buffer for ``key`` (started here if it is not under way)."""
        if self._ready is not None and self._spare_key == key:
            return
        if self._spare is None or self._spare_key != key:
            self._spare, self._spare_key, self._ready = self._pieces(count, step, length), key, None
        try:
            next(self._spare)
        except StopIteration as done:
            self._spare, self._ready = None, done.value

    def _next(self, key: int, count: int, step: int, length: int | None) -> Any:
        """The next buffer for ``key``: the spare, finished if need be, or one drawn now."""
        if self._spare_key == key and (self._ready is not None or self._spare is not None):
            out = self._ready if self._ready is not None else drain(self._spare)  # type: ignore[arg-type]
        else:
            out = drain(self._pieces(count, step, length))
        self._spare = self._ready = self._spare_key = None
        return out

    def _room(self, need: int) -> None:
        buf = self.buf
        count = -(-self.chunk_bytes // _BUF_STEP)  # a buffer of variable-length values, in pieces
        if self.pos + need > len(buf):
            big = need > count * _BUF_STEP
            self.buf = random_bytes(need, self.rng) if big else self._next(-1, count, _BUF_STEP, None)
            self.pos = 0
        elif self.pos * 2 >= len(buf):
            self._advance(-1, count, _BUF_STEP, None)

    def take(self, length: int) -> bytes:
        """One value of ``length`` bytes."""
        step = -(-length // _SIX) * _SIX
        self._room(step)
        p = self.pos
        self.pos = p + step
        return self.buf[p : p + length]

    def take_many(self, n: int, length: int) -> list[bytes]:
        """``n`` values of ``length`` bytes, each handed out once. A buffer's worth of values is cut at
        once and handed out as list slices: measured 8× faster per record than cutting ten values per
        call (a load's 10 × 100 B record: ~1 µs against ~8 µs)."""
        i = self.cut_next
        step = -(-length // _SIX) * _SIX
        count = self.chunk_bytes // step
        if length != self.cut_length or i + n > len(self.cut):
            if n > count:  # more than a buffer's worth: drawn now, as many as asked
                self.cut = drain(self._pieces(n, step, length))
            else:
                self.cut = self._next(length, count, step, length)
            self.cut_length, i = length, 0
        elif i * 2 >= len(self.cut) and n <= count:
            self._advance(length, count, step, length)
        self.cut_next = i + n
        return self.cut[i : i + n]

"""YCSB key names: FNV-1a 64 hashing, ``user`` prefix, zero padding; Java's String.hashCode."""

from __future__ import annotations

from collections.abc import Generator

import numpy as np

from ycsbctl.native import core
from ycsbctl.slices import drain

FNV_OFFSET_BASIS_64 = 0xCBF29CE484222325
FNV_PRIME_64 = 1099511628211
_MASK64 = (1 << 64) - 1


def fnvhash64(value: int) -> int:
    """YCSB's ``Utils.fnvhash64``: FNV-1a over the 8 bytes of ``value`` (low byte first),
    read as signed 64-bit, absolute value."""
    h = FNV_OFFSET_BASIS_64
    v = value & _MASK64
    for _ in range(8):
        h ^= v & 0xFF
        h = (h * FNV_PRIME_64) & _MASK64
        v >>= 8
    return java_abs64(h - (1 << 64) if h >= 1 << 63 else h)


def java_abs64(v: int) -> int:
    """Java's ``Math.abs`` of a long: Long.MIN_VALUE (−2⁶³) has no positive twin and stays as it is
    (as numpy's ``abs`` of an int64 and the compiled core leave it)."""
    return v if v == -(1 << 63) else abs(v)


def fnvhash64_array(values: np.ndarray) -> np.ndarray:
    """Vectorised :func:`fnvhash64` (int64 in, int64 out); ~20 ns per value."""
    return drain(fnvhash64_steps(values))


def fnvhash64_steps(values: np.ndarray) -> Generator[None, None, np.ndarray]:
    """:func:`fnvhash64_array` in four slices (two bytes each), yielding between them; one call
    of the compiled core (~2 ns per value) when it is there."""
    if core is not None:
        src = np.ascontiguousarray(values, dtype=np.int64)
        out = np.empty_like(src)
        core.fnv64_into(src, out)
        return out
    v = np.asarray(values).astype(np.uint64, copy=True)
    h = np.full(v.shape, FNV_OFFSET_BASIS_64, dtype=np.uint64)
    prime = np.uint64(FNV_PRIME_64)
    byte = np.uint64(0xFF)
    eight = np.uint64(8)
    for i in range(8):
        if not i % 2:
            yield
        h ^= v & byte
        h *= prime  # wraps mod 2**64, as Java's long multiplication
        v >>= eight
    # Java Math.abs on the signed value (Long.MIN_VALUE stays negative, as in Java).
    return np.abs(h.view(np.int64))


def key_format(zeropadding: int = 1, prefix: str = "user") -> bytes:
    """The %-format that builds a key from its (possibly hashed) number."""
    return f"{prefix}%0{max(1, int(zeropadding))}d".encode()


def build_key_name(keynum: int, ordered: bool = False, zeropadding: int = 1) -> str:
    """YCSB's ``CoreWorkload.buildKeyName``: ``user`` + decimal (hashed unless ordered), zero-padded."""
    n = keynum if ordered else fnvhash64(keynum)
    return "user" + str(n).zfill(zeropadding)


def build_key_names(keynums: np.ndarray, ordered: bool = False, zeropadding: int = 1) -> list[bytes]:
    """Vectorised :func:`build_key_name`, as bytes ready for the wire."""
    return drain(key_name_steps(keynums, ordered, zeropadding))


KEY_SLICE = 32  # keys named per step of key_name_steps: ~4 µs
NATIVE_KEY_SLICE = 128  # … by the compiled core: ~5 µs (~40 ns per key)


def key_name_steps(keynums: np.ndarray, ordered: bool = False,
                   zeropadding: int = 1) -> Generator[None, None, list[bytes]]:
    """:func:`build_key_names` in slices of :data:`KEY_SLICE` keys, yielding between them; returns
    the names. A %-format list comprehension is ~110 ns per key, faster than numpy string ops; the
    compiled core hashes and names a key in ~40 ns."""
    if core is not None:
        nums64 = np.ascontiguousarray(keynums, dtype=np.int64)
        out: list[bytes] = []
        for i in range(0, len(nums64), NATIVE_KEY_SLICE):
            yield
            out += core.key_names(nums64, ordered, zeropadding, i, i + NATIVE_KEY_SLICE)
        return out
    hashed = keynums if ordered else (yield from fnvhash64_steps(keynums))
    yield
    nums = hashed.tolist()
    fmt = key_format(zeropadding)
    names: list[bytes] = []
    for i in range(0, len(nums), KEY_SLICE):
        yield
        names += [fmt % n for n in nums[i : i + KEY_SLICE]]
    return names


def java_string_hashcode(s: str | bytes) -> int:
    """Java's ``String.hashCode`` (signed 32-bit) of an ASCII/BMP string, as the Redis binding's
    ``_indices`` score: ``s[0]*31^(n-1) + … + s[n-1]``. (The Redis chain's twin is ``core.java_hash``.)"""
    if isinstance(s, bytes):
        s = s.decode("latin-1")
    h = 0
    for ch in s:
        h = (31 * h + ord(ch)) & 0xFFFFFFFF
    return h - (1 << 32) if h >= 1 << 31 else h

"""``dataintegrity=true``: values derived from the key and the field name, as YCSB's
``CoreWorkload.buildDeterministicValue``, so that every read can be checked."""

from __future__ import annotations

from functools import lru_cache

_M32 = 0xFFFFFFFF


def _hash_update(h: int, text: bytes) -> int:
    """Java ``String.hashCode`` of ``s + text`` from ``h`` = hashCode(s) (unsigned 32-bit)."""
    for c in text:
        h = (31 * h + c) & _M32
    return h


@lru_cache(maxsize=1 << 14)
def deterministic_value(key: bytes, field: bytes, size: int) -> bytes:
    """``key:field``, then ``:`` and the Java hashCode (signed decimal) of everything so far
    (the ``:`` included), repeated until ``size`` characters, cut to ``size``."""
    out = bytearray(key + b":" + field)
    h = _hash_update(0, bytes(out))
    while len(out) < size:
        out += b":"
        h = (31 * h + 0x3A) & _M32
        num = b"%d" % (h - (1 << 32) if h & 0x80000000 else h)
        out += num
        h = _hash_update(h, num)
    return bytes(out[:size])

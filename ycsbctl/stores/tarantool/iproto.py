"""Tarantool's binary protocol (IPROTO, msgpack), the few pieces ycsbctl speaks.

A server greets each connection with 128 bytes (its version line, then a base64 salt). Every request
and reply is ``0xce <uint32 length>``, a header map and a body map. Header keys: ``0x00`` the request
type (a reply's: 0 = OK, ``0x8000 | errcode`` = error), ``0x01`` sync, ``0x05`` schema version. Body keys
used here: ``0x10`` space, ``0x11`` index, ``0x12`` limit, ``0x13`` offset, ``0x14`` iterator, ``0x20``
key, ``0x21`` tuple, ``0x27`` Lua expression, ``0x30`` data (a reply's
tuples), ``0x31`` error message, ``0x22`` a function's name. Requests: SELECT 1, INSERT 2, REPLACE 3, UPDATE 4,
DELETE 5, EVAL 8, CALL 10, PING 64 (Tarantool 2.6's ``src/box/iproto_constants.h``).

Requests are built as bytes here (the msgpack library's packer costs more for the few shapes we send);
replies on the timed path are judged by their first bytes (:func:`reply_code`, :func:`data_count`; Tarantool
writes a reply's integers and its data array's size at full width: ``0xce``/``0xcf``, ``0xdd``);
everything else decodes them with ``msgpack``.
"""

from __future__ import annotations

import struct
from typing import Any

SELECT, INSERT, REPLACE, UPDATE, DELETE, EVAL, CALL, PING = 1, 2, 3, 4, 5, 8, 10, 64
# iterators (box.index.EQ …): EQ 0, REQ 1, ALL 2, LT 3, LE 4, GE 5, GT 6
EQ, GE = 0, 5
GREETING_BYTES = 128
SPACE_ID = 1024  # YCSB's tarantool binding: space ``ycsb``, id 1024 (tarantool.space)
SPACE_NAME = "ycsb"
ERR_TUPLE_FOUND = 3  # "Duplicate key exists in unique index": an insert of a key already stored


GREETING_START = b"Tarantool "  # how every Tarantool greeting begins (``Tarantool 2.10.0 (Binary) <uuid>``)


def not_a_greeting(data: bytes) -> str | None:
    """None while ``data`` (the first bytes a server sent) may still be a Tarantool greeting, else what answered
    instead, in words: a server that greets first with something else is told at once, not after a timeout."""
    if data[:len(GREETING_START)] == GREETING_START[:len(data)]:
        return None
    return f"not a Tarantool server: it greeted with {what_greeted(data)}"


def what_greeted(data: bytes) -> str:
    """What the first bytes ``data`` a server sent say it is: a MySQL-protocol greeting (MySQL, MariaDB, SphinxQL:
    its version), Sphinx searchd's API version (4 bytes), an HTTP reply's status line, a RESP error or status
    (Redis), else the bytes themselves (the first 40)."""
    line = data.split(b"\r\n", 1)[0][:60].decode(errors="replace")
    version, nul, _ = data[5:].partition(b"\0")  # a MySQL handshake's server version, up to its NUL
    if data[3:5] == b"\0\n" and nul:  # after a 3-byte length: sequence 0, protocol 10
        said = version[:40].decode(errors="replace")
        return f"a MySQL-protocol handshake (MySQL, MariaDB or SphinxQL), version {said!r}"
    if len(data) == 4 and data[:3] == b"\0\0\0" and data[3]:
        return f"4 bytes, a protocol version ({data[3]}), as Sphinx searchd's API port does"
    if data[:5] == b"HTTP/":
        return f"an HTTP reply ({line!r})"
    if data[:1] in (b"-", b"+") and b"\r\n" in data:
        return f"a RESP reply, as Redis speaks ({line!r})"
    return f"{len(data)} byte{' that is' if len(data) == 1 else 's that are'} not a Tarantool greeting ({data[:40]!r})"


def uint(n: int) -> bytes:
    """A msgpack unsigned integer."""
    if n < 0x80:
        return bytes((n,))
    if n < 0x100:
        return b"\xcc" + bytes((n,))
    if n < 0x10000:
        return b"\xcd" + n.to_bytes(2, "big")
    if n < 0x100000000:
        return b"\xce" + n.to_bytes(4, "big")
    return b"\xcf" + n.to_bytes(8, "big")


def string(s: bytes) -> bytes:
    """A msgpack str (Tarantool's ``string`` fields; YCSB's values are printable ASCII)."""
    n = len(s)
    if n < 32:
        return bytes((0xA0 | n,)) + s
    if n < 0x100:
        return b"\xd9" + bytes((n,)) + s
    if n < 0x10000:
        return b"\xda" + n.to_bytes(2, "big") + s
    return b"\xdb" + n.to_bytes(4, "big") + s


def array(n: int) -> bytes:
    if n < 16:
        return bytes((0x90 | n,))
    if n < 0x10000:
        return b"\xdc" + n.to_bytes(2, "big")
    return b"\xdd" + n.to_bytes(4, "big")


def frame(kind: int, body: bytes, sync: int = 0) -> bytes:
    """One request: length, header ``{type, sync}``, ``body`` (an encoded map)."""
    head = b"\x82\x00" + uint(kind) + b"\x01" + uint(sync)
    return b"\xce" + struct.pack(">I", len(head) + len(body)) + head + body


def select_body(space: int, key: bytes, limit: int = 1, iterator: int = EQ, index: int = 0) -> bytes:
    """``{space, index, limit, offset 0, iterator, key [key]}``."""
    return (b"\x86\x10" + uint(space) + b"\x11" + uint(index) + b"\x12" + uint(limit) + b"\x13\x00\x14"
            + uint(iterator) + b"\x20\x91" + string(key))


def tuple_body(space: int, fields: list[bytes]) -> bytes:
    """``{space, tuple [...]}`` of an INSERT or REPLACE (every field a string)."""
    return b"\x82\x10" + uint(space) + b"\x21" + array(len(fields)) + b"".join(map(string, fields))


def update_body(space: int, key: bytes, ops: list[tuple[int, bytes]]) -> bytes:
    """``{space, index 0, key [key], tuple [["=", field_no, value], …]}``: an UPDATE's operations go under
    the tuple key (field numbers from 0)."""
    body = b"".join(b"\x93\xa1=" + uint(no) + string(v) for no, v in ops)
    return (b"\x84\x10" + uint(space) + b"\x11\x00\x20\x91" + string(key) + b"\x21" + array(len(ops)) + body)


def key_body(space: int, key: bytes) -> bytes:
    """``{space, index 0, key [key]}`` of a DELETE."""
    return b"\x83\x10" + uint(space) + b"\x11\x00\x20\x91" + string(key)


def eval_body(expr: str, args: list[Any] | None = None) -> bytes:
    import msgpack

    return msgpack.packb({0x27: expr, 0x21: args or []})


def call_body(function: str, args: list[Any]) -> bytes:
    """``{function name, tuple [args]}`` of a CALL (a Lua function the server defines)."""
    import msgpack

    return msgpack.packb({0x22: function, 0x21: args})


_UINT_SIZE = {0xCC: 2, 0xCD: 3, 0xCE: 5, 0xCF: 9}


def _skip_uint(data: bytes, pos: int) -> int:
    b = data[pos]
    return pos + 1 if b < 0x80 else pos + _UINT_SIZE[b]


def reply_code(data: bytes, pos: int) -> int:
    """The type of the reply whose header map starts at ``pos`` (0 = OK; errors are ``0x8000 | code``).
    Tarantool writes the type first."""
    b = data[pos + 2]
    if b < 0x80:
        return b
    if b == 0xCD:
        return data[pos + 3] << 8 | data[pos + 4]
    return int.from_bytes(data[pos + 3:pos + 3 + _UINT_SIZE[b] - 1], "big")


def body_start(data: bytes, pos: int) -> int:
    """Where the body of the reply whose header map starts at ``pos`` begins (its keys are one byte each)."""
    n = data[pos] & 0x0F
    pos += 1
    for _ in range(n):
        pos = _skip_uint(data, pos + 1)
    return pos


def data_count(data: bytes, pos: int, end: int) -> int:
    """Tuples in an OK reply whose body starts at ``pos``: ``{0x30: [tuples]}`` (-1: another shape)."""
    if pos + 3 > end or data[pos] != 0x81 or data[pos + 1] != 0x30:
        return -1
    b = data[pos + 2]
    if 0x90 <= b <= 0x9F:
        return b & 0x0F
    if b == 0xDD:  # Tarantool writes the data array's size as a uint32, whatever it is
        return int.from_bytes(data[pos + 3:pos + 7], "big")
    if b == 0xDC:
        return data[pos + 3] << 8 | data[pos + 4]
    return -1


def error_message(body: bytes) -> str:
    """The message of an error reply's body (``{0x31: message}``)."""
    import msgpack

    try:
        decoded = msgpack.unpackb(body, raw=False, strict_map_key=False)
    except Exception:  # noqa: BLE001 - a broken body is said as such
        return "an error reply ycsbctl could not decode"
    msg = decoded.get(0x31) if isinstance(decoded, dict) else None
    return str(msg) if msg else "an error reply without a message"


def decode_body(body: bytes) -> dict[int, Any]:
    import msgpack

    return msgpack.unpackb(body, raw=True, strict_map_key=False)


def record_fields(tup: list[Any], wanted: set[bytes] | None = None) -> dict[bytes, bytes]:
    """YCSB's layout ``[key, name, value, name, value, …]`` → ``{name: value}`` (only ``wanted`` names,
    as YCSB's ``tupleConvertFilter``)."""
    out: dict[bytes, bytes] = {}
    for i in range(1, len(tup) - 1, 2):
        name, value = tup[i], tup[i + 1]
        name = name if isinstance(name, bytes) else str(name).encode()
        if wanted is None or name in wanted:
            out[name] = value if isinstance(value, bytes) else str(value).encode()
    return out

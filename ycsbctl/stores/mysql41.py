"""The MySQL client/server protocol's framing, shared by the stores that speak it directly (MariaDB's wire
path, SphinxQL's ``mysql41`` listener): packets (3-byte length, sequence number), length-encoded integers,
text-protocol rows, ERR packets, and values quoted for a statement's text."""

from __future__ import annotations


def packet(payload: bytes, seq: int = 0) -> bytes:
    """``payload`` framed: its 3-byte little-endian length and the sequence number ``seq``."""
    return len(payload).to_bytes(3, "little") + bytes((seq,)) + payload


def quote(v: bytes) -> bytes:
    """``v`` inside single quotes, backslash and quote escaped (the default sql_mode's escapes, SphinxQL's too;
    YCSB's values are printable ASCII)."""
    if b"\\" in v:
        v = v.replace(b"\\", b"\\\\")
    if b"'" in v:
        v = v.replace(b"'", b"\\'")
    return v


def lenenc(data: bytes, pos: int) -> tuple[int, int]:
    """A length-encoded integer at ``pos``: (value, position after it)."""
    first = data[pos]
    if first < 0xFB:
        return first, pos + 1
    if first == 0xFC:
        return int.from_bytes(data[pos + 1:pos + 3], "little"), pos + 3
    if first == 0xFD:
        return int.from_bytes(data[pos + 1:pos + 4], "little"), pos + 4
    return int.from_bytes(data[pos + 1:pos + 9], "little"), pos + 9


def row_values(payload: bytes) -> list[bytes | None]:
    """The columns of a text-protocol row (None for NULL, sent as 0xFB)."""
    out: list[bytes | None] = []
    pos = 0
    while pos < len(payload):
        if payload[pos] == 0xFB:
            out.append(None)
            pos += 1
            continue
        n, pos = lenenc(payload, pos)
        out.append(payload[pos:pos + n])
        pos += n
    return out


def error_text(payload: bytes) -> str:
    """Code, SQLSTATE (where the server sends one) and message of an ERR packet."""
    code = int.from_bytes(payload[1:3], "little")
    if payload[3:4] == b"#":
        return f"{payload[9:].decode(errors='replace')} (error {code}, SQLSTATE {payload[4:9].decode()})"
    return f"{payload[3:].decode(errors='replace')} (error {code})"

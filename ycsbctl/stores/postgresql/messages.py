"""PostgreSQL's wire protocol 3.0 as the wire path reads and writes it: message framing, one operation's
reply (:class:`Result`), the endings of a point operation's reply that decide its status alone, an
ErrorResponse's words (:func:`error_text`) and a DataRow's columns (:func:`row_values`).
"""

from __future__ import annotations

import struct

from ycsbctl.stores.binding import Status

_I32 = struct.Struct(">i")
_I16 = struct.Struct(">h")
_HEAD = struct.Struct(">Bi")  # message type, length (itself included)
# Execute (unnamed portal, all rows), Sync
EXECUTE_SYNC = b"E\x00\x00\x00\x09\x00\x00\x00\x00\x00" + b"S\x00\x00\x00\x04"
OK, NOT_FOUND, ERROR = Status.OK, Status.NOT_FOUND, Status.ERROR


class Result:
    """One operation's reply: rows (DataRows counted), the first row's body (or the reply it is in:
    ``raw``), the command tag (``UPDATE 1``) and the error, if any."""

    __slots__ = ("rows", "row", "tag", "error", "raw", "more")

    def __init__(self, rows: int, row: bytes | None, tag: bytes, error: str | None, raw: bytes = b"",
                 more: list[bytes] | None = None) -> None:
        self.rows, self.row, self.tag, self.error, self.raw = rows, row, tag, error, raw
        self.more = more  # the rows after the first, when they were asked for (PgWireBinding.sql)

    def first_row(self) -> bytes | None:
        """The first DataRow's body (found in ``raw`` when the reply was read by its ending only)."""
        if self.row is None and self.rows:
            pos = 0
            while pos < len(self.raw):
                t, size = _HEAD.unpack_from(self.raw, pos)
                if t == 68:
                    self.row = self.raw[pos + 5:pos + 1 + size]
                    break
                pos += 1 + size
        return self.row


def _complete(tag: bytes) -> bytes:
    return b"C" + _I32.pack(len(tag) + 5) + tag + b"\x00"


READY = b"Z\x00\x00\x00\x05I"  # ReadyForQuery, idle: the end of every reply to a Sync outside a transaction
# The endings of a point operation's reply (CommandComplete, then READY): rows, tag and the status it
# means (what PgWireBinding.status says of it: a row read or touched is OK, none is NOT_FOUND). An
# error reply ends with an ErrorResponse instead, so such an ending means the operation succeeded.
_ENDINGS = {_complete(t): (int(t.split()[-1]) if t.startswith(b"SELECT") else 0, t,
                           int(NOT_FOUND if t.endswith(b" 0") else OK))
            for t in (b"SELECT 1", b"SELECT 0", b"UPDATE 1", b"UPDATE 0", b"DELETE 1", b"DELETE 0")}
_INSERTED = _complete(b"INSERT 0 1")
_INSERT_ENDING = (0, b"INSERT 0 1", int(OK))
_BIND_TAIL = b"\x00\x00" + EXECUTE_SYNC  # no result formats (text), then Execute and Sync


# SQLSTATEs whose message does not say what to do about it, with what to say
SQLSTATE_HINTS = {"53300": "too many connections: more client threads than the server's max_connections allows; "
                           "lower --threads or raise max_connections"}


def error_text(body: bytes) -> str:
    """The message (``M``) and SQLSTATE (``C``) of an ErrorResponse body, with a hint for a few
    (:data:`SQLSTATE_HINTS`)."""
    fields = {f[:1]: f[1:].decode(errors="replace") for f in body.split(b"\x00") if f}
    code = fields.get(b"C", "?")
    hint = SQLSTATE_HINTS.get(code)
    if "no encryption" in fields.get(b"M", ""):  # pg_hba.conf lets this client in over TLS only
        hint = "the server takes this client over TLS only: add ?sslmode=require to the URL"
    return f"{fields.get(b'M', 'error')} (SQLSTATE {code}" + (f": {hint})" if hint else ")")


def row_values(body: bytes) -> list[bytes | None]:
    """The columns of a DataRow body (text format; None for NULL)."""
    n = _I16.unpack_from(body)[0]
    out: list[bytes | None] = []
    pos = 2
    for _ in range(n):
        size = _I32.unpack_from(body, pos)[0]
        pos += 4
        if size < 0:
            out.append(None)
        else:
            out.append(body[pos:pos + size])
            pos += size
    return out

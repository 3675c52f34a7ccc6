"""SphinxQL's side of the MySQL client/server protocol (searchd's ``mysql41`` listener), as ycsbctl speaks it:
packets (3-byte length, sequence number), the greeting and a password-less handshake (searchd takes any user
and checks no password), COM_QUERY with the statement as text, and replies read packet by packet for what
decides an operation's status — rows, affected rows, the error.

Not a driver: ``asyncmy``/``aiomysql`` await a future per statement and build every row (``bench
sql_clients`` measured ~29 µs of client CPU per point read with asyncmy against MariaDB); searchd's replies
are short and of few shapes.
"""

from __future__ import annotations

import struct

from ycsbctl.stores.binding import WireProtocol
from ycsbctl.stores.mysql41 import error_text, lenenc, packet, row_values

# CLIENT_LONG_PASSWORD | LONG_FLAG | PROTOCOL_41 | TRANSACTIONS | SECURE_CONNECTION (no CLIENT_DEPRECATE_EOF:
# searchd 2.2 ends column definitions and rows with EOF packets)
CAPABILITIES = 1 | 4 | 512 | 8192 | 32768
UTF8 = 33




def query(sql: bytes) -> bytes:
    """COM_QUERY of ``sql``."""
    return packet(b"\x03" + sql)


def handshake_response(user: bytes = b"ycsbctl") -> bytes:
    """The client's answer to the greeting: capabilities, max packet, charset, user, no auth data."""
    return packet(struct.pack("<IIB", CAPABILITIES, 1 << 24, UTF8) + b"\x00" * 23 + user + b"\x00\x00", 1)










class Reply:
    """One statement's reply: its rows (the first kept, and the column names), rows affected, the error."""

    __slots__ = ("rows", "first", "names", "affected", "error", "more")

    def __init__(self, rows: int = 0, first: bytes | None = None, names: list[bytes] | None = None,
                 affected: int = 0, error: str | None = None) -> None:
        self.rows, self.first, self.names, self.affected, self.error = rows, first, names or [], affected, error
        self.more: list[bytes] = []  # the rows after the first

    def all_rows(self) -> list[list[bytes | None]]:
        """Every row's columns."""
        return [row_values(p) for p in ([self.first] if self.first is not None else []) + self.more]

    def record(self) -> dict[bytes, bytes]:
        """The first row as column name → value."""
        return {n: v for n, v in zip(self.names, row_values(self.first or b"")) if v is not None}


class SphinxQL(WireProtocol):
    """Packets in order. Before :attr:`ready`, each packet goes whole to the next waiter (the handshake); then
    each statement's packets, up to its last (OK, ERR, or the EOF after its rows), make one :class:`Reply` for
    the next waiter — a chain (``replied(reply)``) or a future."""

    def __init__(self) -> None:
        super().__init__()
        self.buf = b""
        self.ready = False
        self.early: list[bytes] = []  # handshake packets nothing waits for yet
        self.state = 0  # 0 first packet, 1 column definitions, 2 rows
        self.reply = Reply()
        self.head = b""  # the last result set's column count, definitions and EOF, as sent (see skim)
        self.chains: tuple[type, ...] = ()  # the chain classes whose replies may be skimmed (the binding's)

    def skim(self, data: bytes) -> int:
        """Rows of the one whole reply that ``data`` holds, told from its frame alone: 0 for an OK packet
        (a write), else the row packets of a result set whose column definitions are :attr:`head` byte for
        byte (a READ's are the same every time: one walk of its packets learns them); -1 for anything else
        (an error, more or less than one reply, other columns): :meth:`parsed` reads it. The rows themselves
        are not built: what an operation's status needs is whether there are any."""
        n = len(data)
        if n < 5:
            return -1
        if data[4] == 0:  # OK
            return 0 if 4 + (data[0] | data[1] << 8 | data[2] << 16) == n else -1
        head = self.head
        if not head or not data.startswith(head):
            if data[4] == 0xFF:
                return -1
            pos = 0
            while True:  # the column count, the definitions, the EOF after them
                if pos + 4 > n:
                    return -1
                end = pos + 4 + (data[pos] | data[pos + 1] << 8 | data[pos + 2] << 16)
                if end > n:  # a definition cut short: not a whole reply
                    return -1
                if pos and data[pos + 4] == 0xFE and end - pos < 13:  # the EOF after the definitions
                    break
                pos = end
            head = self.head = data[:end]
        pos, rows = len(head), 0
        while pos + 4 < n:
            end = pos + 4 + (data[pos] | data[pos + 1] << 8 | data[pos + 2] << 16)
            first = data[pos + 4]
            if first == 0xFE and end - pos < 13:  # the EOF after the rows
                return rows if end == n else -1
            if first == 0xFF:
                return -1
            rows += 1
            pos = end
        return -1

    def _done(self, reply: Reply) -> None:
        self.state, self.reply = 0, Reply()
        if not self.waiters:
            self.unsolicited(reply.error)
            return
        w = self.waiters.popleft()
        if hasattr(w, "replied"):
            w.replied(reply)
        elif not w.done():
            w.set_result(reply)
        else:
            self.late += 1

    def data_received(self, data: bytes) -> None:
        waiters = self.waiters
        if not self.buf and not self.state and waiters and waiters[0].__class__ in self.chains:
            rows = self.skim(data)  # a chain's whole reply in this read (the usual case)
            if rows >= 0:
                waiters.popleft().skimmed(rows)
                return
        self.parsed(data)

    def parsed(self, data: bytes) -> None:
        """Packets read one by one into :class:`Reply` objects (handshakes, errors, plug-ins' statements,
        replies split over reads)."""
        if self.buf:
            data = self.buf + data
            self.buf = b""
        pos, n = 0, len(data)
        while n - pos >= 4:
            size = data[pos] | data[pos + 1] << 8 | data[pos + 2] << 16
            end = pos + 4 + size
            if end > n:
                break
            p = data[pos + 4:end]
            pos = end
            if not self.ready:
                self.early.append(p)
                while self.early and self.waiters:
                    self.waiters.popleft().set_result(self.early.pop(0))
                continue
            first = p[0] if p else 0
            r = self.reply
            if self.state == 0:
                if first == 0:
                    self._done(Reply(affected=lenenc(p, 1)[0]))
                elif first == 0xFF:
                    self._done(Reply(error=error_text(p)))
                else:  # a result set: its column count, then the definitions and an EOF
                    self.state = 1
            elif self.state == 1:
                if first == 0xFE and size < 9:  # the EOF after the column definitions
                    self.state = 2
                else:  # a column definition: catalog, schema, table, org_table, name …
                    at = 0
                    for _ in range(4):
                        length, at = lenenc(p, at)
                        at += length
                    length, at = lenenc(p, at)
                    r.names.append(p[at:at + length])
            elif first == 0xFE and size < 9:  # the EOF after the rows
                self._done(r)
            elif first == 0xFF:
                r.error = error_text(p)
                self._done(r)
            else:
                if not r.rows:
                    r.first = p
                else:
                    r.more.append(p)
                r.rows += 1
        if pos < n:
            self.buf = data[pos:]


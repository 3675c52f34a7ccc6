"""The MariaDB wire binding's reply parser: a result set, an OK and an ERR cut anywhere by the reads
give what they give whole (packets as the protocol defines them, CLIENT_DEPRECATE_EOF on)."""

from __future__ import annotations

from ycsbctl.stores.mariadb.wire import _MyProtocol, packet, quote, row_values


class Waiter:
    def __init__(self) -> None:
        self.result = None

    def done(self) -> bool:
        return self.result is not None

    def set_result(self, r) -> None:
        self.result = r


def _lenenc_str(v: bytes) -> bytes:
    return bytes((len(v),)) + v


ROWS = (packet(b"\x02", 1) + packet(b"def-column-1", 2) + packet(b"def-column-2", 3)
        + packet(_lenenc_str(b"user1") + _lenenc_str(b"a" * 100), 4)
        + packet(b"\xfe\x00\x00\x02\x00\x00\x00", 5))  # OK packet with the 0xFE header: end of rows
OK_MATCHED = packet(b"\x00\x01\x00\x02\x00\x00\x00", 1)  # 1 row matched
ERR = packet(b"\xff\x26\x04#23000Duplicate entry 'user1' for key 'PRIMARY'", 1)


def _parse(chunks: list[bytes]):
    p = _MyProtocol()
    p.handshake = False
    w = Waiter()
    p.waiters.append(w)
    for c in chunks:
        p.data_received(c)
    return w.result, p


def test_replies_cut_at_any_byte_read_as_whole_ones():
    for reply, expect in ((ROWS, (1, 0, None)), (OK_MATCHED, (0, 1, None))):
        whole, _ = _parse([reply])
        assert (whole.rows, whole.affected, whole.error) == expect
        for cut in range(1, len(reply)):
            r, p = _parse([reply[:cut], reply[cut:]])
            assert (r.rows, r.row, r.affected, r.error) == (whole.rows, whole.row, whole.affected, whole.error), cut
            assert not p.buf and not p.waiters and p.state == 0
    r, _ = _parse([ROWS])
    assert row_values(r.row) == [b"user1", b"a" * 100]


def test_an_err_packet_carries_the_servers_code_sqlstate_and_message():
    r, _ = _parse([ERR])
    assert r.error == "Duplicate entry 'user1' for key 'PRIMARY' (error 1062, SQLSTATE 23000)"


def test_quotes_and_backslashes_in_a_value_are_escaped():
    assert quote(b"it's a \\ test") == b"it\\'s a \\\\ test"

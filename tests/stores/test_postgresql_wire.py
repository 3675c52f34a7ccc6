"""The PostgreSQL wire binding's reply parser: a reply cut anywhere by the reads gives the same result as
whole, and an error is read from its ErrorResponse (the server's own message format). The answer to the SSL
request, and a Parse that failed prepared again."""

from __future__ import annotations

import asyncio
import struct

import pytest

from tests.fixtures.bindings import field_values, run_bindings
from tests.fixtures.server_counters import postgresql_table_counters
from tests.fixtures.waiting import wait_until
from tests.fixtures.wire_waiter import Written
from ycsbctl.stores import registry
from ycsbctl.stores.binding import ChainContext, ConnectionLost, Status
from ycsbctl.stores.postgresql.messages import row_values
from ycsbctl.stores.postgresql.wire import PASSWORD_ASKED, PgWireBinding, _PgProtocol
from ycsbctl.workload.core import DELETE, INSERT, READ, UPDATE


class Waiter:
    def __init__(self) -> None:
        self.result = None

    def done(self) -> bool:
        return self.result is not None

    def set_result(self, r) -> None:
        self.result = r


def _msg(t: bytes, body: bytes) -> bytes:
    return t + struct.pack(">i", len(body) + 4) + body


def _row(values: list[bytes]) -> bytes:
    return _msg(b"D", struct.pack(">h", len(values)) + b"".join(struct.pack(">i", len(v)) + v for v in values))


READ_REPLY = (_msg(b"2", b"") + _row([b"user1", b"a" * 100, b"b" * 7]) + _msg(b"C", b"SELECT 1\x00")
              + _msg(b"Z", b"I"))
ERROR_REPLY = (_msg(b"E", b"SERROR\x00C23505\x00Mduplicate key value violates unique constraint\x00\x00")
               + _msg(b"Z", b"I"))


def _parse(chunks: list[bytes]):
    p = _PgProtocol()
    w = Waiter()
    p.waiters.append(w)
    for c in chunks:
        p.data_received(c)
    return w.result, p


def test_a_reply_cut_at_any_byte_reads_as_the_whole_one():
    whole, _ = _parse([READ_REPLY])  # read by its ending
    assert (whole.rows, whole.tag, whole.error) == (1, b"SELECT 1", None)
    assert row_values(whole.first_row()) == [b"user1", b"a" * 100, b"b" * 7]
    for cut in range(1, len(READ_REPLY)):  # read message by message
        r, p = _parse([READ_REPLY[:cut], READ_REPLY[cut:]])
        assert (r.rows, r.first_row(), r.tag, r.error) == (whole.rows, whole.first_row(), whole.tag, whole.error), cut
        assert not p.buf and not p.waiters


def test_an_error_reply_carries_the_servers_message_and_sqlstate():
    r, _ = _parse([ERROR_REPLY])
    assert r.error == "duplicate key value violates unique constraint (SQLSTATE 23505)" and r.rows == 0


def test_replies_of_two_operations_in_one_read_go_to_their_own_waiters():
    p = _PgProtocol()
    a, b = Waiter(), Waiter()
    p.waiters.extend([a, b])
    p.data_received(ERROR_REPLY + READ_REPLY)
    assert a.result.error and b.result.rows == 1 and b.result.error is None


def test_a_reply_read_by_its_ending_says_what_walking_its_messages_says():
    for tag, rows in ((b"UPDATE 1", 0), (b"UPDATE 0", 0), (b"INSERT 0 1", 0), (b"SELECT 0", 0), (b"DELETE 1", 0)):
        reply = _msg(b"1", b"") + _msg(b"2", b"") + _msg(b"C", tag + b"\x00") + _msg(b"Z", b"I")
        fast, _ = _parse([reply])
        slow, _ = _parse([reply[:3], reply[3:]])
        assert (fast.rows, fast.tag, fast.error) == (slow.rows, slow.tag, slow.error) == (rows, tag, None)


def test_an_authentication_ok_is_passed_over_and_a_password_request_ends_the_start_up_at_once():
    ok = _msg(b"R", struct.pack(">i", 0)) + _msg(b"S", b"server_version\x0015\x00") + _msg(b"Z", b"I")
    r, _ = _parse([ok])
    assert r.error is None
    for code in (3, 5, 10):  # cleartext, MD5, SASL (SCRAM): the server then waits for the password, no Z comes
        r, p = _parse([_msg(b"R", struct.pack(">i", code) + (b"SCRAM-SHA-256\x00\x00" if code == 10 else b""))])
        assert r is not None and r.error == PASSWORD_ASKED and not p.waiters, code


def test_a_server_that_accepts_and_never_answers_is_named_as_such():
    async def main() -> str:
        server = await asyncio.start_server(lambda r, w: None, "127.0.0.1", 0)  # accepts, never writes
        port = server.sockets[0].getsockname()[1]
        try:
            with pytest.raises(ConnectionLost) as caught:
                await PgWireBinding(f"postgresql://ycsb@127.0.0.1:{port}/postgres", 0.2).connect()
            return str(caught.value)
        finally:
            server.close()

    assert asyncio.run(main()).endswith(": no answer (timed out)")  # was an empty reason


def _reply(tag: bytes, rows: list[list[bytes]] = ()) -> bytes:
    return _msg(b"2", b"") + b"".join(_row(r) for r in rows) + _msg(b"C", tag + b"\x00") + _msg(b"Z", b"I")


POINT_TAGS = [(b"SELECT 1", 1), (b"SELECT 0", 0), (b"UPDATE 1", 0), (b"UPDATE 0", 0), (b"DELETE 1", 0),
              (b"DELETE 0", 0),
              (b"INSERT 0 1", 0)]


def test_a_point_operations_whole_reply_is_read_by_its_ending_and_any_other_by_its_messages():
    """The fast path keeps the reply as read (``raw``); a walk keeps no bytes. Either way the rows, tag
    and status are what the messages say."""
    b = PgWireBinding("postgresql://ycsb@127.0.0.1:5432/postgres", 1.0)
    for tag, rows in POINT_TAGS:
        reply = _reply(tag, [[b"user1", b"v"]] * rows)
        r, p = _parse([reply])
        assert (r.rows, r.tag, r.error, r.raw) == (rows, tag, None, reply), tag
        assert not p.waiters and not p.buf
        op = {b"S": READ, b"U": UPDATE, b"D": DELETE, b"I": INSERT}[tag[:1]]
        found = rows if op == READ else int(tag.split()[-1])
        assert b.status(op, r) == (Status.OK if found else Status.NOT_FOUND), tag
        if rows:
            assert row_values(r.first_row()) == [b"user1", b"v"]
    for tag, rows in ((b"UPDATE 2", []), (b"SELECT 2", [[b"a"], [b"b"]]), (b"INSERT 0 2", [])):
        r, _ = _parse([_reply(tag, rows)])
        assert (r.raw, r.tag, r.rows) == (b"", tag, len(rows)), tag
    r, _ = _parse([_reply(b"SELECT 2", [[b"a"], [b"b"]])])
    assert (r.rows, row_values(r.row)) == (2, [b"a"])
    p = _PgProtocol()
    first, second = Waiter(), Waiter()
    p.waiters.extend([first, second])  # two in flight: walked, each reply to its own
    p.data_received(_reply(b"UPDATE 1"))
    p.data_received(_reply(b"SELECT 0"))
    assert (first.result.raw, first.result.tag, second.result.tag) == (b"", b"UPDATE 1", b"SELECT 0")
    gone = Waiter()
    gone.result = "timed out"
    p.waiters.append(gone)
    p.data_received(_reply(b"SELECT 1", [[b"x"]]))  # its request timed out: counted late, answers nothing
    assert p.late == 1 and gone.result == "timed out" and not p.waiters


def _messages(data: bytes) -> list[tuple[bytes, bytes]]:
    """A frontend stream split into (type, body) as the protocol frames it (type byte, int32 length)."""
    out, pos = [], 0
    while pos < len(data):
        (size,) = struct.unpack_from(">i", data, pos + 1)
        out.append((data[pos:pos + 1], data[pos + 5:pos + 1 + size]))
        pos += 1 + size
    assert pos == len(data)
    return out


def _bind(body: bytes) -> tuple[bytes, bytes, list[bytes | None]]:
    portal, _, rest = body.partition(b"\x00")
    name, _, rest = rest.partition(b"\x00")
    (formats,) = struct.unpack_from(">h", rest)
    assert formats == 0  # every parameter in text
    (n,) = struct.unpack_from(">h", rest, 2)
    pos, params = 4, []
    for _ in range(n):
        (size,) = struct.unpack_from(">i", rest, pos)
        pos += 4
        params.append(None if size < 0 else rest[pos:pos + size])
        pos += max(size, 0)
    assert rest[pos:] == b"\x00\x00"  # no result formats: text
    return portal, name, params


def test_a_request_is_parse_once_then_bind_execute_sync_as_the_protocol_frames_them():
    b = PgWireBinding("postgresql://ycsb@127.0.0.1:5432/postgres", 1.0)
    params = [b"user1", b"x" * 300, None, b""]
    first = _messages(b.request("SELECT $1, $2, $3, $4", b"y0", params))
    assert [t for t, _ in first] == [b"P", b"B", b"E", b"S"]
    assert first[0][1] == b"y0\x00SELECT $1, $2, $3, $4\x00\x00\x00"  # name, query, no parameter types
    assert _bind(first[1][1]) == (b"", b"y0", params)
    assert first[2][1] == b"\x00\x00\x00\x00\x00" and first[3][1] == b""  # unnamed portal, every row; Sync
    again = _messages(b.request("SELECT $1, $2, $3, $4", b"y0", params[:1] * 4))
    assert [t for t, _ in again] == [b"B", b"E", b"S"] and _bind(again[0][1])[2] == params[:1] * 4
    keys = [b"user1", b"user22", b"user333", b"user4444", b"user55555"]
    for names in (None, (b"field0",), (b"field1", b"field9")):
        for key in keys * 2:  # the second time through, each key length's head is known
            sql, name = b.statement("read", "usertable", names)
            bind = [m for t, m in _messages(b.read_request("usertable", key, names)) if t == b"B"]
            assert _bind(bind[0]) == (b"", name, [key]), (names, key)
            assert sql in b.prepared


def test_the_sslmode_is_read_as_libpq_reads_it_and_only_tls_options_keep_the_wire_path():
    from ycsbctl.errors import UserError
    from ycsbctl.stores.postgresql.wire import tls_of, wire_eligible

    base = "postgresql://ycsb@h:5432/db"
    for query, want in (("", None), ("?sslmode=disable", None), ("?sslmode=allow", None),
                        ("?sslmode=prefer", (None, False, False, False)),
                        ("?sslmode=require", (None, False, False, True)),
                        ("?sslmode=require&sslrootcert=/ca.crt", ("/ca.crt", True, False, True)),
                        ("?sslmode=require&sslrootcert=system", (None, False, False, True)),
                        ("?sslmode=verify-ca", (None, True, False, True)),
                        ("?sslmode=VERIFY-FULL&sslrootcert=/ca.crt", ("/ca.crt", True, True, True))):
        t = tls_of(base + query)
        assert (None if t is None else (t.ca_file, t.verify, t.check_hostname, t.required)) == want, query
    with pytest.raises(UserError, match="sslmode=maybe in a PostgreSQL URL: use one of disable, allow"):
        wire_eligible(base + "?sslmode=maybe", {})
    assert wire_eligible(base + "?sslmode=require&sslrootcert=/ca.crt", {})
    for url in ("postgresql://ycsb:pw@h/db", "postgresql://a:1,b:2/db", base + "?application_name=x",
                base + "?sslcert="):
        assert not wire_eligible(url, {}), url
    assert not wire_eligible(base, {"postgresql.driver": "asyncpg"}) and wire_eligible(base,
                                                                                       {"postgresql.driver": "WIRE"})
    with pytest.raises(UserError, match="postgresql.driver=wire needs"):
        wire_eligible("postgresql://ycsb:pw@h/db", {"postgresql.driver": "wire"})
    with pytest.raises(UserError, match="postgresql.driver=psycopg: use auto, wire or asyncpg"):
        wire_eligible(base, {"postgresql.driver": "psycopg"})


def test_an_error_says_its_sqlstate_and_what_to_do_where_the_message_does_not():
    from ycsbctl.stores.postgresql.messages import error_text

    assert error_text(b"SFATAL\x00C53300\x00Msorry, too many clients already\x00\x00") == (
        "sorry, too many clients already (SQLSTATE 53300: too many connections: more client threads than the "
        "server's max_connections allows; lower --threads or raise max_connections)")
    assert error_text(b"SFATAL\x00C28000\x00Mno pg_hba.conf entry for host \"127.0.0.1\", no "
                      b"encryption\x00\x00").endswith(
        "(SQLSTATE 28000: the server takes this client over TLS only: add ?sslmode=require to the URL)")
    assert error_text(b"SERROR\x00\x00") == "error (SQLSTATE ?)"
    assert row_values(struct.pack(">h", 3) + struct.pack(">i", -1) + struct.pack(">i", 2) + b"ab"
                      + struct.pack(">i", 0)) == [None, b"ab", b""]


def test_a_start_up_error_the_server_closed_after_is_why_the_connection_closed_and_nothing_else_is():
    refused = _msg(b"E", b"SFATAL\x00C3D000\x00Mdatabase \"nope\" does not exist\x00\x00")  # no ReadyForQuery follows
    p = _PgProtocol()
    p.data_received(refused)
    p.connection_lost(None)
    assert p.lost == 'closed by the server: database "nope" does not exist (SQLSTATE 3D000)'
    p = _PgProtocol()
    start_up = Waiter()
    p.waiters.append(start_up)
    p.data_received(_msg(b"R", struct.pack(">i", 5) + b"salt"))  # a password asked: said to the start-up
    p.connection_lost(None)
    assert start_up.result.error == PASSWORD_ASKED and p.lost == "connection closed by the server"
    p = _PgProtocol()
    p.unsolicited("ERROR: terminating connection due to administrator command")
    p.connection_lost(None)  # no start-up error: what the server said unasked is why
    assert p.lost == "closed by the server: ERROR: terminating connection due to administrator command"
    p = _PgProtocol()
    p.unsolicited("the first word")
    p.data_received(refused)
    p.connection_lost(None)
    assert p.lost == "closed by the server: the first word"
    p = _PgProtocol()
    p.connection_lost(None)
    assert p.lost == "connection closed by the server"


def test_a_url_without_a_port_user_or_database_takes_postgresqls_defaults():
    b = PgWireBinding("postgresql://db.example", 1.0)
    assert (b.host, b.port, b.user, b.db) == ("db.example", 5432, "postgres", "postgres")
    b = PgWireBinding("postgresql://y%40c@[::1]:5433/other", 1.0)
    assert (b.host, b.port, b.user, b.db) == ("::1", 5433, "y@c", "other")


def test_tls_is_asked_with_the_protocols_sslrequest_and_a_server_that_declines_is_refused_when_required():
    """SSLRequest as the protocol defines it (length 8, then the code 1234 in the high 16 bits and 5679 in the low:
    80877103); a server that answers N is refused in one line where the URL requires TLS."""
    from ycsbctl.stores.postgresql.wire import NO_TLS, SSL_REQUEST

    assert struct.pack(">ii", 8, (1234 << 16) | 5679) == SSL_REQUEST
    asked: list[bytes] = []

    async def main() -> tuple[str, int]:
        async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            asked.append(await reader.readexactly(8))
            writer.write(b"N")
            await writer.drain()

        server = await asyncio.start_server(serve, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        try:
            with pytest.raises(ConnectionLost) as caught:
                await PgWireBinding(f"postgresql://ycsb@127.0.0.1:{port}/postgres?sslmode=require", 2.0).connect()
            return str(caught.value), port
        finally:
            server.close()

    said, port = asyncio.run(main())
    assert asked == [SSL_REQUEST] and said.endswith(f"127.0.0.1:{port} {NO_TLS}"), said


def test_a_plugins_statement_gives_its_rows_and_the_rows_a_write_changed_not_those_a_select_returned():
    """sql() → (status, rows, rows changed): a SELECT's tag counts the rows returned (0 changed), an INSERT's /
    UPDATE's / DELETE's the rows written, a DDL's tag has no count (0)."""
    async def go() -> list[tuple]:
        b = PgWireBinding("postgresql://ycsb@127.0.0.1:5432/postgres", 1.0)
        b.loop, b.proto = asyncio.get_running_loop(), _PgProtocol()
        b.proto.transport = Written()
        out = []
        for tag, rows in ((b"SELECT 2", [[b"a", b"1"], [b"b", b"2"]]), (b"SELECT 0", []), (b"INSERT 0 3", []),
                          (b"UPDATE 4", []), (b"DELETE 5", []), (b"CREATE TABLE", []), (b"VACUUM", [])):
            call = asyncio.ensure_future(b.sql("SELECT 1", ()))
            await asyncio.sleep(0)
            b.proto.data_received(_msg(b"1", b"") + _reply(tag, rows))
            out.append(await asyncio.wait_for(call, 5))
        return out

    assert asyncio.run(go()) == [(Status.OK, [(b"a", b"1"), (b"b", b"2")], 0), (Status.OK, [], 0),
                                 (Status.OK, [], 3), (Status.OK, [], 4), (Status.OK, [], 5), (Status.OK, [], 0),
                                 (Status.OK, [], 0)]



@pytest.mark.truth
def test_a_chains_read_and_update_that_touch_no_row_are_not_found_as_the_server_counts(postgresql):
    """The engine's fast path (the wire chain: each reply read by its ending, ``UPDATE 0`` as much as ``SELECT 0``)
    over an absent key and a present one, an UPDATE and a READ of each, then the absent one's UPDATE again: an
    operation is OK exactly when the server touched or returned a row — pg_stat_user_tables' own counts: one row
    updated, two fetched by the index scans (the present key's READ and UPDATE) — else NOT_FOUND, as YCSB's jdbc
    binding counts a read without a row; never OK (the probe's 'UPDATE 0 counted as OK')."""
    url = postgresql.url
    registry.for_url(url).clear(url, "usertable")
    run_bindings(lambda bs: bs[0].insert("usertable", b"user-present", field_values()), url)
    before = wait_until(lambda: (c := postgresql_table_counters(url)).get("ins") == 1 and c,
                        what="the one insert in pg_stat_user_tables")
    names = [b"field%d" % i for i in range(10)]
    ops = [UPDATE, READ, UPDATE, READ, UPDATE]
    keys = [b"user-absent", b"user-absent", b"user-present", b"user-present", b"user-absent"]
    log: list[tuple[int, int]] = []

    async def go(bs):
        assert isinstance(bs[0], PgWireBinding)  # the wire chain, not asyncpg's one call at a time
        ctx = ChainContext(record=lambda op, st, *_: log.append((op, st)), names=[tuple(names)] + [(n,) for n in names],
                           values=lambda f: [b"x" * 7], ack=None, deadline_ns=2**63 - 1, stop_on_error=False,
                           table="usertable")
        return await bs[0].chain(ctx, (ops, keys, [0] * 5, [-1] * 5, [0] * 5), 0, 5)

    assert run_bindings(go, url) == (5, 0)
    after = wait_until(lambda: (c := postgresql_table_counters(url))["idx_scan"] - before["idx_scan"] >= 5 and c,
                       what="the chain's five index scans in pg_stat_user_tables")
    assert after["upd"] - before["upd"] == 1  # the server updated one row: the present one
    fetched = after["idx_fetch"] - before["idx_fetch"]
    nf, ok = int(Status.NOT_FOUND), int(Status.OK)
    assert log == [(UPDATE, nf), (READ, nf), (UPDATE, ok), (READ, ok), (UPDATE, nf)]
    assert sum(st == ok for _, st in log) == fetched == 2, after


def test_a_postgresql_servers_answer_to_the_ssl_request_is_its_first_byte_and_only_the_first_reply_counts():
    from ycsbctl.stores.postgresql.wire import _SslAnswer

    async def answers(*chunks: bytes) -> bytes:
        p = _SslAnswer()
        for c in chunks:
            p.data_received(c)
        return await p.answer

    assert asyncio.run(answers(b"S")) == b"S"
    assert asyncio.run(answers(b"NE", b"S")) == b"N"  # "N", then whatever follows is not the answer


def test_a_postgresql_parse_that_failed_is_prepared_again_and_a_failed_bind_of_a_prepared_statement_keeps_it():
    from ycsbctl.stores.postgresql.messages import Result
    from ycsbctl.stores.postgresql.wire import PgWireBinding

    b = PgWireBinding("postgresql://ycsb@127.0.0.1:1/postgres", 1.0)
    b.prepared, b.read_heads = {"SELECT 1": b"s1", "SELECT 2": b"s2"}, {("usertable", None, 4): b"head"}
    b.parsing = None  # a Bind of a statement prepared before fails: it stays prepared
    assert b.failed(Result(0, None, b"", "deadlock detected")) == Status.ERROR
    assert (b.prepared, b.read_heads) == ({"SELECT 1": b"s1", "SELECT 2": b"s2"}, {("usertable", None, 4): b"head"})
    b.parsing = "SELECT 2"  # its Parse went with this request and failed: parsed again next time
    assert b.failed(Result(0, None, b"", "relation does not exist")) == Status.ERROR
    assert (b.prepared, b.read_heads) == ({"SELECT 1": b"s1"}, {})
    assert b.last_error == "PostgreSQL: relation does not exist"

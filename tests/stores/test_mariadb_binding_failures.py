"""The asyncmy binding's failures without a server (its port closed): a statement's error is ERROR in the
server's words; a timeout, a dropped connection (errors 2006, 2013, 2055) or a socket error that cannot be
made good again ends the client in one line saying why."""

from __future__ import annotations

import asyncio

import pytest
from asyncmy.errors import IntegrityError, InterfaceError, OperationalError

from tests.fixtures.servers import free_port, refused_by_a_late_close
from ycsbctl.stores.binding import ConnectionLost, Status
from ycsbctl.stores.mariadb.binding import MariaBinding


def _failed(exc: BaseException) -> tuple[Status | None, str]:
    b = MariaBinding(f"mysql://root@127.0.0.1:{free_port()}/ycsb", 0.5)
    try:
        return asyncio.run(b._failed(exc)), str(b.last_error)
    except ConnectionLost as lost:
        return None, str(lost)


def test_a_statements_error_is_error_and_a_lost_connection_ends_the_client_saying_why():
    assert _failed(IntegrityError(1062, "Duplicate entry 'user1' for key 'PRIMARY'")) == (
        Status.ERROR, "MariaDB: (1062, \"Duplicate entry 'user1' for key 'PRIMARY'\")")
    assert _failed(OperationalError(1205, "Lock wait timeout exceeded"))[0] is Status.ERROR  # not a lost connection
    for exc, why in ((asyncio.TimeoutError(), "timed out after 0.5 s"),
                     (OperationalError(2013, "Lost connection to server during query"),
                      "(2013, 'Lost connection to server during query')"),
                     (OperationalError(2006, "MySQL server has gone away"), "(2006, 'MySQL server has gone away')"),
                     (OperationalError(2055, "Lost connection to server at 'x', system error: 32"),
                      "(2055, \"Lost connection to server at 'x', system error: 32\")"),
                     (InterfaceError(0, ""), "(0, '')"), (ConnectionResetError(), "ConnectionResetError")):
        st, said = _failed(exc)
        assert st is None and said.startswith(f"lost the MariaDB server ({why}); reconnecting failed:"), said


def test_a_plugins_statement_says_its_rows_and_the_rows_it_matched_as_mariadb_counts_them(mariadb):
    """Against a real server: rows as PyMySQL's cursor reads the same table, rows matched by an UPDATE
    (CLIENT_FOUND_ROWS, as Connector/J), a statement's error as ERROR with no rows and none matched."""
    import pymysql

    from ycsbctl.stores.mariadb.session import connect_args

    b = MariaBinding(mariadb.url, 5.0)

    async def main() -> list:
        await b.connect()
        try:
            return [await b.sql("DROP TABLE IF EXISTS mut_plugin"),
                    await b.sql("CREATE TABLE mut_plugin (a INT, b TEXT)"),
                    await b.sql("INSERT INTO mut_plugin VALUES (?, ?), (?, ?)", (1, "x", 2, "y")),
                    await b.sql("UPDATE mut_plugin SET b = ? WHERE a > ?", ("y", 0)),
                    await b.sql("SELECT a, b FROM mut_plugin ORDER BY a"), await b.sql("SELECT nope FROM mut_plugin")]
        finally:
            await b.close()

    drop, create, insert, update, select, bad = asyncio.run(main())
    a = connect_args(mariadb.url)
    with pymysql.connect(host=a["host"], port=a["port"], user=a["user"], password=a["password"] or "",
                         database=a["db"]) as conn, conn.cursor() as cur:
        cur.execute("SELECT a, b FROM mut_plugin ORDER BY a")
        truth = [tuple(r) for r in cur.fetchall()]
        cur.execute("DROP TABLE mut_plugin")
    assert (insert, update) == ((Status.OK, [], 2), (Status.OK, [], 2))  # both rows matched, one changed
    assert select[:2] == (Status.OK, truth) and truth == [(1, "y"), (2, "y")]
    assert bad == (Status.ERROR, [], 0) and "Unknown column 'nope'" in b.last_error


def test_more_clients_than_max_connections_is_one_line_saying_what_to_do(mariadb):
    """A user without SUPER (which MariaDB lets past max_connections) at a server whose max_connections (10,
    its least) are taken: the binding's connect ends in one line naming max_connections and the fix. Was:
    "cannot reach the MariaDB server: (1040, 'Too many connections')". The server's own max_connections is
    put back."""
    import pymysql

    from ycsbctl.stores.mariadb.session import connect_args

    a = connect_args(mariadb.url)
    admin = pymysql.connect(host=a["host"], port=a["port"], user=a["user"], password=a["password"] or "",
                            database=a["db"], autocommit=True)
    held: list = []
    with admin.cursor() as cur:
        cur.execute("SELECT @@max_connections")
        (before,) = cur.fetchone()
        cur.execute("CREATE USER IF NOT EXISTS 'fewconn'@'%' IDENTIFIED BY 'pw'")
        cur.execute(f"GRANT ALL ON `{a['db']}`.* TO 'fewconn'@'%'")
        cur.execute("SET GLOBAL max_connections = 10")
    try:
        url = f"mysql://fewconn:pw@{a['host']}:{a['port']}/{a['db']}"
        while True:  # take every connection the server still gives a user without SUPER
            try:
                held.append(pymysql.connect(host=a["host"], port=a["port"], user="fewconn", password="pw"))
            except pymysql.err.OperationalError as exc:
                assert exc.args[0] == 1040, exc
                break
            assert len(held) <= 10
        b = MariaBinding(url, 2.0)
        try:
            asyncio.run(b.connect())
            raise AssertionError("the server let one more client in")
        except ConnectionLost as lost:
            said = str(lost)
        assert said == ("cannot reach the MariaDB server: (1040, 'Too many connections') — more client threads than "
                        "the server's max_connections allows: lower --threads or raise max_connections "
                        "(SET GLOBAL max_connections = N)"), said
        from ycsbctl.stores.mariadb.wire import MariaWireBinding

        # the default driver's path (a user without a password) gave the server's words without the fix: root's
        # one connection past max_connections (SUPER) taken too
        held.append(pymysql.connect(host=a["host"], port=a["port"], user=a["user"], password=a["password"] or ""))
        w = MariaWireBinding(mariadb.url, 2.0)
        try:
            asyncio.run(w.connect())
            raise AssertionError("the server let one more client in")
        except ConnectionLost as lost:
            said = str(lost)
        assert said.endswith("refused the connection: Too many connections (error 1040) — more client threads than "
                             "the server's max_connections allows: lower --threads or raise max_connections "
                             "(SET GLOBAL max_connections = N)"), said
    finally:
        for c in held:
            c.close()
        with admin.cursor() as cur:
            cur.execute(f"SET GLOBAL max_connections = {int(before)}")
        admin.close()


def test_connecting_waits_a_second_at_least_however_short_the_operations_timeout():
    """A server that takes 0.2 s to answer (here: to close) is heard by a client whose operations time out after
    0.05 s: the connection gets max(timeout, 1 s), so the client says what the server did, not 'timed out'."""
    said = refused_by_a_late_close(lambda port: MariaBinding(f"mysql://root@127.0.0.1:{port}/ycsb", 0.05))
    assert said.startswith("cannot reach the MariaDB server: ") and "timed out" not in said, said


def test_a_user_refused_without_a_password_is_told_of_tls_and_not_of_max_connections(mariadb):
    """The server refuses a user it does not know (1045, "using password: NO"): the line says so in the server's
    words, adds that a TLS-only server refuses a plain client so (no ?ssl in the URL), and says nothing of
    max_connections (that hint is for error 1040 only)."""
    from ycsbctl.stores.mariadb.session import connect_args

    a = connect_args(mariadb.url)
    b = MariaBinding(f"mysql://nobody_mutj@{a['host']}:{a['port']}/{a['db']}", 2.0)
    with pytest.raises(ConnectionLost) as lost:
        asyncio.run(b.connect())
    said = str(lost.value)
    assert said.startswith("cannot reach the MariaDB server: (1045, \"Access denied for user 'nobody_mutj'@"), said
    assert said.endswith("(using password: NO)\") (if the server takes TLS clients only, add ?ssl=true to the "
                         "URL)"), said
    assert "max_connections" not in said


def test_a_users_wrong_password_is_told_to_put_the_right_one_though_root_gets_in_without_one(mariadb):
    """The session MariaDB lets root in without a password; a user of its own given a wrong password was told
    'has no authentication … drop USER:PASSWORD@ from the URL' (fault43f): a SQL server authenticates each
    user on its own."""
    from ycsbctl.errors import UserError
    from ycsbctl.provision.external import ExternalProvisioner
    from ycsbctl.stores.mariadb.session import connect_args, query

    a = connect_args(mariadb.url)
    query(mariadb.url, "CREATE USER IF NOT EXISTS 'pw_f43f'@'%' IDENTIFIED BY 'right@1'", 5.0)
    try:
        with pytest.raises(UserError) as told:
            ExternalProvisioner().up(f"mysql://pw_f43f:wrong%40@{a['host']}:{a['port']}/{a['db']}")
    finally:
        query(mariadb.url, "DROP USER IF EXISTS 'pw_f43f'@'%'", 5.0)
    said = str(told.value)
    assert "refused our credentials" in said and "put the right password in the URL" in said, said
    assert "has no authentication" not in said and "\n" not in said

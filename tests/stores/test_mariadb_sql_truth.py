"""A plug-in's statements on MariaDB read alike through either binding (the wire path and asyncmy), each against the
server's own answer on a real server: the rows a statement matched are what the server's ``ROW_COUNT()`` says right
after it on the same connection (a SELECT matched none: -1 there, 0 here; asyncmy's count of a SELECT's rows was
given as rows matched), and a bytes parameter is stored as those bytes, as PyMySQL reads them back (the wire path
quoted its repr, ``b'…'``)."""

from __future__ import annotations

import asyncio

import pytest

from ycsbctl.stores.binding import Status
from ycsbctl.stores.mariadb.binding import MariaBinding
from ycsbctl.stores.mariadb.session import connect_args
from ycsbctl.stores.mariadb.wire import MariaWireBinding

# every byte a string literal must escape, a byte that is no UTF-8, and plain text
AWKWARD = b"it's \\ \"q\" \x00 \n\r \x1a \xff\xfe end"


def _statements(b, table: str):
    async def main() -> list:
        await b.connect()
        try:
            out = [await b.sql(f"CREATE TABLE {table} (a INT PRIMARY KEY, b BLOB)")]
            for statement, params in ((f"INSERT INTO {table} VALUES (?, ?), (?, ?), (?, ?)", (1, AWKWARD, 2, b"x",
                                                                                                 3, "y")),
                                      (f"UPDATE {table} SET b = ? WHERE a >= ?", (b"x", 2)),  # 2 matched, 1 changed
                                      (f"SELECT a, b FROM {table} WHERE a = ?", (1,)),
                                      (f"SELECT a FROM {table} ORDER BY a", ()),
                                      (f"DELETE FROM {table} WHERE a = ?", (9,))):
                said = await b.sql(statement, params)
                _, ((count,),), _ = await b.sql("SELECT ROW_COUNT()")  # the server's own count of the statement
                out.append((said, int(count)))
            return out
        finally:
            await b.close()

    return asyncio.run(main())


@pytest.mark.parametrize("binding", [MariaWireBinding, MariaBinding])
def test_a_plugins_rows_matched_and_bytes_are_the_servers_own(mariadb, binding):
    import pymysql

    table = f"plugin_truth_{binding.__name__.lower()}"
    a = connect_args(mariadb.url)
    with pymysql.connect(host=a["host"], port=a["port"], user=a["user"], password=a["password"] or "",
                         database=a["db"], autocommit=True) as conn, conn.cursor() as cur:
        cur.execute(f"DROP TABLE IF EXISTS {table}")
        create, insert, update, one, keys, delete = _statements(binding(mariadb.url, 5.0), table)
        cur.execute(f"SELECT a, b FROM {table} ORDER BY a")
        truth = [tuple(r) for r in cur.fetchall()]
        cur.execute(f"DROP TABLE {table}")
    assert create == (Status.OK, [], 0)
    for (status, _, matched), server in (insert, update, delete):
        assert status == Status.OK and matched == server, (insert, update, delete)
    assert (insert[1], update[1], delete[1]) == (3, 2, 0)  # the server's: 3 inserted, 2 matched (FOUND_ROWS), none
    for (status, _, matched), server in (one, keys):
        assert (status, matched, server) == (Status.OK, 0, -1), (one, keys)  # a result set matched nothing
    assert truth == [(1, AWKWARD), (2, b"x"), (3, b"x")], truth  # the bytes as sent, read back by PyMySQL
    (key, value), = one[0][1]
    assert int(key) == 1 and bytes(value) == AWKWARD  # the binding reads the same bytes back
    assert [int(r[0]) for r in keys[0][1]] == [1, 2, 3]


def test_a_url_naming_a_database_the_server_lacks_says_so(mariadb):
    """``mysql://…/nosuchdb`` at a real MariaDB: its "Unknown database" (error 1049) was said as "something answers
    there, but not as a mysql server"; it is a MariaDB server without that database."""
    from urllib.parse import urlsplit, urlunsplit

    from ycsbctl.errors import UserError
    from ycsbctl.provision.external import ExternalProvisioner

    url = urlunsplit(urlsplit(mariadb.url)._replace(path="/nosuchdb"))
    with pytest.raises(UserError) as told:
        ExternalProvisioner().up(url)
    line = str(told.value)
    assert told.value.exit_code == 1 and "the server has no database 'nosuchdb' (Unknown database 'nosuchdb')" in line
    assert "CREATE DATABASE nosuchdb" in line and "not as a mysql server" not in line, line

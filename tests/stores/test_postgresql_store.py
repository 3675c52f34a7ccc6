"""PostgreSQL's store (stores/postgresql/store.py) without a server: what a failed ping says, what answers
the opening (SSL) request tells, and how a TLS connection is described."""

from __future__ import annotations

import threading

import pytest


def test_a_postgresql_ping_says_a_role_is_missing_only_for_28000_saying_so_else_raises_the_failure_itself(monkeypatch):
    """SQLSTATE 28000 is also a pg_hba.conf refusal (the role exists); "does not exist" is also another SQLSTATE's
    words: each of those is raised as itself, only both together say the URL's role is missing."""
    from ycsbctl.errors import UserError
    from ycsbctl.stores import registry

    class PgError(Exception):  # asyncpg's: the SQLSTATE in .sqlstate, the server's message as str()
        def __init__(self, sqlstate: str, message: str) -> None:
            super().__init__(message)
            self.sqlstate = sqlstate

    def refusing(e: PgError):
        def query(url: str, sql: str, timeout_s: float):
            raise e
        return query

    proto = registry.for_url("postgresql://u@h:1/d")
    url = "postgresql://nosuchrole@127.0.0.1:1/d"
    for refusal in (PgError("28000", 'no pg_hba.conf entry for host "127.0.0.1", user "nosuchrole"'),
                    PgError("42704", 'type "nosuchrole" does not exist')):
        monkeypatch.setattr(proto, "query", refusing(refusal))
        with pytest.raises(PgError) as raised:
            proto.ping(url, 0.1)
        assert raised.value is refusal
    monkeypatch.setattr(proto, "query", refusing(PgError("28000", 'role "nosuchrole" does not exist')))
    with pytest.raises(UserError, match="the server has no role 'nosuchrole'"):
        proto.ping(url, 0.1)


@pytest.mark.parametrize(("answer", "said"), [
    (b"S", None), (b"N", None),  # PostgreSQL's one-byte answers to SSLRequest (with TLS, without)
    (b"HTTP/1.1 400 Bad Request\r\n\r\n", "not a PostgreSQL server: it answered PostgreSQL's opening request with "
                                         "b'HTTP/1.1 400 Bad Request\\r\\n\\r\\n'"),
    (b"", "not a PostgreSQL server: it closed the connection at PostgreSQL's opening request"),
    (bytes(range(65, 115)), f"not a PostgreSQL server: it answered PostgreSQL's opening request with "
                            f"{bytes(range(65, 105))!r}"),  # its first 40 bytes
])
def test_what_answers_the_opening_request_tells_whether_it_is_postgresql(answer: bytes, said: str | None):
    import socketserver

    from ycsbctl.stores.postgresql.store import SSL_REQUEST, _not_postgresql

    asked: list[bytes] = []

    class Answer(socketserver.BaseRequestHandler):
        def handle(self) -> None:
            asked.append(self.request.recv(8))
            self.request.sendall(answer)

    with socketserver.TCPServer(("127.0.0.1", 0), Answer) as server:
        threading.Thread(target=server.handle_request, daemon=True).start()
        got = _not_postgresql(f"postgresql://u@127.0.0.1:{server.server_address[1]}/db", 5.0)
    assert (got, asked) == (said, [SSL_REQUEST])


def test_the_opening_request_goes_to_postgresqls_registered_port_when_the_url_names_none(monkeypatch):
    """A URL without a port is asked at the port registered for PostgreSQL (the system's services database, IANA's
    list), where its server listens; nothing answering there is no verdict (None)."""
    import socket

    try:
        registered = socket.getservbyname("postgresql", "tcp")
    except OSError:  # a host without /etc/services (netbase): the port PostgreSQL's manual gives, IANA's 5432
        registered = 5432
    asked: list[tuple[str, int]] = []

    def refused(address: tuple[str, int], timeout: float | None = None) -> socket.socket:
        asked.append(address)
        raise ConnectionRefusedError(address)

    monkeypatch.setattr(socket, "create_connection", refused)
    from ycsbctl.stores.postgresql.store import _not_postgresql

    assert [_not_postgresql(u, 1.0) for u in ("postgresql://u@db.example/db", "postgresql://u@db.example:6000/db")
            ] == [None, None]
    assert asked == [("db.example", registered), ("db.example", 6000)]


def test_postgresql_describes_a_tls_connection_by_the_servers_own_protocol_and_cipher(monkeypatch):
    from ycsbctl.stores import registry
    from ycsbctl.stores.postgresql import session

    class Session:  # pg_stat_ssl's row for this backend: (ssl, version, cipher), as the server lists it
        def __init__(self, url: str, timeout_s: float) -> None:
            pass

        def __enter__(self):
            return self

        def __exit__(self, *exc) -> None:
            pass

        def fetch(self, sql: str) -> list[tuple]:
            if "server_version" in sql:
                return [("16.4 (Debian 16.4-1)",)]
            if "pg_settings" in sql:
                return [("fsync", "on"), ("synchronous_commit", "off")]
            return ssl_rows

    monkeypatch.setattr(session, "PgSession", Session)
    pg = registry.get("postgresql")
    ssl_rows = [(True, "TLSv1.3", "TLS_AES_256_GCM_SHA384")]
    encrypted = pg.describe("postgresql://ycsb@127.0.0.1:1/postgres").traits
    ssl_rows = [(False, None, None)]
    plain = pg.describe("postgresql://ycsb@127.0.0.1:1/postgres").traits
    assert encrypted["tls"] == "TLSv1.3 TLS_AES_256_GCM_SHA384" and "tls" not in plain
    assert encrypted["version"] == "16.4"

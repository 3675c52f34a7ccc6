"""TLS on the wire for PostgreSQL and MariaDB: a server ycsbctl starts with ``--tls`` takes TCP clients
over TLS only, with a certificate from ycsbctl's own CA; the engine's wire bindings (its fast path)
speak TLS to it, and the server itself says so of their sessions (``pg_stat_ssl``; MariaDB's session
``Ssl_cipher`` and its global ``Ssl_accepts``). A load through a socket-level tap leaves no record
value in clear. A plain client and a client that does not trust the CA are refused in one line; a
mongod target is refused with ``--tls`` before anything starts."""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from click.testing import CliRunner

from tests.fixtures.bindings import run_bindings
from tests.fixtures.tap import tap
from ycsbctl.cli import main
from ycsbctl.errors import UserError
from ycsbctl.provision import catalog
from ycsbctl.provision.auto import provision, teardown
from ycsbctl.provision.base import Endpoint
from ycsbctl.stores.mariadb.session import query as my_query
from ycsbctl.stores.mariadb.session import tls_of as my_tls_of
from ycsbctl.stores.mariadb.wire import MariaWireBinding
from ycsbctl.stores.postgresql.session import query as pg_query
from ycsbctl.stores.postgresql.wire import PgWireBinding
from ycsbctl.stores.postgresql.wire import tls_of as pg_tls_of

OTHER_CA = "/etc/ssl/certs/ca-certificates.crt"  # the system's CAs: none of them signed our server's certificate


@pytest.fixture(scope="module", params=["postgresql", "mariadb"])
def tls_server(request) -> Iterator[Endpoint]:
    entry = catalog.get_target(request.param)
    if catalog.find_server(entry)[0] is None:
        pytest.skip(f"{entry.binary} is not installed ({entry.install_hint})")
    ep = provision(request.param, "local", experiment_id="tests", say=lambda _: None, tls=True)
    yield ep
    teardown(ep)


def _plain(url: str) -> str:
    return url.split("?")[0]


def _untrusting(url: str) -> str:
    """The URL with TLS on, checked against CAs that did not sign the server's certificate."""
    if url.startswith("postgresql"):
        return f"{_plain(url)}?sslmode=verify-full&sslrootcert={OTHER_CA}"
    return f"{_plain(url)}?ssl=true&ssl_ca={OTHER_CA}"


def _through(url: str, port: int) -> str:
    u = urlsplit(url)
    return url.replace(f"{u.hostname}:{u.port}", f"127.0.0.1:{port}", 1)


def _ssl_accepts(url: str) -> int:
    return int(my_query(url, "SHOW GLOBAL STATUS LIKE 'Ssl_accepts'", 5.0)[0][1])


def test_the_engine_s_wire_bindings_speak_tls_and_the_server_says_so(tls_server) -> None:
    url = tls_server.url
    assert tls_server.traits["tls"].startswith("TLSv1.")  # from the server's own view of a session (describe)
    pg = url.startswith("postgresql")
    accepts = None if pg else _ssl_accepts(url)

    async def sessions(bs):
        assert all(isinstance(b, PgWireBinding if pg else MariaWireBinding) and b.encrypted for b in bs)
        if pg:
            return [(await b.sql("SELECT ssl, version FROM pg_stat_ssl WHERE pid = pg_backend_pid()"))[1]
                    for b in bs]
        return [(await b.sql("SHOW SESSION STATUS LIKE 'Ssl_cipher'"))[1] for b in bs]

    rows = run_bindings(sessions, url, clients=2)
    if pg:
        assert rows == [[(b"t", rows[0][0][1])]] * 2 and rows[0][0][1].startswith(b"TLSv1.")
    else:
        assert [r[0][1] for r in rows] == [rows[0][0][1]] * 2 and rows[0][0][1]  # a cipher, per session
        assert _ssl_accepts(url) - accepts >= 2  # the server counted the handshakes (+ ours, the table's)


def test_a_tls_load_through_a_tap_shows_no_record_value_in_clear(tls_server, tmp_path: Path) -> None:
    url = tls_server.url
    u = urlsplit(url)
    with tap(u.hostname or "127.0.0.1", u.port or 0) as wire:
        res = CliRunner().invoke(main, ["load", "workload-a", "--target", _through(url, wire.port), "--records", "200",
                                        "--threads", "2", "--no-telemetry", "--allow-concurrent",
                                        "--out", str(tmp_path / "exp")])
        assert res.exit_code == 0, res.output
        assert len(wire.seen) > 200 * 1000  # every record crossed this tap
        seen = bytes(wire.seen)
    q = pg_query if url.startswith("postgresql") else my_query
    stored = [v for row in q(url, "SELECT * FROM usertable ORDER BY ycsb_key LIMIT 10", 5.0) for v in row[1:]]
    assert len(stored) == 100 and (q(url, "SELECT COUNT(*) FROM usertable", 5.0)[0][0]) == 200
    values = [v.encode() if isinstance(v, str) else bytes(v) for v in stored]
    assert not [v for v in values if v in seen]  # no 100-byte value in clear, nor any 24-byte piece of one
    assert not [v[i:i + 24] for v in values for i in range(0, 76, 25) if v[i:i + 24] in seen]
    assert not list(tmp_path.rglob("*.crt")) and not list(tmp_path.rglob("*.key"))
    q(url, "DELETE FROM usertable", 5.0)


def test_a_client_that_does_not_trust_the_ca_is_refused_in_one_line(tls_server, tmp_path: Path) -> None:
    url = _untrusting(tls_server.url)
    res = CliRunner().invoke(main, ["load", "workload-a", "--target", url, "--records", "20", "--threads", "1",
                                    "--no-telemetry", "--allow-concurrent", "--out", str(tmp_path / "exp")])
    assert res.exit_code != 0
    said = [line for line in res.output.splitlines() if "failed:" in line or "skipped" in line]
    assert len(said) == 1 and "TLS certificate not trusted: add " in said[0]

    async def connect(bs):
        return bs

    with pytest.raises(Exception, match="TLS certificate not trusted: add "):  # the engine's bindings say it too
        run_bindings(connect, url)


def test_a_plain_client_is_told_to_speak_tls(tls_server) -> None:
    async def connect(bs):
        return bs

    fix = "add ?sslmode=require to the URL" if tls_server.url.startswith("postgresql") else "add ?ssl=true"
    with pytest.raises(Exception, match=re.escape(fix)):  # the engine's bindings, and the server's refusal
        run_bindings(connect, _plain(tls_server.url))


def test_a_mongod_target_is_refused_with_tls_in_one_line() -> None:
    res = CliRunner().invoke(main, ["run", "workload-a", "--targets", "mongodb", "--tls", "--threads", "1"])
    assert res.exit_code == 2
    assert res.output.count("\n") == 1 and "cannot start a mongod server with TLS" in res.output
    assert "use ferretdb with --tls" in res.output  # the MongoDB-wire target that can (tests/stores/test_mongo_tls.py)


@pytest.mark.parametrize("url", ["mysql://root@127.0.0.1:1/ycsb?ssl_ca={ca}",
                                 "postgresql://ycsb@127.0.0.1:1/postgres?sslmode=verify-full&sslrootcert={ca}"])
def test_a_ca_file_that_is_no_certificate_or_missing_is_refused_when_the_url_is_read(url: str, tmp_path: Path) -> None:
    """Was exit 1 with '… skipped — cannot read the CA certificate' (MariaDB) or '… does not answer (SSLError …)'
    (PostgreSQL): bad input, said before anything starts (nothing listens at port 1)."""
    (tmp_path / "not-a-cert.pem").write_text("x\n")
    for ca, why in ((tmp_path / "not-a-cert.pem", "NO_CERTIFICATE_OR_CRL_FOUND"), (tmp_path / "gone.pem",
                                                                                   "No such file")):
        res = CliRunner().invoke(main, ["run", "workload-a", "--target", url.format(ca=ca), "--threads", "1"])
        assert res.exit_code == 2 and res.output.count("\n") == 1, res.output
        assert res.output.startswith(f"error: cannot read the CA certificate {ca}: ") and why in res.output


def test_tls_with_an_sqlite_file_says_it_has_no_network_and_no_tls(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/a.db"
    res = CliRunner().invoke(main, ["run", "workload-a", "--target", url, "--tls", "--threads", "1"])
    assert res.exit_code == 2 and res.output == (
        f"error: --tls: {url} is SQLite, run inside ycsbctl's own processes: it has no "
        "network and no TLS; drop --tls\n")
    assert not (tmp_path / "a.db").exists()


def test_the_urls_tls_options_read_as_libpq_and_pymysql_read_them() -> None:
    base = "postgresql://ycsb@127.0.0.1:5432/postgres"
    assert pg_tls_of(base) is None and pg_tls_of(base + "?sslmode=disable") is None
    prefer, require = pg_tls_of(base + "?sslmode=prefer"), pg_tls_of(base + "?sslmode=require")
    assert prefer is not None and not prefer.required and not prefer.verify
    assert require is not None and require.required and not require.verify  # libpq: no CA, no check
    checked = pg_tls_of(base + "?sslmode=require&sslrootcert=/x/ca.crt")
    assert checked is not None and checked.verify and not checked.check_hostname and checked.ca_file == "/x/ca.crt"
    full = pg_tls_of(base + "?sslmode=verify-full")
    assert full is not None and full.verify and full.check_hostname
    with pytest.raises(UserError, match="sslmode=sometimes"):
        pg_tls_of(base + "?sslmode=sometimes")
    my = "mysql://root@127.0.0.1:3306/ycsb"
    assert my_tls_of(my) is None and my_tls_of(my + "?ssl=false") is None
    on = my_tls_of(my + "?ssl=true&ssl_ca=/x/ca.crt")
    assert on is not None and on.verify and on.check_hostname and on.ca_file == "/x/ca.crt"
    off = my_tls_of(my + "?ssl=true&ssl_verify_cert=false")
    assert off is not None and not off.verify
    assert shutil.which("openssl")  # the certificates' maker (provision.tls) is here


def test_ycsbs_jdbc_binding_is_given_the_same_tls() -> None:
    """What ``--engine ycsb`` passes to YCSB's jdbc binding (pgjdbc reads libpq's names; MariaDB Connector/J 3
    its own): checked by hand against both TLS servers, 100 records read and verified by YCSB's client."""
    from ycsbctl.stores import registry

    pg = "postgresql://ycsb@127.0.0.1:5432/postgres?sslmode=verify-full&sslrootcert=/x/ca.crt"
    assert registry.for_url(pg).ycsb_binding(pg, 5.0)[1]["db.url"] == (
        "jdbc:postgresql://127.0.0.1:5432/postgres?sslmode=verify-full&sslrootcert=/x/ca.crt")
    my = "mysql://root@127.0.0.1:3306/ycsb?ssl=true&ssl_verify_cert=false"
    assert registry.for_url(my).ycsb_binding(my, 5.0)[1]["db.url"] == "jdbc:mariadb://127.0.0.1:3306/ycsb?sslMode=trust"
    plain = "postgresql://ycsb@127.0.0.1:5432/postgres"
    assert registry.for_url(plain).ycsb_binding(plain, 5.0)[1]["db.url"] == "jdbc:postgresql://127.0.0.1:5432/postgres"


def test_sslmode_require_at_a_postgresql_without_tls_says_it_declined_and_what_to_do(postgresql) -> None:
    """The URL's check (the first thing a run does with a server you run) said only asyncpg's "rejected SSL upgrade"
    (fault43e); the engine's binding already said what to do."""
    from ycsbctl.stores.registry import get

    with pytest.raises(ConnectionError, match=re.escape("it speaks no TLS (it declined the SSLRequest): drop sslmode "
                                                        "from the URL, or turn ssl on in the server")):
        get("postgresql").ping(postgresql.url + "?sslmode=require", 2.0)

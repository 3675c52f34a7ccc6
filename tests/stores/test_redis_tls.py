"""TLS on the wire for Redis: a server ycsbctl starts with ``--tls`` speaks TLS only, with a
certificate from ycsbctl's own CA that never lands in a result folder; the engine's fast path loads
through it (every record there, read back by redis-py over TLS) and a socket-level tap between them
sees no record value in clear — while the same tap in front of a plain server does (the tap works).
Faults are one line each: a certificate the client does not trust, a plain client at a TLS port, a
TLS client at a plain port."""

from __future__ import annotations

import asyncio
import socket
from pathlib import Path

import pytest
import redis
from click.testing import CliRunner

from tests.fixtures.bindings import field_values, run_bindings
from tests.fixtures.tap import tap
from ycsbctl.cli import main
from ycsbctl.errors import UserError
from ycsbctl.experiment.plan import Plan
from ycsbctl.provision.auto import provision, teardown
from ycsbctl.stores.binding import ConnectionLost
from ycsbctl.stores.redis.options import RedisOptions
from ycsbctl.stores.registry import open_bindings


@pytest.fixture(scope="module")
def tls_redis():
    ep = provision("redis", "local", experiment_id="tests", say=lambda _: None, tls=True)
    yield ep
    teardown(ep)


def _through(url: str, port: int) -> str:
    o = RedisOptions(url)
    return url.replace(f"{o.host}:{o.port}", f"127.0.0.1:{port}", 1)


def test_the_server_speaks_tls_only_with_a_certificate_from_our_own_ca(tls_redis) -> None:
    assert tls_redis.url.startswith("rediss://") and "ssl_ca_certs=" in tls_redis.url
    assert tls_redis.traits["tls"].startswith("TLSv1.")
    o = RedisOptions(tls_redis.url)
    with socket.create_connection((o.host, o.port), timeout=5) as s:  # no plain port: plain RESP gets no answer
        s.sendall(b"*1\r\n$4\r\nPING\r\n")
        try:
            answer = s.recv(64)
        except ConnectionResetError:
            answer = b""
    assert b"PONG" not in answer
    assert tls_redis.config["tls-port"] == str(o.port) and tls_redis.config["port"] == "0"


def test_a_tls_load_through_a_tap_shows_no_record_value_in_clear(tls_redis, redis_server, rds, tmp_path: Path) -> None:
    values = field_values()
    o = RedisOptions(redis_server.url)
    with tap(o.host, o.port) as plain:  # the control: the same tap in front of a plain server sees the values

        async def insert(bs):
            return await bs[0].insert("usertable", b"user1", values)

        run_bindings(insert, _through(redis_server.url, plain.port))
        assert values[0][1] in bytes(plain.seen)

    o = RedisOptions(tls_redis.url)
    with tap(o.host, o.port) as wire:
        res = CliRunner().invoke(main, ["load", "workload-a", "--target", _through(tls_redis.url, wire.port),
                                        "--records", "300", "--threads", "2", "--no-telemetry", "--allow-concurrent",
                                        "--out", str(tmp_path / "exp")])
        assert res.exit_code == 0, res.output
        assert wire.connections >= 2 and len(wire.seen) > 300 * 1000  # every record crossed this tap
        seen = bytes(wire.seen)
    with redis.Redis.from_url(tls_redis.url) as r:
        assert r.zcard("_indices") == 300
        stored = [v for key in r.zrange("_indices", 0, 9) for v in r.hgetall(key).values()]
    assert len(stored) == 100
    assert not [v for v in stored if v in seen]  # no 100-byte value in clear, nor any 24-byte piece of one
    assert not [v[i:i + 24] for v in stored for i in range(0, 76, 25) if v[i:i + 24] in seen]
    assert not list(tmp_path.rglob("*.crt")) and not list(tmp_path.rglob("*.key"))
    assert b"PRIVATE KEY" not in b"".join(p.read_bytes() for p in tmp_path.rglob("*") if p.is_file())


def _connect(url: str) -> str:
    async def go():
        bs = await open_bindings(url, 1, {}, 1.0)
        await bs.close()

    with pytest.raises(ConnectionLost) as err:
        asyncio.run(go())
    return str(err.value)


def test_a_certificate_the_client_does_not_trust_is_one_line_saying_what_to_give(tls_redis) -> None:
    untrusted = tls_redis.url.split("?")[0]  # the system's CAs only
    said = _connect(untrusted)
    assert "TLS certificate not trusted" in said and "ssl_ca_certs" in said and "\n" not in said


def test_a_plain_client_at_a_tls_port_and_a_tls_client_at_a_plain_one_say_so(tls_redis, redis_server) -> None:
    said = _connect(tls_redis.url.split("?")[0].replace("rediss://", "redis://"))
    assert "rediss://" in said and "\n" not in said
    said = _connect(redis_server.url.replace("redis://", "rediss://"))
    assert "if the server speaks no TLS on this port, use redis://" in said and "\n" not in said


def test_a_plain_url_is_told_rediss_at_a_tls_port_and_not_at_another_stores_port_that_closes_too(tls_redis,
                                                                                                   postgresql) -> None:
    """Both close a plain PING: the TLS-only Redis answers a TLS handshake, so its line is the rediss:// hint;
    PostgreSQL (its startup packet garbled) answers none, so its line says it is no Redis server and names no TLS."""
    from ycsbctl.provision.external import ExternalProvisioner
    from ycsbctl.stores.redis.tls import TLS_THERE

    def said(url: str) -> str:
        with pytest.raises(UserError) as told:
            ExternalProvisioner().up(url)
        assert told.value.exit_code == 1 and "\n" not in str(told.value)
        return str(told.value)

    assert TLS_THERE in said(tls_redis.url.split("?")[0].replace("rediss://", "redis://"))
    at_pg = said(f"redis://127.0.0.1:{postgresql.url.rsplit(':', 1)[1].split('/')[0]}")
    assert "not a Redis server: it closed the connection at PING and answers no TLS handshake either" in at_pg, at_pg
    assert "rediss" not in at_pg, at_pg


def test_tls_is_refused_before_anything_starts_where_it_cannot_apply() -> None:
    with pytest.raises(UserError, match="server you run"):
        Plan(workloads=["b"], targets=["redis://127.0.0.1:6379"], tls=True)
    with pytest.raises(UserError, match="cannot start a memcached server with TLS"):
        Plan(workloads=["b"], targets=["memcached"], tls=True)
    with pytest.raises(UserError, match="local backend"):
        Plan(workloads=["b"], targets=["redis"], tls=True, backend="docker")


def test_redis_benchmark_reads_over_tls_with_the_urls_ca_and_the_server_counts_every_read(tls_redis,
                                                                                          monkeypatch) -> None:
    """Redis's own C client (the reference of ``calibrate`` and ``bench tls``) at a ``rediss://`` URL: ``--tls`` with
    the URL's CA, so each of its HGETALLs reaches the server (INFO commandstats counts them, read over TLS by
    redis-py); without the CA it is told in one line before it runs, and ``ssl_cert_reqs=none`` is its ``--insecure``.
    The run's rate and latencies are redis-benchmark's own ``--csv`` row (read here by pandas), its ms as µs."""
    import io
    import subprocess

    import pandas as pd

    from ycsbctl.stores.redis.benchmark import RedisBenchmark, connection_args

    said: list[str] = []
    real_run = subprocess.run

    def kept(*args, **kwargs):
        done = real_run(*args, **kwargs)
        said.append(done.stdout)
        return done

    monkeypatch.setattr(subprocess, "run", kept)
    import resource

    ref = RedisBenchmark()
    before = ref.reads_served(tls_redis.url)
    spent = resource.getrusage(resource.RUSAGE_CHILDREN)
    run = ref.read(tls_redis.url, clients=2, requests=300, records=10)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    assert run.requests == 300 and ref.reads_served(tls_redis.url) - before == 300
    # its CPU (user + system) is within what this process's children used around the call, and some
    assert 0 < run.client_cpu_s <= (after.ru_utime - spent.ru_utime) + (after.ru_stime - spent.ru_stime) + 1e-6
    row = pd.read_csv(io.StringIO(said[-1])).iloc[-1]
    assert row["test"] == "hgetall user__rand_int__"
    assert (run.ops_s, run.mean_us, run.p50_us, run.p99_us, run.max_us) == pytest.approx(
        (row["rps"], 1000 * row["avg_latency_ms"], 1000 * row["p50_latency_ms"], 1000 * row["p99_latency_ms"],
         1000 * row["max_latency_ms"]))
    assert 0 < run.p50_us <= run.p99_us <= run.max_us and run.mean_us <= run.max_us
    assert "--tls" in run.command and "--cacert" in run.command
    bare = tls_redis.url.split("?", 1)[0]
    with pytest.raises(UserError, match="TLS certificate not trusted: add [?]ssl_ca_certs") as e:
        ref.read(bare, clients=1, requests=10, records=10)  # redis-benchmark itself would retry without end
    assert "\n" not in str(e.value)
    assert "--insecure" in connection_args(bare + "?ssl_cert_reqs=none")[0]
    # a failure is said in redis-benchmark's last line (its first names the node): here AUTH where no password is set
    with pytest.raises(UserError, match=r"^redis-benchmark failed \(exit 1\): ERR AUTH <password> called without"):
        ref.read(tls_redis.url.replace("rediss://", "rediss://:wrong@", 1), clients=1, requests=10, records=10)


def _certificates(tmp: Path) -> dict[str, Path]:
    """A CA of the test's own; a certificate it signed for another host, one that expired (not after = not before:
    ``-days 0``), and a file that is no certificate (openssl's own tool, as ycsbctl makes its CA)."""
    import subprocess

    def ssl(*args: str) -> None:
        subprocess.run(["openssl", *args], cwd=tmp, check=True, capture_output=True)

    ssl("ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", "ca.key")
    ssl("req", "-x509", "-new", "-key", "ca.key", "-subj", "/CN=test-ca", "-days", "2", "-out", "ca.crt")
    ssl("ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", "srv.key")
    for name, days, alt in (("other", "2", "DNS:other.example"), ("expired", "0", "IP:127.0.0.1")):
        (tmp / f"{name}.ext").write_text(f"subjectAltName={alt}\n")
        ssl("req", "-new", "-key", "srv.key", "-subj", f"/CN={name}", "-out", f"{name}.csr")
        ssl("x509", "-req", "-in", f"{name}.csr", "-CA", "ca.crt", "-CAkey", "ca.key", "-CAcreateserial", "-days", days,
            "-extfile", f"{name}.ext", "-out", f"{name}.crt")
    (tmp / "not-a-cert.pem").write_text("not a certificate\n")
    return {p.name: p for p in tmp.iterdir()}


def test_an_expired_or_other_hosts_certificate_and_a_ca_file_that_is_none_each_say_what_they_are(
    tmp_path: Path,
) -> None:
    """Was: "TLS certificate not trusted: add ?ssl_ca_certs=…" for a CA that was given and trusted (the certificate
    expired, or names another host), and "something answers there, but not as a redis server … check that the port
    is a redis server's" for a CA file that is missing or no certificate (fault43e)."""
    from tests.fixtures.servers import free_port, start_redis
    from ycsbctl.provision.external import ExternalProvisioner
    from ycsbctl.stores.redis.tls import EXPIRED, OTHER_HOST
    from ycsbctl.stores.registry import get

    certs = _certificates(tmp_path)
    for name, hint in (("expired", EXPIRED), ("other", OTHER_HOST)):
        port = free_port()
        server = start_redis(tmp_path / name, port, ("--port", "0", "--tls-port", str(port), "--tls-cert-file",
                                                      str(certs[f"{name}.crt"]), "--tls-key-file",
                                                     str(certs["srv.key"]),
                                                      "--tls-auth-clients", "no"))
        try:
            with pytest.raises(UserError) as told:
                ExternalProvisioner().up(f"rediss://127.0.0.1:{port}/0?ssl_ca_certs={certs['ca.crt']}")
            assert hint in str(told.value) and "\n" not in str(told.value), str(told.value)
        finally:
            server.stop()
    for ca, why in ((certs["not-a-cert.pem"], "NO_CERTIFICATE_OR_CRL_FOUND"), (tmp_path / "missing.pem",
                                                                               "No such file")):
        with pytest.raises(UserError) as told:  # when the URL is read: before anything starts, exit 2
            get("redis").validate(f"rediss://127.0.0.1:1/0?ssl_ca_certs={ca}")
        assert told.value.exit_code == 2 and str(told.value).startswith(f"cannot read the CA certificate {ca}") \
            and why in str(told.value), str(told.value)


def test_a_tls_client_at_a_plain_port_is_told_so_when_the_url_is_first_checked(redis_server) -> None:
    """The reachability check's PING timed out (redis-py's TimeoutError, no ConnectionError) and said "gave no redis
    answer within 5 s … check that the port is a redis server's" (fault43e)."""
    from ycsbctl.stores.registry import get

    with pytest.raises(redis.ConnectionError, match="no answer to the TLS handshake: if the server speaks no TLS on "
                                                    "this port, use redis://"):
        get("redis").ping(redis_server.url.replace("redis://", "rediss://"), 0.3)

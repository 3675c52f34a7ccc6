"""TLS on the MongoDB wire: ``ferretdb --tls`` (``ferretdb-tls``) starts the local mongo-wire build with
FerretDB's TLS listener (TLS only, a certificate from ycsbctl's own CA, its key a 0600 copy in the
server's own folder); the engine's wire binding (its fast path) speaks TLS to it, and the trait says
what a handshake agreed (FerretDB has no view of its own of a connection's TLS). A load through a
socket-level tap leaves no record value in clear; a client that does not trust the CA and a plain
client at the TLS-only port are each told what to do in one line."""

from __future__ import annotations

import os
import re
import subprocess
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from click.testing import CliRunner

from tests.fixtures.bindings import run_bindings
from tests.fixtures.tap import tap
from ycsbctl.cli import main
from ycsbctl.provision import catalog
from ycsbctl.provision.auto import provision, teardown
from ycsbctl.provision.base import Endpoint
from ycsbctl.stores.mongodb.admin import client
from ycsbctl.stores.mongodb.wire import MongoWireBinding

OTHER_CA = "/etc/ssl/certs/ca-certificates.crt"  # the system's CAs: none of them signed our server's certificate


@pytest.fixture(scope="module")
def tls_ferretdb() -> Iterator[Endpoint]:
    entry = catalog.get_target("ferretdb")
    binary = catalog.find_server(entry)[0]
    if binary is None:
        pytest.skip(f"mongo-wire is not built ({entry.install_hint})")
    usage = subprocess.run([binary, "--help"], capture_output=True, text=True, timeout=10).stderr
    if "--tls-cert-file" not in usage:
        pytest.skip(f"{binary} predates its TLS flags: rebuild it (bash infra/build-mongo-wire.sh, or make test)")
    ep = provision("ferretdb", "local", experiment_id="tests", say=lambda _: None, tls=True)
    yield ep
    teardown(ep)


def _plain(url: str) -> str:
    return url.split("?")[0]


def _untrusting(url: str) -> str:
    return f"{_plain(url)}?tls=true&tlsCAFile={OTHER_CA}"


def test_the_wire_binding_speaks_tls_and_the_trait_says_what_was_agreed(tls_ferretdb) -> None:
    url = tls_ferretdb.url
    assert "tls=true" in url and tls_ferretdb.traits["tls"].startswith("TLSv1.")

    async def sessions(bs):
        assert all(isinstance(b, MongoWireBinding) and b.tls is not None for b in bs)  # the fast path, over TLS
        return [b.proto.transport.get_extra_info("ssl_object").version() for b in bs]

    assert run_bindings(sessions, url, clients=2) == [tls_ferretdb.traits["tls"].split()[0]] * 2


def test_the_server_s_key_is_a_private_copy_in_its_own_folder(tls_ferretdb) -> None:
    assert tls_ferretdb.pid  # a local server
    argv = Path(f"/proc/{tls_ferretdb.pid}/cmdline").read_bytes().split(b"\0")
    key = Path(argv[argv.index(b"--tls-key-file") + 1].decode())
    assert key.parent == Path(argv[argv.index(b"--data") + 1].decode())  # its data folder, gone with it
    assert os.stat(key).st_mode & 0o777 == 0o600


def test_a_tls_load_through_a_tap_shows_no_record_value_in_clear(tls_ferretdb, tmp_path: Path) -> None:
    url = tls_ferretdb.url
    u = urlsplit(url)
    with tap(u.hostname or "127.0.0.1", u.port or 0) as wire:
        through = url.replace(f"{u.hostname}:{u.port}", f"127.0.0.1:{wire.port}", 1)
        res = CliRunner().invoke(main, ["load", "workload-a", "--target", through, "--records", "200",
                                        "--threads", "2", "--no-telemetry", "--allow-concurrent",
                                        "--out", str(tmp_path / "exp")])
        assert res.exit_code == 0, res.output
        assert len(wire.seen) > 200 * 1000  # every record crossed this tap
        seen = bytes(wire.seen)
    c = client(url, 5.0)
    try:
        table = c.get_database("ycsb")["usertable"]
        assert table.count_documents({}) == 200
        values = [bytes(v) for doc in table.find().limit(10) for k, v in doc.items() if k != "_id"]
        table.drop()
    finally:
        c.close()
    assert len(values) == 100
    assert not [v for v in values if v in seen]  # no 100-byte value in clear, nor any 24-byte piece of one
    assert not [v[i:i + 24] for v in values for i in range(0, 76, 25) if v[i:i + 24] in seen]
    assert not list(tmp_path.rglob("*.crt")) and not list(tmp_path.rglob("*.key"))


def test_a_client_that_does_not_trust_the_ca_is_told_what_to_give(tls_ferretdb) -> None:
    async def connect(bs):
        return bs

    with pytest.raises(Exception, match="TLS certificate not trusted: add tlsCAFile=") as caught:
        run_bindings(connect, _untrusting(tls_ferretdb.url))
    assert "\n" not in str(caught.value) and "certificate verify failed" in str(caught.value)  # OpenSSL's words


def test_a_plain_client_at_the_tls_only_port_is_told_to_speak_tls(tls_ferretdb) -> None:
    async def connect(bs):
        return bs

    with pytest.raises(Exception, match=re.escape("add ?tls=true&tlsCAFile=")) as caught:
        run_bindings(connect, _plain(tls_ferretdb.url), timeout_s=2.0)
    assert "\n" not in str(caught.value)

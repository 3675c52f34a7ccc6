"""Each server flavor's kind, and each catalogue entry and deployment, lives in its store's folder
(``stores/<store>/server.py``) and the catalogue finds them through the registry: every catalogue flavor
has a kind, the listings keep their order, an unknown flavor gets the generic behaviour, and what a kind
says (password, memory, TLS files) reaches the command line and the data folder."""

from __future__ import annotations

import importlib
import os
from pathlib import Path

import pytest

from ycsbctl.errors import UserError
from ycsbctl.provision import catalog, local_prep
from ycsbctl.provision.tls import ServerCertificates
from ycsbctl.provision.variants import VARIANTS
from ycsbctl.stores import registry
from ycsbctl.stores.server_kind import DATA_FRACTION, GIB, BadSettings

ROOT = Path(__file__).resolve().parents[2]


def test_every_catalogue_flavor_has_a_kind_in_its_store_s_folder() -> None:
    kinds = registry.server_kinds()
    for t in catalog.TARGETS.values():
        assert t.flavor in kinds and t.local_flavor in kinds, t.name
    for name, kind in kinds.items():
        package = type(kind).__module__.split(".")
        assert kind.name == name and package[:2] == ["ycsbctl", "stores"], name
    folders = {p.parent.name for p in (ROOT / "ycsbctl" / "stores").glob("*/server.py")}
    assert folders == set(registry.server_packages()), "a server.py the registry does not find"
    assert folders <= set(registry.store_packages())


def test_every_catalogue_entry_and_deployment_is_declared_beside_its_kinds_in_its_store_s_folder() -> None:
    targets, variants = registry.catalogue()
    # the catalogue holds the stores' entries, none of its own
    assert set(catalog.TARGETS.values()) == set(targets) and len(catalog.TARGETS) == len(targets)
    assert set(VARIANTS.values()) == set(variants) and len(VARIANTS) == len(variants)
    for package in registry.server_packages():
        server = importlib.import_module(f"ycsbctl.stores.{package}.server")
        flavors = {kind.name for kind in server.KINDS}
        entries = {t.name for t in getattr(server, "TARGETS", ())}
        for t in getattr(server, "TARGETS", ()):  # each entry's servers are started by its own store's kinds
            assert {t.flavor, t.local_flavor} <= flavors, t.name
            assert registry.get(t.protocol).name == t.protocol, t.name
        for v in getattr(server, "VARIANTS", ()):  # a store deploys its own entries only
            assert v.base in entries, v.name


def test_the_catalogue_lists_its_names_in_the_order_it_always_did() -> None:
    """``ycsbctl targets``, ``run --help`` and the errors list the names so: the default study's pair, every
    other entry in the registry's order; then the deployments by what they change (persistence, TLS, a
    cluster, replicas, durability and standbys)."""
    assert catalog.kind_names() == [
        "redis", "mongodb", "valkey", "redis6", "redis6-jemalloc", "redis7-libc", "keydb", "dragonfly",
        "ferretdb", "memcached", "sqlite", "postgresql", "mariadb", "tarantool", "clickhouse", "sphinx",
        "elasticsearch",
        "redis-aof", "redis-aof-always", "redis-rdb", "valkey-aof", "valkey-aof-always", "valkey-rdb",
        "redis-tls", "valkey-tls", "postgresql-tls", "mariadb-tls", "ferretdb-tls",
        "redis-cluster", "valkey-cluster", "redis-repl2", "valkey-repl2",
        "postgresql-durable", "postgresql-standby", "mariadb-durable"]


def test_an_unknown_flavor_gets_the_generic_behaviour_and_no_command_line() -> None:
    kind = registry.server_kind("nosuch")
    with pytest.raises(UserError, match="unknown server flavor 'nosuch'.*redis.*mongod") as err:
        catalog.server_args("nosuch", port=1, bind="127.0.0.1", data_dir=None, memory_bytes=None)
    assert "embedded" not in str(err.value)
    with pytest.raises(BadSettings, match="takes none"):
        kind.settings_args({"x": "1"})
    with pytest.raises(UserError, match="cannot start a nosuch server with TLS"):
        kind.tls_args(1, ServerCertificates("", "", ""))
    assert kind.settings_args({}) == [] and kind.env("/d") == {} and not kind.takes_password
    assert kind.memory_note(None) is None and "has no memory setting" in (kind.memory_note(GIB) or "")


def test_a_password_goes_where_the_server_takes_it() -> None:
    args = catalog.server_args("dragonfly", port=6379, bind="0.0.0.0", data_dir=None, memory_bytes=None, password="pw")
    assert args[-1] == "--requirepass=pw"
    with pytest.raises(UserError, match="cannot give a memcached server a password") as err:
        catalog.server_args("memcached", port=1, bind="127.0.0.1", data_dir=None, memory_bytes=None, password="pw")
    assert err.value.exit_code == 1 and not registry.server_kind("memcached").takes_password
    pg = catalog.TARGETS["postgresql"]
    assert registry.server_kind("postgres").image_env(pg.env, None) == dict(pg.env)
    env = registry.server_kind("postgres").image_env(pg.env, "pw")
    assert env["POSTGRES_PASSWORD"] == "pw" and env["POSTGRES_HOST_AUTH_METHOD"] == "scram-sha-256"
    env = registry.server_kind("mariadbd").image_env(catalog.TARGETS["mariadb"].env, "pw")
    assert env["MARIADB_ROOT_PASSWORD"] == "pw" and "MARIADB_ALLOW_EMPTY_ROOT_PASSWORD" not in env


def test_the_memory_note_says_the_limit_the_command_line_sets() -> None:
    memory = 2 * GIB
    limit = int(memory * DATA_FRACTION)
    for flavor, said in (("redis", f"--maxmemory {limit}"), ("dragonfly", f"--maxmemory={limit}")):
        args = " ".join(catalog.server_args(flavor, port=1, bind="127.0.0.1", data_dir=None, memory_bytes=memory))
        assert said in args and f"maxmemory={limit} bytes" in (registry.server_kind(flavor).memory_note(memory) or "")
    args = catalog.server_args("memcached", port=1, bind="127.0.0.1", data_dir=None, memory_bytes=memory)
    mb = args[args.index("-m") + 1]
    assert f"-m {mb} MB" in (registry.server_kind("memcached").memory_note(memory) or "")
    assert int(mb) == int(limit / 1024**2)
    assert registry.server_kind("redis").memory_note(None) is None
    assert "half of the host's RAM" in (registry.server_kind("tarantool").memory_note(None) or "")


def test_a_postgresql_started_with_tls_finds_its_tls_only_pg_hba_in_its_data_folder(tmp_path: Path) -> None:
    certs = ServerCertificates(*(str(tmp_path / n) for n in ("ca.crt", "server.crt", "server.key")))
    for path in (certs.ca_file, certs.cert_file, certs.key_file):
        Path(path).write_text(Path(path).name)
    for flavor, data in (("postgres", tmp_path / "pg"), ("mariadbd", tmp_path / "maria")):
        data.mkdir()
        copies = local_prep.server_tls_files(flavor, certs, str(data), None)
        args = catalog.server_args(flavor, port=5432, bind="127.0.0.1", data_dir=str(data), memory_bytes=None,
                                   tls=copies)
        assert Path(copies.key_file).read_text() == "server.key" and os.stat(copies.key_file).st_mode & 0o777 == 0o600
        hba = [a.split("=", 1)[1] for a in args if a.startswith("--hba_file=")]
        assert sorted(p.name for p in data.iterdir() if not p.name.startswith("tls-")) == [Path(h).name for h in hba]
    hba_text = (tmp_path / "pg" / "pg_hba_tls.conf").read_text()
    assert "hostssl all all 127.0.0.1/32 trust" in hba_text and "\nhost " not in hba_text


def test_an_unknown_target_is_refused_naming_every_catalogue_name_and_every_stores_url_shape():
    from ycsbctl.errors import UserError
    from ycsbctl.provision.catalog import get_target, kind_names
    from ycsbctl.stores import registry

    with pytest.raises(UserError) as caught:
        get_target("no-such-server")
    said = str(caught.value)
    assert said.startswith("unknown target 'no-such-server': use one of ")
    assert all(name in said for name in kind_names())
    assert all(p.example in said for p in registry.all_protocols()), said

"""Every store's URL rules without a server: the URL ycsbctl builds for a server it started is one the store
accepts and that the client library reads back to the same host, port and password; each thing a store's URLs
may not hold is refused on its own, in one line with exit 2; SQLite names the file system findmnt names. The
properties YCSB's own bindings are given for a store's URL, and each store's TLS URL as urllib reads it back."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time
from urllib.parse import parse_qsl, urlsplit

import pytest

from ycsbctl.errors import UserError
from ycsbctl.stores import registry
from ycsbctl.stores.capabilities import Tls

PASSWORDLESS = ("memcached", "tarantool", "clickhouse", "elasticsearch", "sphinx")


@pytest.mark.parametrize("name", [*PASSWORDLESS, "redis", "mongodb"])
@pytest.mark.parametrize("host", ["127.0.0.1", "::1", "db.example"])
def test_a_started_servers_url_is_valid_and_names_its_host_and_port(name, host):
    store = registry.get(name)
    url = store.server_url(host, 40123)
    store.validate(url)
    u = urlsplit(url)
    assert (u.scheme, u.hostname, u.port) == (store.schemes[0], host, 40123)
    assert ("[" in u.netloc) is (":" in host)


@pytest.mark.parametrize("name", PASSWORDLESS)
def test_a_password_for_a_store_without_users_is_refused_as_a_runtime_fault(name):
    with pytest.raises(UserError) as raised:
        registry.get(name).server_url("127.0.0.1", 40123, "s3cret")
    assert raised.value.exit_code == 1 and "password" in str(raised.value)


def test_redis_and_mongodb_urls_carry_the_password_as_their_clients_read_it():
    from pymongo.uri_parser import parse_uri
    from redis.connection import parse_url

    url = registry.get("redis").server_url("::1", 40123, "s3cret")
    assert parse_url(url) == {"password": "s3cret", "host": "::1", "port": 40123, "db": 0}
    assert parse_url(registry.get("redis").server_url("h", 1)) == {"host": "h", "port": 1, "db": 0}
    got = parse_uri(registry.get("mongodb").server_url("10.0.0.1", 40123, "s3cret"))
    assert (got["username"], got["password"], got["database"], got["nodelist"]) == (
        "ycsbctl", "s3cret", "ycsb", [("10.0.0.1", 40123)])
    assert got["options"]["authSource"] == "admin"


# (store, a URL that is refused, words of the one line that says why)
REFUSED = [
    ("memcached", "memcached:///", "no host"),
    ("memcached", "memcached://u:p@h:11211", "no user or password"),
    ("memcached", "memcached://u@h:11211", "no user or password"),
    ("memcached", "memcached://h:11211/db", "drop '/db'"),
    ("memcached", "memcached://h:11211?x=1", "drop '?x=1'"),
    ("memcached", "memcached://h:11211/db?x=1", "drop '/db?x=1'"),
    ("memcached", "memcached://h:99999", "bad memcached URL (Port out of range"),
    ("tarantool", "tarantool:///", "no host"),
    ("tarantool", "tarantool://guest@h:3301", "guest user"),
    ("tarantool", "tarantool://:pw@h:3301", "guest user"),
    ("tarantool", "tarantool://h:3301/ycsb", "drop '/ycsb'"),
    ("tarantool", "tarantool://h:3301?x=1", "drop '?x=1'"),
    ("tarantool", "tarantool://h:3301/s?x=1", "drop '/s?x=1'"),
    ("tarantool", "tarantool://h:port", "bad Tarantool URL (Port could not be cast"),
    ("clickhouse", "clickhouse:///default", "bad ClickHouse URL 'clickhouse:///default'"),
    ("clickhouse", "clickhouse://h:8123/a/b", "bad ClickHouse URL"),
    ("clickhouse", "clickhouse://h:8123/default?x=1", "bad ClickHouse URL"),
    ("clickhouse", "clickhouse://default@h:8123/default", "without a password: drop the user"),
    ("clickhouse", "clickhouse://:pw@h:8123/default", "without a password: drop the user"),
    ("clickhouse", "clickhouse://h:-1/default", "bad ClickHouse URL (Port"),
    ("elasticsearch", "elasticsearch:///", "bad Elasticsearch URL"),
    ("elasticsearch", "elasticsearch://h:9200/es.ycsb", "the index is -p es.index.key"),
    ("elasticsearch", "elasticsearch://h:9200?x=1", "the index is -p es.index.key"),
    ("elasticsearch", "elasticsearch://elastic@h:9200", "without authentication"),
    ("elasticsearch", "elasticsearch://:pw@h:9200", "without authentication"),
    ("sphinx", "sphinx:///", "no users or databases"),
    ("sphinx", "sphinx://h:9306/db", "no users or databases"),
    ("sphinx", "sphinx://h:9306?x=1", "no users or databases"),
    ("sphinx", "sphinx://u@h:9306", "no users or databases"),
    ("sphinx", "sphinx://:p@h:9306", "no users or databases"),
    ("postgresql", "postgresql:///postgres", "bad PostgreSQL URL"),
    ("postgresql", "postgresql://u@h:5432/a/b", "bad PostgreSQL URL"),
    ("postgresql", "postgresql://u@h:70000/db", "bad PostgreSQL URL (Port out of range"),
    ("mysql", "mariadb:///ycsb", "bad MySQL URL"),
    ("mysql", "mariadb://root@h:3306/a/b", "bad MySQL URL"),
    ("mysql", "mariadb://root@h:x/ycsb", "bad MySQL URL (Port could not be cast"),
    ("redis", "redis://h:port/0", "bad Redis URL (Port could not be cast"),
    ("mongodb", "mongodb://h:99999/ycsb", "bad MongoDB URL (Port must be an integer"),
    ("sqlite", "sqlite://host/x.db", "bad SQLite URL"),
    ("sqlite", "sqlite:///", "bad SQLite URL"),
    ("sqlite", "sqlite:///no/such/folder/x.db", "the folder of SQLite database /no/such/folder/x.db does not exist"),
]


@pytest.mark.parametrize(("name", "url", "why"), REFUSED)
def test_each_thing_a_stores_url_may_not_hold_is_refused_on_its_own_in_one_line(name, url, why):
    with pytest.raises(UserError) as raised:
        registry.get(name).validate(url)
    text = str(raised.value)
    assert why in text and "\n" not in text and raised.value.exit_code == 2


@pytest.mark.parametrize(("name", "url"), [
    ("memcached", "memcached://h:11211/"), ("tarantool", "tarantool://h"), ("clickhouse", "clickhouse://h:8123"),
    ("clickhouse", "clickhouse://h:8123/other"), ("elasticsearch", "es://h:9200/"), ("sphinx", "sphinx://h"),
    ("postgresql", "postgresql://u:p@h/db"), ("mysql", "mariadb://u:p@h:3306/ycsb?ssl=true"), ("redis",
                                                                                               "rediss://:p@h:1/2"),
    ("mongodb", "mongodb+srv://c.example/ycsb"), ("sqlite", "sqlite:///dev/shm/ycsbctl-test.db")])
def test_the_urls_each_store_takes_pass(name, url):
    registry.get(name).validate(url)


@pytest.mark.parametrize("query", ["socket_timeout=5&health_check_interval=10&protocol=3", "ssl_cert_reqs=optional",
                                   "socket_timeout=5&ssl_cert_reqs=none", "ssl_cert_reqs=maybe",
                                   "socket_timeout=5&ssl_cert_reqs=Required"])
def test_a_redis_urls_options_pass_where_redis_py_builds_its_connection_from_them(query):
    """The URL's options as redis-py reads them (parse_url) and builds its connection of them (no connect): the ones
    it takes pass, whatever their values, and only an ``ssl_cert_reqs`` it refuses is refused, before anything
    starts."""
    import redis
    from redis.connection import Connection, parse_url

    url = f"rediss://h:1/0?{query}"
    kw = parse_url(url)
    try:
        kw.pop("connection_class", Connection)(**kw)
        refused = None
    except redis.RedisError as exc:
        refused = str(exc)
    try:
        registry.get("redis").validate(url)
        said = None
    except UserError as exc:
        said = str(exc)
    assert (said is None) == (refused is None), (said, refused)
    assert said is None or "ssl_cert_reqs" in said


def test_sqlite_names_the_file_system_findmnt_names_for_its_file(tmp_path):
    store = registry.get("sqlite")
    for folder in ("/dev/shm", str(tmp_path)):
        fs = subprocess.run(["findmnt", "-n", "-o", "FSTYPE", "--target", folder], capture_output=True, text=True,
                            check=True).stdout.split()[-1]
        facts = store.describe(f"sqlite://{folder}/ycsbctl-describe.db")
        assert f"file on {fs}, WAL" in facts.name, (folder, facts.name)
        assert facts.config["file_system"] == fs
        assert facts.config["durability"].endswith(", file on tmpfs") is (fs == "tmpfs")


def test_tarantool_takes_a_numeric_space_and_sphinx_its_ten_fields():
    tarantool, sphinx = registry.get("tarantool"), registry.get("sphinx")
    tarantool.check_properties(None, {"tarantool.space": "512"})
    with pytest.raises(UserError, match="tarantool.space=ycsb: give the space's numeric id"):
        tarantool.check_properties(None, {"tarantool.space": "ycsb"})
    sphinx.check_properties(None, {"fieldcount": "10"})
    sphinx.check_properties(None, {"fieldcount": "3", "fieldnameprefix": "field"})
    for bad in ({"fieldcount": "11"}, {"fieldnameprefix": "f"}):
        with pytest.raises(UserError, match="ten fields"):
            sphinx.check_properties(None, bad)


def test_ycsbs_memcached_binding_is_given_the_host_port_and_timeout_in_ms():
    store = registry.get("memcached")
    assert store.ycsb_binding("memcached://10.0.0.2:11311", 2.5) == (
        "memcached", {"memcached.hosts": "10.0.0.2:11311", "memcached.opTimeoutMillis": "2500"})
    with pytest.raises(UserError, match="IPv4 addresses and host names only"):
        store.ycsb_binding("memcached://[::1]:11211", 1.0)


@pytest.mark.parametrize(("properties", "index"), [
    ({}, "es.ycsb"), ({"es.index.key": ""}, "es.ycsb"), ({"es.index.key": "mine"}, "mine")])
def test_elasticsearchs_index_is_es_index_key_as_in_ycsbs_binding_and_es_ycsb_when_unset_or_empty(properties, index):
    from ycsbctl.stores.elasticsearch.store import _index

    assert _index(properties) == index


def test_sqlite_names_the_other_processes_holding_its_file_or_its_wal_and_not_ours(tmp_path):
    import os
    import sys

    from ycsbctl.stores.sqlite.store import holders

    files = [tmp_path / "ycsb.db", tmp_path / "ycsb.db-wal", tmp_path / "other.db"]
    for f in files:
        f.write_bytes(b"")
    code = "import sys, time; f = open(sys.argv[1]); print('open', flush=True); time.sleep(30)"
    kids = [subprocess.Popen([sys.executable, "-c", code, str(f)], stdout=subprocess.PIPE, text=True) for f in files]
    try:
        with open(files[0]):  # this process holds the file too: not listed
            assert all(k.stdout is not None and k.stdout.readline() == "open\n" for k in kids)
            got = holders(str(files[0]), {os.getpid()})
    finally:
        for k in kids:
            k.kill()
            k.wait()
    assert sorted(pid for pid, _ in got) == sorted(k.pid for k in kids[:2])  # the file's and its WAL's, not other.db's
    assert all(name.startswith("python") for _, name in got)


def test_sqlites_own_writers_taking_turns_are_named_from_two_writing_processes_on():
    sqlite = registry.get("sqlite")
    said = sqlite.own_lock_wait("sqlite:///tmp/x.db", 2, 1)
    assert said is not None and said.startswith("the engine's 2 worker processes all write to the file")
    assert sqlite.own_lock_wait("sqlite:///tmp/x.db", 1, 100) is None  # one writer waits for no one
    assert sqlite.own_lock_wait("sqlite:///tmp/x.db", 4, 0) is None  # readers only: no write lock


def test_sqlite_says_which_other_process_holds_its_file_and_how_many_more(tmp_path):
    # two processes outside ours (started through a shell that leaves them to init) hold the file
    import sys

    db = tmp_path / "ycsb.db"
    db.write_bytes(b"")
    url = f"sqlite://{db}"
    sqlite = registry.get("sqlite")
    assert sqlite.pause_cause(url) is None
    code = "import sys, time; f = open(sys.argv[1]); open(sys.argv[1] + '.' + sys.argv[2], 'w').close(); time.sleep(30)"
    pids = [int(subprocess.run(["sh", "-c", f'"{sys.executable}" -c "{code}" {db} {i} >/dev/null 2>&1 & echo $!'],
                               capture_output=True, text=True, check=True).stdout) for i in range(2)]
    try:
        for i in range(2):
            for _ in range(200):
                if (tmp_path / f"ycsb.db.{i}").exists():
                    break
                time.sleep(0.01)
        said = sqlite.pause_cause(url)
        os.kill(pids[1], signal.SIGKILL)
        while os.path.exists(f"/proc/{pids[1]}/fd/0"):  # its files closed (a zombie has none left)
            time.sleep(0.01)
        alone = sqlite.pause_cause(url)
    finally:
        for pid in pids:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
    assert said is not None and any(f"pid {pid} and 1 more)" in said for pid in pids)
    assert alone is not None and f"pid {pids[0]}): SQLite waits" in alone


def test_redis_password_and_tls_properties_make_the_url_every_client_connects_with():
    """As YCSB's redis binding reads them: ``-p redis.password`` goes into a URL that has none (quoted), never over
    the URL's own; ``-p redis.tls=true`` makes ``redis://`` ``rediss://``; with neither the URL is unchanged."""
    from ycsbctl.workload.properties import Properties

    proto = registry.for_url("redis://127.0.0.1:6379/0")
    assert proto.url_with_properties("redis://127.0.0.1:6379/0", Properties({})) == "redis://127.0.0.1:6379/0"
    assert proto.url_with_properties("redis://127.0.0.1:6379/0", Properties({"redis.password": "p@ss w"})) == \
        "redis://:p%40ss%20w@127.0.0.1:6379/0"
    assert proto.url_with_properties("redis://u:mine@127.0.0.1:6379/0", Properties({"redis.password": "other"})) == \
        "redis://u:mine@127.0.0.1:6379/0"
    assert proto.url_with_properties("redis://127.0.0.1:6379/0", Properties({"redis.tls": "true",
                                                                             "redis.password": "x"})) \
        == "rediss://:x@127.0.0.1:6379/0"


def test_tarantool_bindings_write_to_the_space_asked_and_an_empty_one_is_ycsbs_1024(monkeypatch):
    import asyncio

    from ycsbctl.stores import binding_set

    async def connected(bindings, timeout_s):  # the bindings as they would be connected, no server needed
        return bindings

    monkeypatch.setattr(binding_set, "connect_wire", connected)
    tarantool = registry.get("tarantool")
    spaces = [[b.space for b in asyncio.run(tarantool.open_bindings("tarantool://127.0.0.1:1", 2, props, 1.0))]
              for props in ({"tarantool.space": "512"}, {"tarantool.space": ""}, {})]
    assert spaces == [[512, 512], [1024, 1024], [1024, 1024]]


def test_ycsbs_jdbc_binding_gets_the_postgresql_urls_user_and_password_unquoted_else_postgres_and_none():
    from ycsbctl.stores import registry

    proto = registry.for_url("postgresql://x@h:1/d")
    _, props = proto.ycsb_binding("postgresql://al%40ce:p%40ss@db.example:5433/shop", 1.0)
    assert (props["db.url"], props["db.user"], props["db.passwd"]) == \
        ("jdbc:postgresql://db.example:5433/shop", "al@ce", "p@ss")
    _, props = proto.ycsb_binding("postgresql://db.example/shop", 1.0)
    assert (props["db.url"], props["db.user"], props["db.passwd"]) == ("jdbc:postgresql://db.example:5432/shop",
                                                                       "postgres", "")


def test_mariadb_driver_wire_refuses_the_urls_password_and_a_check_without_a_url_reads_the_loopback_one():
    from ycsbctl.errors import UserError
    from ycsbctl.stores import registry

    proto = registry.for_url("mariadb://u@h:1/d")
    wire = {"mariadb.driver": "wire"}
    with pytest.raises(UserError, match="mariadb.driver=wire needs a mysql://user@host:port/db URL without a password"):
        proto.check_properties("mariadb://u:secret@db.example:3306/ycsb", wire)
    proto.check_properties("mariadb://u@db.example:3306/ycsb", wire)
    proto.check_properties(None, wire)  # the server ycsbctl starts: root, no password


def test_ycsbs_jdbc_binding_gets_the_mariadb_urls_user_password_and_tls_in_connector_js_spelling():
    # MariaDB Connector/J 3: sslMode=trust (no check of the server's certificate) or verify-full; no TLS, no option
    from ycsbctl.stores import registry

    proto = registry.for_url("mariadb://u@h:1/d")
    cases = {"mariadb://al%40ce:p%40ss@db.example:3307/shop": ("jdbc:mariadb://db.example:3307/shop", "al@ce", "p@ss"),
             "mariadb://db.example/shop?ssl=true": ("jdbc:mariadb://db.example:3306/shop?sslMode=verify-full", "root",
                                                    ""),
             "mariadb://db.example/shop?ssl=true&ssl_verify_cert=false":
                 ("jdbc:mariadb://db.example:3306/shop?sslMode=trust", "root", "")}
    for url, (jdbc, user, password) in cases.items():
        kind, props = proto.ycsb_binding(url, 1.0)
        assert (kind, props) == ("jdbc", {"db.driver": "org.mariadb.jdbc.Driver", "db.url": jdbc, "db.user": user,
                                          "db.passwd": password}), url


def test_ycsbs_mongodb_binding_gets_the_url_with_a_database_ycsb_when_it_names_none():
    from ycsbctl.stores import registry

    proto = registry.for_url("mongodb://h:1/d")
    assert proto.ycsb_binding("mongodb://h:27017", 1.0) == ("mongodb", {"mongodb.url": "mongodb://h:27017/ycsb"})
    assert proto.ycsb_binding("mongodb://h:27017/", 1.0) == ("mongodb", {"mongodb.url": "mongodb://h:27017/ycsb"})
    assert proto.ycsb_binding("mongodb://u:p@h:27017/bench?tls=true", 1.0) == \
        ("mongodb", {"mongodb.url": "mongodb://u:p@h:27017/bench?tls=true"})


def test_a_sqlite_files_file_system_is_the_longest_mount_point_holding_it_the_last_of_those_stacked(tmp_path):
    from ycsbctl.stores.sqlite.store import file_system

    mounts = tmp_path / "mounts"
    mounts.write_text("/dev/root / ext4 rw 0 0\n"
                      "tmpfs /dev/shm tmpfs rw 0 0\n"
                      "/dev/sdb1 /data xfs rw 0 0\n"
                      "tmpfs /data tmpfs rw 0 0\n"  # mounted over /data: it is what /data shows now
                      "/dev/sdc1 /data/deep btrfs rw 0 0\n"
                      "/dev/sdd1 /dat ext3 rw 0 0\n")
    where = {"/data/ycsb.db": "tmpfs", "/data/deep/ycsb.db": "btrfs", "/dev/shm/x.db": "tmpfs",
             "/datum/ycsb.db": "ext4", "/dat/ycsb.db": "ext3", "/home/u/ycsb.db": "ext4"}
    assert {p: file_system(p, str(mounts)) for p in where} == where
    assert file_system("/x.db", str(tmp_path / "none")) == ""


@pytest.mark.parametrize("url,ok", [("mysql://root@127.0.0.1:3306/ycsb", True), ("mysql:///ycsb", False),
                                    ("mysql://root@127.0.0.1:3306/a/b", False), ("mysql://root@h:99999/ycsb", False)])
def test_a_mariadb_url_needs_a_host_and_one_database(url, ok):
    from ycsbctl.errors import UserError
    from ycsbctl.stores.mariadb.store import MariaProtocol

    if ok:
        MariaProtocol().validate(url)
    else:
        with pytest.raises(UserError, match="bad MySQL URL"):
            MariaProtocol().validate(url)


TLS_CA = "/tmp/a ca/ca.pem"  # a space, as a user's folder may have: percent-encoded, read back as itself


@pytest.mark.parametrize("url, added", [
    ("mongodb://127.0.0.1:27017/ycsb", [("tls", "true"), ("tlsCAFile", TLS_CA)]),
    ("postgresql://u@127.0.0.1:5432/ycsb", [("sslmode", "verify-full"), ("sslrootcert", TLS_CA)]),
    ("mariadb://root@127.0.0.1:3306/ycsb", [("ssl", "true"), ("ssl_ca", TLS_CA)]),
    ("redis://127.0.0.1:6379/0", [("ssl_ca_certs", TLS_CA)]),
])
@pytest.mark.parametrize("kept", ["", "connect_timeout=5&x=a%2Fb"])
def test_a_tls_url_keeps_the_urls_options_and_adds_its_own_after_them(url: str, added: list, kept: str) -> None:
    """Each store's TLS URL (``Tls.tls_url``, which the TLS study's provisioning hands to every client) read back by
    urllib: the options it had kept, the TLS ones added after them, the CA file's path as given."""
    given = f"{url}?{kept}" if kept else url
    proto = registry.find(given)
    assert isinstance(proto, Tls)
    u = urlsplit(proto.tls_url(given, TLS_CA))
    assert u.netloc == urlsplit(url).netloc and u.path == urlsplit(url).path
    assert u.scheme == ("rediss" if url.startswith("redis") else urlsplit(url).scheme)
    assert parse_qsl(u.query) == parse_qsl(kept) + added
    assert u.query.startswith(kept) and u.query.count("?") == 0

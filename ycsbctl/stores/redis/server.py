"""How ycsbctl starts the servers that speak RESP: Redis and its command-line dialect (Valkey, KeyDB, the
Redis builds), and Dragonfly's (settings in ``infra/redis/redis.conf`` and ``infra/dragonfly/dragonfly.flags``)."""

from __future__ import annotations

import shlex
from dataclasses import dataclass

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

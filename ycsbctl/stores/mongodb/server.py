"""How ycsbctl starts the servers that speak the MongoDB wire protocol: mongod (Percona Server for MongoDB,
inMemory engine; its settings in ``infra/mongodb/mongod.flags``), FerretDB's image (``infra/ferretdb/ferretdb.flags``)
and the local ``mongo-wire`` build (FerretDB 1.24.0 embedded, SQLite backend); their catalogue entries, and
FerretDB with TLS."""

from __future__ import annotations

import subprocess
from dataclasses import dataclass

from ycsbctl.errors import UserError, short_error
from ycsbctl.stores.catalog_entry import FIRST, TLS, Target, Variant, tls_variant
from ycsbctl.stores.server_kind import (
    DATA_FRACTION,
    GIB,
    CertificateFiles,
    ServerKind,
    config_args,
    long_options,
)


def in_memory_size_gb(memory_bytes: int | None) -> float:
    """mongod ``--inMemorySizeGB``: DATA_FRACTION of the limit, else mongod's own default rule."""
    import psutil

    if memory_bytes is not None:
        size = memory_bytes * DATA_FRACTION / GIB
    else:
        size = 0.5 * (psutil.virtual_memory().total / GIB - 1)
    return max(0.25, round(size, 2))


def _no_tls(name: str) -> UserError:
    return UserError(f"ycsbctl cannot start a {name} server with TLS (it starts them in containers, without "
                     "certificates): use ferretdb with --tls (the local mongo-wire build), or give a TLS "
                     "server's URL (mongodb://host/?tls=true&tlsCAFile=/path/ca.crt)")


@dataclass(frozen=True)
class Mongod(ServerKind):
    """mongod: long options; ``--inMemorySizeGB`` from --server-memory, else its own default rule made explicit."""

    name: str = "mongod"

    def args(self, *, port: int, bind: str, data_dir: str | None, memory_bytes: int | None,
             password: str | None = None) -> list[str]:
        args = [*config_args("mongodb/mongod.flags"), "--port", str(port), "--bind_ip", bind,
                f"--inMemorySizeGB={in_memory_size_gb(memory_bytes)}"]
        if data_dir:
            args += ["--dbpath", data_dir]
        return args

    def settings_args(self, settings: dict[str, str]) -> list[str]:
        return long_options(settings)

    def tls_args(self, port: int, tls: CertificateFiles, data_dir: str | None = None) -> list[str]:
        raise _no_tls(self.name)

    def memory_note(self, memory_bytes: int | None) -> str | None:
        if memory_bytes is None:
            return f"inMemorySizeGB={in_memory_size_gb(None)} (mongod default rule: 50% of RAM - 1 GiB)"
        return f"inMemorySizeGB={in_memory_size_gb(memory_bytes)} ({DATA_FRACTION:.0%} of --server-memory)"

    def check_binary(self, path: str) -> None:
        """Refuse a mongod without the inMemory engine (community builds): never swap engines."""
        try:
            out = subprocess.run([path, "--help"], capture_output=True, text=True, timeout=20)
            text = out.stdout + out.stderr
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise UserError(f"cannot run {path} --help ({short_error(exc)})", fix="check the mongod install",
                            exit_code=1) from None
        if "inMemorySizeGB" not in text:
            raise UserError(f"{path} is MongoDB Community without the inMemory storage engine",
                            fix="install Percona Server for MongoDB (apt package percona-server-mongodb) or use "
                                "--backend docker", exit_code=1)


@dataclass(frozen=True)
class FerretDB(ServerKind):
    """FerretDB's image: long options, its listen address."""

    name: str = "ferretdb"
    describe_variant: str = "SQLite backend"

    def args(self, *, port: int, bind: str, data_dir: str | None, memory_bytes: int | None,
             password: str | None = None) -> list[str]:
        return [*config_args("ferretdb/ferretdb.flags"), f"--listen-addr={bind}:{port}"]

    def settings_args(self, settings: dict[str, str]) -> list[str]:
        return long_options(settings)

    def tls_args(self, port: int, tls: CertificateFiles, data_dir: str | None = None) -> list[str]:
        raise _no_tls(self.name)


@dataclass(frozen=True)
class MongoWire(ServerKind):
    """The local mongo-wire build: takes no settings; its data folder on tmpfs (its SQLite fsyncs every write:
    on a disk its stand-in for an in-memory MongoDB measured the disk's fsync); TLS from FerretDB's listener."""

    name: str = "mongo-wire"
    speaks_tls: bool = True
    data_in_memory: bool = True
    describe_variant: str = "mongo-wire, SQLite backend"
    memory_limited_locally: bool = False

    def args(self, *, port: int, bind: str, data_dir: str | None, memory_bytes: int | None,
             password: str | None = None) -> list[str]:
        return ["--listen", f"{bind}:{port}", "--data", data_dir or "/data"]

    def tls_args(self, port: int, tls: CertificateFiles, data_dir: str | None = None) -> list[str]:
        """FerretDB's TLS listener: the files, its address TLS only."""
        return ["--tls-cert-file", tls.cert_file, "--tls-key-file", tls.key_file]


KINDS: tuple[ServerKind, ...] = (Mongod(), FerretDB(), MongoWire())

TARGETS: tuple[Target, ...] = (
    Target("mongodb", "mongodb", "Percona Server for MongoDB", "percona/percona-server-mongodb:7.0", "mongod",
           27017, "mongod", "mongod",
           "install Percona Server for MongoDB (apt package percona-server-mongodb, "
           "https://docs.percona.com/percona-server-for-mongodb/7.0/install/apt.html)", listed=FIRST),
    # Pinned to 1.24.0: FerretDB 2.x needs PostgreSQL+DocumentDB; 1.24 has the SQLite backend
    # that the local mongo-wire server (FerretDB 1.24.0 embedded) uses too.
    Target("ferretdb", "mongodb", "FerretDB", "ghcr.io/ferretdb/ferretdb:1.24.0", "mongo-wire", 27017,
           "ferretdb", "mongo-wire",
           "build it with `scripts/setup.sh` or `bash infra/build-mongo-wire.sh` (needs Go >= 1.22) and "
           "put it in $YCSBCTL_BIN_DIR or ~/.local/share/ycsbctl/bin"),
)

# FerretDB with TLS, listed after the other stores' TLS deployments
VARIANTS: tuple[Variant, ...] = (tls_variant("ferretdb", TLS + 1),)

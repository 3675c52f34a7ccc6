"""How ycsbctl starts PostgreSQL: ``postgres`` on a data folder ``initdb`` made (settings in
``infra/postgresql/postgresql.flags``), TLS with a pg_hba.conf of ``hostssl`` lines; the official image takes
the superuser's password in its environment. Its catalogue entry, and its deployments: TLS, durability on, a
streaming standby."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from ycsbctl.errors import UserError
from ycsbctl.stores.catalog_entry import Target, Variant, tls_variant
from ycsbctl.stores.server_kind import CertificateFiles, Initialise, ServerKind, config_args, long_options

PG_USER = "ycsb"  # the database superuser initdb creates (trust authentication, loopback only)
PG_HBA_TLS = "pg_hba_tls.conf"  # in the data folder: TCP clients only over TLS (provision.local_prep writes it)
# A PostgreSQL started with TLS: TCP clients only over TLS (a plain one reads "no pg_hba.conf entry … no
# encryption"); the Unix socket in the data folder stays for the server's own tools.
PG_HBA_TLS_TEXT = ("local all all trust\n"
                   "hostssl all all 127.0.0.1/32 trust\n"
                   "hostssl all all ::1/128 trust\n"
                   "hostssl replication all 127.0.0.1/32 trust\n")  # a standby's WAL stream (postgresql-standby)


def initdb(postgres: str, data_dir: str, initialise: Initialise) -> None:
    """``initdb`` into ``data_dir`` (our superuser, trust on loopback), or a copy of its kept template."""
    initdb = Path(postgres).resolve().with_name("initdb")
    if not os.access(initdb, os.X_OK):
        raise UserError(f"initdb not found beside {postgres}", fix="apt-get install postgresql", exit_code=1)
    args = ["-U", PG_USER, "--auth=trust", "--encoding=UTF8", "--locale=C", "--no-sync", "--no-instructions"]
    initialise("initdb", str(initdb), args, [str(initdb), "-D", data_dir, *args])


@dataclass(frozen=True)
class Postgres(ServerKind):
    """``postgres``: long options; its several-process variant is a primary and a streaming standby; in a
    container a fast shutdown at stop (SIGINT, as the official image's STOPSIGNAL), whoever is connected."""

    name: str = "postgres"
    password_env: tuple[tuple[str, str | None], ...] = (("POSTGRES_PASSWORD", ""),
                                                        ("POSTGRES_HOST_AUTH_METHOD", "scram-sha-256"))
    speaks_tls: bool = True
    data_in_memory: bool = True
    standby: bool = True
    container_stop_signal: str = "SIGINT"

    def args(self, *, port: int, bind: str, data_dir: str | None, memory_bytes: int | None,
             password: str | None = None) -> list[str]:
        # the data directory is made by initdb (provision.local_prep); sockets in it too
        where = ["-D", data_dir, "-k", data_dir] if data_dir else []
        return [*where, "-p", str(port), f"--listen_addresses={bind}", *config_args("postgresql/postgresql.flags")]

    def settings_args(self, settings: dict[str, str]) -> list[str]:
        return long_options(settings)

    def tls_args(self, port: int, tls: CertificateFiles, data_dir: str | None = None) -> list[str]:
        """``ssl=on`` and a pg_hba.conf whose TCP lines are all ``hostssl`` (:meth:`tls_files`)."""
        hba = [f"--hba_file={data_dir}/{PG_HBA_TLS}"] if data_dir else []
        return ["--ssl=on", f"--ssl_cert_file={tls.cert_file}", f"--ssl_key_file={tls.key_file}", *hba]

    def tls_files(self) -> dict[str, str]:
        return {PG_HBA_TLS: PG_HBA_TLS_TEXT}

    def prepare(self, binary: str, data_dir: str, user: str | None, initialise: Initialise) -> None:
        initdb(binary, data_dir, initialise)


KINDS: tuple[ServerKind, ...] = (Postgres(),)

TARGETS: tuple[Target, ...] = (
    Target("postgresql", "postgresql", "PostgreSQL", "postgres:15", "postgres", 5432, "postgres", "postgres",
           "apt-get install postgresql (Debian 12: PostgreSQL 15)",
           package_dirs=("/usr/lib/postgresql/*/bin",), run_as="postgres",
           container_tmpfs="/var/lib/postgresql/data",
           env=(("POSTGRES_USER", "ycsb"), ("POSTGRES_DB", "postgres"),
                ("POSTGRES_HOST_AUTH_METHOD", "trust"))),
)

VARIANTS: tuple[Variant, ...] = (
    tls_variant("postgresql"),
    Variant("postgresql-durable", "postgresql",
            "durability on: fsync, synchronous_commit and full_page_writes on",
            (("fsync", "on"), ("synchronous_commit", "on"), ("full_page_writes", "on")), True),
    Variant("postgresql-standby", "postgresql",
            "a primary and a streaming standby (pg_basebackup), the primary's commits waiting for it "
            "(synchronous_standby_names; synchronous_commit=on, or remote_write, remote_apply, local, off)",
            (("synchronous_commit", "on"),), replicas=1),
)

"""How ycsbctl starts MariaDB: ``mariadbd --no-defaults`` on a data folder ``mariadb-install-db`` made (settings
in ``infra/mariadb/mariadbd.flags``); the official image takes root's password in its environment. Its
catalogue entry, and its deployments: TLS, durability on."""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

from ycsbctl.errors import UserError
from ycsbctl.stores.catalog_entry import Target, Variant, tls_variant
from ycsbctl.stores.server_kind import CertificateFiles, Initialise, ServerKind, config_args, long_options

# MariaDB: root over TCP from 127.0.0.1 (mariadb-install-db makes root@localhost only, which
# --skip-name-resolve does not match) and the ycsb database, at each start (--init-file); no password,
# loopback only. The official image gets the same with MARIADB_ROOT_HOST and MARIADB_DATABASE.
MARIADB_INIT = ("CREATE USER IF NOT EXISTS 'root'@'127.0.0.1';\n"
                "GRANT ALL PRIVILEGES ON *.* TO 'root'@'127.0.0.1' WITH GRANT OPTION;\n"
                "CREATE DATABASE IF NOT EXISTS ycsb;\n")


def install_db(mariadbd: str, data_dir: str, user: str | None, initialise: Initialise) -> None:
    """``mariadb-install-db`` into ``data_dir`` (system tables only), or a copy of its kept template, and the
    init file of our user."""
    install = shutil.which("mariadb-install-db") or shutil.which("mysql_install_db")
    if install is None:
        raise UserError("mariadb-install-db not found", fix="apt-get install mariadb-server", exit_code=1)
    server = str(Path(mariadbd).resolve())
    args = ["--auth-root-authentication-method=normal", "--skip-test-db", "--skip-name-resolve",
            f"--basedir={Path(server).parents[1]}"]
    # --no-defaults must come first
    initialise("mariadb-install-db", server, args, [install, "--no-defaults", f"--datadir={data_dir}", *args])
    init = Path(data_dir) / "ycsbctl-init.sql"
    init.write_text(MARIADB_INIT)
    if user:
        shutil.chown(init, user=user, group=None)


@dataclass(frozen=True)
class Mariadbd(ServerKind):
    """``mariadbd``: long options; TLS with the files and ``require_secure_transport``."""

    name: str = "mariadbd"
    password_env: tuple[tuple[str, str | None], ...] = (("MARIADB_ROOT_PASSWORD", ""),
                                                        ("MARIADB_ALLOW_EMPTY_ROOT_PASSWORD", None))
    speaks_tls: bool = True
    data_in_memory: bool = True

    def args(self, *, port: int, bind: str, data_dir: str | None, memory_bytes: int | None,
             password: str | None = None) -> list[str]:
        # --no-defaults first: no /etc/mysql config; the data folder from mariadb-install-db
        where = [f"--datadir={data_dir}", f"--socket={data_dir}/mysqld.sock", f"--pid-file={data_dir}/mysqld.pid",
                 f"--init-file={data_dir}/ycsbctl-init.sql"] if data_dir else []
        return ["--no-defaults", *where, f"--port={port}", f"--bind-address={bind}",
                *config_args("mariadb/mariadbd.flags")]

    def settings_args(self, settings: dict[str, str]) -> list[str]:
        return long_options(settings)

    def tls_args(self, port: int, tls: CertificateFiles, data_dir: str | None = None) -> list[str]:
        return [f"--ssl-cert={tls.cert_file}", f"--ssl-key={tls.key_file}", f"--ssl-ca={tls.ca_file}",
                "--require-secure-transport=ON"]

    def prepare(self, binary: str, data_dir: str, user: str | None, initialise: Initialise) -> None:
        install_db(binary, data_dir, user, initialise)


KINDS: tuple[ServerKind, ...] = (Mariadbd(),)

TARGETS: tuple[Target, ...] = (
    Target("mariadb", "mysql", "MariaDB", "mariadb:10.11", "mariadbd", 3306, "mariadbd", "mariadbd",
           "apt-get install mariadb-server (Debian 12: MariaDB 10.11)", package_dirs=("/usr/sbin",),
           run_as="mysql", container_tmpfs="/var/lib/mysql",
           env=(("MARIADB_DATABASE", "ycsb"), ("MARIADB_ALLOW_EMPTY_ROOT_PASSWORD", "1"),
                ("MARIADB_ROOT_HOST", "%"))),
)

VARIANTS: tuple[Variant, ...] = (
    tls_variant("mariadb"),
    Variant("mariadb-durable", "mariadb",
            "durability on: the redo log flushed at every commit, doublewrite buffer on",
            (("innodb-flush-log-at-trx-commit", "1"), ("innodb-doublewrite", "1")), True),
)

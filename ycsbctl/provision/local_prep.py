"""What a local server needs before it starts, beyond a port and a data folder: the data folder on
tmpfs, a system user when ycsbctl runs as root and the server refuses root (PostgreSQL, MariaDB),
and its own initialisation (``initdb``)."""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from ycsbctl.errors import UserError
from ycsbctl.provision import catalog, init_template
from ycsbctl.provision.tls import ServerCertificates
from ycsbctl.stores.registry import server_kind

TMPFS = "/dev/shm"  # where data folders go when the server's data should live in memory


@dataclass
class Prepared:
    """``user``: the system user the server runs as (None: ours); ``data_dir``: its data folder."""

    data_dir: str
    user: str | None = None


def data_folder(label: str, entry: catalog.Target) -> str:
    """A fresh data folder: on tmpfs for servers whose data should live in memory (PostgreSQL, MariaDB, ClickHouse,
    Sphinx, Elasticsearch, and the local FerretDB build, whose SQLite fsyncs every write: on a disk its
    stand-in for an in-memory MongoDB measured the disk's fsync), on a disk for a durable variant
    (:func:`disk_folder`), else in $TMPDIR."""
    if entry.variant is not None and entry.variant.durable:
        return tempfile.mkdtemp(prefix=f"ycsbctl-{label}-", dir=disk_folder())
    in_memory = (server_kind(entry.local_flavor).data_in_memory
                 and os.path.isdir(TMPFS) and os.access(TMPFS, os.W_OK))
    return tempfile.mkdtemp(prefix=f"ycsbctl-{label}-", dir=TMPFS if in_memory else None)


MEMORY_FILESYSTEMS = ("tmpfs", "ramfs")
DISK_CANDIDATES = ("/var/tmp", "/var/lib/ycsbctl")  # after $TMPDIR, where a durable server's data goes


def filesystem_of(path: str) -> tuple[str, str]:
    """(type, device) of the filesystem holding ``path`` (``ext4``, ``/dev/vda``), from the mount table
    (the longest mount point above it)."""
    import psutil

    real = os.path.realpath(path)
    best = ("", "", "")
    for part in psutil.disk_partitions(all=True):
        mp = part.mountpoint
        if (real == mp or real.startswith(mp.rstrip("/") + "/")) and len(mp) > len(best[0]):
            best = (mp, part.fstype, part.device)
    return best[1] or "unknown", best[2]


def disk_folder() -> str | None:
    """Where a durable server's data folder goes: $TMPDIR when it is not in memory, else the first of
    :data:`DISK_CANDIDATES` that is writable and on a disk; $TMPDIR anyway when none is (the note
    of :func:`durability_note` then says the data lives in memory)."""
    for folder in (tempfile.gettempdir(), *DISK_CANDIDATES):
        if os.path.isdir(folder) and os.access(folder, os.W_OK) and filesystem_of(folder)[0] not in MEMORY_FILESYSTEMS:
            return folder
    return None


def durability_note(data_dir: str) -> str:
    """Where a durable server keeps its data, and whether that is a disk: ``data directory
    /tmp/ycsbctl-redis-aof-… on ext4 (/dev/vda): a disk, so fsync reaches it``."""
    fstype, device = filesystem_of(data_dir)
    where = f"data directory {data_dir} on {fstype}" + (f" ({device})" if device else "")
    if fstype in MEMORY_FILESYSTEMS:
        return f"{where}: in memory, NOT a disk — its durability settings are on, but fsync reaches no disk"
    return f"{where}: a disk, so its fsync reaches it"


def run_as(entry: catalog.Target) -> str | None:
    """The user the server runs as: ``entry.run_as`` when we are root and the server refuses root, else None."""
    if not entry.run_as or os.geteuid() != 0:
        return None
    try:
        pwd.getpwnam(entry.run_as)
    except KeyError:
        raise UserError(f"{entry.name} refuses to run as root, and there is no system user {entry.run_as!r} to run "
                        "it as", fix=f"{entry.install_hint} (its package creates that user), or run ycsbctl as "
                        "another user", exit_code=1) from None
    return entry.run_as


def prepare(label: str, entry: catalog.Target, binary: str, log_path: str | Path) -> Prepared:
    """Make the data folder (and initialise it) for ``entry``'s server; nothing is left when this fails."""
    user = run_as(entry)
    data_dir = data_folder(label, entry)
    try:
        if user:
            shutil.chown(data_dir, user=user, group=None)
        init_data_dir(entry.local_flavor, binary, data_dir, user, log_path)
    except BaseException:
        shutil.rmtree(data_dir, ignore_errors=True)
        raise
    return Prepared(data_dir, user)


def init_data_dir(flavor: str, binary: str, data_dir: str, user: str | None, log_path: str | Path) -> None:
    """The server's own initialisation of the fresh ``data_dir`` (its kind's ``prepare``: PostgreSQL's ``initdb``,
    ``mariadb-install-db``, Sphinx's and Elasticsearch's config), the tools it runs as ``user`` writing to
    ``log_path``, or a copy of the template an earlier one left (:func:`_initialise`)."""

    def initialise(what: str, tool: str, args: list[str], argv: list[str]) -> None:
        _initialise(what, tool, args, argv, data_dir, user, log_path)

    server_kind(flavor).prepare(binary, data_dir, user, initialise)


def server_tls_files(flavor: str, certs: ServerCertificates, data_dir: str, user: str | None) -> ServerCertificates:
    """The certificate and key a server of ``flavor`` reads, copied into its data folder (owned by
    ``user``, the key mode 0600: PostgreSQL refuses a key others can read, and a server run as
    another user cannot read ours; MariaDB reads the CA too), and PostgreSQL's TLS-only pg_hba.conf.
    Clients trust the CA where it is; the copies go with the data folder when the server is stopped."""
    out = ServerCertificates(*(str(Path(data_dir) / f"tls-{n}") for n in ("ca.crt", "server.crt", "server.key")))
    old = os.umask(0o077)
    try:
        shutil.copyfile(certs.key_file, out.key_file)
        shutil.copyfile(certs.cert_file, out.cert_file)
        shutil.copyfile(certs.ca_file, out.ca_file)
        made = [out.key_file, out.cert_file, out.ca_file]
        for name, text in server_kind(flavor).tls_files().items():  # PostgreSQL's TLS-only pg_hba.conf
            (Path(data_dir) / name).write_text(text)
            made.append(str(Path(data_dir) / name))
    finally:
        os.umask(old)
    for path in made:
        os.chmod(path, 0o600)
        if user:
            shutil.chown(path, user=user, group=None)
    return out


def _initialise(what: str, binary: str, args: list[str], argv: list[str], data_dir: str, user: str | None,
                log_path: str | Path) -> None:
    """``argv`` (``what``, which initialises ``data_dir`` for ``binary`` with ``args``), or a copy of the
    template an earlier one left (:mod:`init_template`), said in the server's log."""
    if init_template.initialise(what, binary, args, data_dir, user,
                                lambda: _run(argv, data_dir, user, log_path, what)):
        with open(log_path, "a") as log:
            log.write(f"ycsbctl: the data folder is a copy of the one an earlier {what} made with the same binary "
                      f"and arguments (YCSBCTL_TEMPLATE_DIR=off initialises it afresh)\n")


def _run(argv: list[str], data_dir: str, user: str | None, log_path: str | Path, what: str) -> None:
    with open(log_path, "ab") as log:
        done = subprocess.run(argv, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, user=user,
                              cwd=data_dir, timeout=120)
    if done.returncode:
        from ycsbctl.provision.probe import tail

        raise UserError(f"{what} failed (exit {done.returncode}): {tail(log_path)}", exit_code=1)

"""SQLite (``sqlite:///path/to/file.db``): an embedded store, run inside the engine's own processes."""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from ycsbctl.errors import UserError
from ycsbctl.stores.base import Reading, ServerFacts
from ycsbctl.stores.capabilities import ClientPauses, DatasetFile, DatasetLoss, FootprintReading, RealYcsb
from ycsbctl.stores.registry import register
from ycsbctl.stores.sql.protocol import SqlProtocol, only
from ycsbctl.stores.sqlite.media_items import SqliteItems
from ycsbctl.workload.media_items.contract import WORKLOAD as MEDIA_ITEMS

if TYPE_CHECKING:
    from ycsbctl.stores.binding_set import BindingSet


def database_path(url: str) -> str:
    """The file of ``sqlite:///dev/shm/ycsb.db`` (``/dev/shm/ycsb.db``; ``sqlite:////abs`` too)."""
    parts = urlsplit(url)
    path = "/" + parts.path.lstrip("/") if parts.path else ""
    if parts.scheme != "sqlite" or parts.netloc or len(path) < 2:
        raise UserError(f"bad SQLite URL {url!r}: use sqlite:///path/to/file.db (an absolute path, e.g. "
                        "sqlite:///dev/shm/ycsb.db)")
    return path


def holders(path: str, ours: set[int]) -> list[tuple[int, str]]:
    """(pid, name) of the processes other than ``ours`` that hold ``path`` (or its ``-wal``/``-journal``)
    open, from each process's ``/proc/PID/fd`` links (those this user may read)."""
    wanted = {os.path.realpath(path) + s for s in ("", "-wal", "-journal", "-shm")}
    out = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) in ours:
            continue
        try:
            fds = os.listdir(f"/proc/{entry}/fd")
            if any(os.readlink(f"/proc/{entry}/fd/{fd}") in wanted for fd in fds):
                with open(f"/proc/{entry}/comm") as f:
                    out.append((int(entry), f.read().strip()))
        except OSError:  # gone, or not ours to read
            continue
    return out


def _our_tree() -> set[int]:
    """This process and every process under it (the engine's workers)."""
    import psutil

    me = psutil.Process()
    return {me.pid, *(c.pid for c in me.children(recursive=True))}


def file_system(path: str, mounts: str = "/proc/mounts") -> str:
    """The type of the file system ``path`` is on (``tmpfs``, ``ext4``, …), from ``mounts`` (/proc/mounts: the
    longest mount point that holds it; of mounts stacked on one point, the last, which hides the others); ""
    unknown."""
    best, kind = "", ""
    try:
        with open(mounts) as f:
            for line in f:
                _, point, fs, *_ = line.split()  # device, mount point, type, options … (fstab(5))
                if path.startswith(point.rstrip("/") + "/") and len(point) >= len(best):
                    best, kind = point, fs
    except OSError:
        return ""
    return kind


SQLITE_HEADER = b"SQLite format 3\x00"  # a database file's first 16 bytes (an empty file is an empty database)


def _check_is_database(path: str) -> None:
    """UserError unless the existing ``path`` is an SQLite database file (or an empty file). A folder, or a file
    of something else, failed each point on "unable to open database file" / "file is not a database", exit 1
    (fault43g), and with --load too (the campaign's sqlite:///tmp, a log file): said before anything starts, and
    a file of something else is never cleared."""
    if os.path.isdir(path):
        raise UserError(f"SQLite database {path} is a folder", fix="give the path of a database file in it")
    try:
        with open(path, "rb") as f:
            head = f.read(len(SQLITE_HEADER))
    except OSError as exc:
        raise UserError(f"cannot read SQLite database {path}: {exc.strerror}", fix="give a file you can read") from None
    if head and head != SQLITE_HEADER:
        raise UserError(f"{path} is not a SQLite database (its first bytes are not SQLite's header)",
                        fix="give the path of an SQLite database, or a new path (loading creates it)")


class SqliteProtocol(SqlProtocol, DatasetFile, DatasetLoss, ClientPauses, FootprintReading, RealYcsb):
    name = "sqlite"
    executors = {MEDIA_ITEMS: SqliteItems}
    duplicate_insert = ("UNIQUE constraint failed",)
    schemes = ("sqlite",)
    example = "sqlite:///path/to/file.db"
    title = "SQLite"
    has_server = False  # embedded: no process, port or network of its own; its CPU is the client's
    footprint_basis = "page_count*page_size"
    jdbc_driver = "org.sqlite.JDBC"

    def admin_errors(self) -> tuple[type[BaseException], ...]:
        """sqlite3's too: a file that is locked, gone or no database (``sqlite3.Error``)."""
        return (OSError, sqlite3.Error)

    def validate(self, url: str) -> None:
        path = database_path(url)
        if not os.path.isdir(os.path.dirname(path)):
            raise UserError(f"the folder of SQLite database {path} does not exist: create it or use another path")
        if os.path.exists(path):
            _check_is_database(path)

    def check_unloaded(self, url: str) -> None:
        path = database_path(url)
        if not os.path.exists(path):  # opening it would create an empty database: every read NOT_FOUND
            raise UserError(f"SQLite database {path} does not exist",
                            fix="pass --load to create and load it, or give the path of a loaded one")
        _check_is_database(path)

    def loopback_url(self, port: int) -> str:
        raise NotImplementedError("SQLite has no server")

    async def open_bindings(self, url: str, clients: int, properties: dict[str, str], timeout_s: float) -> BindingSet:
        from ycsbctl.stores.binding_set import BindingSet
        from ycsbctl.stores.sql.layout import field_names, ycsb_layout
        from ycsbctl.stores.sqlite.binding import SqliteBinding, ensure_table

        path = database_path(url)
        if ycsb_layout(properties):  # a workload plug-in creates its own tables
            ensure_table(path, properties.get("table", "usertable"), field_names(properties), max(timeout_s, 5.0))
        bindings = [SqliteBinding(path, timeout_s) for _ in range(clients)]
        for b in bindings:
            await b.connect()
        return BindingSet(list(bindings))

    def query(self, url: str, sql: str, timeout_s: float) -> list[tuple[Any, ...]]:
        from ycsbctl.stores.sqlite.binding import connect

        conn = connect(database_path(url), timeout_s)
        try:
            return conn.execute(sql).fetchall()
        finally:
            conn.close()

    def count(self, url: str, table: str) -> int | None:
        """Rows in ``table``; 0 when the file is gone (asked without opening it, which would create it)."""
        if not os.path.exists(database_path(url)):
            return 0
        return super().count(url, table)

    def why_short(self, url: str) -> str | None:
        """A database file deleted while it was in use: the clients that had it open went on with the deleted
        file, which no path reaches any more."""
        path = database_path(url)
        if os.path.exists(path):
            return None
        return (f"the SQLite file {path} no longer exists (deleted while in use: what the clients wrote went to "
                "the deleted file)")

    def storage_id(self, url: str) -> tuple[str, str] | None:
        """The file and its inode (a file put in its place, by a rename or deleted and created again, is another
        inode while the clients hold the first open); None when no file is there."""
        path = database_path(url)
        try:
            st = os.stat(path)
        except OSError:
            return None
        return f"the SQLite file {path}", f"inode {st.st_ino} on device {st.st_dev}"

    def table_exists(self, url: str, table: str) -> bool:
        return bool(self.query(url, f"SELECT 1 FROM sqlite_master WHERE type='table' AND name='{table}'", 5.0))

    def ping(self, url: str, timeout_s: float = 1.0) -> None:
        self.query(url, "SELECT 1", timeout_s)

    def describe(self, url: str, expected: str = "") -> ServerFacts:
        from ycsbctl.stores.sqlite.binding import PRAGMAS

        path = database_path(url)
        fs = file_system(path)
        config: dict[str, Any] = {
            "path": path,
            "file_system": fs,
            **PRAGMAS,
            "client": "Python sqlite3",
            "durability": "journal_mode=WAL, synchronous=OFF" + (", file on tmpfs" if fs == "tmpfs" else ""),
        }
        where = "on tmpfs" if fs == "tmpfs" else f"on {fs or 'disk'}"
        name = f"SQLite {sqlite3.sqlite_version} (embedded, no network; file {where}, WAL, synchronous=OFF)"
        return ServerFacts(name, sqlite3.sqlite_version, config, {"server": "SQLite", "embedded": True})

    def pause_cause(self, url: str, counts: Mapping[str, int] | None = None) -> str | None:
        """Another process holding the database file: SQLite waits for its lock inside our own calls
        (up to the operation timeout), which the client's loop sees as a pause of its own. Named by the process
        when it still has the file open; else by the bindings' own ``counts`` (:mod:`ycsbctl.stores.sqlite.binding`:
        calls answered SQLITE_BUSY, one of which waited longer than any statement of ours holds the lock)."""
        from ycsbctl.stores.sqlite.binding import LONG_LOCK_S

        found = holders(database_path(url), _our_tree())
        long_waits = int((counts or {}).get("sqlite_busy_long") or 0)
        if not found and long_waits:
            calls, ms = (
                int((counts or {}).get("sqlite_busy_calls") or 0),
                int((counts or {}).get("sqlite_busy_ms") or 0),
            )
            return (f"SQLite answered 'database is locked' (SQLITE_BUSY) to {calls:,} of the "
                    "client's calls, which waited "
                    f"{ms / 1000:.1f} s in all for the lock ({long_waits:,} of them {LONG_LOCK_S:g} s or longer: held "
                    "longer than any one statement of ours holds it — another program's transaction, which no longer "
                    "has the file open), so the pause is the store's lock wait, not a stopped load generator")
        if not found:
            return None
        pid, name = found[0]
        more = f" and {len(found) - 1} more" if len(found) > 1 else ""
        return (f"the database file is held open by another process ({name}, pid {pid}{more}): SQLite waits for "
                "that process's lock inside the client's own calls, so the pause is the store's lock wait, "
                "not a stopped load generator")

    def own_lock_wait(self, url: str, processes: int, writes: int) -> str | None:
        """Our own writers taking turns on the file's one write lock: with several engine processes writing,
        each waits for the others' lock inside its own call (the busy timeout), which its event loop sees as a
        pause. That is how SQLite serialises writers, measured as its latency, not a stopped load generator."""
        if processes < 2 or writes < 1:
            return None
        return (f"the engine's {processes} worker processes all write to the file and SQLite lets one write at "
                "a time: each waited for the others' lock inside its own calls (our own writers waiting on the "
                "database lock, SQLite's serialised writes, not a stopped load generator)")

    def reading(self, url: str) -> Reading:
        size = float(only(self.query(url, "SELECT page_count * page_size FROM pragma_page_count(), pragma_page_size()",
                                     5.0)))
        return Reading(size, None, self.count(url, "usertable"), {"data_size_bytes": size})

    def ycsb_binding(self, url: str, timeout_s: float) -> tuple[str, dict[str, str]]:
        return "jdbc", {"db.driver": self.jdbc_driver, "db.url": f"jdbc:sqlite:{database_path(url)}"}


PROTOCOL = register(SqliteProtocol())

"""What MariaDB reports about itself: ``SHOW GLOBAL STATUS`` sampled on a connection of our own, and
the table's InnoDB data + index length."""

from __future__ import annotations

import time
from typing import Any

from ycsbctl.stores.sampler import Sampler, counter_rate, num, rates

# Statement counters per kind (Com_*), rows read and the handler's row writes (MariaDB 10.11 has no
# Innodb_rows_* counters any more)
COMMANDS = ("Com_select", "Com_insert", "Com_update", "Com_delete")
ROWS = ("Rows_read", "Handler_write", "Handler_update", "Handler_delete")


def global_status(conn) -> dict[str, Any]:
    with conn.cursor() as cur:
        cur.execute("SHOW GLOBAL STATUS")
        return dict(cur.fetchall())


def database_bytes(conn) -> float:
    """InnoDB's ``data_length + index_length`` of every table of the current database (YCSB's, or a workload
    plug-in's), refreshed by ANALYZE TABLE, plus the space of their FULLTEXT indexes' auxiliary tables
    (``information_schema.INNODB_SYS_TABLESPACES``: allocated bytes of ``<db>/FTS_…``), in bytes."""
    with conn.cursor() as cur:
        cur.execute("SELECT table_name FROM information_schema.tables WHERE table_schema = DATABASE() "
                    "AND engine = 'InnoDB'")
        tables = [r[0] for r in cur.fetchall()]
        for t in tables:
            cur.execute(f"ANALYZE TABLE `{t}`")
            cur.fetchall()
        cur.execute("SELECT coalesce(sum(data_length + index_length), 0) FROM information_schema.tables "
                    "WHERE table_schema = DATABASE() AND engine = 'InnoDB'")
        size = num(cur.fetchone()[0]) or 0.0
        cur.execute("SELECT COUNT(*) FROM information_schema.statistics WHERE table_schema = DATABASE() "
                    "AND index_type = 'FULLTEXT'")
        if not cur.fetchone()[0]:  # no FULLTEXT index, no auxiliary table: nothing that needs PROCESS
            return size
        try:
            cur.execute("SELECT coalesce(sum(allocated_size), 0) FROM information_schema.innodb_sys_tablespaces "
                        "WHERE name LIKE concat(DATABASE(), '/FTS\\_%')")
        except Exception as exc:
            if exc.args[:1] != (SPECIFIC_ACCESS_DENIED,):  # an exception may have no args at all
                raise
            user = conn.user.decode() if isinstance(conn.user, bytes) else conn.user
            raise PrivilegeMissing(
                f"MariaDB user {user!r} lacks the PROCESS privilege that information_schema.innodb_sys_tablespaces "
                "needs, so the space of the FULLTEXT indexes (and so the database's size) is not measured: "
                "grant it (GRANT PROCESS ON *.* TO the user)") from None
        return size + (num(cur.fetchone()[0]) or 0.0)


SPECIFIC_ACCESS_DENIED = 1227  # ER_SPECIFIC_ACCESS_DENIED_ERROR: "you need (at least one of) the X privilege(s)"


class PrivilegeMissing(Exception):
    """The server refused a query for want of a privilege of the connecting user: what is not measured, and the
    GRANT that would measure it."""


def table_bytes(conn, table: str) -> float | None:
    """InnoDB's ``data_length + index_length`` of ``table`` in the current database (bytes); None when absent.
    The statistics are refreshed first (ANALYZE TABLE), so the figure follows the load just done."""
    with conn.cursor() as cur:
        cur.execute("SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = DATABASE() AND "
                    "table_name = %s", (table,))
        if not cur.fetchone()[0]:
            return None
        cur.execute(f"ANALYZE TABLE {table}")
        cur.fetchall()
        cur.execute("SELECT data_length + index_length FROM information_schema.tables WHERE "
                    "table_schema = DATABASE() AND table_name = %s", (table,))
        return num(cur.fetchone()[0])


class MariaStatusSampler(Sampler):
    """Per second: statements (``ops_per_s``: Com_select + insert + update + delete, our sampling's
    own SHOW not included), rows read and written, connected threads, bytes in and out."""

    source = "mariadb"

    def __init__(self, url: str, interval_s: float = 1.0) -> None:
        super().__init__(interval_s)
        self.url = url
        self.conn = None
        self.prev: dict[str, float | None] = {}
        self.t_prev = 0.0

    def _read(self) -> dict[str, float | None]:
        s = global_status(self.conn)
        total = [num(s.get(k)) for k in COMMANDS]
        written = [num(s.get(k)) for k in ROWS[1:]]
        return {"ops": None if None in total else sum(t for t in total if t is not None),
                "net_in": num(s.get("Bytes_received")), "net_out": num(s.get("Bytes_sent")),
                "rows_read": num(s.get(ROWS[0])),
                "rows_written": None if None in written else sum(w for w in written if w is not None),
                "connections": num(s.get("Threads_connected"))}

    def prime(self) -> None:
        from ycsbctl.stores.mariadb.session import connect

        self.conn = connect(self.url, 5.0)
        self.prev, self.t_prev = self._read(), time.monotonic()

    def sample(self) -> dict[str, Any]:
        cur, now = self._read(), time.monotonic()
        dt = now - self.t_prev
        out = rates(self.prev, cur, dt)
        out.pop("db_cpu_pct", None)  # MariaDB does not report its CPU time: the process sampler does
        for k in ("rows_read", "rows_written"):
            out[f"db_{k}_per_s"] = counter_rate(self.prev.get(k), cur.get(k), dt)
        out["connections"] = cur["connections"]
        self.prev, self.t_prev = cur, now
        return out

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()

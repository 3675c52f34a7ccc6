"""What PostgreSQL reports about itself: ``pg_stat_database`` (and ``pg_stat_statements`` when the
extension is installed), sampled on a connection of our own, and the table's size."""

from __future__ import annotations

import time
from typing import Any

from ycsbctl.stores.postgresql.session import PgSession
from ycsbctl.stores.sampler import Sampler, num
from ycsbctl.stores.sql.protocol import only

# pg_stat_database of the URL's database: transactions (each autocommit statement is one) and rows
DATABASE = ("SELECT numbackends, xact_commit, xact_rollback, tup_returned, tup_fetched, tup_inserted, "
            "tup_updated, tup_deleted, blks_hit, blks_read FROM pg_stat_database WHERE datname = current_database()")
STATEMENTS = "SELECT sum(calls), sum(total_exec_time) FROM pg_stat_statements"
HAS_STATEMENTS = "SELECT 1 FROM pg_extension WHERE extname = 'pg_stat_statements'"
# the primary's standbys (none: one row of NULLs): the slowest one's WAL sent but not yet replayed, and its replay lag
REPLICATION = ("SELECT max(pg_wal_lsn_diff(sent_lsn, replay_lsn)), 1000 * max(extract(epoch FROM replay_lag)), "
               "count(*) FILTER (WHERE state = 'streaming') FROM pg_stat_replication")
_COUNTERS = ("xact_commit", "xact_rollback", "tup_returned", "tup_fetched", "tup_inserted", "tup_updated",
             "tup_deleted", "blks_hit", "blks_read")


def database_counters(s: PgSession) -> dict[str, float | None]:
    row = s.fetch(DATABASE)
    names = ("numbackends", *_COUNTERS)
    return dict(zip(names, (num(v) for v in row[0]))) if row else dict.fromkeys(names)


def replication(s: PgSession) -> dict[str, float | None]:
    """A primary's standbys as its ``pg_stat_replication`` says: ``repl_lag_bytes`` — how far the slowest
    is behind (``pg_wal_lsn_diff(sent_lsn, replay_lsn)``: bytes of WAL it was sent and has not replayed)
    — and ``repl_lag_ms``, the largest ``replay_lag`` (ms: the time from a commit's WAL being flushed
    here to its replay there, which includes the write and flush lags; 0 where the server says NULL: a
    standby caught up with nothing written since); both None without a standby."""
    row = s.fetch(REPLICATION)
    lag_bytes, lag_ms, streaming = (num(v) for v in row[0]) if row else (None, None, None)
    if lag_bytes is not None and lag_ms is None:  # a standby that has caught up, nothing written since: 0 ms behind
        lag_ms = 0.0
    # standbys streaming (as Redis's ``replicas``: None without one)
    return {"repl_lag_bytes": lag_bytes, "repl_lag_ms": lag_ms, "replicas": streaming or None}


def database_bytes(s: PgSession) -> float:
    """``pg_total_relation_size`` of every table of the database's own schemas (YCSB's ``usertable``, or a
    workload plug-in's tables: with their TOAST and indexes), in bytes; 0 with none."""
    row = s.fetch("SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0) FROM pg_class c JOIN pg_namespace n "
                  "ON n.oid = c.relnamespace WHERE c.relkind IN ('r', 'm') AND n.nspname NOT IN "
                  "('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg\\_toast%'")
    return num(only(row)) or 0.0


def relation_bytes(s: PgSession, table: str) -> float | None:
    """``pg_total_relation_size``: the table, its TOAST and its indexes (bytes); None when it does not exist."""
    return num(only(s.fetch("SELECT pg_total_relation_size(to_regclass($1))", table)))  # NULL (no such table): None


class PgStatSampler(Sampler):
    """Per second: transactions/s (``ops_per_s``: commits + rollbacks, our own sampling included),
    rows read and written per second, backends (``connections``); with pg_stat_statements, statement
    calls/s and mean execution time (µs); on a primary with standbys, their lag (:func:`replication`)."""

    source = "postgresql"

    def __init__(self, url: str, interval_s: float = 1.0) -> None:
        super().__init__(interval_s)
        self.url = url
        self.session: PgSession | None = None
        self.statements = False
        self.prev: dict[str, Any] = {}
        self.t_prev = 0.0

    def _read(self) -> dict[str, Any]:
        assert self.session is not None
        cur: dict[str, Any] = database_counters(self.session)
        if self.statements:
            calls, exec_ms = self.session.fetch(STATEMENTS)[0]
            cur["statement_calls"], cur["statement_exec_ms"] = num(calls), num(exec_ms)
        return cur

    def prime(self) -> None:
        self.session = PgSession(self.url, 5.0)
        self.statements = bool(self.session.fetch(HAS_STATEMENTS))
        self.prev, self.t_prev = self._read(), time.monotonic()

    def sample(self) -> dict[str, Any]:
        cur, now = self._read(), time.monotonic()
        dt = now - self.t_prev

        def rate(*keys: str) -> float | None:
            a = [self.prev.get(k) for k in keys]
            b = [cur.get(k) for k in keys]
            if None in a or None in b or dt <= 0:
                return None
            return max(0.0, sum(b) - sum(a)) / dt  # type: ignore[arg-type]

        out: dict[str, Any] = {
            "connections": cur.get("numbackends"),
            "ops_per_s": rate("xact_commit", "xact_rollback"),
            "db_rows_read_per_s": rate("tup_fetched"),
            "db_rows_written_per_s": rate("tup_inserted", "tup_updated", "tup_deleted"),
            **replication(self.session),  # type: ignore[arg-type]
        }
        if self.statements:
            calls = rate("statement_calls")
            busy = rate("statement_exec_ms")
            out["db_statements_per_s"] = calls
            out["db_statement_mean_us"] = 1000.0 * busy / calls if calls and busy is not None else None
        self.prev, self.t_prev = cur, now
        return out

    def close(self) -> None:
        if self.session is not None:
            self.session.close()

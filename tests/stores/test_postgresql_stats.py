"""PostgreSQL's sampler figures (stores/postgresql/stats.py) from answers laid out as the server's views give
them: replication lag, database bytes, counter rates and the mean statement time."""

from __future__ import annotations


class _PgAnswers:
    """A PgSession that answers each statement the stats module sends with the rows given for it."""

    def __init__(self, rows: dict[str, list[tuple]]) -> None:
        self.rows = rows

    def fetch(self, sql: str, *args: object) -> list[tuple]:
        return self.rows[sql]


def test_postgresql_replication_is_the_slowest_standbys_lag_0_ms_once_caught_up_and_none_without_one():
    # pg_stat_replication's max()es: a row of NULLs (count 0) without a standby; a NULL replay_lag with bytes
    # known is a standby that caught up (0 ms); asyncpg hands numeric as Decimal, double as float
    from decimal import Decimal

    from ycsbctl.stores.postgresql.stats import REPLICATION, replication

    def said(*row) -> dict:
        return replication(_PgAnswers({REPLICATION: [row] if row else []}))  # type: ignore[arg-type]

    assert said(None, None, 0) == {"repl_lag_bytes": None, "repl_lag_ms": None, "replicas": None}
    assert said() == {"repl_lag_bytes": None, "repl_lag_ms": None, "replicas": None}
    assert said(Decimal(0), None, 1) == {"repl_lag_bytes": 0.0, "repl_lag_ms": 0.0, "replicas": 1}
    assert said(Decimal(16384), 12.5, 2) == {"repl_lag_bytes": 16384.0, "repl_lag_ms": 12.5, "replicas": 2}
    assert said(Decimal(0), Decimal("0.25"), 1)["repl_lag_ms"] == 0.25  # replay_lag kept though no byte is behind
    assert said(None, 3.0, 0)["repl_lag_ms"] == 3.0  # (never together in PostgreSQL: each figure kept as said)


def test_postgresql_database_bytes_are_the_sum_the_server_gives_and_0_for_a_database_without_tables():
    # coalesce(sum(pg_total_relation_size(...)), 0): a bigint 0 without a table, else a numeric (asyncpg's Decimal)
    from decimal import Decimal

    from ycsbctl.stores.postgresql.stats import database_bytes

    class Sums:
        def __init__(self, total: object) -> None:
            self.total = total

        def fetch(self, sql: str, *args: object) -> list[tuple]:
            assert "pg_total_relation_size" in sql
            return [(self.total,)]

    assert [database_bytes(Sums(v)) for v in (0, Decimal(0), Decimal(24576), None)] == [0.0, 0.0, 24576.0, 0.0]


def test_postgresql_sampler_rates_are_counter_differences_over_the_interval_and_the_mean_statement_time(monkeypatch):
    # two readings 2 s apart of pg_stat_database and pg_stat_statements, each figure hand-computed: commits +
    # rollbacks per second, rows fetched (not returned), rows inserted + updated + deleted, the mean execution
    # time of the interval's statements (µs: ms over calls), a counter reset read as 0, not negative
    from types import SimpleNamespace

    from ycsbctl.stores.postgresql import stats

    first = (3, 100, 4, 9999, 50, 10, 20, 5, 0, 0)
    second = (7, 160, 6, 99999, 80, 14, 30, 6, 0, 0)
    clock = iter([10.0, 12.0])
    monkeypatch.setattr(stats, "time", SimpleNamespace(monotonic=lambda: next(clock)))
    s = stats.PgStatSampler("postgresql://127.0.0.1:1/x")
    session = _PgAnswers({stats.DATABASE: [first], stats.STATEMENTS: [(1000, 500.0)],
                          stats.REPLICATION: [(None, None, 0)]})
    s.session, s.statements = session, True  # type: ignore[assignment]
    s.prev, s.t_prev = s._read(), stats.time.monotonic()
    session.rows.update({stats.DATABASE: [second], stats.STATEMENTS: [(1400, 700.0)]})
    out = s.sample()
    assert out == {"connections": 7, "ops_per_s": (60 + 2) / 2, "db_rows_read_per_s": 30 / 2,
                   "db_rows_written_per_s": (4 + 10 + 1) / 2, "repl_lag_bytes": None, "repl_lag_ms": None,
                   "replicas": None, "db_statements_per_s": 400 / 2, "db_statement_mean_us": 1000.0 * 200.0 / 400}
    # the counters reset (a server restarted): rates of 0, no negative figure; no statement in the interval: no mean
    clock = iter([13.0])
    session.rows.update({stats.DATABASE: [first], stats.STATEMENTS: [(1400, 700.0)]})
    out = s.sample()
    assert (out["ops_per_s"], out["db_rows_read_per_s"], out["db_rows_written_per_s"]) == (0.0, 0.0, 0.0)
    assert out["db_statements_per_s"] == 0.0 and out["db_statement_mean_us"] is None
    # a counter the server gave as NULL (None) at either end: no rate of it, the other rates as before
    clock = iter([14.0])
    session.rows.update({stats.DATABASE: [(3, None, 4, 9999, 53, 10, 20, 5, 0, 0)]})
    out = s.sample()
    assert out["ops_per_s"] is None and out["db_rows_read_per_s"] == 3.0 and out["db_rows_written_per_s"] == 0.0
    clock = iter([15.0])
    session.rows.update({stats.DATABASE: [first]})
    assert s.sample()["ops_per_s"] is None  # the NULL was the interval's start
    # two readings at one instant: no interval to divide by, no rate at all
    clock = iter([15.0])
    out = s.sample()
    assert (out["ops_per_s"], out["db_rows_read_per_s"], out["db_rows_written_per_s"]) == (None, None, None)

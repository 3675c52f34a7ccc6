"""``postgresql-standby``: a primary and a streaming standby made with ``pg_basebackup``; the primary
names it in ``synchronous_standby_names``, so its ``synchronous_commit`` level decides what a commit
waits for. With ``remote_apply`` every row a load was told is committed is already visible on the
standby (counted there right after), and with the standby stopped a commit waits for it: the engine's
insert is a TIMEOUT, not an OK."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import pandas as pd
import psutil
import pytest

from tests.fixtures.bindings import field_values, run_bindings
from ycsbctl import telemetry
from ycsbctl.engine.runner import run_phase
from ycsbctl.engine.spec import PhaseSpec
from ycsbctl.provision.auto import provision, teardown
from ycsbctl.provision.base import Endpoint
from ycsbctl.report.deployment_findings import _bytes, replication_findings
from ycsbctl.stores.binding import Status
from ycsbctl.stores.postgresql.session import query
from ycsbctl.workload.properties import load_properties


@pytest.fixture(scope="module")
def standby_pair() -> Iterator[Endpoint]:
    """A primary with synchronous_commit=remote_apply and its standby, for this module's tests."""
    ep = provision("postgresql-standby", "local", experiment_id="tests", say=lambda _: None,
                   settings={"synchronous_commit": "remote_apply"})
    yield ep
    teardown(ep)


def test_remote_apply_commits_are_on_the_standby_and_wait_for_it(standby_pair) -> None:
    ep = standby_pair
    primary, standby = ep.processes
    assert primary["role"] == "primary" and standby["role"].startswith("standby of")
    assert query(ep.url, "SELECT application_name, state, sync_state FROM pg_stat_replication", 5.0) == [
        ("standby1", "streaming", "sync")]
    assert query(standby["url"], "SELECT pg_is_in_recovery(), current_setting('primary_conninfo') <> ''", 5.0) == [
        (True, True)]
    assert query(ep.url, "SHOW synchronous_commit", 5.0) == [("remote_apply",)]
    props = {**load_properties("workload-a"), "recordcount": "200", "operationcount": "0"}
    r = run_phase(PhaseSpec("load", ep.url, props, threads=2, processes=1))
    assert r.ops["INSERT"].returns == {"OK": 200}
    assert query(standby["url"], "SELECT COUNT(*) FROM usertable", 5.0) == [(200,)]  # applied before the OK
    # the standby stopped (its postmaster, startup and WAL receiver): a commit waits for it
    stopped = [psutil.Process(standby["pid"]), *psutil.Process(standby["pid"]).children(recursive=True)]
    for p in stopped:  # a short-lived child (a backend that served the count above) may be gone by now
        with contextlib.suppress(psutil.NoSuchProcess):
            p.suspend()
    try:
        async def insert(bs):
            return await bs[0].insert("usertable", b"user-while-stopped", field_values())

        assert run_bindings(insert, ep.url, timeout_s=1.0) == Status.TIMEOUT
    finally:
        for p in stopped:
            with contextlib.suppress(psutil.NoSuchProcess):
                p.resume()


def _lag(url: str) -> int:
    """What the primary's pg_stat_replication says now: the standby's WAL sent and not replayed (bytes)."""
    return int(query(url, "SELECT pg_wal_lsn_diff(sent_lsn, replay_lsn) FROM pg_stat_replication", 5.0)[0][0])


def test_the_standby_s_lag_per_point_is_what_pg_stat_replication_says(standby_pair) -> None:
    """The sampler's repl_lag_bytes per point (runs.parquet's repl_lag_bytes_max, the findings' line):
    with remote_apply, 0 once the writes are acknowledged (and at most the commits in flight during them);
    with the standby's replay paused while the primary's commits wait for its flush only, growing with
    every write, between what the primary said before the point and after it."""
    ep = standby_pair
    standby = ep.processes[1]["url"]
    props = {**load_properties("workload-a"), "recordcount": "100", "operationcount": "0", "readproportion": "0",
             "updateproportion": "1", "table": "lagtable"}
    run_phase(PhaseSpec("load", ep.url, props, threads=2, processes=1))
    with telemetry.sampling(ep, evidence=False) as capture:
        r = run_phase(PhaseSpec("run", ep.url, props, threads=2, duration_s=1.0, processes=1))
    capture.align(r)
    applied = capture.summary()
    assert _lag(ep.url) == 0  # remote_apply: every acknowledged write is replayed there
    # new sessions' commits wait for the standby's flush only (the server's -c remote_apply stays)
    query(ep.url, "ALTER DATABASE postgres SET synchronous_commit = 'on'", 5.0)
    query(standby, "SELECT pg_wal_replay_pause()", 5.0)
    try:
        before = _lag(ep.url)
        with telemetry.sampling(ep, evidence=False) as capture:
            r = run_phase(PhaseSpec("run", ep.url, props, threads=2, duration_s=1.0, processes=1))
        capture.align(r)
        paused = capture.summary()
        after = _lag(ep.url)
    finally:
        query(standby, "SELECT pg_wal_replay_resume()", 5.0)
    assert r.ops["UPDATE"].returns.get("OK", 0) > 0
    query(ep.url, "ALTER DATABASE postgres RESET synchronous_commit", 5.0)
    # remote_apply: at most the WAL of the commits in flight at a sample (2 threads, one update each:
    # a row and at most a page image); measured 0 in 13 samples of two points
    assert applied.repl_lag_bytes_max is not None and applied.repl_lag_bytes_max <= 2 * 16384, applied
    assert paused.repl_lag_bytes_max is not None and before < paused.repl_lag_bytes_max <= after, (
        before,
        paused,
        after,
    )
    assert paused.repl_lag_ms_max is not None and paused.repl_lag_ms_max > 0  # replay_lag: what waits to be replayed
    runs = pd.DataFrame({"target": ["postgresql-standby"], "phase": ["run"], "threads": [2], "repetition": [1],
                         "repl_lag_bytes_max": [paused.repl_lag_bytes_max],
                         "repl_lag_ms_max": [paused.repl_lag_ms_max]})
    assert replication_findings(runs, ["postgresql-standby"]) == [
        "postgresql-standby — the slowest replica behind the primary, per point (the highest 1 s sample of "
        f"pg_stat_replication, bytes of WAL sent and not replayed): 2 threads, round 1: "
        f"{_bytes(paused.repl_lag_bytes_max)} (replay lag {paused.repl_lag_ms_max:.1f} ms)."]


def test_the_standby_killed_during_a_read_only_point_is_said_with_when_it_went(standby_pair) -> None:
    """(Last in this module: it kills the standby.) A read-only point touches the primary only, so nothing it measures
    sees the standby go: the primary's own pg_stat_replication, asked before and after the point and sampled each
    second, says which standby went and when (issue 43: was unseen, the point ``ok``)."""
    import os
    import signal
    import threading
    import time

    from ycsbctl.stores import registry
    from ycsbctl.telemetry.replicas_lost import replicas_lost_note

    ep = standby_pair
    store = registry.for_url(ep.url)
    before = store.replicas(ep.url)
    assert before == ["standby standby1 (127.0.0.1)"], before  # as pg_stat_replication names it
    props = {**load_properties("workload-c"), "recordcount": "100", "table": "standbyread"}
    run_phase(PhaseSpec("load", ep.url, props, threads=2, processes=1))
    killed: list[float] = []

    def kill() -> None:  # inside the window, after a sample has counted the standby
        from tests.fixtures.waiting import wait_until

        wait_until(lambda: query(ep.url, "SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'client backend' "
                                 "AND query LIKE '%standbyread%'", 5.0)[0][0] >= 2, 60, "the point's clients")
        time.sleep(1.2)
        killed.append(time.monotonic())
        os.kill(ep.processes[1]["pid"], signal.SIGKILL)  # the standby's postmaster: its WAL receiver ends with it

    with telemetry.sampling(ep, evidence=False) as capture:
        killer = threading.Thread(target=kill)
        killer.start()
        r = run_phase(PhaseSpec("run", ep.url, {**props, "operationcount": "0"}, threads=2, duration_s=2.5,
                                processes=1))
        killer.join()
    capture.align(r)
    after = store.replicas(ep.url)
    assert after == [] and r.ops["READ"].returns == {"OK": r.operations}  # every read answered all the same
    sampled = capture.frame[capture.frame["source"] == "postgresql"]
    assert sampled["replicas"].max() == len(before)  # the sampler counts what the store lists
    note = replicas_lost_note(before, after, False, capture.frame, r.t_start_mono)
    assert note is not None and note.startswith("lost the replica standby standby1 (127.0.0.1) during the point (the "
                                                "primary listed 1 replica(s) at its start, 0 from "), note
    at = float(note.split(" from ", 1)[1].split(" s ", 1)[0])
    assert killed[0] - r.t_start_mono <= at + 0.05 <= r.runtime_ms / 1000 + 1.05, (killed[0] - r.t_start_mono, at)
    assert "its figures are still true of the primary alone" in note

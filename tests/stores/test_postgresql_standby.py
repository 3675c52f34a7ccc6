"""``postgresql-standby``: a primary and a streaming standby made with ``pg_basebackup``; the primary
names it in ``synchronous_standby_names``, so its ``synchronous_commit`` level decides what a commit
waits for. With ``remote_apply`` every row a load was told is committed is already visible on the
standby (counted there right after), and with the standby stopped a commit waits for it: the engine's
insert is a TIMEOUT, not an OK."""

from __future__ import annotations

import psutil

from tests.fixtures.bindings import field_values, run_bindings
from ycsbctl.engine.runner import run_phase
from ycsbctl.engine.spec import PhaseSpec
from ycsbctl.provision.auto import provision, teardown
from ycsbctl.stores.binding import Status
from ycsbctl.stores.postgresql.session import query
from ycsbctl.workload.properties import load_properties


def test_remote_apply_commits_are_on_the_standby_and_wait_for_it() -> None:
    ep = provision("postgresql-standby", "local", experiment_id="tests", say=lambda _: None,
                   settings={"synchronous_commit": "remote_apply"})
    try:
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
        for p in stopped:
            p.suspend()
        try:
            async def insert(bs):
                return await bs[0].insert("usertable", b"user-while-stopped", field_values())

            assert run_bindings(insert, ep.url, timeout_s=1.0) == Status.TIMEOUT
        finally:
            for p in stopped:
                p.resume()
    finally:
        teardown(ep)

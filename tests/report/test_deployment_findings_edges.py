"""The deployment findings' edges (report/deployment_findings.py), each against a figure worked out
here: a point without a repetition number is round 1; replication lag in binary units (1 KiB = 1,024
bytes, 1 MiB = 1,048,576); exactly MAX_FORK_EVENTS forks need no "more" line, one past it does; a
several-shard target's share counts only its run-phase points, and a target without the share says
nothing."""

from __future__ import annotations

import pandas as pd
import pytest

from ycsbctl.report.deployment_findings import (
    MAX_FORK_EVENTS,
    fork_findings,
    replication_findings,
    shard_findings,
)


@pytest.mark.parametrize("lag,said", [(1023, "1023 B"), (1024, "1.0 KiB"), (3 * 1024 + 512, "3.5 KiB"),
                                      (1024**2 - 1, "1024.0 KiB"), (5 * 1024**2 + 1024**2 // 4, "5.2 MiB")])
def test_replication_lag_is_in_binary_units_and_a_point_without_a_round_is_round_1(lag, said):
    runs = pd.DataFrame([{"target": "redis-repl", "phase": "run", "threads": 16, "repl_lag_bytes_max": lag}])
    assert replication_findings(runs, ["redis-repl"]) == [
        "redis-repl — the slowest replica behind the primary, per point (the highest 1 s sample of INFO replication, "
        f"bytes of the replication stream): 16 threads, round 1: {said}."]


def _forks(n: int) -> tuple[pd.DataFrame, dict[str, dict]]:
    runs = pd.DataFrame([{"target": "redis-rdb", "run_id": f"r{i}", "threads": 8,
                          "repetition": i + 1} for i in range(n)])
    docs = {f"r{i}": {"bottleneck": {"evidence": {"server_events": [{"event": "fork", "at_s": 2.0,
                                                                     "pause_us": 123_456}]}}}
            for i in range(n)}
    return runs, docs


def test_exactly_the_most_fork_events_shown_need_no_more_line_and_one_past_it_does():
    runs, docs = _forks(MAX_FORK_EVENTS)
    out = fork_findings(runs, docs, ["redis-rdb"])
    assert len(out) == MAX_FORK_EVENTS and not any("more fork event" in line for line in out)
    # 123,456 µs is 123.46 ms (a µs more or less per ms would say 123.33 or 123.58)
    assert out[0] == ("redis-rdb, 8 threads, round 1: a fork 2.0 s into the measured window paused the server 123.46 "
                      "ms "
                      "(latest_fork_usec); no snapshot was in progress at the next sample.")
    runs, docs = _forks(MAX_FORK_EVENTS + 1)
    out = fork_findings(runs, docs, ["redis-rdb"])
    assert out[MAX_FORK_EVENTS:] == ["redis-rdb: 1 more fork event(s) (each point's server_events)."]



def test_a_runs_table_without_run_ids_or_rows_has_no_fork_to_say():
    """A fork is read from a point's record, found by its run id: a runs table without the run_id column (made by
    hand, as the other findings take one) or without a row has none to look up, so nothing is said, and nothing
    raised."""
    runs, docs = _forks(2)
    assert len(fork_findings(runs, docs, ["redis-rdb"])) == 2  # with its run ids: both points' forks
    assert fork_findings(runs.drop(columns=["run_id"]), docs, ["redis-rdb"]) == []
    assert fork_findings(runs.iloc[0:0], docs, ["redis-rdb"]) == []

def test_the_shard_share_counts_run_points_only_and_a_target_without_a_share_says_nothing():
    runs = pd.DataFrame([
        {"target": "redis-cluster", "phase": "run", "shards": 3, "shard_ops_share_max": 0.36, "redirections": 4},
        {"target": "redis-cluster", "phase": "load", "shards": 3, "shard_ops_share_max": 0.9, "redirections": 100},
        {"target": "redis-nodata", "phase": "run", "shards": 2, "shard_ops_share_max": None, "redirections": 0},
        {"target": "redis-noshard", "phase": "run", "shards": None, "shard_ops_share_max": 0.5, "redirections": 0}])
    assert shard_findings(runs, ["redis-cluster", "redis-nodata", "redis-noshard"]) == [
        "redis-cluster: the busiest of its 3 shards served 36% of the commands in its busiest point (even: 33%); its "
        "clients followed 4 redirection(s) (MOVED/ASK)."]


def test_without_a_phase_column_every_row_of_the_target_counts_and_only_its_own():
    runs = pd.DataFrame([{"target": "redis-cluster", "shards": 2, "shard_ops_share_max": 0.55, "redirections": 0},
                         {"target": "other", "shards": 4, "shard_ops_share_max": 0.3, "redirections": 0}])
    assert shard_findings(runs, ["redis-cluster"]) == [
        "redis-cluster: the busiest of its 2 shards served 55% of the commands in its busiest point (even: 50%)."]


def test_the_wire_finding_names_each_served_targets_tls_session_and_only_when_one_was_encrypted():
    from ycsbctl.report.deployment_findings import encryption_findings

    eps = {"redis-tls": {"traits": {"tls": "TLSv1.3 TLS_AES_256_GCM_SHA384"}}, "redis": {"traits": {"version": "7.2"}},
           "sqlite": {"has_server": False, "traits": {"tls": "never read"}}, "bare": {}}
    assert encryption_findings(eps) == [
        "Points on the wire — of redis-tls: encrypted (TLSv1.3 TLS_AES_256_GCM_SHA384); of redis: not encrypted; "
        "of bare: not encrypted."]
    assert encryption_findings({t: e for t, e in eps.items() if t != "redis-tls"}) == []

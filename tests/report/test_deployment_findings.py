"""The deployment findings say what the servers' own counters said: forks summed over a target's
measured points, the longest pause among them, delayed fsyncs; nothing for a target whose server did
neither."""

from __future__ import annotations

import pandas as pd

from ycsbctl.report.deployment_findings import persistence_findings


def test_forks_are_summed_per_target_and_the_longest_pause_is_named() -> None:
    runs = pd.DataFrame({"target": ["redis", "redis-rdb", "redis-rdb", "redis-aof"],
                         "server_forks": [0.0, 1.0, 2.0, 0.0], "server_fork_pause_us_max": [None, 900.0, 2040.0, None],
                         "aof_delayed_fsyncs": [None, None, None, 3.0]})
    lines = persistence_findings(runs, ["redis", "redis-rdb", "redis-aof"])
    assert lines == [
        "redis-rdb forked 3 time(s) in 2 measured point(s) (RDB snapshots or AOF rewrites); the longest fork paused "
        "the server 2.04 ms (INFO latest_fork_usec).",
        "redis-aof: 3 write(s) waited for an AOF fsync (aof_delayed_fsync: the disk could not keep up with "
        "appendfsync everysec).",
    ]


def test_no_fork_and_no_column_say_nothing() -> None:
    assert persistence_findings(pd.DataFrame({"target": ["redis"], "server_forks": [0.0]}), ["redis"]) == []
    assert persistence_findings(pd.DataFrame({"target": ["redis"]}), ["redis"]) == []
    assert persistence_findings(pd.DataFrame(), ["redis"]) == []  # no runs
    assert persistence_findings(pd.DataFrame({"target": [], "server_forks": []}), ["redis"]) == []


def test_the_shard_finding_names_the_busiest_shards_share_against_an_even_one_and_the_redirections() -> None:
    from ycsbctl.report.deployment_findings import shard_findings

    runs = pd.DataFrame({"target": ["redis", "redis-cluster", "redis-cluster", "redis-cluster"],
                         "phase": ["run", "load", "run", "run"], "shards": [None, 3.0, 3.0, 3.0],
                         "shard_ops_share_max": [None, 0.9, 0.36, 0.34], "redirections": [None, 0, 5, 7]})
    assert shard_findings(runs, ["redis", "redis-cluster"]) == [
        "redis-cluster: the busiest of its 3 shards served 36% of the commands in its busiest point (even: 33%); "
        "its clients followed 12 redirection(s) (MOVED/ASK)."]


def test_a_deployment_is_a_server_with_its_own_settings_tls_or_several_processes() -> None:
    from ycsbctl.report.cost_table import is_deployment

    assert not is_deployment({"settings": {}, "traits": {"server": "Redis"}})
    assert is_deployment({"settings": {"appendonly": "yes"}})
    assert is_deployment({"traits": {"tls": "TLSv1.3 TLS_AES_256_GCM_SHA384"}})
    assert is_deployment({"processes": [{"pid": 1}, {"pid": 2}]})


def test_the_cost_table_shows_a_deployments_four_costs_and_agrees_with_the_main_comparison(
    synthetic_experiment,
) -> None:
    """On the session's small experiment (2 workloads, 8/16/32 threads, 2 rounds), mongodb made a
    deployment by its settings in the manifest."""
    import json

    from ycsbctl.report.cost_table import cost_absence, cost_sections
    from ycsbctl.report.verdict_table import ratio_text
    from ycsbctl.results.frames import load

    plain = load(synthetic_experiment)  # no target is a deployment: no table, and nothing to say of its absence
    assert cost_sections(plain) == [] and cost_absence(plain) == ""
    degraded = {"status": "degraded", "bottleneck": "stall", "compared": False,
                "error": "no reply for 1.2 s from 0.5 s (3 TIMEOUT)"}
    plain = load(synthetic_experiment)
    plain.runs = plain.runs.assign(**degraded)
    assert cost_sections(plain) == [] and cost_absence(plain) == ""  # no deployment: no cost table to miss
    path = synthetic_experiment / "manifest.json"
    manifest = json.loads(path.read_text())
    manifest["servers"]["mongodb"]["settings"] = {"appendonly": "yes"}
    path.write_text(json.dumps(manifest))
    exp = load(synthetic_experiment)
    sections = cost_sections(exp)
    assert [s["workload"] for s in sections] == ["workloada", "workloadb"]
    assert {s["baseline"] for s in sections} == {"redis"}
    assert sections[0]["metrics"] == ["throughput", "p99", "client CPU/op", "server CPU/op"]
    main = exp.verdicts("p99")
    for section in sections:
        assert [(r["target"], r["threads"]) for r in section["rows"]] == [("mongodb", 8), ("mongodb", 16),
                                                                           ("mongodb", 32)]
        for row in section["rows"]:
            same = main[(main.metric == "throughput") & (main.workload == section["workload"])
                        & (main.threads == row["threads"]) & ~main.at_peak.astype(bool)]
            assert row["cells"][0][0].split(" [")[0] == ratio_text(same.iloc[0]).split(" [")[0]
    assert [s["reps"] for s in sections] == [2, 2]
    # each cell's interval is the test the rounds' order calls for (paired by round when interleaved, else Welch's)
    from ycsbctl.results.verdicts import PAIRED_ORDERS, cost_verdicts

    paired = exp.manifest.plan.get("run_order") in PAIRED_ORDERS
    want = cost_verdicts(exp.runs, "redis", "p99", paired=paired)  # (the other test's answers differ here)
    from ycsbctl.report.verdict_table import verdict_word

    def cells(v: pd.DataFrame, workload: str, threads: int) -> list[tuple[str, str]]:
        at = v[(v.workload == workload) & (v.threads == threads)].set_index("metric")
        return [(ratio_text(at.loc[n]), verdict_word(at.loc[n])) for n in sections[0]["metrics"]]

    got = [row["cells"] for section in sections for row in section["rows"]]
    assert got == [cells(want, section["workload"], row["threads"]) for section in sections for row in section["rows"]]
    # a third round at 8 threads of workloada: that section's most rounds behind a cell are 3, the others' 2
    r = exp.runs
    third = r[(r.workload == "workloada") & (r.threads == 8) & (r.phase == "run") & (r.repetition == 1)]
    exp.runs = pd.concat([r, third.assign(repetition=2, throughput_ops=third.throughput_ops * 1.01)], ignore_index=True)
    assert [s["reps"] for s in cost_sections(exp)] == [3, 2]
    # rounds interleaved, but no round in which both targets ran: no pair, no ratio, 0 rounds behind any cell
    exp.manifest.plan["run_order"] = "interleaved"
    r = exp.runs
    exp.runs = r.assign(repetition=r.repetition.where(r.target != "mongodb", r.repetition + 10))
    apart = cost_sections(exp)
    assert [s["reps"] for s in apart] == [0, 0]
    assert {cell[0] for s in apart for row in s["rows"] for cell in row["cells"]} == {"—"}


def test_a_deployment_study_without_a_cost_table_says_why_where_the_table_would_be(synthetic_experiment) -> None:
    """Every point degraded by a stalled server (not compared: a busy host's points would be, in interleaved
    rounds): the section says so in one line, and the report's first screen (and the console's closing lines)
    carry the same sentence."""
    import json

    from ycsbctl.report.cost_table import cost_absence, cost_sections
    from ycsbctl.report.study_headlines import study_headlines
    from ycsbctl.results.frames import load

    degraded = {"status": "degraded", "bottleneck": "stall", "compared": False,
                "error": "no reply for 1.2 s from 0.5 s (3 TIMEOUT)"}
    plain = load(synthetic_experiment)
    plain.runs = plain.runs.assign(**degraded)
    assert cost_sections(plain) == [] and cost_absence(plain) == ""  # no deployment: no cost table to miss
    path = synthetic_experiment / "manifest.json"
    manifest = json.loads(path.read_text())
    manifest["servers"]["mongodb"]["settings"] = {"appendonly": "yes"}
    path.write_text(json.dumps(manifest))
    exp = load(synthetic_experiment)
    assert cost_absence(exp) == ""  # it has its table
    exp.runs = exp.runs.assign(**degraded)
    assert cost_sections(exp) == [] and len(exp.verdicts()) == 0
    said = cost_absence(exp)
    assert said.startswith("No target was compared with redis: of the ") and "degraded (" in said and \
        "only ok points (and host-busy ones of rounds that interleave the targets) are compared, so there is no " \
        "verdict and no cost table" in said, said
    assert "\n" not in said and study_headlines(exp, exp.verdicts())[-1] == said


def test_the_replication_lag_is_said_per_point_of_each_replicated_target_only() -> None:
    from ycsbctl.report.deployment_findings import replication_findings

    runs = pd.DataFrame({"target": ["redis", "redis-repl2", "redis-repl2", "redis-repl2"],
                         "phase": ["run", "run", "run", "load"], "threads": [4, 16, 4, 4], "repetition": [1, 1, 2, 1],
                         "repl_lag_bytes_max": [None, 3 * 1024 * 1024.0, 0.0, 1536.0]})
    assert replication_findings(runs, ["redis", "redis-repl2"]) == [
        "redis-repl2 — the slowest replica behind the primary, per point (the highest 1 s sample of INFO replication, "
        "bytes of the replication stream): load, 4 threads, round 1: 1.5 KiB; 4 threads, round 2: 0 B; "
        "16 threads, round 1: 3.0 MiB."]
    assert replication_findings(runs.drop(columns="repl_lag_bytes_max"), ["redis"]) == []
